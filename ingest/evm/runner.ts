/**
 * The supervised per-chain runner of the ingest role: backfill the gap, then follow the head
 * live, persisting the cursor only after what it covers is published, with its lag.
 */
import type { Logger } from 'pino';
import { IngestCursorRow, rowOf } from '../../infra/rows.ts';
import type { Log } from '../../infra/log/types.ts';
import type { Store } from '../../infra/store/types.ts';
import { Tables } from '../../infra/store/types.ts';
import { cursorKey, pumpToLog, readCursor, type IngestCursor } from '../publisher.ts';
import { createBackfill } from './backfill.ts';
import type { EvmChainConfig } from './config.ts';
import { BlockRefusedError } from './getlogs.ts';
import { createLiveSource, DeepReorgError, type LiveSource } from './live.ts';
import { createResolver } from './resolver.ts';
import { closeRpcClient, createRpcClient } from './rpc.ts';
import { backoffMs, doubling, sleep } from '../../infra/retry.ts';
import { chainFunding, chainWatch, createMemoryKeeper, createVersioner } from './memory.ts';

/** Source name of the EVM ingester's cursor: `ingest:evm:<chain>` in the cursors table. */
export const EVM_SOURCE = 'evm';

export interface ChainLag {
  chain: string;
  phase: 'starting' | 'backfill' | 'live' | 'retrying' | 'stopped';
  /** the chain's head block, when known */
  head: number | null;
  /** last block published */
  published: number | null;
  /** blocks between the head and the last published block */
  blocks: number;
  /** seconds between the head's time and the last published block's time */
  seconds: number;
  /** why the chain stopped or is retrying */
  error?: string;
  /** the block the RPC refuses to give the logs of, even alone and topic by topic (retried with backoff) */
  refusedBlock?: number;
}

export interface EvmChainRunner {
  readonly chain: EvmChainConfig;
  lag(): ChainLag;
  /** resolves once the chain has published up to the head it saw (or stopped) */
  caughtUp: Promise<void>;
  /** the last cursor persisted */
  cursor(): (IngestCursor & { events: number }) | undefined;
  /** resolves when the runner stopped (signal aborted, or a reorg deeper than the kept window) */
  done: Promise<void>;
  /** tokens with a pool that traded in the last 7 days of chain time (the candle source follows them) */
  tracked(): { token: string; pool: string; asOf: number }[];
}

export interface EvmRunnerDeps {
  log: Log;
  store: Store;
  logger: Logger;
  /** ranges backfilled before the live source takes over when further behind than this */
  liveGap?: number;
}

/**
 * Runs one chain until the signal aborts: resumes after its persisted cursor (or at the start
 * block, or the head), backfills the gap when it is far behind, then follows the head live with
 * confirmations and reorg handling. Transient failures restart it from its cursor with backoff;
 * a reorg deeper than the kept window stops it with an error log.
 */
export function startEvmChain(deps: EvmRunnerDeps, chain: EvmChainConfig, opts: { fromStartBlock: boolean }, signal: AbortSignal): EvmChainRunner {
  const { log, store } = deps;
  const logger = deps.logger.child({ role: 'ingest', chain: chain.slug, source: EVM_SOURCE });
  const client = createRpcClient(chain.rpcUrl, chain.rpc);
  const resolver = createResolver(client);
  const funding = chainFunding(chain, client, logger);
  const watch = chainWatch(chain, client, resolver, logger, funding);
  const version = createVersioner();
  const liveGap = deps.liveGap ?? Math.max(64, chain.reorgWindow);
  let phase: ChainLag['phase'] = 'starting';
  let error: string | undefined;
  let refusedBlock: number | undefined;
  let head: { number: number; timestamp: number } | undefined;
  let published: (IngestCursor & { events: number }) | undefined;
  let live: LiveSource | undefined;
  let eventsBefore = 0;
  let resolveCaughtUp!: () => void;
  const caughtUp = new Promise<void>((r) => (resolveCaughtUp = r));

  const memory = createMemoryKeeper(store, cursorKey(chain.slug, EVM_SOURCE), watch, funding);
  const persist = async (c: IngestCursor & { events: number }) => {
    const v = version();
    const kept = memory.row(v);
    await store.upsert(Tables.cursors, [rowOf(IngestCursorRow, { chain: c.chain, block: c.block, timestamp: c.timestamp }, v, chain.slug, EVM_SOURCE), ...(kept ? [kept] : [])]);
    published = { ...c, events: eventsBefore + c.events };
    refusedBlock = undefined;
  };

  async function readHead(): Promise<{ number: number; timestamp: number }> {
    const b = await client.getBlock({ blockTag: 'latest' });
    head = { number: Number(b.number), timestamp: Number(b.timestamp) };
    return head;
  }

  async function runOnce(): Promise<void> {
    const saved = await readCursor(store, chain.slug, EVM_SOURCE);
    const h = await readHead();
    const target = h.number - (chain.confirmations - 1);
    let next: number;
    if (saved) next = saved.block + 1;
    else if (opts.fromStartBlock) next = chain.startBlock;
    else next = Math.max(0, target);
    if (saved) published = { ...saved, events: published?.events ?? 0 };
    // what the watch and funding knew at that cursor (a retry after a failure rewinds to it too)
    if (saved) await memory.restore();
    logger.info({ from_block: next, head: h.number, resumed: saved !== undefined }, 'evm ingest starting');

    if (target - next + 1 > liveGap) {
      phase = 'backfill';
      const backfill = createBackfill({ chain, from: next, to: target, client, resolver, watch, funding });
      eventsBefore = published?.events ?? 0;
      await pumpToLog(log, backfill, signal, { onFinalized: persist });
      if (signal.aborted) return;
      const done = backfill.cursor()?.done ?? next - 1;
      logger.info({ from_block: next, to_block: done, events: backfill.progress()?.events ?? 0 }, 'evm gap backfilled');
      next = done + 1;
    }
    phase = 'live';
    live = createLiveSource({ chain, client, resolver, watch, funding, fromBlock: next });
    eventsBefore = published?.events ?? 0;
    // nothing between the cursor and the head it saw: caught up already
    let reached = next > target;
    if (reached) resolveCaughtUp();
    await pumpToLog(log, live, signal, {
      onFinalized: async (c) => {
        await persist(c);
        if (!reached && c.block >= target) {
          reached = true;
          resolveCaughtUp();
        }
      },
      onReorg: (fork, retractions) => logger.warn({ fork_block: fork, retractions }, 'evm reorg: orphaned events retracted'),
    });
  }

  const done = (async () => {
    for (let attempt = 0; !signal.aborted; ) {
      try {
        await runOnce();
        return;
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof DeepReorgError) {
          phase = 'stopped';
          error = err.message;
          logger.error({ err, reorg_window: chain.reorgWindow }, 'evm ingest STOPPED: reorg deeper than the kept window; operator action needed');
          resolveCaughtUp();
          return;
        }
        phase = 'retrying';
        error = err instanceof Error ? err.message : String(err);
        const wait = backoffMs({ cap: doubling(500, 30_000), jitter: 'half' }, attempt++);
        if (err instanceof BlockRefusedError) {
          // nothing past this block is published: skipping it would lose its events silently
          refusedBlock = err.block;
          logger.error({ err, block: err.block, topic: err.topic, retry_in_ms: wait }, 'evm ingest stuck: the RPC refuses this block\'s logs even alone; retrying');
        } else logger.warn({ err, retry_in_ms: wait }, 'evm ingest failed; restarting from the cursor');
        live = undefined;
        await sleep(wait, signal).catch(() => {});
      }
    }
  })();

  function lag(): ChainLag {
    if (live && phase === 'live') {
      const l = live.lag();
      const p = l.published ?? published?.block ?? null;
      return { chain: chain.slug, phase, head: l.head ?? null, published: p, blocks: l.head !== undefined && p !== null ? Math.max(0, l.head - p) : 0, seconds: l.seconds, error, refusedBlock };
    }
    const p = published?.block ?? null;
    return {
      chain: chain.slug,
      phase,
      head: head?.number ?? null,
      published: p,
      blocks: head ? Math.max(0, head.number - (p ?? -1)) : 0,
      seconds: head && published ? Math.max(0, head.timestamp - published.timestamp) : 0,
      error,
      refusedBlock,
    };
  }

  /** while backfilling, the head moves on: read it now and then so the lag stays true */
  const headTimer = setInterval(() => {
    if (phase !== 'live' && phase !== 'stopped') void readHead().catch(() => {});
  }, 5000);
  headTimer.unref();
  void done.finally(() => {
    clearInterval(headTimer);
    return closeRpcClient(client);
  });

  const tracked = () => {
    // chain time: where this chain's events stand (the head when live, the past during a backfill)
    const asOf = published?.timestamp ?? Math.floor(Date.now() / 1000);
    return watch.tracked(asOf - 7 * 86400).map((t) => ({ token: t.token as string, pool: t.pool as string, asOf }));
  };
  return { chain, lag, caughtUp, cursor: () => published, done, tracked };
}
