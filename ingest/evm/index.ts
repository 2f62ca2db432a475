/**
 * EVM ingestion for one chain: a live source (confirmations, reorgs, lag) and backfills, both
 * publishing to the log's token-events topic keyed chain:token.
 */
import type { PublicClient } from 'viem';
import { Topics, tokenKey, type ChainEvent } from '../../schemas/events.ts';
import type { Log, LogRecordIn } from '../../infra/log/types.ts';
import type { Source, SourceItem } from '../types.ts';
import { parseChainConfig, type EvmChainConfig, type EvmChainConfigInput } from './config.ts';
import { createBackfill, type Backfill, type BackfillCursor, type BackfillProgress } from './backfill.ts';
import { createLiveSource, type Lag, type LiveSource } from './live.ts';
import { createResolver, type Resolver } from './resolver.ts';
import { createRpcClient } from './rpc.ts';

export { EvmChainConfig, parseChainConfig, WethUsd } from './config.ts';
export type { EvmChainConfigInput } from './config.ts';
export { createBackfill, getLogsAdaptive, createRangeSizer } from './backfill.ts';
export type { Backfill, BackfillCursor, BackfillOptions, BackfillProgress } from './backfill.ts';
export { createLiveSource, DeepReorgError } from './live.ts';
export type { Lag, LiveSource, LiveOptions } from './live.ts';
export { createResolver } from './resolver.ts';
export { decodeLog, mapLog, orient, TOPICS, eventAbis } from './decode.ts';
export { createRpcClient, closeRpcClient, createLimitedTransport, createLimiter, isSizeError, isRetryable, withRetry } from './rpc.ts';
export { createProgressPrinter, formatProgress } from './progress.ts';

export function toRecords(events: ChainEvent[]): LogRecordIn[] {
  return events.map((e) => ({ key: tokenKey(e.chain, e.token), value: JSON.stringify(e), timestamp: ('timestamp' in e ? e.timestamp : e.openTime) * 1000 }));
}

/** Publishes a source item's events (or retractions) to Topics.tokenEvents; returns how many. */
export async function publishItem(log: Log, item: SourceItem): Promise<number> {
  const events = item.kind === 'events' ? item.events : item.kind === 'reorg' ? item.retractions : [];
  if (events.length === 0) return 0;
  await log.publish(Topics.tokenEvents, toRecords(events));
  return events.length;
}

export interface EvmIngesterDeps {
  chain: EvmChainConfig | EvmChainConfigInput;
  log: Log;
  client?: PublicClient;
}

export interface EvmIngester {
  readonly chain: EvmChainConfig;
  readonly client: PublicClient;
  /** the live source (one per ingester); fromBlock = persisted cursor + 1 */
  live(fromBlock?: number): LiveSource;
  /** follows the chain and publishes until the signal aborts; onFinalized persists the cursor */
  runLive(signal: AbortSignal, opts?: { fromBlock?: number; onFinalized?: (block: number) => void | Promise<void> }): Promise<void>;
  backfill(opts: { from: number; to: number | 'head'; cursor?: BackfillCursor; onProgress?: (p: BackfillProgress) => void; onCursor?: (c: BackfillCursor) => void | Promise<void> }): Backfill;
  /** runs a backfill to its end (or until the signal aborts), publishing; returns the cursor */
  runBackfill(
    signal: AbortSignal,
    opts: { from: number; to: number | 'head'; cursor?: BackfillCursor; onProgress?: (p: BackfillProgress) => void; onCursor?: (c: BackfillCursor) => void | Promise<void> },
  ): Promise<{ cursor: BackfillCursor | undefined; progress: BackfillProgress | undefined }>;
  /** blocks and seconds behind head of the live source */
  lag(): Lag;
}

export async function drain(source: Source, signal: AbortSignal, log: Log, onFinalized?: (block: number) => void | Promise<void>): Promise<void> {
  for await (const item of source.run(signal)) {
    await publishItem(log, item);
    if (item.kind === 'finalized') await onFinalized?.(item.block);
    if (signal.aborted) break;
  }
}

export function createEvmIngester(deps: EvmIngesterDeps): EvmIngester {
  const chain = parseChainConfig(deps.chain as EvmChainConfigInput);
  const client = deps.client ?? createRpcClient(chain.rpcUrl, chain.rpc);
  const resolver: Resolver = createResolver(client);
  let liveSource: LiveSource | undefined;
  let topicReady: Promise<void> | undefined;
  const ensureTopic = () => (topicReady ??= deps.log.ensureTopic(Topics.tokenEvents));

  const ingester: EvmIngester = {
    chain,
    client,
    live(fromBlock) {
      liveSource ??= createLiveSource({ chain, client, resolver, fromBlock });
      return liveSource;
    },
    async runLive(signal, opts = {}) {
      await ensureTopic();
      await drain(ingester.live(opts.fromBlock), signal, deps.log, opts.onFinalized);
    },
    backfill(opts) {
      return createBackfill({ chain, client, resolver, ...opts });
    },
    async runBackfill(signal, opts) {
      await ensureTopic();
      const b = ingester.backfill(opts);
      await drain(b, signal, deps.log);
      return { cursor: b.cursor(), progress: b.progress() };
    },
    lag: () => liveSource?.lag() ?? { chain: chain.slug, head: undefined, published: undefined, blocks: 0, seconds: 0 },
  };
  return ingester;
}
