import type { PriceMark } from '../../schemas/topics.ts';
import type { Swap, PoolCreated } from '../../schemas/events.ts';
import { eventId, eventPosition } from '../../schemas/events.ts';
import { addAgainst, attributeRoundTrip, cloneVs } from './against.ts';
import type { Against, VsSums } from './against.ts';

/**
 * Wallet (trader) state: a pure fold of the wallet's swaps (topic trades.by-wallet, key
 * `chain:wallet`) plus optional price marks. Plain JSON: no Map/Set, so a worker can checkpoint it.
 *
 * Per token we keep a `base` book (every trade already compacted, i.e. older than the reorg
 * horizon), a `tail` of recent trades, and `book` = base + tail replayed. A new trade in order is
 * applied to `book` in O(1); a retraction or an out-of-order trade re-replays the token's tail
 * (bounded by TAIL_MAX). Formulas: engine/wallet/README.md.
 */

/** Forward-return horizon for edge, seconds. */
export const EDGE_HORIZON_S = 3600;
/** Trades older than this many blocks behind the wallet's newest are compacted into the base. */
export const REORG_HORIZON_BLOCKS = 64;
/** At most this many recent trades per token stay retractable. */
export const TAIL_MAX = 128;
/** Unresolved forward-return observations kept per token (oldest dropped beyond). */
export const PENDING_MAX = 64;
/** Recently resolved forward-return observations kept per token (so a retraction can undo them). */
export const RESOLVED_KEEP = 16;
/** A position is closed when what is left is at most this share of its peak quantity. */
export const DUST_SHARE = 1e-3;
/** Forward and round-trip log returns are clamped to ±this (a rug to zero is not -infinity). */
export const LOG_RETURN_CLAMP = 2.5;

/** Hold-time histogram upper bounds, seconds (last bucket is open-ended). */
export const HOLD_BUCKETS_S = [60, 300, 3600, 4 * 3600, 86400, 7 * 86400] as const;
/** Trade size histogram upper bounds, USD (last bucket is open-ended). */
export const SIZE_BUCKETS_USD = [10, 100, 1_000, 10_000, 100_000] as const;

const WEEK_S = 7 * 86400;

/**
 * Tokens kept per wallet: when a new token would make more than TOKENS_KEPT, the closed tokens
 * least recently traded (flat, tail compacted) are retired into RetiredTokens until
 * TOKENS_AFTER_RETIRE are left. Open positions are never retired.
 */
export const TOKENS_KEPT = 64;
export const TOKENS_AFTER_RETIRE = 48;
/** a first buy within this many blocks after the pool's creation is a launch-window buy */
export const LAUNCH_WINDOW_BLOCKS = 2;

/** A swap of the wallet, with the token's buyers since its previous trade of the token when the token worker names them. */
export type WalletSwap = Swap & { against?: Against };

/** One trade as kept in a token's tail. */
export interface TradeRec {
  id: string;
  blockHash: string;
  pos: number;
  block: number;
  ts: number;
  side: 'buy' | 'sell';
  qty: number;
  usd: number;
  price: number;
  /** the token's buyers since the wallet's previous trade of it (wallet → USD): against whom it traded */
  against?: Against;
}

/** Everything about one token that is a function of the wallet's trades on it, in order. */
export interface TokenBook {
  /** open position */
  qty: number;
  costUsd: number;
  peakQty: number;
  openTs: number;
  openBlock: number;
  /** accumulators of the open round trip */
  rtCostSold: number;
  rtProceeds: number;
  rtPnl: number;
  /** counts and volumes */
  buys: number;
  sells: number;
  buyUsd: number;
  sellUsd: number;
  /** sells beyond the bought quantity (tokens received otherwise): unknown cost, not realised */
  unmatchedSellUsd: number;
  /** realised by every matched sell, including partial sells of the open round trip */
  realisedUsd: number;
  costSoldUsd: number;
  /** closed round trips */
  closed: number;
  wins: number;
  losses: number;
  grossWinUsd: number;
  grossLossUsd: number;
  winPctSum: number;
  lossPctSum: number;
  bestPnlUsd: number;
  /** Σ ln(proceeds / cost) and Σ hold seconds over closed round trips, for the drift-adjusted edge */
  rtLogRetSum: number;
  rtHoldSum: number;
  holdHist: number[];
  sameBlockRoundTrips: number;
  /** realised PnL of closed round trips by week index (floor(closeTs / 1 week)) */
  pnlByWeek: Record<string, number>;
  /** activity */
  firstTs: number;
  lastTs: number;
  firstBuyBlock: number;
  lastBlock: number;
  lastMinute: number;
  distinctBlocks: number;
  distinctMinutes: number;
  sizeHist: number[];
  sumUsd: number;
  /** highest position applied */
  maxPos: number;
  /** the open round trip's counterparties (buyers while it held), wallet → USD */
  rtAgainst?: Against;
  /** closed round trips attributed to their counterparties by USD share (against.ts) */
  vs?: Record<string, VsSums>;
}

export interface PendingObs {
  id: string;
  blockHash: string;
  side: 'buy' | 'sell';
  ts: number;
  price: number;
}

export interface ResolvedObs {
  id: string;
  blockHash: string;
  side: 'buy' | 'sell';
  r: number;
}

/** Forward returns after trades and the token's observed prices (own swaps and price marks). */
export interface EdgeBook {
  pending: PendingObs[];
  resolved: ResolvedObs[];
  nBuy: number;
  sumBuyR: number;
  nSell: number;
  sumSellR: number;
  expired: number;
  firstObsTs: number;
  firstObsPrice: number;
  lastObsTs: number;
  lastObsPrice: number;
}

export interface TokenState {
  base: TokenBook;
  book: TokenBook;
  tail: TradeRec[];
  edge: EdgeBook;
  /**
   * the largest buy as a share of the token's liquidity when it was made (the token worker sends
   * the liquidity with the swap); a maximum, so a redelivered swap changes nothing
   */
  sizeShareMax?: number;
}

/**
 * The sums derive reads of the tokens retired from a wallet (TOKENS_KEPT): book totals, forward
 * and round-trip excess net of each token's drift as it stood when retired (a retired token gets no
 * more marks: marks go to wallets that traded the token in the last hours), per-token profit,
 * launch timing by the creation blocks folded by then. A token traded again after retiring starts
 * a new book, so it counts twice among distinct tokens; deployers passed to derive later are not
 * matched against retired tokens.
 */
export interface RetiredTokens {
  tokens: number;
  buys: number;
  sells: number;
  closed: number;
  wins: number;
  losses: number;
  grossWinUsd: number;
  grossLossUsd: number;
  winPctSum: number;
  lossPctSum: number;
  bestPnlUsd: number;
  distinctBlocks: number;
  distinctMinutes: number;
  sameBlockRoundTrips: number;
  realisedUsd: number;
  costSoldUsd: number;
  holdHist: number[];
  sizeHist: number[];
  pnlByWeek: Record<string, number>;
  /** first and last trade of the retired tokens, 0 when none */
  firstTs: number;
  lastTs: number;
  fwdN: number;
  fwdExcessSum: number;
  rtExcessSum: number;
  profitableTokens: number;
  profitUsd: number;
  bestTokenProfitUsd: number;
  tokensWithCreation: number;
  creationBlockBuys: number;
  launchWindowBuys: number;
}

export interface WalletState {
  v: 2;
  chain: string;
  wallet: string;
  /** highest eventPosition folded (the snapshot version) */
  version: number;
  /** unix seconds of the newest folded event (swap, retraction or price mark) */
  asOfTs: number;
  /** highest block of a folded swap, for tail compaction */
  maxBlock: number;
  tokens: Record<string, TokenState>;
  /** tokens retired beyond TOKENS_KEPT, summed */
  retired: RetiredTokens;
  /** pool-creation block per token, when the caller folds pool_created events in */
  poolCreatedBlock: Record<string, number>;
  counters: {
    duplicates: number;
    /** older than the token's compacted base: dropped */
    stale: number;
    retracted: number;
    /** retractions of a trade not (or no longer) in a tail */
    retractionsUnmatched: number;
    /** swaps of another trader or chain, ignored */
    foreign: number;
  };
}

export type { PriceMark };

export function initialWalletState(chain: string, wallet: string): WalletState {
  return {
    v: 2,
    chain,
    wallet,
    version: 0,
    asOfTs: 0,
    maxBlock: 0,
    tokens: {},
    retired: emptyRetired(),
    poolCreatedBlock: {},
    counters: { duplicates: 0, stale: 0, retracted: 0, retractionsUnmatched: 0, foreign: 0 },
  };
}

function emptyBook(): TokenBook {
  return {
    qty: 0,
    costUsd: 0,
    peakQty: 0,
    openTs: 0,
    openBlock: 0,
    rtCostSold: 0,
    rtProceeds: 0,
    rtPnl: 0,
    buys: 0,
    sells: 0,
    buyUsd: 0,
    sellUsd: 0,
    unmatchedSellUsd: 0,
    realisedUsd: 0,
    costSoldUsd: 0,
    closed: 0,
    wins: 0,
    losses: 0,
    grossWinUsd: 0,
    grossLossUsd: 0,
    winPctSum: 0,
    lossPctSum: 0,
    bestPnlUsd: 0,
    rtLogRetSum: 0,
    rtHoldSum: 0,
    holdHist: new Array<number>(HOLD_BUCKETS_S.length + 1).fill(0),
    sameBlockRoundTrips: 0,
    pnlByWeek: {},
    firstTs: 0,
    lastTs: 0,
    firstBuyBlock: -1,
    lastBlock: -1,
    lastMinute: -1,
    distinctBlocks: 0,
    distinctMinutes: 0,
    sizeHist: new Array<number>(SIZE_BUCKETS_USD.length + 1).fill(0),
    sumUsd: 0,
    maxPos: -1,
  };
}

/** a copy of token sums that can be added to without touching the original */
export function copyTokenSums(r: RetiredTokens): RetiredTokens {
  return { ...r, holdHist: r.holdHist.slice(), sizeHist: r.sizeHist.slice(), pnlByWeek: { ...r.pnlByWeek } };
}

function emptyRetired(): RetiredTokens {
  return {
    tokens: 0,
    buys: 0,
    sells: 0,
    closed: 0,
    wins: 0,
    losses: 0,
    grossWinUsd: 0,
    grossLossUsd: 0,
    winPctSum: 0,
    lossPctSum: 0,
    bestPnlUsd: 0,
    distinctBlocks: 0,
    distinctMinutes: 0,
    sameBlockRoundTrips: 0,
    realisedUsd: 0,
    costSoldUsd: 0,
    holdHist: new Array<number>(HOLD_BUCKETS_S.length + 1).fill(0),
    sizeHist: new Array<number>(SIZE_BUCKETS_USD.length + 1).fill(0),
    pnlByWeek: {},
    firstTs: 0,
    lastTs: 0,
    fwdN: 0,
    fwdExcessSum: 0,
    rtExcessSum: 0,
    profitableTokens: 0,
    profitUsd: 0,
    bestTokenProfitUsd: 0,
    tokensWithCreation: 0,
    creationBlockBuys: 0,
    launchWindowBuys: 0,
  };
}

/** Token drift per second: ln(last/first observed price) over the observed span (0 if short). */
export function driftPerSecond(e: EdgeBook): number {
  const span = e.lastObsTs - e.firstObsTs;
  if (e.firstObsTs < 0 || span < EDGE_HORIZON_S || !(e.firstObsPrice > 0) || !(e.lastObsPrice > 0)) return 0;
  return clampLog(Math.log(e.lastObsPrice / e.firstObsPrice)) / span;
}

/** A token's forward-return and round-trip excess sums, net of its drift (derive averages them). */
export function excessOf(t: TokenState): { fwdN: number; fwdSum: number; rtSum: number } {
  const d = driftPerSecond(t.edge);
  const dH = d * EDGE_HORIZON_S;
  const e = t.edge;
  const b = t.book;
  return { fwdN: e.nBuy + e.nSell, fwdSum: e.sumBuyR - e.nBuy * dH + (e.nSell * dH - e.sumSellR), rtSum: b.rtLogRetSum - d * b.rtHoldSum };
}

/**
 * Add a token's book to sums over tokens: the retired sums when a token retires (its book is
 * final: flat, tail compacted), and derive's totals over the retired and the kept tokens.
 */
export function addTokenToSums(r: RetiredTokens, t: TokenState, createdBlock: number | undefined): void {
  const b = t.book;
  if (b.buys + b.sells === 0) return;
  r.tokens++;
  r.buys += b.buys;
  r.sells += b.sells;
  r.closed += b.closed;
  r.wins += b.wins;
  r.losses += b.losses;
  r.grossWinUsd += b.grossWinUsd;
  r.grossLossUsd += b.grossLossUsd;
  r.winPctSum += b.winPctSum;
  r.lossPctSum += b.lossPctSum;
  if (b.bestPnlUsd > r.bestPnlUsd) r.bestPnlUsd = b.bestPnlUsd;
  r.distinctBlocks += b.distinctBlocks;
  r.distinctMinutes += b.distinctMinutes;
  r.sameBlockRoundTrips += b.sameBlockRoundTrips;
  r.realisedUsd += b.realisedUsd;
  r.costSoldUsd += b.costSoldUsd;
  b.holdHist.forEach((n, i) => (r.holdHist[i] = (r.holdHist[i] ?? 0) + n));
  b.sizeHist.forEach((n, i) => (r.sizeHist[i] = (r.sizeHist[i] ?? 0) + n));
  for (const w in b.pnlByWeek) r.pnlByWeek[w] = (r.pnlByWeek[w] ?? 0) + (b.pnlByWeek[w] as number);
  if (r.firstTs === 0 || b.firstTs < r.firstTs) r.firstTs = b.firstTs;
  if (b.lastTs > r.lastTs) r.lastTs = b.lastTs;
  const x = excessOf(t);
  r.fwdN += x.fwdN;
  r.fwdExcessSum += x.fwdSum;
  r.rtExcessSum += x.rtSum;
  if (b.realisedUsd > 0) {
    r.profitableTokens++;
    r.profitUsd += b.realisedUsd;
    if (b.realisedUsd > r.bestTokenProfitUsd) r.bestTokenProfitUsd = b.realisedUsd;
  }
  if (createdBlock !== undefined && b.firstBuyBlock >= 0) {
    r.tokensWithCreation++;
    if (b.firstBuyBlock - createdBlock <= 0) r.creationBlockBuys++;
    if (b.firstBuyBlock - createdBlock <= LAUNCH_WINDOW_BLOCKS) r.launchWindowBuys++;
  }
}

/**
 * Retire closed tokens, least recently traded first (then by address: the same on every replay),
 * until TOKENS_AFTER_RETIRE are kept or no closed token is left. `keep` (the token being folded)
 * never retires.
 */
function retireTokens(state: WalletState, keep: string): void {
  const closed: [string, TokenState][] = [];
  let count = 0;
  for (const k in state.tokens) {
    count++;
    const t = state.tokens[k] as TokenState;
    if (k === keep) continue;
    compact(t, state.maxBlock);
    if (t.book.qty <= 0 && t.tail.length === 0) closed.push([k, t]);
  }
  closed.sort((a, b) => a[1].book.lastTs - b[1].book.lastTs || (a[0] < b[0] ? -1 : 1));
  for (const [k, t] of closed) {
    if (count <= TOKENS_AFTER_RETIRE) break;
    addTokenToSums(state.retired, t, state.poolCreatedBlock[k]);
    delete state.tokens[k];
    delete state.poolCreatedBlock[k];
    count--;
  }
}

function emptyEdge(): EdgeBook {
  return {
    pending: [],
    resolved: [],
    nBuy: 0,
    sumBuyR: 0,
    nSell: 0,
    sumSellR: 0,
    expired: 0,
    firstObsTs: -1,
    firstObsPrice: 0,
    lastObsTs: -1,
    lastObsPrice: 0,
  };
}

function cloneBook(b: TokenBook): TokenBook {
  const c: TokenBook = { ...b, holdHist: b.holdHist.slice(), sizeHist: b.sizeHist.slice(), pnlByWeek: { ...b.pnlByWeek } };
  if (b.rtAgainst) c.rtAgainst = { ...b.rtAgainst };
  if (b.vs) c.vs = cloneVs(b.vs);
  return c;
}

function cloneToken(t: TokenState): TokenState {
  return {
    base: cloneBook(t.base), // compaction applies trades to the base in place
    book: cloneBook(t.book),
    tail: t.tail.slice(),
    edge: { ...t.edge, pending: t.edge.pending.slice(), resolved: t.edge.resolved.slice() },
    ...(t.sizeShareMax !== undefined ? { sizeShareMax: t.sizeShareMax } : {}),
  };
}

export function bucketOf(value: number, bounds: readonly number[]): number {
  for (let i = 0; i < bounds.length; i++) if (value < (bounds[i] as number)) return i;
  return bounds.length;
}

export function clampLog(r: number): number {
  if (!Number.isFinite(r)) return r > 0 ? LOG_RETURN_CLAMP : -LOG_RETURN_CLAMP;
  return Math.max(-LOG_RETURN_CLAMP, Math.min(LOG_RETURN_CLAMP, r));
}

/** Apply one trade (in position order) to a book, mutating it. Average-cost accounting. */
export function applyTrade(b: TokenBook, t: TradeRec): void {
  if (b.firstTs === 0 || t.ts < b.firstTs) b.firstTs = t.ts;
  if (t.ts > b.lastTs) b.lastTs = t.ts;
  if (t.block !== b.lastBlock) {
    b.distinctBlocks++;
    b.lastBlock = t.block;
  }
  const minute = Math.floor(t.ts / 60);
  if (minute !== b.lastMinute) {
    b.distinctMinutes++;
    b.lastMinute = minute;
  }
  const si = bucketOf(t.usd, SIZE_BUCKETS_USD);
  b.sizeHist[si] = (b.sizeHist[si] ?? 0) + 1;
  b.sumUsd += t.usd;
  if (t.pos > b.maxPos) b.maxPos = t.pos;

  if (t.side === 'buy') {
    b.buys++;
    b.buyUsd += t.usd;
    if (b.firstBuyBlock < 0) b.firstBuyBlock = t.block;
    if (b.qty <= 0) {
      b.qty = 0;
      b.costUsd = 0;
      b.peakQty = 0;
      b.openTs = t.ts;
      b.openBlock = t.block;
      b.rtCostSold = 0;
      b.rtProceeds = 0;
      b.rtPnl = 0;
      delete b.rtAgainst;
    }
    // buyers before the opening buy were not on the other side of this round trip
    else if (t.against) addAgainst(b, t.against);
    b.qty += t.qty;
    b.costUsd += t.usd;
    if (b.qty > b.peakQty) b.peakQty = b.qty;
    return;
  }

  b.sells++;
  b.sellUsd += t.usd;
  if (t.against && b.qty > 0) addAgainst(b, t.against);
  if (b.qty <= 0 || t.qty <= 0) {
    b.unmatchedSellUsd += t.usd;
    return;
  }
  let matchedQty = Math.min(t.qty, b.qty);
  let proceeds = t.qty > 0 ? (t.usd * matchedQty) / t.qty : 0;
  if (t.qty > b.qty) b.unmatchedSellUsd += t.usd - proceeds;
  const left = b.qty - matchedQty;
  if (left <= b.peakQty * DUST_SHARE) {
    // Selling all but dust closes the round trip; the dust is valued at this sell's price.
    proceeds += left * (matchedQty > 0 ? proceeds / matchedQty : 0);
    matchedQty = b.qty;
  }
  const avgCost = b.costUsd / b.qty;
  const costSold = avgCost * matchedQty;
  const pnl = proceeds - costSold;
  b.realisedUsd += pnl;
  b.costSoldUsd += costSold;
  b.rtCostSold += costSold;
  b.rtProceeds += proceeds;
  b.rtPnl += pnl;
  b.qty -= matchedQty;
  b.costUsd -= costSold;
  if (b.qty <= 0) closeRoundTrip(b, t);
}

function closeRoundTrip(b: TokenBook, t: TradeRec): void {
  const pnl = b.rtPnl;
  const cost = b.rtCostSold;
  const pct = cost > 0 ? pnl / cost : 0;
  b.closed++;
  if (pnl > 0) {
    b.wins++;
    b.grossWinUsd += pnl;
    b.winPctSum += pct;
  } else if (pnl < 0) {
    b.losses++;
    b.grossLossUsd -= pnl;
    b.lossPctSum += pct;
  }
  if (pnl > b.bestPnlUsd) b.bestPnlUsd = pnl;
  const hold = Math.max(0, t.ts - b.openTs);
  b.rtHoldSum += hold;
  const logRet = cost > 0 && b.rtProceeds > 0 ? clampLog(Math.log(b.rtProceeds / cost)) : -LOG_RETURN_CLAMP;
  b.rtLogRetSum += logRet;
  const hi = bucketOf(hold, HOLD_BUCKETS_S);
  b.holdHist[hi] = (b.holdHist[hi] ?? 0) + 1;
  if (t.block === b.openBlock) b.sameBlockRoundTrips++;
  const week = String(Math.floor(t.ts / WEEK_S));
  b.pnlByWeek[week] = (b.pnlByWeek[week] ?? 0) + pnl;
  attributeRoundTrip(b, { pnl, logRet, hold });
  b.qty = 0;
  b.costUsd = 0;
  b.peakQty = 0;
  b.rtCostSold = 0;
  b.rtProceeds = 0;
  b.rtPnl = 0;
}

function toRec(s: WalletSwap): TradeRec {
  return {
    ...(s.against && Object.keys(s.against).length > 0 ? { against: s.against } : {}),
    id: eventId(s),
    blockHash: s.blockHash,
    pos: eventPosition(s),
    block: s.block,
    ts: s.timestamp,
    side: s.side,
    qty: s.amountToken,
    usd: s.usd,
    price: s.priceUsd,
  };
}

function sameTrade(a: { id: string; blockHash: string }, b: { id: string; blockHash: string }): boolean {
  return a.id === b.id && a.blockHash === b.blockHash;
}

/** Index in the (position-sorted) tail of this exact trade, or -1. Scans back from the end. */
function findInTail(tail: TradeRec[], rec: TradeRec): number {
  for (let i = tail.length - 1; i >= 0; i--) {
    const t = tail[i] as TradeRec;
    if (t.pos < rec.pos) return -1;
    if (sameTrade(t, rec)) return i;
  }
  return -1;
}

function comparePos(a: TradeRec, b: TradeRec): number {
  return a.pos - b.pos || (a.id < b.id ? -1 : a.id > b.id ? 1 : a.blockHash < b.blockHash ? -1 : a.blockHash > b.blockHash ? 1 : 0);
}

function replay(tok: TokenState): void {
  const book = cloneBook(tok.base);
  for (const t of tok.tail) applyTrade(book, t);
  tok.book = book;
}

/**
 * Move tail trades older than the reorg horizon (or beyond TAIL_MAX) into the base (mutates the
 * token). A compacted trade can no longer be retracted, so its resolved forward-return
 * observation, kept only to undo it, goes too.
 */
function compact(tok: TokenState, maxBlock: number): void {
  let n = 0;
  const limit = maxBlock - REORG_HORIZON_BLOCKS;
  while (n < tok.tail.length && ((tok.tail[n] as TradeRec).block < limit || tok.tail.length - n > TAIL_MAX)) n++;
  if (n === 0) return;
  for (let i = 0; i < n; i++) applyTrade(tok.base, tok.tail[i] as TradeRec);
  tok.tail.splice(0, n);
  const resolved = tok.edge.resolved;
  if (resolved.length > 0) {
    let k = 0;
    for (const r of resolved) if (findIdInTail(tok.tail, r) >= 0) resolved[k++] = r;
    resolved.length = k;
  }
}

function findIdInTail(tail: TradeRec[], r: { id: string; blockHash: string }): number {
  for (let i = tail.length - 1; i >= 0; i--) if (sameTrade(tail[i] as TradeRec, r)) return i;
  return -1;
}

/**
 * Compact every token's tail up to the reorg horizon, in place. Tails are otherwise compacted when
 * their token trades again; this runs each time the wallet's newest block crosses a multiple of
 * the horizon, so a token the wallet stopped trading keeps no tail for long. A function of the
 * folded blocks alone: every replay compacts at the same swaps.
 */
function compactAll(state: WalletState): void {
  for (const k in state.tokens) compact(state.tokens[k] as TokenState, state.maxBlock);
}

/** Record a price observation for a token; resolves forward returns whose horizon has passed. */
function observe(edge: EdgeBook, ts: number, price: number): void {
  if (!(price > 0)) return;
  if (edge.firstObsTs < 0 || ts < edge.firstObsTs) {
    edge.firstObsTs = ts;
    edge.firstObsPrice = price;
  }
  if (ts >= edge.lastObsTs) {
    edge.lastObsTs = ts;
    edge.lastObsPrice = price;
  }
  let k = 0;
  while (k < edge.pending.length && (edge.pending[k] as PendingObs).ts + EDGE_HORIZON_S <= ts) {
    const p = edge.pending[k] as PendingObs;
    const elapsed = ts - p.ts;
    // Normalise to the horizon when the first observation after it comes late.
    const r = (clampLog(Math.log(price / p.price)) * EDGE_HORIZON_S) / elapsed;
    if (p.side === 'buy') {
      edge.nBuy++;
      edge.sumBuyR += r;
    } else {
      edge.nSell++;
      edge.sumSellR += r;
    }
    edge.resolved.push({ id: p.id, blockHash: p.blockHash, side: p.side, r });
    k++;
  }
  if (k > 0) {
    edge.pending.splice(0, k);
    if (edge.resolved.length > RESOLVED_KEEP) edge.resolved.splice(0, edge.resolved.length - RESOLVED_KEEP);
  }
}

function addPending(edge: EdgeBook, rec: TradeRec): void {
  if (!(rec.price > 0)) return;
  const p: PendingObs = { id: rec.id, blockHash: rec.blockHash, side: rec.side, ts: rec.ts, price: rec.price };
  let i = edge.pending.length;
  while (i > 0 && (edge.pending[i - 1] as PendingObs).ts > p.ts) i--;
  edge.pending.splice(i, 0, p);
  if (edge.pending.length > PENDING_MAX) {
    edge.pending.shift();
    edge.expired++;
  }
}

function unobserveTrade(edge: EdgeBook, rec: TradeRec): void {
  const pi = edge.pending.findIndex((p) => sameTrade(p, rec));
  if (pi >= 0) {
    edge.pending.splice(pi, 1);
    return;
  }
  const ri = edge.resolved.findIndex((p) => sameTrade(p, rec));
  if (ri >= 0) {
    const r = edge.resolved[ri] as ResolvedObs;
    if (r.side === 'buy') {
      edge.nBuy--;
      edge.sumBuyR -= r.r;
    } else {
      edge.nSell--;
      edge.sumSellR -= r.r;
    }
    edge.resolved.splice(ri, 1);
  }
}

/**
 * Fold one swap of this wallet, mutating `state`. For workers that own their state (the hot
 * path). Idempotent on (eventId, blockHash); `removed: true` folds the swap out.
 */
export function foldWalletSwapInPlace(state: WalletState, swap: WalletSwap): WalletState {
  if (swap.trader !== state.wallet || swap.chain !== state.chain) {
    state.counters.foreign++;
    return state;
  }
  const rec = toRec(swap);
  if (swap.timestamp > state.asOfTs) state.asOfTs = swap.timestamp;
  const existing = state.tokens[swap.token];

  if (swap.removed === true) {
    const idx = existing ? findInTail(existing.tail, rec) : -1;
    if (!existing || idx < 0) {
      state.counters.retractionsUnmatched++;
      return state;
    }
    existing.tail.splice(idx, 1);
    replay(existing);
    unobserveTrade(existing.edge, rec);
    state.counters.retracted++;
    return state;
  }

  const tok: TokenState = existing ?? { base: emptyBook(), book: emptyBook(), tail: [], edge: emptyEdge() };
  if (!existing) {
    state.tokens[swap.token] = tok;
    if (Object.keys(state.tokens).length > TOKENS_KEPT) retireTokens(state, swap.token);
  }
  if (findInTail(tok.tail, rec) >= 0) {
    state.counters.duplicates++;
    return state;
  }
  if (rec.pos <= tok.base.maxPos) {
    // Already compacted (a redelivery of an old event), or too old to insert: never double count.
    state.counters.stale++;
    return state;
  }
  if (rec.pos > state.version) state.version = rec.pos;
  const horizonCrossed = Math.floor(rec.block / REORG_HORIZON_BLOCKS) > Math.floor(state.maxBlock / REORG_HORIZON_BLOCKS);
  if (rec.block > state.maxBlock) state.maxBlock = rec.block;

  const last = tok.tail[tok.tail.length - 1];
  if (!last || comparePos(last, rec) < 0) {
    tok.tail.push(rec);
    applyTrade(tok.book, rec);
  } else {
    let i = tok.tail.length;
    while (i > 0 && comparePos(tok.tail[i - 1] as TradeRec, rec) > 0) i--;
    tok.tail.splice(i, 0, rec);
    replay(tok);
  }
  observe(tok.edge, rec.ts, rec.price);
  addPending(tok.edge, rec);
  if (horizonCrossed) compactAll(state);
  else compact(tok, state.maxBlock);
  return state;
}

/** Copy of the state that shares nothing mutable with it along the path a fold of `token` touches. */
function cloneForToken(state: WalletState, token: string): WalletState {
  const tokens = { ...state.tokens };
  const t = tokens[token];
  if (t) tokens[token] = cloneToken(t);
  return { ...state, tokens, poolCreatedBlock: state.poolCreatedBlock, counters: { ...state.counters } };
}

/** Pure fold of one swap: returns a new state, `state` is left unchanged. */
export function foldWalletSwap(state: WalletState, swap: WalletSwap): WalletState {
  const next = cloneForToken(state, swap.token);
  // a swap whose block crosses a multiple of the horizon compacts every token (compactAll); a new
  // token beyond TOKENS_KEPT retires others (retireTokens)
  const crosses = Math.floor(swap.block / REORG_HORIZON_BLOCKS) > Math.floor(state.maxBlock / REORG_HORIZON_BLOCKS);
  const retires = state.tokens[swap.token] === undefined && Object.keys(state.tokens).length + 1 > TOKENS_KEPT;
  if (crosses || retires) {
    for (const k in next.tokens) if (k !== swap.token) next.tokens[k] = cloneToken(next.tokens[k] as TokenState);
  }
  if (retires) {
    next.retired = copyTokenSums(state.retired);
    next.poolCreatedBlock = { ...state.poolCreatedBlock };
  }
  return foldWalletSwapInPlace(next, swap);
}

/**
 * Fold a later price observation of a token (e.g. the token's 1m close). Resolves the forward
 * returns of earlier trades and moves the unrealised mark. Marks of tokens the wallet never traded
 * are ignored.
 */
export function foldPriceMark(state: WalletState, mark: PriceMark): WalletState {
  const tok = state.tokens[mark.token];
  if (!tok) return state;
  const next = cloneForToken(state, mark.token);
  const t = next.tokens[mark.token] as TokenState;
  observe(t.edge, mark.timestamp, mark.priceUsd);
  if (mark.timestamp > next.asOfTs) next.asOfTs = mark.timestamp;
  return next;
}

/** foldPriceMark that mutates `state`, for a worker owning its state. */
export function foldPriceMarkInPlace(state: WalletState, mark: PriceMark): WalletState {
  const tok = state.tokens[mark.token];
  if (!tok) return state;
  observe(tok.edge, mark.timestamp, mark.priceUsd);
  if (mark.timestamp > state.asOfTs) state.asOfTs = mark.timestamp;
  return state;
}

/** Remember a pool's creation block so derive can spot launch-block buys. */
export function foldPoolCreated(state: WalletState, ev: Pick<PoolCreated, 'token' | 'block' | 'removed'>): WalletState {
  const prev = state.poolCreatedBlock[ev.token];
  // the worker passes every swap's creation block: most change nothing and copy nothing
  if (ev.removed === true ? prev !== ev.block : prev !== undefined && prev <= ev.block) return state;
  const poolCreatedBlock = { ...state.poolCreatedBlock };
  if (ev.removed === true) delete poolCreatedBlock[ev.token];
  else poolCreatedBlock[ev.token] = ev.block;
  return { ...state, poolCreatedBlock };
}

/**
 * Compact every token's tail up to the reorg horizon (tails are otherwise compacted only when
 * their token trades again). Call before a checkpoint to keep it small; books are unchanged.
 */
export function compactWalletState(state: WalletState): WalletState {
  const tokens: Record<string, TokenState> = {};
  for (const [k, t] of Object.entries(state.tokens)) {
    const c = cloneToken(t);
    compact(c, state.maxBlock);
    tokens[k] = c;
  }
  return { ...state, tokens };
}

/** Key of the wallet topic, `chain:wallet`. */
export function walletKey(chain: string, wallet: string): string {
  return `${chain}:${wallet}`;
}
