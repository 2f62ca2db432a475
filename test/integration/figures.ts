import { randomUUID } from 'node:crypto';
import kafkajs from 'kafkajs';
import type { Row } from '../../infra/store/types.ts';
import { createSimulator } from '../../ingest/simulator/index.ts';
import { eventId } from '../../schemas/events.ts';
import type { TokenEvent } from '../../schemas/events.ts';
import { partitionFor } from '../../infra/log/types.ts';
import { TokenEventsTopic } from '../../infra/topics.ts';
import { settled } from './kafka-admin.ts';
import type { ClusterView } from './kafka-admin.ts';
import type { SimGenesis } from './reference.ts';
import { simSwapCounts, swapCounts } from './reference.ts';

/**
 * The figures of a fault test, for its one-line summary: what the simulator produced up to the
 * end, what the token-events topic holds (re-published records count as duplicated in the log; the
 * fold drops them by event identity), what the engine's group consumed (committed), and what the
 * snapshots counted against the simulator's own swap counts (lost or counted twice).
 */
export interface FaultFigures {
  /** events the simulator generated up to the end (every type) */
  produced: number;
  /** records in the token-events topic */
  inLog: number;
  /** records the engine's token group committed */
  consumed: number;
  /** events produced that are not in the log */
  lost: number;
  /** where the lost events were: blocks (first..last, how many) and the partitions they key to */
  lostWhere: string;
  /** records in the log beyond the first of each event */
  duplicatedInLog: number;
  /** events in the log the simulator did not produce up to the end */
  unexpected: number;
  /** swaps the simulator produced, and as the token snapshots and the wallet snapshots count them */
  swaps: number;
  swapsByToken: number;
  swapsByWallet: number;
  /** Σ over tokens and traders of the swaps missing from the snapshots / counted more than once */
  swapsLost: number;
  swapsDuplicated: number;
}

/** an event's identity in the log: (chain, tx, logIndex) with its type and token, and a retraction apart */
function identity(e: TokenEvent): string {
  return `${eventId(e)}:${e.type}:${'token' in e ? e.token : ''}${e.removed ? ':removed' : ''}`;
}

/**
 * The identity of every record of the token-events topic, read from its start to the end offsets
 * it had when called, and the time of the newest event among them.
 */
export async function readTopicIds(brokers: string, topic: string, groupId: string): Promise<{ ids: string[]; maxTs: number; partitions: number }> {
  const kafka = new kafkajs.Kafka({ clientId: 'fault-figures', brokers: brokers.split(','), logLevel: kafkajs.logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const ends = new Map((await settled(() => admin.fetchTopicOffsets(topic))).map((o) => [o.partition, Number(o.high)]));
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
  const ids: string[] = [];
  let maxTs = 0;
  const at = new Map<number, number>();
  const done = () => [...ends].every(([p, high]) => (at.get(p) ?? 0) >= high);
  try {
    if (!done()) {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      let finished!: () => void;
      const all = new Promise<void>((r) => (finished = r));
      await consumer.run({
        eachBatch: async ({ batch }) => {
          for (const m of batch.messages) {
            if (Number(m.offset) >= (ends.get(batch.partition) ?? 0)) continue;
            const e = JSON.parse(m.value?.toString('utf8') ?? '{}') as TokenEvent;
            ids.push(identity(e));
            if (e.timestamp > maxTs) maxTs = e.timestamp;
          }
          at.set(batch.partition, Math.max(at.get(batch.partition) ?? 0, Number(batch.lastOffset()) + 1));
          if (done()) finished();
        },
      });
      const timeout = setTimeout(() => finished(), 60_000);
      await all;
      clearTimeout(timeout);
      if (!done()) throw new Error(`reading ${topic}: offsets ${JSON.stringify([...at])} short of ${JSON.stringify([...ends])} after 60 s`);
    }
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect();
  }
  return { ids, maxTs, partitions: ends.size };
}

/** the simulator's events up to endTs, as identities */
export function producedIds(genesis: SimGenesis, endTs: number, partitions: number): { id: string; block: number; partition: number }[] {
  const sim = createSimulator({ seed: genesis.seed, genesisTime: genesis.genesisTime, spanDays: genesis.spanDays });
  const out: { id: string; block: number; partition: number }[] = [];
  for (const b of sim.blocksUntil(endTs)) {
    for (const e of b.events) out.push({ id: identity(e as TokenEvent), block: b.block, partition: partitionFor(TokenEventsTopic.key(e as TokenEvent), partitions) });
  }
  return out;
}

/** blocks and partitions of lost events, for the summary line */
function whereLost(lost: { block: number; partition: number }[]): string {
  if (lost.length === 0) return '';
  const blocks = [...new Set(lost.map((l) => l.block))].sort((a, b) => a - b);
  const parts = [...new Set(lost.map((l) => l.partition))].sort((a, b) => a - b);
  return `blocks ${blocks[0]}..${blocks.at(-1)} (${blocks.length}), partitions ${parts.join(',')}`;
}

export async function faultFigures(o: {
  view: ClusterView;
  prefix: string;
  genesis: SimGenesis;
  endTs: number;
  snapshots: Row[];
  /** identities of the token-events topic's records (readTopicIds) */
  logIds: string[];
  /** the topic's partition count */
  partitions: number;
}): Promise<FaultFigures> {
  const produced = producedIds(o.genesis, o.endTs, o.partitions);
  const inProduced = new Set(produced.map((p) => p.id));
  const seen = new Set<string>();
  let duplicatedInLog = 0;
  let unexpected = 0;
  for (const id of o.logIds) {
    if (seen.has(id)) duplicatedInLog++;
    else if (!inProduced.has(id)) unexpected++;
    seen.add(id);
  }
  const lost = produced.filter((p) => !seen.has(p.id));
  const consumed = await o.view.committed(`${o.prefix}engine-token`, `${o.prefix}token-events`);
  const truth = simSwapCounts(o.genesis, o.endTs);
  const counted = swapCounts(o.snapshots);
  let swapsLost = 0;
  let swapsDuplicated = 0;
  const compare = (want: Map<string, number>, got: Record<string, number>) => {
    for (const k of new Set([...want.keys(), ...Object.keys(got)])) {
      const d = (got[k] ?? 0) - (want.get(k) ?? 0);
      if (d > 0) swapsDuplicated += d;
      else swapsLost -= d;
    }
  };
  compare(truth.byToken, counted.byToken);
  compare(truth.byTrader, counted.byTrader);
  return {
    produced: produced.length,
    inLog: o.logIds.length,
    consumed,
    lost: lost.length,
    lostWhere: whereLost(lost),
    duplicatedInLog,
    unexpected,
    swaps: truth.total,
    swapsByToken: Object.values(counted.byToken).reduce((a, b) => a + b, 0),
    swapsByWallet: counted.walletTotal,
    swapsLost,
    swapsDuplicated,
  };
}

/** the one-line summary a fault test prints */
export function figuresLine(scenario: string, f: FaultFigures, extra = ''): string {
  return (
    `[faults] ${scenario}: events produced ${f.produced}, in the log ${f.inLog} (${f.duplicatedInLog} duplicated records, re-published), ` +
    `consumed ${f.consumed}, lost ${f.lost}${f.lostWhere ? ` (${f.lostWhere})` : ''}, unexpected ${f.unexpected}; swaps ${f.swaps}: counted by token ${f.swapsByToken}, by wallet ${f.swapsByWallet}, ` +
    `lost ${f.swapsLost}, duplicated ${f.swapsDuplicated}${extra ? `; ${extra}` : ''}`
  );
}

/** a consumer group id for readTopicIds under the run's prefix (dropped with it) */
export const figuresGroup = (prefix: string) => `${prefix}figures-${randomUUID()}`;
