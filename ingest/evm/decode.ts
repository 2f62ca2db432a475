/**
 * Log decoders indexed by topic0 (Uniswap V2 Swap/Sync/Mint/Burn/PairCreated, Uniswap V3 Swap,
 * ERC-20 Transfer) and the pure mapping from decoded logs to the events of schemas/events.ts.
 * No I/O here: pool tokens, token metadata and block/tx context are handed in.
 */
import { decodeEventLog, formatUnits, parseAbiItem, toEventSelector, type AbiEvent, type Hex } from 'viem';
import type { ChainEvent } from '../../schemas/events.ts';

export type Addr = `0x${string}`;

export const eventAbis = {
  v2Swap: parseAbiItem('event Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to)'),
  v2Sync: parseAbiItem('event Sync(uint112 reserve0, uint112 reserve1)'),
  v2Mint: parseAbiItem('event Mint(address indexed sender, uint amount0, uint amount1)'),
  v2Burn: parseAbiItem('event Burn(address indexed sender, uint amount0, uint amount1, address indexed to)'),
  pairCreated: parseAbiItem('event PairCreated(address indexed token0, address indexed token1, address pair, uint256 pairIndex)'),
  v3Swap: parseAbiItem('event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)'),
  transfer: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
  ownershipTransferred: parseAbiItem('event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)'),
  upgraded: parseAbiItem('event Upgraded(address indexed implementation)'),
  adminChanged: parseAbiItem('event AdminChanged(address previousAdmin, address newAdmin)'),
} as const;

export type DecodedLog =
  | { kind: 'v2Swap'; pool: Addr; sender: Addr; to: Addr; amount0In: bigint; amount1In: bigint; amount0Out: bigint; amount1Out: bigint }
  | { kind: 'v2Sync'; pool: Addr; reserve0: bigint; reserve1: bigint }
  | { kind: 'v2Mint'; pool: Addr; sender: Addr; amount0: bigint; amount1: bigint }
  | { kind: 'v2Burn'; pool: Addr; sender: Addr; to: Addr; amount0: bigint; amount1: bigint }
  | { kind: 'pairCreated'; factory: Addr; token0: Addr; token1: Addr; pair: Addr }
  | { kind: 'v3Swap'; pool: Addr; sender: Addr; recipient: Addr; amount0: bigint; amount1: bigint; sqrtPriceX96: bigint; liquidity: bigint; tick: number }
  | { kind: 'transfer'; token: Addr; from: Addr; to: Addr; value: bigint }
  /** a contract's owner or implementation changed (OwnershipTransferred, Upgraded, AdminChanged): read it again */
  | { kind: 'ownerEvent'; contract: Addr };

/** The fields of an eth_getLogs entry we use. */
export interface RawLog {
  address: Hex;
  topics: readonly Hex[] | Hex[];
  data: Hex;
  blockNumber: bigint | null;
  blockHash: Hex | null;
  transactionHash: Hex | null;
  logIndex: number | null;
}

const lower = (a: string) => a.toLowerCase() as Addr;

type Decoder = (log: RawLog) => DecodedLog | undefined;

function decodeWith(abi: AbiEvent, log: RawLog): Record<string, unknown> | undefined {
  try {
    const out = decodeEventLog({ abi: [abi], data: log.data, topics: log.topics as [Hex, ...Hex[]], strict: true });
    return out.args as unknown as Record<string, unknown>;
  } catch {
    return undefined; // same topic0, different shape (e.g. ERC-721 Transfer): not ours
  }
}

const decoders: Record<string, Decoder> = {
  [toEventSelector(eventAbis.v2Swap)]: (log) => {
    if (log.topics.length !== 3) return undefined;
    const a = decodeWith(eventAbis.v2Swap, log);
    if (!a) return undefined;
    return {
      kind: 'v2Swap', pool: lower(log.address), sender: lower(a.sender as string), to: lower(a.to as string),
      amount0In: a.amount0In as bigint, amount1In: a.amount1In as bigint, amount0Out: a.amount0Out as bigint, amount1Out: a.amount1Out as bigint,
    };
  },
  [toEventSelector(eventAbis.v2Sync)]: (log) => {
    const a = decodeWith(eventAbis.v2Sync, log);
    return a && { kind: 'v2Sync', pool: lower(log.address), reserve0: a.reserve0 as bigint, reserve1: a.reserve1 as bigint };
  },
  [toEventSelector(eventAbis.v2Mint)]: (log) => {
    const a = decodeWith(eventAbis.v2Mint, log);
    return a && { kind: 'v2Mint', pool: lower(log.address), sender: lower(a.sender as string), amount0: a.amount0 as bigint, amount1: a.amount1 as bigint };
  },
  [toEventSelector(eventAbis.v2Burn)]: (log) => {
    const a = decodeWith(eventAbis.v2Burn, log);
    return a && { kind: 'v2Burn', pool: lower(log.address), sender: lower(a.sender as string), to: lower(a.to as string), amount0: a.amount0 as bigint, amount1: a.amount1 as bigint };
  },
  [toEventSelector(eventAbis.pairCreated)]: (log) => {
    const a = decodeWith(eventAbis.pairCreated, log);
    return a && { kind: 'pairCreated', factory: lower(log.address), token0: lower(a.token0 as string), token1: lower(a.token1 as string), pair: lower(a.pair as string) };
  },
  [toEventSelector(eventAbis.v3Swap)]: (log) => {
    const a = decodeWith(eventAbis.v3Swap, log);
    return a && {
      kind: 'v3Swap', pool: lower(log.address), sender: lower(a.sender as string), recipient: lower(a.recipient as string),
      amount0: a.amount0 as bigint, amount1: a.amount1 as bigint, sqrtPriceX96: a.sqrtPriceX96 as bigint, liquidity: a.liquidity as bigint, tick: Number(a.tick),
    };
  },
  [toEventSelector(eventAbis.transfer)]: (log) => {
    // ERC-20 only: ERC-721 shares topic0 but indexes tokenId (4 topics, empty data)
    if (log.topics.length !== 3 || log.data.length !== 66) return undefined;
    const a = decodeWith(eventAbis.transfer, log);
    return a && { kind: 'transfer', token: lower(log.address), from: lower(a.from as string), to: lower(a.to as string), value: a.value as bigint };
  },
  [toEventSelector(eventAbis.ownershipTransferred)]: (log) => ({ kind: 'ownerEvent', contract: lower(log.address) }),
  [toEventSelector(eventAbis.upgraded)]: (log) => ({ kind: 'ownerEvent', contract: lower(log.address) }),
  [toEventSelector(eventAbis.adminChanged)]: (log) => ({ kind: 'ownerEvent', contract: lower(log.address) }),
};

/** topic0 values to ask eth_getLogs for (OR-ed in position 0) */
export const TOPICS: Hex[] = Object.keys(decoders) as Hex[];

export function decodeLog(log: RawLog): DecodedLog | undefined {
  const t0 = log.topics[0];
  if (!t0) return undefined;
  return decoders[t0.toLowerCase()]?.(log);
}

// ---------------------------------------------------------------------------------------------
// Mapping to schema events

export interface PoolTokens {
  token0: Addr;
  token1: Addr;
}

export interface TokenMeta {
  symbol: string;
  decimals: number;
  totalSupply: bigint;
}

export interface Quotes {
  weth: Addr;
  stables: Addr[];
  wethSymbol: string;
}

export interface BlockContext {
  number: number;
  hash: Hex;
  timestamp: number;
  /** tx hash (lowercase) -> tx.from (lowercase) */
  txFrom: Record<string, Addr>;
  /** the block's transactions that call a contract or move native value (lowercase addresses); absent when the block was read without them */
  calls?: { hash: string; from: Addr; to: Addr; value: bigint }[];
}

/** Running state of the mapping across logs, in block order. Plain JSON-able apart from bigints. */
export interface MapState {
  wethUsd: number;
  /** when set, Syncs of this WETH/stable pool update wethUsd */
  refPool?: Addr;
  /** last reserves seen per pool (from Sync), to price a swap right after it */
  reserves: Record<string, { reserve0: bigint; reserve1: bigint }>;
}

export interface MapContext {
  chain: string;
  quotes: Quotes;
  routers: Addr[];
  pool(addr: Addr): PoolTokens | undefined;
  meta(addr: Addr): TokenMeta | undefined;
  state: MapState;
}

export interface Orientation {
  token: Addr;
  quote: Addr;
  /** the token is token0 of the pool */
  tokenIs0: boolean;
}

function isStable(q: Quotes, a: Addr): boolean {
  return q.stables.includes(a);
}

function isQuote(q: Quotes, a: Addr): boolean {
  return a === q.weth || isStable(q, a);
}

/**
 * Which side of a pool is the token and which the quote asset. A stablecoin is preferred as quote
 * (so WETH/USDC is WETH priced in USDC); a pool with no quote asset is not priced.
 */
export function orient(q: Quotes, p: PoolTokens): Orientation | undefined {
  const q0 = isQuote(q, p.token0);
  const q1 = isQuote(q, p.token1);
  if (q1 && !q0) return { token: p.token0, quote: p.token1, tokenIs0: true };
  if (q0 && !q1) return { token: p.token1, quote: p.token0, tokenIs0: false };
  if (q0 && q1) {
    if (isStable(q, p.token1)) return { token: p.token0, quote: p.token1, tokenIs0: true };
    return { token: p.token1, quote: p.token0, tokenIs0: false };
  }
  return undefined;
}

export function quoteUsd(ctx: MapContext, quote: Addr): number {
  return isStable(ctx.quotes, quote) ? 1 : ctx.state.wethUsd;
}

export function toDecimal(raw: bigint, decimals: number): number {
  return Number(formatUnits(raw < 0n ? -raw : raw, decimals));
}

function absDiff(a: bigint, b: bigint): bigint {
  return a > b ? a - b : b - a;
}

/** Addresses whose pool tokens and metadata must be resolved before mapping the log. */
export function needs(d: DecodedLog): { pools: Addr[]; tokens: Addr[] } {
  switch (d.kind) {
    case 'pairCreated':
      return { pools: [], tokens: [d.token0, d.token1] };
    case 'transfer':
      // the contract may be an LP token (a pool): resolving it as a pool tells them apart
      return { pools: [d.token], tokens: [d.token] };
    case 'ownerEvent':
      return { pools: [], tokens: [] };
    default:
      return { pools: [d.pool], tokens: [] };
  }
}

/**
 * The trader of a swap: the swap's recipient, or the transaction sender when the recipient is a
 * router (it unwraps WETH or forwards) or another pool (a multi-hop route).
 */
function traderOf(ctx: MapContext, to: Addr, txFrom: Addr | undefined): Addr {
  if ((ctx.routers.includes(to) || ctx.pool(to) !== undefined) && txFrom) return txFrom;
  return to;
}

/**
 * Maps one decoded log to zero or more schema events, updating ctx.state (reserves, WETH price).
 * Logs must come in (block, logIndex) order.
 */
export function mapLog(d: DecodedLog, log: RawLog, block: BlockContext, ctx: MapContext): ChainEvent[] {
  const tx = (log.transactionHash ?? '0x').toLowerCase() as Hex;
  const origin = {
    chain: ctx.chain,
    block: block.number,
    blockHash: block.hash.toLowerCase(),
    tx,
    logIndex: log.logIndex ?? 0,
    timestamp: block.timestamp,
  };
  const txFrom = block.txFrom[tx];

  if (d.kind === 'transfer') {
    if (isQuote(ctx.quotes, d.token)) return [];
    // LP tokens are pools, not tokens we follow
    if (ctx.pool(d.token)) return [];
    const meta = ctx.meta(d.token);
    if (!meta) return [];
    return [{ ...origin, type: 'transfer', token: d.token, from: d.from, to: d.to, amount: toDecimal(d.value, meta.decimals) }];
  }

  if (d.kind === 'ownerEvent') return [];

  if (d.kind === 'pairCreated') {
    const o = orient(ctx.quotes, { token0: d.token0, token1: d.token1 });
    if (!o) return [];
    const meta = ctx.meta(o.token);
    const qmeta = ctx.meta(o.quote);
    if (!meta) return [];
    const quote = o.quote === ctx.quotes.weth ? ctx.quotes.wethSymbol : (qmeta?.symbol ?? 'USD');
    return [{
      ...origin, type: 'pool_created', token: o.token, pool: d.pair, symbol: meta.symbol, decimals: meta.decimals, quote,
      deployer: txFrom ?? d.factory, totalSupply: toDecimal(meta.totalSupply, meta.decimals),
    }];
  }

  const pool = ctx.pool(d.pool);
  if (!pool) return [];
  const o = orient(ctx.quotes, pool);
  if (!o) return [];
  const tm = ctx.meta(o.token);
  const qm = ctx.meta(o.quote);
  if (!tm || !qm) return [];
  const qUsd = () => quoteUsd(ctx, o.quote);
  const side = <T>(v0: T, v1: T) => (o.tokenIs0 ? [v0, v1] : [v1, v0]) as [T, T]; // [token, quote]

  switch (d.kind) {
    case 'v2Sync': {
      ctx.state.reserves[d.pool] = { reserve0: d.reserve0, reserve1: d.reserve1 };
      const [rt, rq] = side(d.reserve0, d.reserve1);
      const reserveToken = toDecimal(rt, tm.decimals);
      const reserveQuote = toDecimal(rq, qm.decimals);
      if (ctx.state.refPool === d.pool && o.token === ctx.quotes.weth && reserveToken > 0) {
        ctx.state.wethUsd = reserveQuote / reserveToken;
      }
      return [{ ...origin, type: 'sync', token: o.token, pool: d.pool, reserveToken, reserveQuote, liquidityUsd: 2 * reserveQuote * qUsd() }];
    }
    case 'v2Swap': {
      const [tIn, qIn] = side(d.amount0In, d.amount1In);
      const [tOut, qOut] = side(d.amount0Out, d.amount1Out);
      const buy = tOut > tIn;
      const amountToken = toDecimal(absDiff(tOut, tIn), tm.decimals);
      const amountQuote = toDecimal(absDiff(qIn, qOut), qm.decimals);
      if (amountToken === 0) return [];
      const r = ctx.state.reserves[d.pool];
      let priceQ = amountQuote / amountToken;
      if (r) {
        const [rt, rq] = side(r.reserve0, r.reserve1);
        const t = toDecimal(rt, tm.decimals);
        if (t > 0) priceQ = toDecimal(rq, qm.decimals) / t;
      }
      return [{
        ...origin, type: 'swap', token: o.token, pool: d.pool, trader: traderOf(ctx, d.to, txFrom), side: buy ? 'buy' : 'sell',
        amountToken, amountQuote, usd: amountQuote * qUsd(), priceUsd: priceQ * qUsd(),
      }];
    }
    case 'v3Swap': {
      // amounts are the pool's deltas: negative = paid out by the pool
      const [dt, dq] = side(d.amount0, d.amount1);
      const buy = dt < 0n;
      const amountToken = toDecimal(dt, tm.decimals);
      const amountQuote = toDecimal(dq, qm.decimals);
      if (amountToken === 0) return [];
      const m0 = o.tokenIs0 ? tm : qm;
      const m1 = o.tokenIs0 ? qm : tm;
      const sqrt = Number(d.sqrtPriceX96) / 2 ** 96;
      const price1Per0 = sqrt * sqrt * 10 ** (m0.decimals - m1.decimals);
      const priceQ = o.tokenIs0 ? price1Per0 : price1Per0 > 0 ? 1 / price1Per0 : amountQuote / amountToken;
      return [{
        ...origin, type: 'swap', token: o.token, pool: d.pool, trader: traderOf(ctx, d.recipient, txFrom), side: buy ? 'buy' : 'sell',
        amountToken, amountQuote, usd: amountQuote * qUsd(), priceUsd: priceQ * qUsd(),
      }];
    }
    case 'v2Mint':
    case 'v2Burn': {
      const [at, aq] = side(d.amount0, d.amount1);
      const amountToken = toDecimal(at, tm.decimals);
      const amountQuote = toDecimal(aq, qm.decimals);
      const provider = d.kind === 'v2Burn' ? traderOf(ctx, d.to, txFrom) : (txFrom ?? d.sender);
      return [{
        ...origin, type: 'liquidity', token: o.token, pool: d.pool, provider, action: d.kind === 'v2Mint' ? 'add' : 'remove',
        amountToken, amountQuote, usd: 2 * amountQuote * qUsd(),
      }];
    }
  }
}
