import type { ContractFacts, Liquidity, PoolCreated, Swap, Sync, TokenEvent, Transfer } from '../../schemas/events.ts';
import { eventPosition } from '../../schemas/events.ts';
import type { SnapshotDigest } from './changes.ts';
import { foldEarly, type EarlyBuys } from './launch.ts';

/**
 * Per-token state folded from the token's events. Plain JSON (records and arrays, no Map/Set) so a
 * worker can checkpoint it with JSON.stringify.
 *
 * For speed the fold mutates the state it is given and returns it: it runs for every event, and a
 * copy per event would make it O(state). Callers that need the previous state clone it first.
 */

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
export const DEAD_ADDRESS = '0x000000000000000000000000000000000000dead';

/**
 * Retention of the fold. Everything the state keeps is bounded by a count or by event time (never
 * the clock), so a token's state does not grow with the length of its history.
 */
export const LIMITS = {
  /** 1-minute buckets cover the last hour; older minutes are merged into 5-minute buckets ... */
  minuteDetailSec: 3600,
  /** ... kept for the 5-minute bars derive reads (6 h), plus one carry bucket before them */
  fiveMinuteBars: 72,
  hourBuckets: 7 * 24 + 1, // 7 days of hourly candles (+ the open hour)
  recentIds: 512, // folded event ids kept for ties and retractions
  retractedIds: 128,
  recentSwaps: 128, // for restoring the last price / OHLC on retraction
  syncHistory: 64, // for restoring reserves on retraction
  recentBuyers: 200,
  txRing: 32, // per-tx transfer flows, for hidden-tax detection
  lpRemovals: 32,
  liquidityDrops: 16,
  /**
   * Trader records kept: over this many, the least recently active quarter is retired into sums
   * (RetiredTraders), never a trader active in the last `traderActiveSec` (the 24 h windows read
   * them), so the records are bounded by a day's traders plus this cap.
   */
  traders: 2_000,
  traderActiveSec: 25 * 3600,
  /** a fall in liquidity is measured against the high of this many trailing minutes */
  dropWindowMinutes: 30,
  /** a drain: removals over this trailing window (state.ts recordDrain) */
  drainWindowSec: 24 * 3600,
} as const;

export interface Bucket {
  /** start of the bucket, unix seconds */
  t: number;
  /** swaps in the bucket; o/h/l/c are 0 when n is 0 */
  n: number;
  o: number;
  h: number;
  l: number;
  c: number;
  /** USD volume */
  vol: number;
  buys: number;
  sells: number;
  buyVol: number;
  sellVol: number;
  /** buys by wallets whose first buy of this token fell in this bucket */
  newBuyers: number;
  /** liquidity (USD) high and last value seen in the bucket; -1 when no sync */
  liqHigh: number;
  liqClose: number;
  /** holder count at the last event of the bucket */
  holders: number;
}

export interface TraderRec {
  firstBuyTs: number | null;
  firstBlock: number;
  buys: number;
  sells: number;
  buyUsd: number;
  sellUsd: number;
  /** minute (unix minutes) of the last trade and trades in it, to spot bots */
  lastMinute: number;
  minuteTrades: number;
  maxPerMinute: number;
  lastBuyBlock: number;
  sameBlockRoundTrips: number;
  /** the last two buys (time, USD), so a retracted buy can restore the wallet in recentBuyers */
  lastBuy: { ts: number; usd: number } | null;
  prevBuy: { ts: number; usd: number } | null;
  /** times of the last two sells (-1: none); distinct sellers of a window come from them */
  lastSellTs: number;
  prevSellTs: number;
}

/**
 * A bounded set of event identities, kept as a ring (JSON-friendly, no Map). An identity is the
 * event's position (block, log index) with its tx and type; a forgotten slot holds position -1.
 */
export interface IdRing {
  pos: number[];
  tx: string[];
  type: string[];
  /** the slot the next identity overwrites once the ring is full */
  next: number;
}

export interface RecentBuyer {
  wallet: string;
  ts: number;
  usd: number;
}

export interface SyncRec {
  pos: number;
  ts: number;
  /** totals over the token's pools after this sync */
  reserveToken: number;
  reserveQuote: number;
  liquidityUsd: number;
  /** the pool that synced and its own values (absent in states written before pools were summed) */
  pool?: string;
  poolState?: PoolLiquidity;
}

/** one pool's latest reserves */
export interface PoolLiquidity {
  usd: number;
  reserveToken: number;
  reserveQuote: number;
}

export interface SwapRec {
  pos: number;
  ts: number;
  price: number;
}

export interface TxFlows {
  tx: string;
  pos: number;
  trader: string | null;
  side: 'buy' | 'sell' | null;
  /** token amounts sent (out) and received (in) per address within the tx */
  out: Record<string, number>;
  in: Record<string, number>;
}

export interface LpRemoval {
  pos: number;
  ts: number;
  tx: string;
  provider: string;
  usd: number;
}

/** liquidity added to one of the token's pools: where a migration's liquidity arrived */
export interface LpAdd {
  pos: number;
  ts: number;
  provider: string;
  pool: string;
  usd: number;
}

export interface LiquidityDrop {
  /** position and time of the sync that completed the drop */
  pos: number;
  ts: number;
  fromUsd: number;
  toUsd: number;
  /** providers whose removals fell inside the drop window */
  removedBy: string[];
  /** a drain: seconds from the first removal of the window to the one that completed it (absent: a fall within 30 minutes) */
  overSec?: number;
  /** USD the providers' removals took within the drop (absent on drops recorded before it was kept) */
  removedUsd?: number;
  /** the pool whose sync completed the drop (absent: recorded before it was kept) */
  pool?: string;
}

/**
 * One provider's liquidity taken out over the token's life, and what it put back after its first
 * removal (a migration re-adds), in USD at the time of each event.
 */
export interface ProviderWithdrawals {
  removedUsd: number;
  readdedUsd: number;
  removals: number;
  firstTs: number;
  lastTs: number;
}

/**
 * Trader records retired when a token has more than LIMITS.traders, summed as derive reads them:
 * insiders as known when retired (the deployer and state.insiders; wallets derive is told about
 * later count as outsiders), bots by their counters then. A retired wallet that trades again gets
 * a new record, so it counts twice among buyers (an overcount of distinct lifetime buyers).
 */
export interface RetiredTraders {
  traders: number;
  buyers: number;
  nonInsiderBuyers: number;
  organicBuyers: number;
  nonInsiderSellers: number;
  bots: number;
  /** USD volume (buys and sells) and that of wallets neither bots nor insiders */
  vol: number;
  organicVol: number;
  firstBuyTs: number | null;
}

export interface TaxStats {
  samples: number;
  sum: number;
  max: number;
}

export interface TokenState {
  v: 2;
  chain: string;
  token: string;
  meta: {
    symbol: string | null;
    decimals: number | null;
    quote: string | null;
    deployer: string | null;
    /** the token's first pool */
    pool: string | null;
    /** its other pools (a second pair, another quote asset): excluded from holders like the first */
    pools?: string[];
    totalSupply: number | null;
    createdAt: number | null;
    createdBlock: number | null;
  };
  /** highest folded eventPosition; -1 before the first event */
  lastPosition: number;
  /** latest event timestamp folded (unix seconds) */
  lastTs: number;
  firstTs: number | null;
  /** highest position ever folded or remembered (never rolled back): an event above it is new */
  highPos: number;
  /** identities of recently folded events, and of recently retracted ones */
  recent: IdRing;
  retracted: IdRing;
  swaps: number;
  price: number | null;
  recentSwaps: SwapRec[];
  /** 1-minute buckets at or after `minutesMergedUntil`, 5-minute buckets before it (LIMITS) */
  minutes: Bucket[];
  minutesMergedUntil: number;
  hours: Bucket[];
  liquidity: {
    usd: number | null;
    reserveToken: number | null;
    reserveQuote: number | null;
    peakUsd: number;
    history: SyncRec[];
    /** each pool's latest reserves; usd and the reserves above are their sums (the largest pool's quote reserve) */
    pools?: Record<string, PoolLiquidity>;
    /** provider → net USD added (adds minus removes) */
    providers: Record<string, number>;
    removals: LpRemoval[];
    /** the latest adds (absent in states written before they were kept) */
    adds?: LpAdd[];
    drops: LiquidityDrop[];
    /** provider → what it took out over the token's life (slow drains pass every windowed rule) */
    withdrawals?: Record<string, ProviderWithdrawals>;
    /** pool → the provider of its first liquidity: deployer side, whoever it is */
    firstProviders?: Record<string, string>;
  };
  holders: {
    /** balances of holders (pool, zero and dead addresses excluded) */
    balances: Record<string, number>;
    count: number;
    poolBalance: number;
    burned: number;
    minted: number;
  };
  traders: Record<string, TraderRec>;
  /** how many trader records there are, and the sums of those retired (LIMITS.traders) */
  traderCount: number;
  retired: RetiredTraders;
  recentBuyers: RecentBuyer[];
  /** wallet → why it is an insider (deployer transfer, launch-block buyer, funding) */
  insiders: Record<string, string>;
  txs: TxFlows[];
  tax: { buy: TaxStats; sell: TaxStats };
  /** digests of the snapshots written for this token (token-changes compares with them) */
  written: SnapshotDigest[];
  /** hour (unix hours) of the last price mark fanned out to the token's recent traders */
  lastMarkHour: number;
  /**
   * for a quote asset (no pool): the wallets it has funded, so only a wallet's first funding goes
   * to the funding table (set by the runtime's fan-out)
   */
  funded?: Record<string, 1>;
  /** the latest reads of the token's contract (schemas/events.ts ContractFacts), oldest first, by block */
  contract?: ContractFacts[];
  /** first buys in the first blocks of the token's first pool (launch.ts): snipers and bundles */
  early?: EarlyBuys;
  /** liquidity adds in those blocks (launch.ts): their providers are deployer side */
  earlyLp?: EarlyBuys;
}

export function initialTokenState(chain: string, token: string): TokenState {
  return {
    v: 2,
    chain,
    token,
    meta: {
      symbol: null,
      decimals: null,
      quote: null,
      deployer: null,
      pool: null,
      totalSupply: null,
      createdAt: null,
      createdBlock: null,
    },
    lastPosition: -1,
    lastTs: 0,
    firstTs: null,
    highPos: -1,
    recent: emptyRing(),
    retracted: emptyRing(),
    swaps: 0,
    price: null,
    recentSwaps: [],
    minutes: [],
    minutesMergedUntil: 0,
    hours: [],
    liquidity: {
      usd: null,
      reserveToken: null,
      reserveQuote: null,
      peakUsd: 0,
      history: [],
      providers: {},
      removals: [],
      drops: [],
    },
    holders: { balances: {}, count: 0, poolBalance: 0, burned: 0, minted: 0 },
    traders: {},
    traderCount: 0,
    retired: { traders: 0, buyers: 0, nonInsiderBuyers: 0, organicBuyers: 0, nonInsiderSellers: 0, bots: 0, vol: 0, organicVol: 0, firstBuyTs: null },
    recentBuyers: [],
    insiders: {},
    txs: [],
    tax: { buy: { samples: 0, sum: 0, max: 0 }, sell: { samples: 0, sum: 0, max: 0 } },
    written: [],
    lastMarkHour: -1,
  };
}

/**
 * Fold one event into the token's state (mutates and returns `state`).
 *
 * Identity of an event: its position (block, log index) with its tx and type, so a sloppy source
 * that reuses a log index for two kinds of event still has both folded, and a tx re-included in
 * another block by a reorg is another event. Idempotence: events of a block below the highest
 * folded one are ignored, and so are events among the recently folded (redelivery of the last
 * block, ties, a block's events in another order). Retractions (`removed: true`) of a folded
 * event reverse it and roll the high-water position back, so the replacement events of the new
 * branch are accepted.
 */
export function foldTokenEvent(state: TokenState, e: TokenEvent): TokenState {
  if (e.token !== state.token) return state;
  // a contract read is a measurement, not a chain event: it never moves the position (a read at
  // the head may arrive while older blocks are still being folded); the latest by block stands
  if (e.type === 'contract') return foldContract(state, e);
  const pos = eventPosition(e);
  // every remembered identity is at or below highPos: an event above it was never seen (the
  // common case, an in-order stream, needs no lookup)
  const seen = pos <= state.highPos;
  if (e.removed) {
    if (seen && ringFind(state.retracted, pos, e.tx, e.type) >= 0) return state;
    const at = seen ? ringFind(state.recent, pos, e.tx, e.type) : -1;
    if (at < 0 && pos > state.lastPosition) return state; // never folded
    if (at >= 0) state.recent.pos[at] = -1;
    ringAdd(state.retracted, pos, e.tx, e.type, LIMITS.retractedIds);
    retract(state, e);
    if (pos - 1 < state.lastPosition) state.lastPosition = pos - 1;
    return state;
  }
  // Older blocks were folded already; within the latest block the order may differ (a source may
  // publish a block's transfers after its swaps), so there the recent ids decide.
  if (pos < state.lastPosition && blockOf(pos) < blockOf(state.lastPosition)) return state;
  if (seen) {
    if (ringFind(state.recent, pos, e.tx, e.type) >= 0) return state;
    const r = ringFind(state.retracted, pos, e.tx, e.type);
    if (r >= 0) state.retracted.pos[r] = -1; // re-included by a later reorg
  } else state.highPos = pos;
  if (pos > state.lastPosition) state.lastPosition = pos;
  if (e.timestamp > state.lastTs) {
    const slotBefore = fiveOf(state.lastTs);
    state.lastTs = e.timestamp;
    if (fiveOf(e.timestamp) !== slotBefore) thinMinutes(state);
  }
  if (state.firstTs === null || e.timestamp < state.firstTs) state.firstTs = e.timestamp;
  ringAdd(state.recent, pos, e.tx, e.type, LIMITS.recentIds);
  switch (e.type) {
    case 'pool_created':
      foldPoolCreated(state, e);
      break;
    case 'swap':
      foldSwap(state, e, 1);
      break;
    case 'transfer':
      foldTransfer(state, e, 1);
      break;
    case 'sync':
      foldSync(state, e);
      break;
    case 'liquidity':
      foldLiquidity(state, e, 1);
      break;
  }
  return state;
}

/** contract reads kept per token (a retraction falls back to the one before) */
const CONTRACT_READS = 4;

function foldContract(state: TokenState, e: ContractFacts): TokenState {
  const list = (state.contract ??= []).filter((c) => c.blockHash !== e.blockHash || c.block !== e.block);
  if (!e.removed) {
    let i = list.length;
    while (i > 0 && (list[i - 1] as ContractFacts).block > e.block) i--;
    list.splice(i, 0, e);
  }
  state.contract = list.slice(-CONTRACT_READS);
  return state;
}

/** the latest read of the token's contract, if any */
export function latestContract(state: TokenState): ContractFacts | null {
  return state.contract?.[state.contract.length - 1] ?? null;
}

/** how long a holder's simulated sells stand as evidence when later reads simulate other holders */
export const HOLDER_EVIDENCE_SEC = 24 * 3600;

/**
 * The latest read with the holders' simulated sells of every kept read of the last day, the
 * latest per holder and pool: a read that simulates other holders (decoys that bought last) does
 * not clear what an earlier read found for a holder; a later read of that same holder does.
 */
export function contractWithHolders(state: TokenState): ContractFacts | null {
  const latest = latestContract(state);
  if (!latest) return null;
  const byHolder = new Map<string, NonNullable<ContractFacts['holderSims']>[number]>();
  for (const read of state.contract ?? []) {
    if (read.timestamp < latest.timestamp - HOLDER_EVIDENCE_SEC) continue;
    for (const h of read.holderSims ?? []) byHolder.set(`${h.holder}|${h.pool}`, h);
  }
  return byHolder.size === 0 ? latest : { ...latest, holderSims: [...byHolder.values()] };
}

function blockOf(position: number): number {
  return Math.floor(position / 100_000);
}

/** Fold a batch of events in order. */
export function foldTokenEvents(state: TokenState, events: readonly TokenEvent[]): TokenState {
  for (const e of events) foldTokenEvent(state, e);
  return state;
}

function retract(state: TokenState, e: TokenEvent): void {
  switch (e.type) {
    case 'pool_created':
      // the pool of an orphaned block never existed; keep metadata only if another creation re-adds it
      state.meta.createdAt = null;
      state.meta.createdBlock = null;
      break;
    case 'swap':
      foldSwap(state, e, -1);
      break;
    case 'transfer':
      foldTransfer(state, e, -1);
      break;
    case 'sync':
      retractSync(state, e);
      break;
    case 'liquidity':
      foldLiquidity(state, e, -1);
      break;
  }
  state.txs = state.txs.filter((t) => t.tx !== e.tx);
}

// ---------------------------------------------------------------------------------------------
// pool_created

function foldPoolCreated(state: TokenState, e: PoolCreated): void {
  const m = state.meta;
  if (m.createdAt !== null && m.pool !== null && m.pool !== e.pool) {
    setPool(state, e.pool); // another pool of a token we know: its launch stays the first pool's
    return;
  }
  m.symbol = e.symbol;
  m.decimals = e.decimals;
  m.quote = e.quote;
  m.deployer = e.deployer;
  m.totalSupply = e.totalSupply;
  m.createdAt = e.timestamp;
  m.createdBlock = e.block;
  setPool(state, e.pool);
}

/**
 * Learn a pool address: the first is `meta.pool`, later ones join `meta.pools`; a balance
 * recorded before we knew it moves out of the holders.
 */
function setPool(state: TokenState, pool: string): void {
  const m = state.meta;
  if (m.pool === pool || m.pools?.includes(pool)) return;
  if (m.pool === null) m.pool = pool;
  else (m.pools ??= []).push(pool);
  const h = state.holders;
  const bal = h.balances[pool];
  if (bal !== undefined) {
    if (bal > 0) h.count -= 1;
    h.poolBalance += bal;
    delete h.balances[pool];
  }
}

// ---------------------------------------------------------------------------------------------
// buckets

function emptyBucket(t: number, holders: number): Bucket {
  return { t, n: 0, o: 0, h: 0, l: 0, c: 0, vol: 0, buys: 0, sells: 0, buyVol: 0, sellVol: 0, newBuyers: 0, liqHigh: -1, liqClose: -1, holders };
}

/**
 * The bucket starting at `t` (created when missing and `create`), or null. `keep` caps the list
 * (oldest dropped); a bucket older than everything a full list retains is not created. Events
 * arrive almost in order, so the search walks back from the end.
 */
function bucketAt(list: Bucket[], t: number, keep: number, holders: number, create: boolean): Bucket | null {
  for (let i = list.length - 1; i >= 0; i--) {
    const b = list[i]!;
    if (b.t === t) return b;
    if (b.t < t) {
      if (!create) return null;
      const nb = emptyBucket(t, holders);
      if (i === list.length - 1) list.push(nb);
      else list.splice(i + 1, 0, nb);
      if (list.length > keep) list.splice(0, list.length - keep);
      return nb;
    }
  }
  if (!create) return null;
  if (list.length >= keep) return null; // older than everything retained
  const nb = emptyBucket(t, holders);
  list.unshift(nb);
  return nb;
}

function minuteOf(ts: number): number {
  return ts - (ts % 60);
}
function fiveOf(ts: number): number {
  return ts - (ts % 300);
}
function hourOf(ts: number): number {
  return ts - (ts % 3600);
}

/** The minute bucket of `ts`; before `minutesMergedUntil`, the 5-minute bucket it was merged into. */
function minuteBucket(state: TokenState, ts: number, create: boolean): Bucket | null {
  const t = minuteOf(ts);
  if (t < state.minutesMergedUntil) return bucketAt(state.minutes, fiveOf(t), Infinity, 0, false);
  return bucketAt(state.minutes, t, Infinity, state.holders.count, create);
}

function hourBucket(state: TokenState, ts: number, create: boolean): Bucket | null {
  return bucketAt(state.hours, hourOf(ts), LIMITS.hourBuckets, state.holders.count, create);
}

/**
 * Thin the minute buckets as event time moves on (called when lastTs enters a new 5-minute slot,
 * the only time what it does changes): the
 * minutes of 5-minute slots that ended more than LIMITS.minuteDetailSec ago are merged into one
 * 5-minute bucket (what derive reads of them: counts, volumes, OHLC, liquidity close and high,
 * holders); 5-minute buckets before the first of the 5-minute bars derive reads are dropped but
 * for the newest one with trades (the close before the bars) and the newest one with a liquidity
 * close (liquidity an hour ago on a quiet pool). A function of lastTs alone, so every replay,
 * whatever its batches, thins the same.
 */
function thinMinutes(state: TokenState): void {
  const list = state.minutes;
  const mergeUntil = fiveOf(state.lastTs - LIMITS.minuteDetailSec);
  if (mergeUntil > state.minutesMergedUntil) {
    let i = 0;
    while (i < list.length && list[i]!.t < state.minutesMergedUntil) i++;
    const first = i;
    const merged: Bucket[] = [];
    while (i < list.length && list[i]!.t < mergeUntil) {
      const b = list[i]!;
      const t = fiveOf(b.t);
      const cur = merged[merged.length - 1];
      if (cur && cur.t === t) mergeInto(cur, b);
      else merged.push({ ...b, t });
      i++;
    }
    if (i > first) list.splice(first, i - first, ...merged);
    state.minutesMergedUntil = mergeUntil;
  }
  const keepFrom = fiveOf(state.lastTs) - (LIMITS.fiveMinuteBars - 1) * 300;
  let old = 0;
  while (old < list.length && list[old]!.t < keepFrom) old++;
  if (old <= 1) return;
  let traded = -1;
  let liq = -1;
  for (let i = old - 1; i >= 0 && (traded < 0 || liq < 0); i--) {
    if (traded < 0 && list[i]!.n > 0) traded = i;
    if (liq < 0 && list[i]!.liqClose >= 0) liq = i;
  }
  const carry: Bucket[] = [];
  for (let i = 0; i < old; i++) if (i === traded || i === liq) carry.push(list[i]!);
  list.splice(0, old, ...carry);
}

/** Add a later bucket `b` of the same slot into `into` (buckets in time order). */
function mergeInto(into: Bucket, b: Bucket): void {
  if (b.n > 0) {
    if (into.n <= 0) {
      into.o = b.o;
      into.h = b.h;
      into.l = b.l;
    } else {
      if (b.h > into.h) into.h = b.h;
      if (b.l < into.l) into.l = b.l;
    }
    into.c = b.c;
  }
  into.n += b.n;
  into.vol += b.vol;
  into.buys += b.buys;
  into.sells += b.sells;
  into.buyVol += b.buyVol;
  into.sellVol += b.sellVol;
  into.newBuyers += b.newBuyers;
  if (b.liqHigh > into.liqHigh) into.liqHigh = b.liqHigh;
  if (b.liqClose >= 0) into.liqClose = b.liqClose;
  into.holders = b.holders;
}

function addCount(rec: Record<string, number>, key: string, d: number): void {
  const n = (rec[key] ?? 0) + d;
  if (n > 0) rec[key] = n;
  else delete rec[key];
}

// ---------------------------------------------------------------------------------------------
// swap

function newTrader(block: number): TraderRec {
  return {
    firstBuyTs: null,
    firstBlock: block,
    buys: 0,
    sells: 0,
    buyUsd: 0,
    sellUsd: 0,
    lastMinute: -1,
    minuteTrades: 0,
    maxPerMinute: 0,
    lastBuyBlock: -1,
    sameBlockRoundTrips: 0,
    lastBuy: null,
    prevBuy: null,
    lastSellTs: -1,
    prevSellTs: -1,
  };
}

function foldSwap(state: TokenState, e: Swap, sign: 1 | -1): void {
  setPool(state, e.pool);
  const buy = e.side === 'buy';
  const pos = eventPosition(e);
  state.swaps += sign;
  if (buy) foldEarly((state.early ??= {}), state.meta.createdBlock, e.block, e.trader, sign);

  // trader record (bot counters are not reversed: a retraction is rare and they only grow)
  let tr = state.traders[e.trader];
  if (!tr && sign > 0) {
    tr = newTrader(e.block);
    state.traders[e.trader] = tr;
    state.traderCount += 1;
  }
  let firstBuy = false;
  if (!tr) {
    // retraction of a trade whose trader record is gone: only the buckets are reversed
  } else if (buy) {
    tr.buys += sign;
    tr.buyUsd = Math.max(0, tr.buyUsd + sign * e.usd);
    if (sign > 0 && tr.firstBuyTs === null) {
      tr.firstBuyTs = e.timestamp;
      firstBuy = true;
    } else if (sign < 0 && tr.buys <= 0) {
      tr.firstBuyTs = null;
      firstBuy = true;
    }
  } else {
    tr.sells += sign;
    tr.sellUsd = Math.max(0, tr.sellUsd + sign * e.usd);
    if (sign > 0) {
      tr.prevSellTs = tr.lastSellTs;
      tr.lastSellTs = e.timestamp;
    } else if (tr.lastSellTs === e.timestamp) {
      tr.lastSellTs = tr.prevSellTs;
      tr.prevSellTs = -1;
    }
  }
  if (tr && sign > 0) {
    const minute = Math.floor(e.timestamp / 60);
    if (tr.lastMinute === minute) tr.minuteTrades += 1;
    else {
      tr.lastMinute = minute;
      tr.minuteTrades = 1;
    }
    if (tr.minuteTrades > tr.maxPerMinute) tr.maxPerMinute = tr.minuteTrades;
    if (buy) {
      tr.lastBuyBlock = e.block;
      tr.prevBuy = tr.lastBuy;
      tr.lastBuy = { ts: e.timestamp, usd: e.usd };
    }
    else if (tr.lastBuyBlock === e.block) tr.sameBlockRoundTrips += 1;
    if (buy && state.meta.createdBlock !== null && e.block === state.meta.createdBlock && e.trader !== state.meta.deployer) {
      state.insiders[e.trader] ??= 'bought in the pool-creation block';
    }
  }
  if (tr && tr.buys <= 0 && tr.sells <= 0 && sign < 0) {
    delete state.traders[e.trader];
    state.traderCount -= 1;
  }
  // once this trade is on its record (a new record is the most recently active, never retired)
  if (state.traderCount > LIMITS.traders) retireTraders(state, e.timestamp);

  // buckets (distinct buyers and sellers of a window come from the trader records' last trades)
  const mb = minuteBucket(state, e.timestamp, sign > 0);
  if (mb) addSwap(mb, e, sign, buy, firstBuy);
  const hb = hourBucket(state, e.timestamp, sign > 0);
  if (hb) addSwap(hb, e, sign, buy, firstBuy);

  // last price and recent buyers
  if (sign > 0) {
    state.recentSwaps.push({ pos, ts: e.timestamp, price: e.priceUsd });
    if (state.recentSwaps.length > LIMITS.recentSwaps) state.recentSwaps.shift();
    state.price = e.priceUsd;
    if (buy) {
      const rb = state.recentBuyers;
      const at = rb.findIndex((x) => x.wallet === e.trader);
      if (at >= 0) rb.splice(at, 1);
      rb.unshift({ wallet: e.trader, ts: e.timestamp, usd: e.usd });
      if (rb.length > LIMITS.recentBuyers) rb.pop();
    }
  } else {
    const at = state.recentSwaps.findIndex((s) => s.pos === pos);
    if (at >= 0) state.recentSwaps.splice(at, 1);
    const last = state.recentSwaps[state.recentSwaps.length - 1];
    state.price = last ? last.price : state.price;
    if (buy) {
      const rb = state.recentBuyers;
      const i = rb.findIndex((x) => x.wallet === e.trader && x.ts === e.timestamp);
      if (i >= 0) rb.splice(i, 1);
      if (tr && tr.lastBuy && tr.lastBuy.ts === e.timestamp) {
        tr.lastBuy = tr.prevBuy;
        tr.prevBuy = null;
      }
      // the wallet's previous buy takes its place again, in time order
      const back = tr?.lastBuy;
      if (i >= 0 && back && !rb.some((x) => x.wallet === e.trader)) {
        let at = rb.findIndex((x) => x.ts < back.ts);
        if (at < 0) at = rb.length;
        if (at < LIMITS.recentBuyers) rb.splice(at, 0, { wallet: e.trader, ts: back.ts, usd: back.usd });
      }
    }
    rebuildOhlc(state, e.timestamp);
  }

  // tx flows: the swap names the trader and side of its tx
  if (sign > 0) {
    const tx = txFlows(state, e.tx, pos - e.logIndex);
    tx.trader = e.trader;
    tx.side = e.side;
  }
}

export const BOT_TRADES_PER_MINUTE = 5;

/** A bot by its trader record: many trades in one minute, or a same-block buy→sell round trip. */
export function isBotTrader(t: TraderRec): boolean {
  return t.maxPerMinute >= BOT_TRADES_PER_MINUTE || t.sameBlockRoundTrips >= 1;
}

/**
 * Retire the least recently active quarter of the trader records (by last trade, then address:
 * the same on every replay) into state.retired, sparing those active in the last
 * LIMITS.traderActiveSec of event time.
 */
function retireTraders(state: TokenState, now: number): void {
  const activeFrom = Math.floor((now - LIMITS.traderActiveSec) / 60);
  const idle: [string, TraderRec][] = [];
  for (const w in state.traders) {
    const t = state.traders[w]!;
    if (t.lastMinute < activeFrom) idle.push([w, t]);
  }
  if (idle.length === 0) return;
  idle.sort((a, b) => a[1].lastMinute - b[1].lastMinute || (a[0] < b[0] ? -1 : 1));
  const r = state.retired;
  const deployer = state.meta.deployer;
  for (const [w, t] of idle.slice(0, Math.ceil(LIMITS.traders / 4))) {
    const insider = w === deployer || state.insiders[w] !== undefined;
    const bot = isBotTrader(t);
    r.traders += 1;
    r.vol += t.buyUsd + t.sellUsd;
    if (bot) r.bots += 1;
    if (!insider && !bot) r.organicVol += t.buyUsd + t.sellUsd;
    if (t.buys > 0) {
      r.buyers += 1;
      if (!insider) r.nonInsiderBuyers += 1;
      if (!insider && !bot) r.organicBuyers += 1;
      if (t.firstBuyTs !== null && (r.firstBuyTs === null || t.firstBuyTs < r.firstBuyTs)) r.firstBuyTs = t.firstBuyTs;
    }
    if (t.sells > 0 && !insider) r.nonInsiderSellers += 1;
    delete state.traders[w];
    state.traderCount -= 1;
  }
}

function addSwap(b: Bucket, e: Swap, sign: 1 | -1, buy: boolean, firstBuy: boolean): void {
  b.n += sign;
  b.vol = Math.max(0, b.vol + sign * e.usd);
  if (buy) {
    b.buys += sign;
    b.buyVol = Math.max(0, b.buyVol + sign * e.usd);
    if (firstBuy) b.newBuyers = Math.max(0, b.newBuyers + sign);
  } else {
    b.sells += sign;
    b.sellVol = Math.max(0, b.sellVol + sign * e.usd);
  }
  if (sign > 0) {
    if (b.n === 1) {
      b.o = e.priceUsd;
      b.h = e.priceUsd;
      b.l = e.priceUsd;
    } else {
      if (e.priceUsd > b.h) b.h = e.priceUsd;
      if (e.priceUsd < b.l) b.l = e.priceUsd;
    }
    b.c = e.priceUsd;
  }
}

/** After a swap is retracted, rebuild the OHLC of its minute from the recent swaps and of its
 * hour from its minutes. */
function rebuildOhlc(state: TokenState, ts: number): void {
  const mt = minuteOf(ts);
  const m = mt >= state.minutesMergedUntil ? minuteBucket(state, ts, false) : null;
  if (m) {
    const prices = state.recentSwaps.filter((s) => minuteOf(s.ts) === mt).map((s) => s.price);
    setOhlc(m, prices);
  }
  const ht = hourOf(ts);
  const h = hourBucket(state, ts, false);
  if (h) {
    const mins = state.minutes.filter((b) => hourOf(b.t) === ht && b.n > 0);
    if (mins.length === 0 || h.n <= 0) {
      h.o = h.h = h.l = h.c = 0;
    } else {
      h.o = mins[0]!.o;
      h.c = mins[mins.length - 1]!.c;
      h.h = Math.max(...mins.map((b) => b.h));
      h.l = Math.min(...mins.map((b) => b.l));
    }
  }
}

function setOhlc(b: Bucket, prices: number[]): void {
  if (prices.length === 0 || b.n <= 0) {
    b.o = b.h = b.l = b.c = 0;
    return;
  }
  b.o = prices[0]!;
  b.c = prices[prices.length - 1]!;
  b.h = Math.max(...prices);
  b.l = Math.min(...prices);
}

// ---------------------------------------------------------------------------------------------
// transfer

/** one of the token's pools */
export function isPoolOf(state: TokenState, addr: string): boolean {
  return addr === state.meta.pool || (state.meta.pools?.includes(addr) ?? false);
}

function isExcluded(state: TokenState, addr: string): boolean {
  return addr === ZERO_ADDRESS || addr === DEAD_ADDRESS || isPoolOf(state, addr);
}

function addBalance(state: TokenState, addr: string, d: number): void {
  const h = state.holders;
  if (isPoolOf(state, addr)) {
    h.poolBalance += d;
    return;
  }
  if (addr === ZERO_ADDRESS) return;
  if (addr === DEAD_ADDRESS) {
    h.burned += d;
    return;
  }
  const before = h.balances[addr] ?? 0;
  let after = before + d;
  // dust left by float arithmetic is not a holder. Negative balances (history we never saw) are
  // kept so that a retraction reverses exactly; only positive balances are holders.
  if (Math.abs(after) <= 1e-9 * Math.max(1, Math.abs(before), Math.abs(d))) after = 0;
  if (before <= 0 && after > 0) h.count += 1;
  if (before > 0 && after <= 0) h.count -= 1;
  if (after !== 0) h.balances[addr] = after;
  else delete h.balances[addr];
}

function foldTransfer(state: TokenState, e: Transfer, sign: 1 | -1): void {
  const amt = sign * e.amount;
  addBalance(state, e.from, -amt);
  addBalance(state, e.to, amt);
  if (e.from === ZERO_ADDRESS) state.holders.minted += amt;
  if (e.to === ZERO_ADDRESS) state.holders.burned += amt;
  if (sign > 0) {
    const d = state.meta.deployer;
    if (d !== null && e.from === d && !isExcluded(state, e.to) && e.to !== d) {
      state.insiders[e.to] ??= 'received tokens from the deployer';
    }
    const tx = txFlows(state, e.tx, eventPosition(e) - e.logIndex);
    addCount(tx.out, e.from, e.amount);
    addCount(tx.in, e.to, e.amount);
  }
  const create = sign > 0;
  const mb = minuteBucket(state, e.timestamp, create);
  if (mb) mb.holders = state.holders.count;
  const hb = hourBucket(state, e.timestamp, create);
  if (hb) hb.holders = state.holders.count;
}

/** The flows record of a tx, created at the end of the ring (evicting the oldest into the stats). */
function txFlows(state: TokenState, tx: string, pos: number): TxFlows {
  for (let i = state.txs.length - 1; i >= 0; i--) {
    const t = state.txs[i]!;
    if (t.tx === tx) return t;
  }
  const rec: TxFlows = { tx, pos, trader: null, side: null, out: {}, in: {} };
  state.txs.push(rec);
  if (state.txs.length > LIMITS.txRing) {
    const old = state.txs.shift()!;
    const tax = txTax(old, state.meta.pool);
    if (tax !== null && old.side) addTax(state.tax[old.side], tax);
  }
  return rec;
}

function addTax(s: TaxStats, tax: number): void {
  s.samples += 1;
  s.sum += tax;
  if (tax > s.max) s.max = tax;
}

/**
 * Share of the tokens lost between sender and receiver in a swap's tx: on a sell, what the pool
 * received versus what the trader sent; on a buy, what the trader received versus what the pool
 * sent. Null when the tx lacks either side.
 */
export function txTax(t: TxFlows, pool: string | null): number | null {
  if (!t.trader || !t.side || !pool) return null;
  const sent = t.side === 'sell' ? t.out[t.trader] : t.out[pool];
  const got = t.side === 'sell' ? t.in[pool] : t.in[t.trader];
  if (!sent || sent <= 0 || got === undefined) return null;
  return Math.min(1, Math.max(0, 1 - got / sent));
}

// ---------------------------------------------------------------------------------------------
// sync and liquidity

function foldSync(state: TokenState, e: Sync): void {
  setPool(state, e.pool);
  const L = state.liquidity;
  const pos = eventPosition(e);
  /** the liquidity standing before this sync, however long ago it was set (a quiet pool rugs too) */
  const standing = L.usd;
  const poolState: PoolLiquidity = { usd: e.liquidityUsd, reserveToken: e.reserveToken, reserveQuote: e.reserveQuote };
  (L.pools ??= {})[e.pool] = poolState;
  sumPools(L);
  const total = L.usd as number;
  if (total > L.peakUsd) L.peakUsd = total;
  L.history.push({ pos, ts: e.timestamp, reserveToken: L.reserveToken as number, reserveQuote: L.reserveQuote as number, liquidityUsd: total, pool: e.pool, poolState });
  if (L.history.length > LIMITS.syncHistory) L.history.shift();

  // a large fall measured against the trailing window's high, before this sync lands in it, or
  // against the liquidity that stood before it when the pool was quiet through the window
  const since = minuteOf(e.timestamp) - LIMITS.dropWindowMinutes * 60;
  let high = standing ?? -1;
  for (let i = state.minutes.length - 1; i >= 0; i--) {
    const b = state.minutes[i]!;
    if (b.t < since) break;
    if (b.liqHigh > high) high = b.liqHigh;
  }
  if (high > 0 && total < 0.5 * high) {
    const last = L.drops[L.drops.length - 1];
    const inWindow = L.removals.filter((r) => r.ts >= e.timestamp - LIMITS.dropWindowMinutes * 60 && r.ts <= e.timestamp);
    const removedBy = inWindow.map((r) => r.provider);
    const removedUsd = inWindow.reduce((sum, r) => sum + r.usd, 0);
    if (last && e.timestamp - last.ts <= LIMITS.dropWindowMinutes * 60) {
      deepenDrop(last, pos, e.timestamp, high, total, removedBy);
      last.removedUsd = Math.max(last.removedUsd ?? 0, removedUsd);
    } else pushDrop(L, { pos, ts: e.timestamp, fromUsd: high, toUsd: total, removedBy: [...new Set(removedBy)], removedUsd, pool: e.pool });
  }

  const mb = minuteBucket(state, e.timestamp, true);
  if (mb) syncInto(mb, total);
  const hb = hourBucket(state, e.timestamp, true);
  if (hb) syncInto(hb, total);
}

/** the token's liquidity is the sum over its pools (a second pool is not a rug of the first) */
function sumPools(L: TokenState['liquidity']): void {
  let usd = 0;
  let reserveToken = 0;
  let largest: PoolLiquidity | null = null;
  for (const p of Object.values(L.pools ?? {})) {
    usd += p.usd;
    reserveToken += p.reserveToken;
    if (!largest || p.usd > largest.usd) largest = p;
  }
  L.usd = largest ? usd : null;
  L.reserveToken = largest ? reserveToken : null;
  L.reserveQuote = largest ? largest.reserveQuote : null;
}

function syncInto(b: Bucket, liquidityUsd: number): void {
  if (liquidityUsd > b.liqHigh) b.liqHigh = liquidityUsd;
  b.liqClose = liquidityUsd;
}

function retractSync(state: TokenState, e: Sync): void {
  const L = state.liquidity;
  const pos = eventPosition(e);
  L.history = L.history.filter((s) => s.pos !== pos);
  L.drops = L.drops.filter((d) => d.pos !== pos);
  const prev = L.history[L.history.length - 1];
  if (L.pools) {
    // the pool goes back to its previous sync (or out of the sum when this was its first kept one)
    const before = [...L.history].reverse().find((h) => h.pool === e.pool);
    if (before?.poolState) L.pools[e.pool] = before.poolState;
    else delete L.pools[e.pool];
    sumPools(L);
  } else {
    L.usd = prev ? prev.liquidityUsd : null;
    L.reserveToken = prev ? prev.reserveToken : null;
    L.reserveQuote = prev ? prev.reserveQuote : null;
  }
  L.peakUsd = Math.max(0, ...L.history.map((s) => s.liquidityUsd), ...(L.peakUsd > e.liquidityUsd ? [L.peakUsd] : []));
  const restored = prev ? prev.liquidityUsd : -1;
  const mb = minuteBucket(state, e.timestamp, false);
  if (mb) mb.liqClose = restored;
  const hb = hourBucket(state, e.timestamp, false);
  if (hb) hb.liqClose = restored;
}

function foldLiquidity(state: TokenState, e: Liquidity, sign: 1 | -1): void {
  setPool(state, e.pool);
  const L = state.liquidity;
  const d = (e.action === 'add' ? 1 : -1) * sign * e.usd;
  addSigned(L.providers, e.provider, d);
  countWithdrawal(L, e, sign);
  if (e.action === 'add' && sign > 0) (L.firstProviders ??= {})[e.pool] ??= e.provider;
  if (e.action === 'add') foldEarly((state.earlyLp ??= {}), state.meta.createdBlock, e.block, e.provider, sign);
  if (e.action === 'add') keepAdd(L, e, sign);
  if (e.action === 'remove') {
    const pos = eventPosition(e);
    if (sign > 0) {
      L.removals.push({ pos, ts: e.timestamp, tx: e.tx, provider: e.provider, usd: e.usd });
      if (L.removals.length > LIMITS.lpRemovals) L.removals.shift();
      // a pair's Sync comes before its Burn in the same transaction: the drop it recorded names this provider too
      const last = L.drops[L.drops.length - 1];
      if (last && e.timestamp >= last.ts && e.timestamp - last.ts <= LIMITS.dropWindowMinutes * 60) {
        if (!last.removedBy.includes(e.provider)) last.removedBy.push(e.provider);
        last.removedUsd = (last.removedUsd ?? 0) + e.usd;
      }
      recordDrain(state, pos, e.timestamp);
    } else {
      L.removals = L.removals.filter((r) => r.pos !== pos);
      L.drops = L.drops.filter((d) => d.pos !== pos);
    }
  }
}

/** the ring of the latest adds (LIMITS.lpRemovals of them); a retraction takes its add out */
function keepAdd(L: TokenState['liquidity'], e: Liquidity, sign: 1 | -1): void {
  const pos = eventPosition(e);
  if (sign < 0) {
    if (L.adds) L.adds = L.adds.filter((a) => a.pos !== pos);
    return;
  }
  const adds = (L.adds ??= []);
  adds.push({ pos, ts: e.timestamp, provider: e.provider, pool: e.pool, usd: e.usd });
  if (adds.length > LIMITS.lpRemovals) adds.shift();
}

/**
 * A drain over hours (no fall within 30 minutes is a pull): within the trailing day, liquidity
 * stands at half its high or below and the providers' removals took at least a third of that
 * high, so they, not prices, made the fall. Recorded as a drop at the removal that completed it
 * (kept for the token's life, like a pull); a later removal in the same day deepens it.
 */
function recordDrain(state: TokenState, pos: number, ts: number): void {
  const L = state.liquidity;
  if (L.usd === null) return;
  const since = ts - LIMITS.drainWindowSec;
  const removals = L.removals.filter((r) => r.ts >= since && r.ts <= ts);
  if (removals.length === 0) return;
  let high = L.usd;
  for (const b of state.hours) if (b.t + 3600 > since && b.liqHigh > high) high = b.liqHigh;
  for (const h of L.history) if (h.ts >= since && h.liquidityUsd > high) high = h.liquidityUsd;
  const removed = removals.reduce((sum, r) => sum + r.usd, 0);
  if (high <= 0 || L.usd > 0.5 * high || removed < high / 3) return;
  const providers = [...new Set(removals.map((r) => r.provider))];
  const first = (removals[0] as LpRemoval).ts;
  const last = L.drops[L.drops.length - 1];
  if (last && last.ts >= since) {
    if (last.overSec !== undefined || ts - last.ts > LIMITS.dropWindowMinutes * 60) last.overSec = Math.max(last.overSec ?? 0, ts - first);
    deepenDrop(last, pos, ts, high, L.usd, providers);
    last.removedUsd = Math.max(last.removedUsd ?? 0, removed);
  } else pushDrop(L, { pos, ts, fromUsd: high, toUsd: L.usd, removedBy: providers, overSec: ts - first, removedUsd: removed });
}

/**
 * A provider's removals over the token's life, and its adds after the first of them: what a drain
 * took is what it removed less what it put back (a migration to another pool puts it back).
 */
function countWithdrawal(L: TokenState['liquidity'], e: Liquidity, sign: 1 | -1): void {
  const w = L.withdrawals?.[e.provider];
  if (e.action === 'add') {
    if (w) w.readdedUsd = Math.max(0, w.readdedUsd + sign * e.usd);
    return;
  }
  const all = (L.withdrawals ??= {});
  const rec = w ?? (all[e.provider] = { removedUsd: 0, readdedUsd: 0, removals: 0, firstTs: e.timestamp, lastTs: e.timestamp });
  rec.removedUsd = Math.max(0, rec.removedUsd + sign * e.usd);
  rec.removals = Math.max(0, rec.removals + sign);
  if (sign > 0) {
    rec.firstTs = Math.min(rec.firstTs, e.timestamp);
    rec.lastTs = Math.max(rec.lastTs, e.timestamp);
  }
  if (rec.removals === 0) delete all[e.provider];
}

/** a later fall within a recorded drop deepens it: the lowest low, the highest high, every provider, and the latest position */
function deepenDrop(d: LiquidityDrop, pos: number, ts: number, fromUsd: number, toUsd: number, removedBy: string[]): void {
  d.toUsd = Math.min(d.toUsd, toUsd);
  d.fromUsd = Math.max(d.fromUsd, fromUsd);
  d.removedBy = [...new Set([...d.removedBy, ...removedBy])];
  d.pos = pos;
  d.ts = ts;
}

function pushDrop(L: TokenState['liquidity'], d: LiquidityDrop): void {
  L.drops.push(d);
  if (L.drops.length > LIMITS.liquidityDrops) L.drops.shift();
}

function addSigned(rec: Record<string, number>, key: string, d: number): void {
  const n = (rec[key] ?? 0) + d;
  if (Math.abs(n) > 1e-9) rec[key] = n;
  else delete rec[key];
}

function emptyRing(): IdRing {
  return { pos: [], tx: [], type: [], next: 0 };
}

/** Slot of an identity in the ring, or -1. */
function ringFind(r: IdRing, pos: number, tx: string, type: string): number {
  const p = r.pos;
  for (let i = p.length - 1; i >= 0; i--) if (p[i] === pos && r.tx[i] === tx && r.type[i] === type) return i;
  return -1;
}

/** Remember an identity, overwriting the oldest once `cap` are kept. */
function ringAdd(r: IdRing, pos: number, tx: string, type: string, cap: number): void {
  if (r.pos.length < cap) {
    r.pos.push(pos);
    r.tx.push(tx);
    r.type.push(type);
    return;
  }
  const i = r.next;
  r.pos[i] = pos;
  r.tx[i] = tx;
  r.type[i] = type;
  r.next = (i + 1) % cap;
}
