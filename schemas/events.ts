import { z } from 'zod';

/** Lowercase `0x` + 40 hex. Normalisation (and EIP-55 checks) happen at the edges. */
export const Hex40 = z.string().regex(/^0x[0-9a-f]{40}$/, 'lowercase 0x-prefixed 20-byte address');
export const Hash = z.string().regex(/^0x[0-9a-f]{64}$/, 'lowercase 0x-prefixed 32-byte hash');

/**
 * Where an event came from. (chain, tx, logIndex) is its identity: every sink write is an
 * idempotent upsert on it. `removed: true` marks a retraction of an orphaned block's event.
 */
export const Origin = z.object({
  chain: z.string(),
  block: z.number().int().nonnegative(),
  blockHash: Hash,
  tx: Hash,
  logIndex: z.number().int().nonnegative(),
  /** unix seconds, from the block */
  timestamp: z.number().int().nonnegative(),
  removed: z.boolean().optional(),
});
export type Origin = z.infer<typeof Origin>;

/** A pool (pair) was created for a token against a quote asset. Carries the token's metadata. */
export const PoolCreated = Origin.extend({
  type: z.literal('pool_created'),
  token: Hex40,
  pool: Hex40,
  symbol: z.string(),
  decimals: z.number().int().min(0).max(36),
  quote: z.string(), // quote asset symbol: WETH, USDC, ...
  deployer: Hex40,
  totalSupply: z.number().nonnegative(),
});
export type PoolCreated = z.infer<typeof PoolCreated>;

/** A swap on a token's pool, seen from the trader: `buy` means the trader received the token. */
export const Swap = Origin.extend({
  type: z.literal('swap'),
  token: Hex40,
  pool: Hex40,
  trader: Hex40,
  side: z.enum(['buy', 'sell']),
  amountToken: z.number().nonnegative(),
  amountQuote: z.number().nonnegative(),
  /** USD value of the swap, priced through the pool's quote asset */
  usd: z.number().nonnegative(),
  /** USD price of one token right after the swap */
  priceUsd: z.number().nonnegative(),
});
export type Swap = z.infer<typeof Swap>;

/** ERC-20 transfer of a token (mints from and burns to the zero address included). */
export const Transfer = Origin.extend({
  type: z.literal('transfer'),
  token: Hex40,
  from: Hex40,
  to: Hex40,
  amount: z.number().nonnegative(),
  /** a quote asset's transfer published for the funding table (a deployer's native value or WETH), even when the asset has pools */
  funding: z.boolean().optional(),
});
export type Transfer = z.infer<typeof Transfer>;

/** Pool reserves after a change (Uniswap V2 Sync), valued in USD. */
export const Sync = Origin.extend({
  type: z.literal('sync'),
  token: Hex40,
  pool: Hex40,
  reserveToken: z.number().nonnegative(),
  reserveQuote: z.number().nonnegative(),
  liquidityUsd: z.number().nonnegative(),
});
export type Sync = z.infer<typeof Sync>;

/** Liquidity added to (mint) or removed from (burn) a pool by a provider. */
export const Liquidity = Origin.extend({
  type: z.literal('liquidity'),
  token: Hex40,
  pool: Hex40,
  provider: Hex40,
  action: z.enum(['add', 'remove']),
  amountToken: z.number().nonnegative(),
  amountQuote: z.number().nonnegative(),
  usd: z.number().nonnegative(),
});
export type Liquidity = z.infer<typeof Liquidity>;

/** What a step of the trade simulation did: whether it went through, the tax it showed, the revert. */
export const SimStep = z.object({
  ok: z.boolean(),
  /** share of the router's quote (or of what was sent) that did not arrive; null when not measured */
  taxPct: z.number().nullable(),
  /** the revert reason (Error(string), a panic, or a custom error's selector) when it failed */
  error: z.string().nullable(),
});
export type SimStep = z.infer<typeof SimStep>;

/** Liquidity and LP custody of one pool of a token, read from the pool and the LP token. */
export const PoolFacts = z.object({
  pool: Hex40,
  dex: z.enum(['v2', 'v3']),
  /** quote asset symbol */
  quote: z.string(),
  liquidityUsd: z.number().nonnegative(),
  /**
   * shares of the LP supply (V2), or of a V3 pool's in-range liquidity held as positions (NFTs of a
   * configured position manager; none locked): sent to the zero or dead address, locked (in a configured locker,
   * by locks whose unlock time was read and was ahead), held by the deployer side (the pair's
   * creator and the pools' first liquidity providers), by the owner
   */
  lp: z
    .object({
      burnedPct: z.number(),
      lockedPct: z.number(),
      deployerPct: z.number(),
      ownerPct: z.number(),
      /** the locks behind lockedPct, by unlock time (unix seconds): a lock counts until then. Absent on reads made before */
      locks: z.array(z.object({ pct: z.number(), until: z.number() })).optional(),
    })
    .nullable(),
});
export type PoolFacts = z.infer<typeof PoolFacts>;

/** one holder's simulated sells through one pool's router */
export const HolderSim = z.object({
  holder: Hex40,
  router: Hex40,
  pool: Hex40,
  sells: z.array(
    z.object({
      /** the share of the holder's balance sold */
      sharePct: z.number(),
      ok: z.boolean(),
      /** a lower bound of what the sell lost beyond the router's quote (a tax), percent; null when it reverted */
      lossAtLeastPct: z.number().nullable(),
      error: z.string().nullable(),
    }),
  ),
});
export type HolderSim = z.infer<typeof HolderSim>;

/**
 * What the token's contract says when read (not from its logs): a trade simulated by eth_call
 * (buy, second buy, transfer, sell), its owner and the powers its code holds, a proxy, and every
 * pool with its LP custody. Measured at `block` (its time is `timestamp`); `tx` is the block's
 * hash, as there is no transaction. The engine keeps the latest measurement per token.
 */
export const ContractFacts = Origin.extend({
  type: z.literal('contract'),
  token: Hex40,
  /** what made the ingester read the contract */
  trigger: z.enum(['launch', 'first-seen', 'owner', 'liquidity', 'ownership', 'schedule', 'head', 'dependency']),
  /** the address holds code */
  isContract: z.boolean(),
  owner: Hex40.nullable(),
  /** owner() answers the zero or dead address */
  renounced: z.boolean(),
  proxy: z.object({ kind: z.enum(['eip1967', 'beacon']), implementation: Hex40, admin: Hex40.nullable() }).nullable(),
  /** owner powers whose functions the code (or the implementation's) holds */
  powers: z.array(z.enum(['mint', 'blacklist', 'pause', 'fees', 'upgrade'])),
  sim: z
    .object({
      router: Hex40,
      pool: Hex40,
      path: z.array(Hex40),
      /** USD size of the simulated buy */
      buyUsd: z.number(),
      buy: SimStep,
      /** a second, smaller buy in the same block (cooldown or anti-bot limits) */
      rebuy: SimStep,
      transfer: SimStep,
      sell: SimStep,
      /** a larger buy alone (max-transaction or max-wallet limits) */
      largeBuy: z.object({ usd: z.number(), ok: z.boolean(), error: z.string().nullable() }).nullable(),
    })
    .nullable(),
  /** why there is no simulation (no pool on a known router, the node keeps no state at that block, ...) */
  simSkipped: z.string().nullable(),
  pools: z.array(PoolFacts),
  /**
   * sells simulated from real holders' own addresses (an eth_call from the holder, its allowance to
   * the router set by a state override) at a small share, a typical share and all of its balance:
   * what a fresh probe never meets (blacklists, per-holder cooldowns, tx.origin checks, sell caps,
   * taxes above a size). Absent on reads made before these were taken.
   */
  holderSims: z.array(HolderSim).optional(),
  /**
   * contracts the token's code or storage names (a guard, a fee manager, a router of its own),
   * other than its pools, the quote assets and the configured routers, each with its owner when
   * it has one: a call to any of them reads the token again. Absent on reads made before.
   */
  dependencies: z.array(z.object({ address: Hex40, owner: Hex40.nullable() })).optional(),
  /**
   * contracts among the token's largest receivers, read for what they hold for others (staking,
   * vesting, timelocks): `lockedShare` of their balance nobody on the deployer side can move at
   * will (0: counted as a holder), and why. Absent on reads made before.
   */
  holdings: z
    .array(z.object({ address: Hex40, kind: z.enum(['staking', 'vesting', 'locker', 'contract']), lockedShare: z.number().min(0).max(1), detail: z.string() }))
    .optional(),
});
export type ContractFacts = z.infer<typeof ContractFacts>;

/** A third-party OHLCV candle (no block origin: identity is chain, token, interval, openTime). */
export const Candle = z.object({
  type: z.literal('candle'),
  chain: z.string(),
  token: Hex40,
  interval: z.enum(['1m', '5m', '15m', '1h', '4h']),
  openTime: z.number().int().nonnegative(),
  open: z.number().nonnegative(),
  high: z.number().nonnegative(),
  low: z.number().nonnegative(),
  close: z.number().nonnegative(),
  volumeUsd: z.number().nonnegative(),
  source: z.string(),
});
export type Candle = z.infer<typeof Candle>;

export const TokenEvent = z.discriminatedUnion('type', [PoolCreated, Swap, Transfer, Sync, Liquidity, ContractFacts]);
export type TokenEvent = z.infer<typeof TokenEvent>;

export const ChainEvent = z.discriminatedUnion('type', [PoolCreated, Swap, Transfer, Sync, Liquidity, ContractFacts, Candle]);
export type ChainEvent = z.infer<typeof ChainEvent>;

/** Topic names of the log. Token topics are keyed `chain:token`, wallet topics `chain:wallet`. */
export const Topics = {
  /** pool_created, swap, transfer, sync, liquidity, contract: everything that changes a token's state */
  tokenEvents: 'token-events',
  candles: 'candles',
  /** swaps re-keyed by trader so that wallet state lives on one worker */
  tradesByWallet: 'trades.by-wallet',
  /** compacted: latest serialized snapshot per key, feeds the API replicas */
  snapshots: 'snapshots',
  /** one record per successful billed call */
  usage: 'usage',
  /** key revocations and creations, so caches drop them sooner */
  keys: 'keys',
  /** compacted: each wallet's grade history by event time, the table token workers join smart money with */
  walletGrades: 'wallet-grades',
  /** compacted: each token's final bands and flags, the table wallet workers join open books with */
  tokenFacts: 'token-facts',
  /** compacted: each wallet's first funding per quote asset, the table insiders and funders are read from */
  funding: 'funding',
} as const;

export function tokenKey(chain: string, token: string): string {
  return `${chain}:${token}`;
}

/** Identity of an event with a block origin: (chain, tx, logIndex). */
export function eventId(e: Origin): string {
  return `${e.chain}:${e.tx}:${e.logIndex}`;
}

/** Total order of events on one chain: block, then log index. */
export function eventPosition(e: Origin): number {
  return e.block * 100_000 + e.logIndex;
}
