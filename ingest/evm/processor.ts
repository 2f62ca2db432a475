/**
 * Turns raw logs of consecutive blocks into schema events: decode, resolve pools and tokens (I/O,
 * cached), then map in (block, logIndex) order with the running price state.
 */
import { getContractAddress, type Hex, type PublicClient } from 'viem';
import type { ChainEvent } from '../../schemas/events.ts';
import type { EvmChainConfig } from './config.ts';
import { decodeLog, mapLog, needs, orient, toDecimal, type Addr, type BlockContext, type DecodedLog, type MapContext, type MapState, type Orientation, type Quotes, type RawLog, type V3PoolState, v3QuotePerToken } from './decode.ts';
import type { PoolReservesRaw, Resolver } from './resolver.ts';
import { isRetryable } from './rpc.ts';
import { DISPERSE_SELECTORS } from './disperse.ts';

export interface BlockHeader extends BlockContext {
  parentHash: Hex;
}

export interface PreparedLog {
  log: RawLog;
  decoded: DecodedLog;
}

interface JsonRpcBlock {
  number: Hex | null;
  hash: Hex | null;
  parentHash: Hex;
  timestamp: Hex;
  transactions: (Hex | { hash: Hex; from: Hex; to: Hex | null; value: Hex; input?: Hex; nonce: Hex })[];
}

/**
 * One block with its transactions' senders, calls and values. Read raw (the fields used, not
 * viem's formatting of every field of every transaction: a dense backfill reads thousands).
 */
export async function fetchBlock(client: PublicClient, at: { number: number } | { hash: Hex }, withTxs = true): Promise<BlockHeader> {
  const b = ('hash' in at
    ? await client.request({ method: 'eth_getBlockByHash', params: [at.hash, withTxs] })
    : await client.request({ method: 'eth_getBlockByNumber', params: [`0x${at.number.toString(16)}`, withTxs] })) as JsonRpcBlock | null;
  if (!b) throw Object.assign(new Error(`block ${'hash' in at ? at.hash : at.number} not found`), { name: 'BlockNotFoundError' });
  if (b.number === null || b.hash === null) throw new Error('pending block');
  const txFrom: Record<string, Addr> = {};
  const calls: NonNullable<BlockContext['calls']> = [];
  const created: NonNullable<BlockContext['created']> = [];
  for (const tx of b.transactions) {
    if (typeof tx !== 'object') continue;
    const hash = tx.hash.toLowerCase();
    const from = tx.from.toLowerCase() as Addr;
    txFrom[hash] = from;
    if (!tx.to) {
      created.push({ from, address: getContractAddress({ from, nonce: BigInt(tx.nonce) }).toLowerCase() as Addr });
      continue;
    }
    const selector = (tx.input ?? '0x').slice(0, 10).toLowerCase();
    calls.push({ hash, from, to: tx.to.toLowerCase() as Addr, value: BigInt(tx.value), selector, ...(DISPERSE_SELECTORS.has(selector) && tx.input ? { input: tx.input } : {}) });
  }
  const header = { number: Number(b.number), hash: b.hash.toLowerCase() as Hex, parentHash: b.parentHash.toLowerCase() as Hex, timestamp: Number(b.timestamp), txFrom };
  return withTxs ? { ...header, calls, created } : header;
}

/** a pool's token and quote sides as `orient` tells them apart, and its reserves in token units */
export interface PoolReserves extends Orientation {
  /** null when there were none to read at that block (the pool was not deployed yet) */
  reserves: { token: number; quote: number } | null;
  dex: 'v2' | 'v3';
  /** quote units per token unit (null when there are no reserves, or a V3 pool is not initialized) */
  quotePerToken: number | null;
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
  let r: PoolReservesRaw;
  try {
    r = await resolver.reservesAt(pool, blockNumber);
  } catch (err) {
    if (isRetryable(err)) throw err;
    return { ...o, reserves: null, dex: 'v2', quotePerToken: null };
  }
  const reserves = {
    token: toDecimal(o.tokenIs0 ? r.reserve0 : r.reserve1, tm.decimals),
    quote: toDecimal(o.tokenIs0 ? r.reserve1 : r.reserve0, qm.decimals),
  };
  const quotePerToken = r.dex === 'v3' ? v3QuotePerToken(r.sqrtPriceX96 ?? 0n, o, tm, qm) : reserves.token > 0 ? reserves.quote / reserves.token : null;
  return { ...o, reserves, dex: r.dex, quotePerToken };
}

function byPosition(a: RawLog, b: RawLog): number {
  const d = Number((a.blockNumber ?? 0n) - (b.blockNumber ?? 0n));
  return d !== 0 ? d : (a.logIndex ?? 0) - (b.logIndex ?? 0);
}

/** in (block, logIndex) order: as nodes answer, so usually the list itself (one pass instead of a sort) */
function inPositionOrder(logs: RawLog[]): RawLog[] {
  for (let i = 1; i < logs.length; i++) if (byPosition(logs[i - 1] as RawLog, logs[i] as RawLog) > 0) return [...logs].sort(byPosition);
  return logs;
}

export function createProcessor(cfg: EvmChainConfig, resolver: Resolver) {
  const quotes = { weth: cfg.quotes.weth, stables: cfg.quotes.stables, wethSymbol: cfg.quotes.wethSymbol };
  const state: MapState = {
    wethUsd: 'fixed' in cfg.wethUsd ? cfg.wethUsd.fixed : 0,
    refPool: 'pool' in cfg.wethUsd ? cfg.wethUsd.pool : undefined,
    reserves: {},
    v3: {},
  };
  /** V3 pools' balances read right before the first block a prepared range saw them in (the earliest read kept) */
  const v3Bases = new Map<Addr, V3PoolState & { block: number }>();
  const ctx: MapContext = {
    chain: cfg.slug,
    quotes,
    routers: cfg.routers,
    pool: (a) => resolver.peekPool(a),
    meta: (a) => resolver.peekMeta(a),
    v3Base: (a) => v3Bases.get(a),
    state,
  };

  /**
   * Reads the balances of the V3 pools these logs touch that the mapping holds none for, at the
   * block before the first log of each (a pool created in these logs starts empty).
   */
  async function readV3Bases(prepared: PreparedLog[]): Promise<void> {
    const first = new Map<Addr, number>();
    const created = new Set<Addr>();
    for (const { log, decoded } of prepared) {
      if (decoded.kind === 'v3PoolCreated') created.add(decoded.pool);
      if (decoded.kind !== 'v3Swap' && decoded.kind !== 'v3Mint' && decoded.kind !== 'v3Collect' && decoded.kind !== 'v3Initialize') continue;
      if (created.has(decoded.pool) || state.v3[decoded.pool] || first.has(decoded.pool)) continue;
      const b = Number(log.blockNumber ?? 0);
      const known = v3Bases.get(decoded.pool);
      if (!known || known.block > b - 1) first.set(decoded.pool, b);
    }
    await Promise.all(
      [...first].map(async ([pool, b]) => {
        let base: V3PoolState = { balance0: 0n, balance1: 0n, sqrtPriceX96: 0n };
        try {
          const r = await resolver.reservesAt(pool, BigInt(Math.max(0, b - 1)));
          base = { balance0: r.reserve0, balance1: r.reserve1, sqrtPriceX96: r.sqrtPriceX96 ?? 0n };
        } catch (err) {
          if (isRetryable(err)) throw err;
          // no pool at that block yet: it starts empty
        }
        const known = v3Bases.get(pool);
        if (!known || known.block > b - 1) v3Bases.set(pool, { ...base, block: b - 1 });
      }),
    );
  }

  return {
    state,
    /** after a reorg: V3 balances are read again where each pool is next seen (the orphaned blocks moved them) */
    forgetV3(): void {
      state.v3 = {};
      v3Bases.clear();
    },
    /** reads the WETH/USD reference pool's price as of `block` (no-op with a fixed price) */
    async initPrice(block: number): Promise<void> {
      const pool = state.refPool;
      if (!pool || block < 0) return;
      const r = await reservesOf(resolver, quotes, pool, BigInt(block));
      if (r === undefined || r.token !== quotes.weth) throw new Error(`${cfg.slug}: wethUsd.pool ${pool} is not a WETH/stablecoin pool`);
      // no reserves: the pool did not exist yet at that block, the price comes with its first Sync
      if (r.quotePerToken !== null) state.wethUsd = r.quotePerToken;
    },
    /** decodes and resolves everything the logs need; safe to run concurrently for several ranges */
    async prepare(logs: RawLog[]): Promise<PreparedLog[]> {
      const out: PreparedLog[] = [];
      const pools: Addr[] = [];
      const tokens: Addr[] = [];
      for (const log of inPositionOrder(logs)) {
        const decoded = decodeLog(log);
        if (!decoded) continue;
        if (decoded.kind === 'pairCreated') resolver.rememberPool(decoded.pair, { token0: decoded.token0, token1: decoded.token1 });
        if (decoded.kind === 'v3PoolCreated') resolver.rememberPool(decoded.pool, { token0: decoded.token0, token1: decoded.token1 });
        const n = needs(decoded);
        pools.push(...n.pools);
        tokens.push(...n.tokens);
        out.push({ log, decoded });
      }
      await resolver.ensure(pools, tokens);
      await readV3Bases(out);
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
