/**
 * Turns raw logs of consecutive blocks into schema events: decode, resolve pools and tokens (I/O,
 * cached), then map in (block, logIndex) order with the running price state.
 */
import type { Hex, PublicClient } from 'viem';
import type { ChainEvent } from '../../schemas/events.ts';
import type { EvmChainConfig } from './config.ts';
import { decodeLog, mapLog, needs, orient, toDecimal, type Addr, type BlockContext, type DecodedLog, type MapContext, type MapState, type Orientation, type Quotes, type RawLog } from './decode.ts';
import type { Resolver } from './resolver.ts';
import { isRetryable } from './rpc.ts';

export interface BlockHeader extends BlockContext {
  parentHash: Hex;
}

export interface PreparedLog {
  log: RawLog;
  decoded: DecodedLog;
}

/** One block with its transactions' senders. */
export async function fetchBlock(client: PublicClient, at: { number: number } | { hash: Hex }, withTxs = true): Promise<BlockHeader> {
  const b = 'hash' in at
    ? await client.getBlock({ blockHash: at.hash, includeTransactions: withTxs })
    : await client.getBlock({ blockNumber: BigInt(at.number), includeTransactions: withTxs });
  if (b.number === null || b.hash === null) throw new Error('pending block');
  const txFrom: Record<string, Addr> = {};
  const calls: NonNullable<BlockContext['calls']> = [];
  for (const tx of b.transactions) {
    if (typeof tx !== 'object') continue;
    const from = tx.from.toLowerCase() as Addr;
    txFrom[tx.hash.toLowerCase()] = from;
    if (tx.to) calls.push({ hash: tx.hash.toLowerCase(), from, to: tx.to.toLowerCase() as Addr, value: tx.value });
  }
  const header = { number: Number(b.number), hash: b.hash.toLowerCase() as Hex, parentHash: b.parentHash.toLowerCase() as Hex, timestamp: Number(b.timestamp), txFrom };
  return withTxs ? { ...header, calls } : header;
}

/** a pool's token and quote sides as `orient` tells them apart, and its reserves in token units */
export interface PoolReserves extends Orientation {
  /** null when there were none to read at that block (the pool was not deployed yet) */
  reserves: { token: number; quote: number } | null;
}

/**
 * A V2 pool's reserves at a block, pool tokens and metadata from the resolver's cache; undefined
 * when the pool has no quote asset (or no metadata). A transient RPC failure throws.
 */
export async function reservesOf(resolver: Resolver, quotes: Quotes, pool: Addr, blockNumber: bigint): Promise<PoolReserves | undefined> {
  await resolver.ensure([pool], []);
  const p = resolver.peekPool(pool);
  const o = p && orient(quotes, p);
  const tm = o && resolver.peekMeta(o.token);
  const qm = o && resolver.peekMeta(o.quote);
  if (!o || !tm || !qm) return undefined;
  let r: { reserve0: bigint; reserve1: bigint };
  try {
    r = await resolver.reservesAt(pool, blockNumber);
  } catch (err) {
    if (isRetryable(err)) throw err;
    return { ...o, reserves: null };
  }
  const reserves = {
    token: toDecimal(o.tokenIs0 ? r.reserve0 : r.reserve1, tm.decimals),
    quote: toDecimal(o.tokenIs0 ? r.reserve1 : r.reserve0, qm.decimals),
  };
  return { ...o, reserves };
}

function byPosition(a: RawLog, b: RawLog): number {
  const d = Number((a.blockNumber ?? 0n) - (b.blockNumber ?? 0n));
  return d !== 0 ? d : (a.logIndex ?? 0) - (b.logIndex ?? 0);
}

export function createProcessor(cfg: EvmChainConfig, resolver: Resolver) {
  const quotes = { weth: cfg.quotes.weth, stables: cfg.quotes.stables, wethSymbol: cfg.quotes.wethSymbol };
  const state: MapState = {
    wethUsd: 'fixed' in cfg.wethUsd ? cfg.wethUsd.fixed : 0,
    refPool: 'pool' in cfg.wethUsd ? cfg.wethUsd.pool : undefined,
    reserves: {},
  };
  const ctx: MapContext = {
    chain: cfg.slug,
    quotes,
    routers: cfg.routers,
    pool: (a) => resolver.peekPool(a),
    meta: (a) => resolver.peekMeta(a),
    state,
  };

  return {
    state,
    /** reads the WETH/USD reference pool's price as of `block` (no-op with a fixed price) */
    async initPrice(block: number): Promise<void> {
      const pool = state.refPool;
      if (!pool || block < 0) return;
      const r = await reservesOf(resolver, quotes, pool, BigInt(block));
      if (r === undefined || r.token !== quotes.weth) throw new Error(`${cfg.slug}: wethUsd.pool ${pool} is not a WETH/stablecoin pool`);
      // no reserves: the pool did not exist yet at that block, the price comes with its first Sync
      if (r.reserves && r.reserves.token > 0) state.wethUsd = r.reserves.quote / r.reserves.token;
    },
    /** decodes and resolves everything the logs need; safe to run concurrently for several ranges */
    async prepare(logs: RawLog[]): Promise<PreparedLog[]> {
      const out: PreparedLog[] = [];
      const pools: Addr[] = [];
      const tokens: Addr[] = [];
      for (const log of [...logs].sort(byPosition)) {
        const decoded = decodeLog(log);
        if (!decoded) continue;
        if (decoded.kind === 'pairCreated') resolver.rememberPool(decoded.pair, { token0: decoded.token0, token1: decoded.token1 });
        const n = needs(decoded);
        pools.push(...n.pools);
        tokens.push(...n.tokens);
        out.push({ log, decoded });
      }
      await resolver.ensure(pools, tokens);
      return out;
    },
    /** maps prepared logs (of blocks in order) to events grouped by block; updates price state */
    map(prepared: PreparedLog[], blocks: Record<number, BlockContext>): Map<number, ChainEvent[]> {
      const byBlock = new Map<number, ChainEvent[]>();
      for (const { log, decoded } of prepared) {
        const n = Number(log.blockNumber ?? -1);
        const block = blocks[n];
        if (!block) throw new Error(`${cfg.slug}: no block context for block ${n}`);
        const events = mapLog(decoded, log, block, ctx);
        if (events.length === 0) continue;
        let list = byBlock.get(n);
        if (!list) byBlock.set(n, (list = []));
        list.push(...events);
      }
      return byBlock;
    },
  };
}
export type Processor = ReturnType<typeof createProcessor>;
