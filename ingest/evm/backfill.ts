/**
 * Backfill of a block range with eth_getLogs in adaptive ranges: halve on "too many results" /
 * size errors, grow while sparse. Ranges are fetched concurrently (the RPC limiter caps requests
 * and requests per second) and yielded strictly in block order, so the output, and the cursor, are
 * the same whatever the concurrency. Resumable from a cursor; re-running a range yields the same
 * events (same identities), so downstream upserts make it idempotent.
 */
import type { Hex, PublicClient } from 'viem';
import type { SourceItem, Source } from '../types.ts';
import type { EvmChainConfig } from './config.ts';
import { TOPICS, type BlockContext, type RawLog } from './decode.ts';
import { createProcessor, fetchBlock, type PreparedLog, type Processor } from './processor.ts';
import { createResolver, type Resolver } from './resolver.ts';
import { createRpcClient, isRangeRefusal } from './rpc.ts';

/** Where a backfill stands: every block <= `done` has been yielded. Persist it, resume from it. */
export interface BackfillCursor {
  chain: string;
  from: number;
  to: number;
  /** last block fully yielded; from - 1 before the first range */
  done: number;
}

export interface BackfillProgress {
  chain: string;
  from: number;
  to: number;
  done: number;
  blocksDone: number;
  blocksTotal: number;
  events: number;
  elapsedSeconds: number;
  blocksPerSecond: number;
  eventsPerSecond: number;
  /** seconds left at the current pace; null before the first range */
  etaSeconds: number | null;
  rangeSize: number;
}

export interface BackfillOptions {
  chain: EvmChainConfig;
  from: number;
  /** 'head' = the head minus (confirmations - 1), read when the run starts */
  to: number | 'head';
  /** resume: start after cursor.done */
  cursor?: BackfillCursor;
  client?: PublicClient;
  resolver?: Resolver;
  /** ranges fetched at the same time; default min(4, rpc.maxConcurrency) */
  concurrency?: number;
  onProgress?: (p: BackfillProgress) => void;
  /** called after the consumer took a range's items; persist the cursor here */
  onCursor?: (c: BackfillCursor) => void | Promise<void>;
  /** replaces eth_getLogs (tests of the adaptive ranges against a refusing RPC) */
  getLogs?: GetLogs;
}

export interface Backfill extends Source {
  cursor(): BackfillCursor | undefined;
  progress(): BackfillProgress | undefined;
}

/** Adaptive range sizing shared by the concurrent fetches. */
export function createRangeSizer(opts: { initial: number; min: number; max: number; targetLogs: number }) {
  let size = Math.max(opts.min, Math.min(opts.max, opts.initial));
  return {
    get: () => size,
    onTooLarge(span: number) {
      size = Math.max(opts.min, Math.floor(span / 2));
    },
    onResult(span: number, logs: number) {
      if (logs > opts.targetLogs) size = Math.max(opts.min, Math.floor(span / 2));
      else if (logs < opts.targetLogs / 2 && span >= size) size = Math.min(opts.max, size * 2);
    },
  };
}
export type RangeSizer = ReturnType<typeof createRangeSizer>;

/** the RPC refuses one block's logs even alone and topic by topic: the chain cannot go past it safely */
export class BlockRefusedError extends Error {
  override readonly name = 'BlockRefusedError';
  constructor(
    readonly block: number,
    readonly topic: Hex,
    cause: unknown,
  ) {
    super(`eth_getLogs refuses block ${block} (topic ${topic}) even alone: ${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}`, { cause });
  }
}

type GetLogs = (from: number, to: number, topics?: readonly Hex[]) => Promise<RawLog[]>;

/**
 * getLogs over [from, to], split in halves while the RPC refuses the range (too large, or too
 * slow: rpc.ts isRangeRefusal). A single block it still refuses is asked for topic by topic; a
 * topic it refuses even then stops the range with a BlockRefusedError naming the block (skipping
 * it would lose its events silently).
 */
export async function getLogsAdaptive(getLogs: GetLogs, from: number, to: number, sizer: RangeSizer): Promise<RawLog[]> {
  try {
    const logs = await getLogs(from, to);
    sizer.onResult(to - from + 1, logs.length);
    return logs;
  } catch (err) {
    if (!isRangeRefusal(err)) throw err;
    if (from === to) return logsTopicByTopic(from, (topics) => getLogs(from, from, topics));
    sizer.onTooLarge(to - from + 1);
    const mid = from + Math.floor((to - from) / 2);
    const left = await getLogsAdaptive(getLogs, from, mid, sizer);
    const right = await getLogsAdaptive(getLogs, mid + 1, to, sizer);
    return left.concat(right);
  }
}

/** one block's logs asked topic by topic, in log order; a topic refused even alone is a BlockRefusedError */
export async function logsTopicByTopic(block: number, getLogs: (topics: readonly Hex[]) => Promise<RawLog[]>): Promise<RawLog[]> {
  const all: RawLog[] = [];
  for (const topic of TOPICS) {
    try {
      all.push(...(await getLogs([topic])));
    } catch (err) {
      if (isRangeRefusal(err)) throw new BlockRefusedError(block, topic, err);
      throw err;
    }
  }
  return all.sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0));
}

interface RangeResult {
  from: number;
  to: number;
  prepared: PreparedLog[];
  blocks: Record<number, BlockContext>;
  endTimestamp: number;
}

export function createBackfill(opts: BackfillOptions): Backfill {
  const cfg = opts.chain;
  const client = opts.client ?? createRpcClient(cfg.rpcUrl, cfg.rpc);
  const resolver = opts.resolver ?? createResolver(client);
  const concurrency = opts.concurrency ?? Math.min(4, cfg.rpc.maxConcurrency);
  const sizer = createRangeSizer({ initial: cfg.backfill.initialRange, min: cfg.backfill.minRange, max: cfg.backfill.maxRange, targetLogs: cfg.backfill.targetLogs });
  const getLogs =
    opts.getLogs ??
    ((from: number, to: number, topics: readonly Hex[] = TOPICS) =>
      client.request({
        method: 'eth_getLogs',
        params: [{ fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}`, topics: [[...topics]] }],
      }).then((logs) =>
        (logs as { address: Hex; topics: Hex[]; data: Hex; blockNumber: Hex; blockHash: Hex; transactionHash: Hex; logIndex: Hex; removed?: boolean }[]).map(
          (l): RawLog => ({
            address: l.address,
            topics: l.topics,
            data: l.data,
            blockNumber: BigInt(l.blockNumber),
            blockHash: l.blockHash,
            transactionHash: l.transactionHash,
            logIndex: Number(l.logIndex),
          }),
        ),
      ));

  let cursor: BackfillCursor | undefined = opts.cursor;
  let progress: BackfillProgress | undefined;

  async function fetchRange(processor: Processor, from: number, to: number): Promise<RangeResult> {
    const logs = await getLogsAdaptive(getLogs, from, to, sizer);
    const numbers = [...new Set(logs.map((l) => Number(l.blockNumber)))];
    const [prepared, headers, end] = await Promise.all([
      processor.prepare(logs),
      Promise.all(numbers.map((n) => fetchBlock(client, { number: n }))),
      numbers.includes(to) ? Promise.resolve(undefined) : fetchBlock(client, { number: to }, false),
    ]);
    const blocks: Record<number, BlockContext> = {};
    for (const h of headers) blocks[h.number] = h;
    // a log whose block hash differs from the block we read was reorged under us: read again
    for (const l of logs) {
      const b = blocks[Number(l.blockNumber)];
      if (b && l.blockHash && b.hash !== l.blockHash.toLowerCase()) throw new Error(`${cfg.slug}: block ${b.number} changed during backfill (reorg below the confirmed head)`);
    }
    return { from, to, prepared, blocks, endTimestamp: end?.timestamp ?? blocks[to]?.timestamp ?? 0 };
  }

  async function* run(signal: AbortSignal): AsyncGenerator<SourceItem> {
    const to = opts.to === 'head' ? Number(await client.getBlockNumber()) - (cfg.confirmations - 1) : opts.to;
    const from = opts.from;
    if (cursor && (cursor.chain !== cfg.slug || cursor.from !== from)) throw new Error(`${cfg.slug}: cursor ${JSON.stringify(cursor)} belongs to another backfill`);
    cursor = { chain: cfg.slug, from, to, done: Math.max(from - 1, cursor?.done ?? from - 1) };
    let next = cursor.done + 1;
    const processor = createProcessor(cfg, resolver);
    await processor.initPrice(next - 1);

    const started = Date.now();
    const startDone = cursor.done;
    let events = 0;
    const queue: Promise<RangeResult>[] = [];
    const fill = () => {
      while (queue.length < concurrency && next <= to) {
        const a = next;
        const b = Math.min(to, a + sizer.get() - 1);
        next = b + 1;
        const p = fetchRange(processor, a, b);
        p.catch(() => {}); // surfaced when awaited in order
        queue.push(p);
      }
    };

    fill();
    while (queue.length > 0) {
      if (signal.aborted) return;
      const r = await (queue.shift() as Promise<RangeResult>);
      const byBlock = processor.map(r.prepared, r.blocks);
      for (const [block, evs] of byBlock) {
        events += evs.length;
        const ts = r.blocks[block]?.timestamp ?? 0;
        yield { kind: 'events', chain: cfg.slug, block, timestamp: ts, events: evs };
      }
      yield { kind: 'finalized', chain: cfg.slug, block: r.to, timestamp: r.endTimestamp };
      cursor = { ...cursor, done: r.to };
      await opts.onCursor?.(cursor);
      const elapsed = Math.max(1e-3, (Date.now() - started) / 1000);
      const blocksDone = r.to - startDone;
      const blocksTotal = to - startDone;
      const bps = blocksDone / elapsed;
      progress = {
        chain: cfg.slug, from, to, done: r.to, blocksDone, blocksTotal, events, elapsedSeconds: elapsed,
        blocksPerSecond: bps, eventsPerSecond: events / elapsed, etaSeconds: bps > 0 ? (blocksTotal - blocksDone) / bps : null, rangeSize: sizer.get(),
      };
      opts.onProgress?.(progress);
      if (signal.aborted) return;
      fill();
    }
  }

  return { chain: cfg.slug, run, cursor: () => cursor, progress: () => progress };
}
