/**
 * Log decoders indexed by topic0 (Uniswap V2 Swap/Sync/Mint/Burn/PairCreated, Uniswap V3
 * PoolCreated/Initialize/Swap/Mint/Burn/Collect, ERC-20 Transfer) and the pure mapping from decoded
 * logs to the events of schemas/events.ts. No I/O here: pool tokens, token metadata, a V3 pool's
 * balances where it was first seen, and block/tx context are handed in.
 *
 * A V3 pool has no Sync: its reserves are its token balances, which only its own logs move (Mint
 * adds, Swap adds the signed deltas, Collect takes out; Burn only moves principal to the owed
 * amounts). The mapping keeps them from a balance read where the pool was first seen and emits a
 * `sync` after each change, so V2 and V3 pools are summed alike downstream.
 */
import { formatUnits, parseAbiItem, toEventSelector, type AbiEvent, type Hex } from 'viem';
import type { ChainEvent, Origin } from '../../schemas/events.ts';

export type Addr = `0x${string}`;

export const eventAbis = {
  v2Swap: parseAbiItem('event Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to)'),
  v2Sync: parseAbiItem('event Sync(uint112 reserve0, uint112 reserve1)'),
  v2Mint: parseAbiItem('event Mint(address indexed sender, uint amount0, uint amount1)'),
  v2Burn: parseAbiItem('event Burn(address indexed sender, uint amount0, uint amount1, address indexed to)'),
  pairCreated: parseAbiItem('event PairCreated(address indexed token0, address indexed token1, address pair, uint256 pairIndex)'),
  v3Swap: parseAbiItem('event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)'),
  v3PoolCreated: parseAbiItem('event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)'),
  v3Initialize: parseAbiItem('event Initialize(uint160 sqrtPriceX96, int24 tick)'),
  v3Mint: parseAbiItem('event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)'),
  v3Burn: parseAbiItem('event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)'),
  v3Collect: parseAbiItem('event Collect(address indexed owner, address recipient, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount0, uint128 amount1)'),
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
  | { kind: 'v3PoolCreated'; factory: Addr; token0: Addr; token1: Addr; fee: number; pool: Addr }
  | { kind: 'v3Initialize'; pool: Addr; sqrtPriceX96: bigint }
  /** liquidity added: the pool received amount0/amount1 */
  | { kind: 'v3Mint'; pool: Addr; owner: Addr; amount0: bigint; amount1: bigint }
  /** liquidity removed: its principal becomes owed to the owner (no tokens move until Collect) */
  | { kind: 'v3Burn'; pool: Addr; owner: Addr; amount0: bigint; amount1: bigint }
  /** owed tokens (principal and fees) paid out of the pool */
  | { kind: 'v3Collect'; pool: Addr; owner: Addr; recipient: Addr; amount0: bigint; amount1: bigint }
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

/**
 * Decodes a log of one of our events. Every field they have is a static ABI type (address, uintN,
 * intN, one 32-byte word each), so indexed fields are read from the topics and the rest from the
 * data's words directly: the same result as viem's strict decodeEventLog at a fraction of its cost
 * (the backfill decodes every log of every block). A log whose shape differs (same topic0, other
 * indexing, e.g. an ERC-721 Transfer) is not ours: undefined.
 */
function decodeWith(abi: AbiEvent, log: RawLog): Record<string, unknown> | undefined {
  const layout = layoutOf(abi);
  if (log.topics.length !== layout.indexed.length + 1 || log.data.length !== 2 + 64 * layout.data.length) return undefined;
  const out: Record<string, unknown> = {};
  for (let i = 0; i < layout.indexed.length; i++) {
    const f = layout.indexed[i] as Field;
    out[f.name] = word(f, (log.topics[i + 1] as string).slice(2));
  }
  for (let i = 0; i < layout.data.length; i++) {
    const f = layout.data[i] as Field;
    out[f.name] = word(f, log.data.slice(2 + 64 * i, 66 + 64 * i));
  }
  return out;
}

interface Field {
  name: string;
  kind: 'address' | 'uint' | 'int';
  bits: number;
}

const layouts = new WeakMap<AbiEvent, { indexed: Field[]; data: Field[] }>();

function layoutOf(abi: AbiEvent): { indexed: Field[]; data: Field[] } {
  let l = layouts.get(abi);
  if (!l) {
    const field = (p: AbiEvent['inputs'][number]): Field => {
      const m = /^(u?int)(\d*)$/.exec(p.type);
      if (p.type === 'address') return { name: p.name ?? '', kind: 'address', bits: 160 };
      if (!m) throw new Error(`decodeWith: ${p.type} is not a static type this decoder reads`);
      return { name: p.name ?? '', kind: m[1] === 'uint' ? 'uint' : 'int', bits: Number(m[2] || 256) };
    };
    l = { indexed: abi.inputs.filter((p) => p.indexed).map(field), data: abi.inputs.filter((p) => !p.indexed).map(field) };
    layouts.set(abi, l);
  }
  return l;
}

/** one 32-byte word (64 hex digits, no 0x) as the field's type (an address is its low 20 bytes, an intN sign-extended) */
function word(f: Field, hex: string): unknown {
  if (f.kind === 'address') return `0x${hex.slice(24)}`;
  const v = BigInt(`0x${hex}`);
  if (f.kind === 'uint') return v;
  return BigInt.asIntN(f.bits, v);
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
  [toEventSelector(eventAbis.v3PoolCreated)]: (log) => {
    const a = decodeWith(eventAbis.v3PoolCreated, log);
    return a && { kind: 'v3PoolCreated', factory: lower(log.address), token0: lower(a.token0 as string), token1: lower(a.token1 as string), fee: Number(a.fee), pool: lower(a.pool as string) };
  },
  [toEventSelector(eventAbis.v3Initialize)]: (log) => {
    const a = decodeWith(eventAbis.v3Initialize, log);
    return a && { kind: 'v3Initialize', pool: lower(log.address), sqrtPriceX96: a.sqrtPriceX96 as bigint };
  },
  [toEventSelector(eventAbis.v3Mint)]: (log) => {
    const a = decodeWith(eventAbis.v3Mint, log);
    return a && { kind: 'v3Mint', pool: lower(log.address), owner: lower(a.owner as string), amount0: a.amount0 as bigint, amount1: a.amount1 as bigint };
  },
  [toEventSelector(eventAbis.v3Burn)]: (log) => {
    const a = decodeWith(eventAbis.v3Burn, log);
    return a && { kind: 'v3Burn', pool: lower(log.address), owner: lower(a.owner as string), amount0: a.amount0 as bigint, amount1: a.amount1 as bigint };
  },
  [toEventSelector(eventAbis.v3Collect)]: (log) => {
    const a = decodeWith(eventAbis.v3Collect, log);
    return a && {
      kind: 'v3Collect', pool: lower(log.address), owner: lower(a.owner as string), recipient: lower(a.recipient as string), amount0: a.amount0 as bigint, amount1: a.amount1 as bigint,
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
  calls?: {
    hash: string;
    from: Addr;
    to: Addr;
    value: bigint;
    /** the 4-byte function selector called (0x…), '0x' for none */
    selector?: string;
    /** the whole input, kept only for calls that pay many wallets at once (disperse.ts) */
    input?: Hex;
  }[];
  /** contracts the block's transactions created (from the sender's nonce), by their creator */
  created?: { from: Addr; address: Addr }[];
}

/** A V3 pool's token balances (its reserves) and price, as its logs move them. */
export interface V3PoolState {
  balance0: bigint;
  balance1: bigint;
  /** 0 before the pool is initialized */
  sqrtPriceX96: bigint;
}

/** Running state of the mapping across logs, in block order. Plain JSON-able apart from bigints. */
export interface MapState {
  wethUsd: number;
  /** when set, Syncs of this WETH/stable pool update wethUsd */
  refPool?: Addr;
  /** last reserves seen per pool (from Sync), to price a swap right after it */
  reserves: Record<string, { reserve0: bigint; reserve1: bigint }>;
  /** V3 pools' balances, from where each was first seen (see v3Base in MapContext) */
  v3: Record<string, V3PoolState>;
}

export interface MapContext {
  chain: string;
  quotes: Quotes;
  routers: Addr[];
  pool(addr: Addr): PoolTokens | undefined;
  meta(addr: Addr): TokenMeta | undefined;
  /** a V3 pool's balances read right before the first of its logs being mapped (undefined: not read) */
  v3Base(addr: Addr): V3PoolState | undefined;
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
    case 'v3PoolCreated':
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

  if (d.kind === 'pairCreated' || d.kind === 'v3PoolCreated') {
    const pair = d.kind === 'pairCreated' ? d.pair : d.pool;
    if (d.kind === 'v3PoolCreated') ctx.state.v3[pair] = { balance0: 0n, balance1: 0n, sqrtPriceX96: 0n };
    const o = orient(ctx.quotes, { token0: d.token0, token1: d.token1 });
    if (!o) return [];
    const meta = ctx.meta(o.token);
    const qmeta = ctx.meta(o.quote);
    if (!meta) return [];
    const quote = o.quote === ctx.quotes.weth ? ctx.quotes.wethSymbol : (qmeta?.symbol ?? 'USD');
    return [{
      ...origin, type: 'pool_created', token: o.token, pool: pair, symbol: meta.symbol, decimals: meta.decimals, quote,
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
  
  switch (d.kind) {
    case 'v2Sync': {
      ctx.state.reserves[d.pool] = { reserve0: d.reserve0, reserve1: d.reserve1 };
      const [rt, rq] = side(o, d.reserve0, d.reserve1);
      const reserveToken = toDecimal(rt, tm.decimals);
      const reserveQuote = toDecimal(rq, qm.decimals);
      if (ctx.state.refPool === d.pool && o.token === ctx.quotes.weth && reserveToken > 0) {
        ctx.state.wethUsd = reserveQuote / reserveToken;
      }
      return [{ ...origin, type: 'sync', token: o.token, pool: d.pool, reserveToken, reserveQuote, liquidityUsd: 2 * reserveQuote * quoteUsd(ctx, o.quote) }];
    }
    case 'v2Swap': {
      const [tIn, qIn] = side(o, d.amount0In, d.amount1In);
      const [tOut, qOut] = side(o, d.amount0Out, d.amount1Out);
      const buy = tOut > tIn;
      const amountToken = toDecimal(absDiff(tOut, tIn), tm.decimals);
      const amountQuote = toDecimal(absDiff(qIn, qOut), qm.decimals);
      if (amountToken === 0) return [];
      const r = ctx.state.reserves[d.pool];
      let priceQ = amountQuote / amountToken;
      if (r) {
        const [rt, rq] = side(o, r.reserve0, r.reserve1);
        const t = toDecimal(rt, tm.decimals);
        if (t > 0) priceQ = toDecimal(rq, qm.decimals) / t;
      }
      return [{
        ...origin, type: 'swap', token: o.token, pool: d.pool, trader: traderOf(ctx, d.to, txFrom), side: buy ? 'buy' : 'sell',
        amountToken, amountQuote, usd: amountQuote * quoteUsd(ctx, o.quote), priceUsd: priceQ * quoteUsd(ctx, o.quote),
      }];
    }
    case 'v3Swap': {
      // amounts are the pool's deltas: negative = paid out by the pool
      const [dt, dq] = side(o, d.amount0, d.amount1);
      const buy = dt < 0n;
      const amountToken = toDecimal(dt, tm.decimals);
      const amountQuote = toDecimal(dq, qm.decimals);
      const pool = v3Pool(ctx, d.pool);
      if (pool) {
        pool.balance0 = nonNegative(pool.balance0 + d.amount0);
        pool.balance1 = nonNegative(pool.balance1 + d.amount1);
        pool.sqrtPriceX96 = d.sqrtPriceX96;
      }
      const out: ChainEvent[] = [];
      if (amountToken > 0) {
        const priceQ = v3QuotePerToken(d.sqrtPriceX96, o, tm, qm) ?? amountQuote / amountToken;
        out.push({
          ...origin, type: 'swap', token: o.token, pool: d.pool, trader: traderOf(ctx, d.recipient, txFrom), side: buy ? 'buy' : 'sell',
          amountToken, amountQuote, usd: amountQuote * quoteUsd(ctx, o.quote), priceUsd: priceQ * quoteUsd(ctx, o.quote),
        });
      }
      if (pool) out.push(v3Sync(ctx, pool, d.pool, o, tm, qm, origin));
      return out;
    }
    case 'v3Initialize': {
      const pool = v3Pool(ctx, d.pool);
      if (pool) pool.sqrtPriceX96 = d.sqrtPriceX96;
      return [];
    }
    case 'v3Mint':
    case 'v3Collect': {
      const pool = v3Pool(ctx, d.pool);
      const sign = d.kind === 'v3Mint' ? 1n : -1n;
      if (pool) {
        pool.balance0 = nonNegative(pool.balance0 + sign * d.amount0);
        pool.balance1 = nonNegative(pool.balance1 + sign * d.amount1);
      }
      const out: ChainEvent[] = [];
      if (d.kind === 'v3Mint') out.push(liquidityEvent(ctx, d.amount0, d.amount1, 'add', txFrom ?? d.owner, d.pool, o, tm, qm, origin));
      if (pool) out.push(v3Sync(ctx, pool, d.pool, o, tm, qm, origin));
      return out;
    }
    case 'v3Burn':
      // the principal leaves the position now and the pool at Collect (whose sync moves the reserves)
      if (d.amount0 === 0n && d.amount1 === 0n) return []; // a poke to update fees
      return [liquidityEvent(ctx, d.amount0, d.amount1, 'remove', txFrom ?? d.owner, d.pool, o, tm, qm, origin)];
    case 'v2Mint':
    case 'v2Burn': {
      const provider = d.kind === 'v2Burn' ? traderOf(ctx, d.to, txFrom) : (txFrom ?? d.sender);
      return [liquidityEvent(ctx, d.amount0, d.amount1, d.kind === 'v2Mint' ? 'add' : 'remove', provider, d.pool, o, tm, qm, origin)];
    }
  }
}

/** a pool's two values as [token side, quote side] (a module-level function: no closure per log) */
function side<T>(o: Orientation, v0: T, v1: T): [T, T] {
  return o.tokenIs0 ? [v0, v1] : [v1, v0];
}

function nonNegative(x: bigint): bigint {
  return x < 0n ? 0n : x;
}

/** a V3 pool's running balances: from its creation, else from the read where it was first seen; undefined when neither is known */
function v3Pool(ctx: MapContext, pool: Addr): V3PoolState | undefined {
  let s = ctx.state.v3[pool];
  if (!s) {
    const base = ctx.v3Base(pool);
    if (base) ctx.state.v3[pool] = s = { ...base };
  }
  return s;
}

/** quote units per token unit at a V3 price (sqrtPriceX96 = sqrt(token1/token0 in raw units) · 2^96); null before initialization */
export function v3QuotePerToken(sqrtPriceX96: bigint, o: Orientation, tm: TokenMeta, qm: TokenMeta): number | null {
  if (sqrtPriceX96 === 0n) return null;
  const sqrt = Number(sqrtPriceX96) / 2 ** 96;
  const [d0, d1] = o.tokenIs0 ? [tm.decimals, qm.decimals] : [qm.decimals, tm.decimals];
  const price1Per0 = sqrt * sqrt * 10 ** (d0 - d1);
  if (!(price1Per0 > 0) || !Number.isFinite(price1Per0)) return null;
  return o.tokenIs0 ? price1Per0 : 1 / price1Per0;
}

/**
 * What a pool holds, in USD: a V2 pool holds equal value on both sides (twice its quote reserve);
 * a V3 pool's sides differ with its ranges, so each side counts at the pool's price.
 */
export function poolLiquidityUsd(reserveToken: number, reserveQuote: number, quotePerToken: number | null, quoteUsd: number, dex: 'v2' | 'v3'): number {
  if (dex === 'v2' || quotePerToken === null) return 2 * reserveQuote * quoteUsd;
  return (reserveQuote + reserveToken * quotePerToken) * quoteUsd;
}

function v3Sync(ctx: MapContext, pool: V3PoolState, addr: Addr, o: Orientation, tm: TokenMeta, qm: TokenMeta, origin: Origin): ChainEvent {
  const reserveToken = toDecimal(o.tokenIs0 ? pool.balance0 : pool.balance1, tm.decimals);
  const reserveQuote = toDecimal(o.tokenIs0 ? pool.balance1 : pool.balance0, qm.decimals);
  const price = v3QuotePerToken(pool.sqrtPriceX96, o, tm, qm);
  if (ctx.state.refPool === addr && o.token === ctx.quotes.weth && price !== null) ctx.state.wethUsd = price;
  const liquidityUsd = poolLiquidityUsd(reserveToken, reserveQuote, price, quoteUsd(ctx, o.quote), 'v3');
  return { ...origin, type: 'sync', token: o.token, pool: addr, reserveToken, reserveQuote, liquidityUsd };
}

function liquidityEvent(
  ctx: MapContext, amount0: bigint, amount1: bigint, action: 'add' | 'remove', provider: Addr, pool: Addr, o: Orientation, tm: TokenMeta, qm: TokenMeta, origin: Origin,
): ChainEvent {
  const amountToken = toDecimal(o.tokenIs0 ? amount0 : amount1, tm.decimals);
  const amountQuote = toDecimal(o.tokenIs0 ? amount1 : amount0, qm.decimals);
  return { ...origin, type: 'liquidity', token: o.token, pool, provider, action, amountToken, amountQuote, usd: 2 * amountQuote * quoteUsd(ctx, o.quote) };
}
