/**
 * EVM chains as the ingest role runs them: chain configs built from the validated Config (and,
 * for `devnet`, from the deployment file `devnet.sh deploy` writes), a pump that publishes a
 * source's items to the log and persists cursors only after what they cover is published, the
 * cursor-keeping backfill job behind `intel backfill`, and the supervised per-chain runner
 * (backfill the gap, then follow live) with its lag.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { PublicClient } from 'viem';
import { z } from 'zod';
import { jsonCodec } from '../infra/codec.ts';
import { IngestCursorRow, decodeRowOrThrow, rowOf } from '../infra/rows.ts';
import type { RowDef } from '../infra/rows.ts';
import type { Config } from '../infra/config.ts';
import type { EvmChainSlug } from '../schemas/chains.ts';
import { EvmChainSlugs } from '../schemas/chains.ts';
import { devnetChainConfig } from '../infra/devnet/chain.ts';
import { devnetRunDir } from '../infra/devnet/node.ts';
import type { UniswapDeployment } from '../infra/devnet/uniswap.ts';
import type { Log } from '../infra/log/types.ts';
import type { Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import type { BackfillCursor, BackfillProgress } from '../ingest/evm/backfill.ts';
import { createBackfill } from '../ingest/evm/backfill.ts';
import { BlockRefusedError } from '../ingest/evm/getlogs.ts';
import { parseChainConfig, type EvmChainConfig, type EvmChainConfigInput } from '../ingest/evm/config.ts';
import { createLiveSource, DeepReorgError, type LiveSource } from '../ingest/evm/live.ts';
import { createResolver, type Resolver } from '../ingest/evm/resolver.ts';
import { createInspector, isStateUnavailable } from '../ingest/evm/contract/inspect.ts';
import { createContractWatch, WatchState, type ContractWatch } from '../ingest/evm/contract/watch.ts';
import { createFundingTracker, type FundingTracker } from '../ingest/evm/funding.ts';
import { blocksSentFrom } from '../ingest/evm/sends.ts';
import { closeRpcClient, createRpcClient } from '../ingest/evm/rpc.ts';
import { backoffMs, doubling, sleep } from '../infra/retry.ts';
import { cursorKey, pumpToLog, readCursor, type IngestCursor } from '../ingest/publisher.ts';

/** Source name of the EVM ingester's cursor: `ingest:evm:<chain>` in the cursors table. */
export const EVM_SOURCE = 'evm';

interface ChainDefaults {
  confirmations: number;
  weth?: string;
  stables?: string[];
  wethUsdPool?: string;
  routers?: string[];
  /** Uniswap V3 factories */
  v3Factories?: string[];
  /** Uniswap V3 NonfungiblePositionManagers */
  v3PositionManagers?: string[];
  /** LP lock contracts (LP tokens they hold count as locked) */
  lpLockers?: string[];
}

/**
 * Confirmations per chain (a block is published once it is this deep) and, where we are sure of
 * them, the quote assets. Other chains need WETH_<CHAIN> and WETH_USD_POOL_<CHAIN> (or WETH_USD_<CHAIN>).
 */
export const EVM_CHAIN_DEFAULTS: Record<EvmChainSlug, ChainDefaults> = {
  ethereum: {
    confirmations: 3,
    weth: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    stables: ['0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', '0xdac17f958d2ee523a2206206994597c13d831ec7', '0x6b175474e89094c44da98b954eedeac495271d0f'],
    // Uniswap V2 USDC/WETH
    wethUsdPool: '0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc',
    // Uniswap V2 Router02; V3 SwapRouter, SwapRouter02 and the Universal Router
    routers: [
      '0x7a250d5630b4cf539739df2c5dacb4c659f2488d',
      '0xe592427a0aece92de3edee1f18e0157c05861564',
      '0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45',
      '0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad',
    ],
    v3Factories: ['0x1f98431c8ad98523631ae4a59f267346ea31f984'],
    v3PositionManagers: ['0xc36442b4a4522e871399cd717abdd847ab11fe88'],
    // UNCX's Uniswap V2 locker and Team Finance's lock
    lpLockers: ['0x663a5c229c09b049e36dcc11a9b0d4a8eb9db214', '0xe2fe530c047f2d85298b07d9333c05737f1435fb'],
  },
  base: { confirmations: 10 },
  arbitrum: { confirmations: 10 },
  optimism: { confirmations: 10 },
  polygon: { confirmations: 64 },
  bsc: { confirmations: 15 },
  devnet: { confirmations: 1 },
};

type Up = Uppercase<EvmChainSlug>;
function key<P extends string>(prefix: P, slug: EvmChainSlug): `${P}${Up}` {
  return `${prefix}${slug.toUpperCase() as Up}`;
}
const list = (s: string | undefined): string[] | undefined => (s === undefined ? undefined : s.split(',').map((x) => x.trim()).filter(Boolean));

export function isEvmChainSlug(s: string): s is EvmChainSlug {
  return (EvmChainSlugs as readonly string[]).includes(s);
}

/** chains with an RPC_URL_<CHAIN> */
export function configuredEvmChains(config: Config): EvmChainSlug[] {
  return EvmChainSlugs.filter((slug) => config[key('RPC_URL_', slug)] !== undefined);
}

/** where the devnet's deployment JSON is read from */
export function devnetDeploymentFile(config: Config): string {
  if (config.DEVNET_DEPLOYMENT_FILE) return config.DEVNET_DEPLOYMENT_FILE;
  const url = config.RPC_URL_DEVNET;
  const port = url ? Number(new URL(url).port || 80) : 18545;
  return join(devnetRunDir(port), 'deployment.json');
}

export function loadDeployment(file: string): UniswapDeployment {
  if (!existsSync(file)) {
    throw new Error(`devnet: no deployment file at ${file}; run \`infra/devnet/devnet.sh deploy\` (or set DEVNET_DEPLOYMENT_FILE)`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as UniswapDeployment;
}

/**
 * The chain config of one EVM chain from the Config: RPC URL, confirmations, start block and quote
 * assets (for `devnet`, from the deployment file). Throws a message naming the missing keys.
 */
export function evmChainConfig(config: Config, slug: EvmChainSlug, over: Partial<EvmChainConfigInput> = {}): EvmChainConfig {
  const rpcUrl = config[key('RPC_URL_', slug)];
  if (!rpcUrl) throw new Error(`${slug}: set RPC_URL_${slug.toUpperCase()} to ingest this chain`);
  const defaults = EVM_CHAIN_DEFAULTS[slug];
  const confirmations = config[key('CONFIRMATIONS_', slug)] ?? defaults.confirmations;
  const startBlock = config[key('START_BLOCK_', slug)];
  const weth = config[key('WETH_', slug)];
  const stables = list(config[key('STABLES_', slug)]);
  const pool = config[key('WETH_USD_POOL_', slug)];
  const fixed = config[key('WETH_USD_', slug)];
  const routers = list(config[key('ROUTERS_', slug)]);
  const v3Factories = list(config[key('V3_FACTORIES_', slug)]);
  const v3PositionManagers = list(config[key('V3_POSITION_MANAGERS_', slug)]);
  const lpLockers = list(config[key('LP_LOCKERS_', slug)]) ?? defaults.lpLockers ?? [];
  const contractReads = config[key('CONTRACT_READS_', slug)];
  const rps = config[key('RPC_RPS_', slug)];

  let input: EvmChainConfigInput;
  if (slug === 'devnet' && (!weth || (!pool && fixed === undefined))) {
    input = devnetChainConfig(loadDeployment(devnetDeploymentFile(config)), rpcUrl);
  } else {
    const w = weth ?? defaults.weth;
    const wethUsd = fixed !== undefined ? { fixed } : pool ? { pool } : defaults.wethUsdPool ? { pool: defaults.wethUsdPool } : undefined;
    if (!w || !wethUsd) {
      const S = slug.toUpperCase();
      throw new Error(`${slug}: set WETH_${S} and WETH_USD_POOL_${S} (a WETH/stablecoin Uniswap V2 pair or V3 pool) or WETH_USD_${S} to price swaps in USD`);
    }
    input = { slug, rpcUrl, quotes: { weth: w, stables: stables ?? defaults.stables ?? [] }, wethUsd, routers: routers ?? defaults.routers ?? [], v3Factories: defaults.v3Factories ?? [], v3PositionManagers: defaults.v3PositionManagers ?? [] };
  }
  if (v3Factories) input.v3Factories = v3Factories;
  if (v3PositionManagers) input.v3PositionManagers = v3PositionManagers;
  if (weth) input.quotes = { ...input.quotes, weth };
  if (stables) input.quotes = { ...input.quotes, stables };
  if (routers) input.routers = routers;
  if (pool) input.wethUsd = { pool };
  if (fixed !== undefined) input.wethUsd = { fixed };
  return parseChainConfig({
    ...input,
    confirmations,
    // without START_BLOCK (and outside the devnet, whose deployment names its first block) a chain starts at its head
    startBlock: startBlock ?? (slug === 'devnet' ? input.startBlock : undefined),
    contracts: { ...input.contracts, lpLockers, ...(contractReads !== undefined ? { enabled: contractReads } : {}) },
    // a local node takes what we send; a provider's plan says how much (RPC_RPS_<CHAIN>)
    rpc: { ...(slug === 'devnet' ? { maxConcurrency: 16, requestsPerSecond: 2000 } : {}), ...input.rpc, ...(rps !== undefined ? { requestsPerSecond: rps } : {}) },
    ...over,
  });
}

/** true when the chain config named a start block (the gap to the head is backfilled) */
export function hasStartBlock(config: Config, slug: EvmChainSlug): boolean {
  return config[key('START_BLOCK_', slug)] !== undefined || slug === 'devnet';
}

/** Row versions that only grow across restarts, even when a cursor moves back (a reorg). */
function createVersioner(): () => number {
  let last = 0;
  return () => (last = Math.max(Date.now() * 1000, last + 1));
}

// ---------------------------------------------------------------------------------------------
// backfill job (intel backfill)

/** the reads of token contracts for a chain (with `contracts.enabled` off, only which tokens trade on which pool) */
export function chainWatch(chain: EvmChainConfig, client: PublicClient, resolver: Resolver, logger?: Logger, funding?: FundingTracker): ContractWatch {
  return createContractWatch({
    fundedBy: funding ? (deployer) => funding.fundedBy(deployer) : undefined,
    chain: chain.slug,
    inspector: chain.contracts.enabled ? createInspector({ client, resolver, chain }) : undefined,
    resolver,
    quotes: chain.quotes,
    intervalSec: chain.contracts.intervalSec,
    onError: (token, block, err) =>
      logger?.warn({ chain: chain.slug, token, block, err: String((err as Error).message ?? err).split('\n')[0] }, 'contract read: no state at that block, read at the head instead'),
  });
}

/**
 * What the contract watch and the funding tracker learnt (tokens' deployers, owners and pools;
 * the deployers whose transfers are funding), kept in the cursors table beside the cursor it goes
 * with, written in the same upsert: a restart reads and attributes as one run straight through.
 */
const IngestMemory = jsonCodec(z.object({ watch: WatchState, fundingDeployers: z.array(z.string()), fundingBelow: z.record(z.string(), z.number()).optional() }));
const memoryKey = (cursorKey: string) => `${cursorKey}:memory`;

function createMemoryKeeper(store: Store, key: string, watch: ContractWatch, funding: FundingTracker) {
  let deployersKept = -1;
  return {
    /** the memory row to write with the cursor, when anything kept changed */
    row(version: number): { key: string; version: number; body: string } | undefined {
      const state = watch.state(deployersKept !== funding.deployerCount());
      if (!state) return undefined;
      deployersKept = funding.deployerCount();
      return { key: memoryKey(key), version, body: IngestMemory.encode({ watch: state, fundingDeployers: funding.deployers(), fundingBelow: funding.followed() }) };
    },
    async restore(): Promise<void> {
      const row = await store.get(Tables.cursors, memoryKey(key));
      const m = row ? IngestMemory.decode(row.body) : undefined;
      if (!m) return;
      watch.restore(m.watch);
      funding.restoreDeployers(m.fundingDeployers, m.fundingBelow);
      deployersKept = funding.deployerCount();
    },
  };
}

/** deployers' funding of wallets; a backfill finds a new deployer's earlier native payments by its nonce (sends.ts) */
export function chainFunding(chain: EvmChainConfig, client: PublicClient, logger?: Logger): FundingTracker {
  return createFundingTracker({
    chain: chain.slug,
    weth: chain.quotes.weth,
    code: (address, block) => client.getCode({ address, blockNumber: BigInt(block) }),
    async history(address, fromBlock, toBlock) {
      try {
        return await blocksSentFrom(client, address, fromBlock, toBlock);
      } catch (err) {
        if (!isStateUnavailable(err)) throw err;
        logger?.warn({ chain: chain.slug, deployer: address, from: fromBlock, to: toBlock }, 'funding: the node keeps no state that far back; earlier native payments of the deployer are not read');
        return [];
      }
    },
  });
}

/** a backfill's cursor (cursors table): the range and the last block fully published */
export const BackfillCursorRow: RowDef<BackfillCursor, [chain: string, from: number, to: number | 'head']> = {
  table: Tables.cursors,
  key: (chain, from, to) => `backfill:${chain}:${from}-${to}`,
  codec: jsonCodec(z.object({ chain: z.string(), from: z.number().int(), to: z.number().int(), done: z.number().int() })),
};

export function backfillKey(chain: string, from: number, to: number | 'head'): string {
  return BackfillCursorRow.key(chain, from, to);
}

export interface BackfillJobOptions {
  from: number;
  to: number | 'head';
  /** ignore a persisted cursor and start over (re-publishing is harmless: upserts) */
  restart?: boolean;
  onProgress?: (p: BackfillProgress) => void;
  concurrency?: number;
  client?: PublicClient;
  resolver?: Resolver;
  /** where a token whose contract could not be read at an old block is reported */
  logger?: Logger;
}

export interface BackfillJobResult {
  key: string;
  /** the cursor the run started from, if it resumed */
  resumedFrom: BackfillCursor | undefined;
  cursor: BackfillCursor | undefined;
  /** progress of this run (blocks, events, rates); undefined when there was nothing left to do */
  progress: BackfillProgress | undefined;
  complete: boolean;
}

export async function readBackfillCursor(store: Store, k: string): Promise<BackfillCursor | undefined> {
  const row = await store.get(BackfillCursorRow.table, k);
  // said, never passed over: starting the range again would publish hours of blocks twice
  return row ? decodeRowOrThrow(BackfillCursorRow.codec, BackfillCursorRow.table, row, ': delete that row of the cursors table to start the range over') : undefined;
}

/**
 * Backfills [from, to] of a chain into the log, persisting its cursor (cursors table, key
 * `backfill:<chain>:<from>-<to>`) after each range is published, so a killed run resumes where it
 * stopped. `to: 'head'` resumes to the current head. Re-running a finished fixed range does nothing.
 */
export async function runBackfillJob(deps: { log: Log; store: Store }, chain: EvmChainConfig, opts: BackfillJobOptions, signal: AbortSignal): Promise<BackfillJobResult> {
  const k = backfillKey(chain.slug, opts.from, opts.to);
  const saved = opts.restart ? undefined : await readBackfillCursor(deps.store, k);
  if (saved && opts.to !== 'head' && saved.done >= opts.to) return { key: k, resumedFrom: saved, cursor: saved, progress: undefined, complete: true };
  const version = createVersioner();
  // a client made here is closed here (a WebSocket one would keep the process alive)
  const client = opts.client ?? createRpcClient(chain.rpcUrl, chain.rpc);
  const resolver = opts.resolver ?? createResolver(client);
  // the same reads as `npm start`'s backfill: contracts (trade simulation, powers, pools) and deployers' funding
  const funding = chainFunding(chain, client, opts.logger);
  const watch = chainWatch(chain, client, resolver, opts.logger, funding);
  const memory = createMemoryKeeper(deps.store, k, watch, funding);
  if (saved) await memory.restore();
  const backfill = createBackfill({
    chain,
    from: opts.from,
    to: opts.to,
    cursor: saved,
    client,
    resolver,
    watch,
    funding,
    concurrency: opts.concurrency,
    onProgress: opts.onProgress,
    onCursor: (c) => {
      const v = version();
      const kept = memory.row(v);
      return deps.store.upsert(Tables.cursors, [{ key: k, version: v, body: BackfillCursorRow.codec.encode(c) }, ...(kept ? [kept] : [])]);
    },
  });
  try {
    await pumpToLog(deps.log, backfill, signal);
  } finally {
    if (!opts.client) await closeRpcClient(client);
  }
  const cursor = backfill.cursor();
  return { key: k, resumedFrom: saved, cursor, progress: backfill.progress(), complete: cursor !== undefined && cursor.done >= cursor.to };
}

// ---------------------------------------------------------------------------------------------
// the live runner of startIngest

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
