/**
 * EVM ingestion for one chain: a live source (confirmations, reorgs, lag) and backfills, both
 * publishing to the log's token-events topic keyed chain:token.
 */
import type { PublicClient } from 'viem';
import type { Log } from '../../infra/log/types.ts';
import { pumpToLog } from '../publisher.ts';
import { parseChainConfig, type EvmChainConfig, type EvmChainConfigInput } from './config.ts';
import { createBackfill, type Backfill, type BackfillCursor, type BackfillProgress } from './backfill.ts';
import { createLiveSource, type Lag, type LiveSource } from './live.ts';
import { createResolver, type Resolver } from './resolver.ts';
import { createRpcClient } from './rpc.ts';

export { EvmChainConfig, parseChainConfig, WethUsd } from './config.ts';
export type { EvmChainConfigInput } from './config.ts';
export { createBackfill } from './backfill.ts';
export { BlockRefusedError, getLogsAdaptive, createRangeSizer, requestLogs } from './getlogs.ts';
export type { Backfill, BackfillCursor, BackfillOptions, BackfillProgress } from './backfill.ts';
export { createLiveSource, DeepReorgError } from './live.ts';
export type { Lag, LiveSource, LiveOptions } from './live.ts';
export { createResolver } from './resolver.ts';
export { decodeLog, mapLog, orient, TOPICS, eventAbis } from './decode.ts';
export { createRpcClient, closeRpcClient, createLimiter, isRangeRefusal, isSizeError, isRetryable, isTimeout, withRetry } from './rpc.ts';
export { createProgressPrinter, formatProgress } from './progress.ts';

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

export function createEvmIngester(deps: EvmIngesterDeps): EvmIngester {
  const chain = parseChainConfig(deps.chain as EvmChainConfigInput);
  const client = deps.client ?? createRpcClient(chain.rpcUrl, chain.rpc);
  const resolver: Resolver = createResolver(client);
  let liveSource: LiveSource | undefined;

  const ingester: EvmIngester = {
    chain,
    client,
    live(fromBlock) {
      liveSource ??= createLiveSource({ chain, client, resolver, fromBlock });
      return liveSource;
    },
    async runLive(signal, opts = {}) {
      await pumpToLog(deps.log, ingester.live(opts.fromBlock), signal, { onFinalized: (c) => opts.onFinalized?.(c.block) });
    },
    backfill(opts) {
      return createBackfill({ chain, client, resolver, ...opts });
    },
    async runBackfill(signal, opts) {
      const b = ingester.backfill(opts);
      await pumpToLog(deps.log, b, signal);
      return { cursor: b.cursor(), progress: b.progress() };
    },
    lag: () => liveSource?.lag() ?? { chain: chain.slug, head: undefined, published: undefined, blocks: 0, seconds: 0 },
  };
  return ingester;
}
