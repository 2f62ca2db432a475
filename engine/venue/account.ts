import type { Verdict } from '../../schemas/common.ts';
import { medianBucket } from '../wallet/derive.ts';
import type { GradeOutcome, Horizon, VenueAccountSnapshot } from '../../schemas/venues.ts';

/**
 * State of one account on one venue (perps or prediction) and its derivation into a graded
 * snapshot. Pure: time comes from the events (unix ms), state is a plain JSON object.
 * A "trade" is a round trip on one instrument: from flat to flat (a flip closes one and opens
 * the next). Formulas and thresholds: engine/venue/README.md.
 */

export const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** hold buckets (seconds): <1m, <5m (copier latency), <1h, <1d, <7d, longer */
export const HOLD_BUCKETS_S = [60, 300, 3600, 86_400, 604_800] as const;
/** size buckets (quote notional of a fill): <100, <1k, <10k, <100k, larger */
export const SIZE_BUCKETS = [100, 1_000, 10_000, 100_000] as const;
export const HORIZONS: readonly { name: Horizon; ms: number }[] = [
  { name: '1d', ms: DAY_MS },
  { name: '7d', ms: WEEK_MS },
];
const EPS = 1e-9;

export const VenueThresholds = {
  minClosedTrades: 15,
  minDaysActive: 2,
  /** a copier needs a trade to last longer than this (seconds) */
  copierLatencyS: 300,
  avoidProfitFactor: 0.8,
  avoidReturnPct: -1,
  mirrorProfitFactor: 1.5,
  mirrorWinRatePct: 52,
  mirrorReturnPct: 0.2,
  mirrorBestTradeSharePct: 40,
  mirrorCopyableSharePct: 60,
  /** dedupe memory: fill ids older than this (before the last event) are forgotten */
  seenRetentionMs: 2 * DAY_MS,
  /** grade checkpoints kept unresolved at most */
  maxCheckpoints: 30,
} as const;

export interface VenuePosition {
  /** signed size (perps) or shares held (prediction) */
  qty: number;
  avgPx: number;
  /** unix ms the current trade opened */
  openedAt: number;
  /** realised PnL of the current trade so far, fees included */
  pnl: number;
  /** entry notional of the current trade */
  cost: number;
  /** prediction: market of the asset */
  market?: string;
}

interface Checkpoint {
  /** unix ms: start of the day the grade was taken at */
  t: number;
  grade: Verdict;
  realised: number;
  closedCost: number;
  closed: number;
  /** horizons already resolved */
  done: Horizon[];
}

interface OutcomeCounter {
  graded: number;
  hits: number;
  misses: number;
  inactive: number;
  forwardReturnPctSum: number;
}

export interface VenueAccountState {
  kind: 'perp' | 'prediction';
  venue: string;
  account: string;
  positions: Record<string, VenuePosition>;
  /** fill id → time (ms), for dedupe of replays and overlapping snapshots */
  seen: Record<string, number>;
  firstTime: number;
  lastTime: number;
  fills: number;
  /** fills per instrument (coin or market) */
  instruments: Record<string, number>;
  closed: number;
  wins: number;
  losses: number;
  grossWin: number;
  grossLoss: number;
  bestWin: number;
  closedCost: number;
  realised: number;
  holdHist: number[];
  sizeHist: number[];
  flips: number;
  opens: number;
  /** perps: opened long; prediction: buys at price >= 0.5 */
  longOpens: number;
  buys: number;
  /** prediction: entry prices longshot (<0.2), balanced, favourite (>0.8) */
  entryHist: number[];
  pnlByWeek: Record<string, number>;
  checkpoints: Checkpoint[];
  /** `grade|horizon` → counters */
  outcomes: Record<string, OutcomeCounter>;
}

export function initialVenueAccountState(kind: 'perp' | 'prediction', venue: string, account: string): VenueAccountState {
  return {
    kind,
    venue,
    account,
    positions: {},
    seen: {},
    firstTime: -1,
    lastTime: -1,
    fills: 0,
    instruments: {},
    closed: 0,
    wins: 0,
    losses: 0,
    grossWin: 0,
    grossLoss: 0,
    bestWin: 0,
    closedCost: 0,
    realised: 0,
    holdHist: new Array<number>(HOLD_BUCKETS_S.length + 1).fill(0),
    sizeHist: new Array<number>(SIZE_BUCKETS.length + 1).fill(0),
    flips: 0,
    opens: 0,
    longOpens: 0,
    buys: 0,
    entryHist: [0, 0, 0],
    pnlByWeek: {},
    checkpoints: [],
    outcomes: {},
  };
}

export function bucketOf(x: number, bounds: readonly number[]): number {
  let i = 0;
  while (i < bounds.length && x >= (bounds[i] as number)) i++;
  return i;
}

/**
 * Called by the venue folds before an event is applied: dedupe, then the daily grade checkpoint
 * (the grade as of the end of the previous active day, taken before this event moves the state).
 * Returns false when the event was seen already.
 */
export function beginEvent(s: VenueAccountState, id: string, time: number, instrument: string, notional: number): boolean {
  if (s.seen[id] !== undefined) return false;
  const day = Math.floor(time / DAY_MS) * DAY_MS;
  if (s.lastTime >= 0 && day > Math.floor(s.lastTime / DAY_MS) * DAY_MS) checkpoint(s, day);
  s.seen[id] = time;
  if (s.firstTime < 0 || time < s.firstTime) s.firstTime = time;
  if (time > s.lastTime) s.lastTime = time;
  s.fills++;
  s.instruments[instrument] = (s.instruments[instrument] ?? 0) + 1;
  const b = bucketOf(notional, SIZE_BUCKETS);
  s.sizeHist[b] = (s.sizeHist[b] ?? 0) + 1;
  return true;
}

/** Opens a trade on a flat position. */
export function openTrade(s: VenueAccountState, p: VenuePosition, time: number, long: boolean): void {
  p.openedAt = time;
  p.pnl = 0;
  p.cost = 0;
  p.avgPx = 0;
  s.opens++;
  if (long) s.longOpens++;
}

/** Adds to a position in its own direction (size > 0 in absolute units). */
export function addToPosition(p: VenuePosition, signedSize: number, price: number): void {
  const size = Math.abs(signedSize);
  const held = Math.abs(p.qty);
  p.avgPx = held + size > 0 ? (held * p.avgPx + size * price) / (held + size) : price;
  p.qty += signedSize;
  p.cost += size * price;
}

/** Books a finished round trip. */
export function closeTrade(s: VenueAccountState, p: VenuePosition, time: number): void {
  s.closed++;
  // a trade that made less than a millionth of its notional is flat: a loss, but not a gross loss
  if (p.pnl > 1e-6 * p.cost) {
    s.wins++;
    s.grossWin += p.pnl;
    if (p.pnl > s.bestWin) s.bestWin = p.pnl;
  } else {
    s.losses++;
    s.grossLoss += Math.max(0, -p.pnl);
  }
  s.closedCost += p.cost;
  s.realised += p.pnl;
  const hb = bucketOf(Math.max(0, (time - p.openedAt) / 1000), HOLD_BUCKETS_S);
  s.holdHist[hb] = (s.holdHist[hb] ?? 0) + 1;
  const week = String(Math.floor(time / WEEK_MS));
  s.pnlByWeek[week] = (s.pnlByWeek[week] ?? 0) + p.pnl;
  p.qty = 0;
  p.pnl = 0;
  p.cost = 0;
  p.avgPx = 0;
}

export function isFlat(qty: number): boolean {
  return Math.abs(qty) < EPS;
}

function checkpoint(s: VenueAccountState, day: number): void {
  // resolve earlier checkpoints whose horizon has passed: the cumulative results now are the
  // results as of the start of `day` (no event of this day is folded yet)
  for (const c of s.checkpoints) {
    for (const h of HORIZONS) {
      if (c.done.includes(h.name) || day < c.t + h.ms) continue;
      c.done.push(h.name);
      const o = counter(s, c.grade, h.name);
      const closed = s.closed - c.closed;
      const cost = s.closedCost - c.closedCost;
      if (closed === 0 || cost <= 0) {
        o.inactive++;
        continue;
      }
      const fwd = (s.realised - c.realised) / cost;
      o.forwardReturnPctSum += fwd * 100;
      // mirror-worthy and watch say "their next trades will pay"; avoid says they will not;
      // unrated makes no claim: its hits count the winners, for comparison
      const won = fwd > 0;
      if (c.grade === 'avoid' ? !won : won) o.hits++;
      else o.misses++;
    }
  }
  s.checkpoints = s.checkpoints.filter((c) => c.done.length < HORIZONS.length);
  const { grade } = gradeAccount(s);
  for (const h of HORIZONS) counter(s, grade, h.name).graded++;
  s.checkpoints.push({ t: day, grade, realised: s.realised, closedCost: s.closedCost, closed: s.closed, done: [] });
  if (s.checkpoints.length > VenueThresholds.maxCheckpoints) s.checkpoints.shift();
  // forget old fill ids once a day
  const floor = s.lastTime - VenueThresholds.seenRetentionMs;
  for (const [id, t] of Object.entries(s.seen)) if (t < floor) delete s.seen[id];
}

function counter(s: VenueAccountState, grade: Verdict, horizon: Horizon): OutcomeCounter {
  const k = `${grade}|${horizon}`;
  return (s.outcomes[k] ??= { graded: 0, hits: 0, misses: 0, inactive: 0, forwardReturnPctSum: 0 });
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

interface Metrics {
  closed: number;
  daysActive: number;
  winRatePct: number | null;
  profitFactor: number | null;
  returnPct: number | null;
  bestTradeSharePct: number | null;
  profitableWeeksPct: number | null;
  copyableSharePct: number | null;
  weeks: number;
}

function metrics(s: VenueAccountState): Metrics {
  const closed = s.closed;
  const copierBucket = bucketOf(VenueThresholds.copierLatencyS, HOLD_BUCKETS_S);
  const copyable = s.holdHist.slice(copierBucket).reduce((a, b) => a + b, 0);
  const weeks = Object.values(s.pnlByWeek);
  return {
    closed,
    daysActive: s.firstTime < 0 ? 0 : (s.lastTime - s.firstTime) / DAY_MS,
    winRatePct: closed > 0 ? (s.wins / closed) * 100 : null,
    profitFactor: closed === 0 ? null : s.grossLoss > 0 ? Math.min(99, s.grossWin / s.grossLoss) : s.grossWin > 0 ? 99 : 1,
    returnPct: s.closedCost > 0 ? (s.realised / s.closedCost) * 100 : null,
    bestTradeSharePct: s.grossWin > 0 ? (s.bestWin / s.grossWin) * 100 : null,
    profitableWeeksPct: weeks.length > 0 ? (weeks.filter((w) => w > 0).length / weeks.length) * 100 : null,
    copyableSharePct: closed > 0 ? (copyable / closed) * 100 : null,
    weeks: weeks.length,
  };
}

/** The grade and its reasons, from the state as it is. */
export function gradeAccount(s: VenueAccountState): { grade: Verdict; reasons: string[]; score: number } {
  const T = VenueThresholds;
  const m = metrics(s);
  const pf = m.profitFactor ?? 1;
  const wr = m.winRatePct ?? 50;
  const ret = m.returnPct ?? 0;
  const score = Math.max(0, Math.min(100, Math.round(50 + 25 * Math.tanh(Math.log(Math.max(pf, 0.01))) + 15 * Math.tanh((wr - 50) / 20) + 10 * Math.tanh(ret / 2))));
  if (m.closed < T.minClosedTrades || m.daysActive < T.minDaysActive) {
    return {
      grade: 'unrated',
      reasons: [`too little history: ${m.closed} closed trades over ${r2(m.daysActive)} days (needs ${T.minClosedTrades} over ${T.minDaysActive})`],
      score,
    };
  }
  const reasons: string[] = [];
  if (pf < T.avoidProfitFactor) reasons.push(`profit factor ${r2(pf)} below ${T.avoidProfitFactor}`);
  if (ret < T.avoidReturnPct) reasons.push(`realised return ${r2(ret)}% of notional`);
  if (reasons.length > 0) return { grade: 'avoid', reasons, score };
  const gates: [boolean, string][] = [
    [pf >= T.mirrorProfitFactor, `profit factor ${r2(pf)} (needs ${T.mirrorProfitFactor})`],
    [wr >= T.mirrorWinRatePct, `win rate ${r2(wr)}% (needs ${T.mirrorWinRatePct}%)`],
    [ret >= T.mirrorReturnPct, `realised return ${r2(ret)}% of notional (needs ${T.mirrorReturnPct}%)`],
    [(m.bestTradeSharePct ?? 100) <= T.mirrorBestTradeSharePct, `best trade is ${r2(m.bestTradeSharePct ?? 100)}% of gross profit`],
    [(m.copyableSharePct ?? 0) >= T.mirrorCopyableSharePct, `only ${r2(m.copyableSharePct ?? 0)}% of trades last longer than a copier's latency`],
    [m.weeks < 2 || (m.profitableWeeksPct ?? 0) >= 50, `profitable in ${r2(m.profitableWeeksPct ?? 0)}% of weeks`],
  ];
  const failed = gates.filter(([ok]) => !ok).map(([, why]) => why);
  if (failed.length === 0) {
    return { grade: 'mirror-worthy', reasons: [`profit factor ${r2(pf)}, win rate ${r2(wr)}% over ${m.closed} closed trades`, `realised return ${r2(ret)}% of notional`], score };
  }
  return { grade: 'watch', reasons: [`positive or flat but not proven: ${failed[0] as string}`, ...failed.slice(1)], score };
}

function holdBand(b: number | null): VenueAccountSnapshot['behaviour']['holdBand'] {
  if (b === null) return null;
  return (['seconds', 'minutes', 'minutes', 'hours', 'days', 'weeks'] as const)[b] ?? 'weeks';
}
function sizeBand(b: number | null): VenueAccountSnapshot['behaviour']['sizeBand'] {
  if (b === null) return null;
  return (['micro', 'small', 'medium', 'large', 'whale'] as const)[b] ?? 'whale';
}
function returnBand(r: number | null): VenueAccountSnapshot['performance']['returnBand'] {
  if (r === null) return null;
  if (r <= -10) return 'heavy-loss';
  if (r < -0.2) return 'loss';
  if (r <= 0.2) return 'flat';
  if (r < 10) return 'gain';
  return 'strong-gain';
}
function pfBand(pf: number | null): VenueAccountSnapshot['performance']['profitFactorBand'] {
  if (pf === null) return null;
  if (pf < 0.9) return 'losing';
  if (pf < 1.2) return 'breakeven';
  if (pf < 2) return 'profitable';
  return 'strong';
}

export function deriveVenueAccount(s: VenueAccountState): VenueAccountSnapshot {
  const m = metrics(s);
  const { grade, reasons, score } = gradeAccount(s);
  const medHold = medianBucket(s.holdHist);
  const openPositions = Object.values(s.positions).filter((p) => !isFlat(p.qty)).length;
  // scalper: median trade under 5 minutes; swing: under a day; position: longer
  const style = medHold === null ? null : medHold <= 1 ? 'scalper' : medHold <= 3 ? 'swing' : 'position';
  const entries = s.entryHist.reduce((a, b) => a + b, 0);
  const [longshot = 0, , favourite = 0] = s.entryHist;
  const trackRecord: GradeOutcome[] = [];
  for (const [k, o] of Object.entries(s.outcomes)) {
    const [g, h] = k.split('|') as [Verdict, Horizon];
    const pending = o.graded - o.hits - o.misses - o.inactive;
    trackRecord.push({ grade: g, horizon: h, graded: o.graded, hits: o.hits, misses: o.misses, inactive: o.inactive, pending, forwardReturnPctSum: r2(o.forwardReturnPctSum) });
  }
  trackRecord.sort((a, b) => (a.grade + a.horizon).localeCompare(b.grade + b.horizon));
  return {
    kind: s.kind,
    venue: s.venue,
    account: s.account,
    asOf: new Date(Math.max(0, s.lastTime)).toISOString(),
    grade,
    reasons,
    score,
    style,
    sample: {
      fills: s.fills,
      closedTrades: s.closed,
      instruments: Object.keys(s.instruments).length,
      daysActive: r2(m.daysActive),
      openPositions,
    },
    performance: {
      realisedReturnPct: m.returnPct === null ? null : r2(m.returnPct),
      returnBand: returnBand(m.returnPct),
      winRatePct: m.winRatePct === null ? null : r2(m.winRatePct),
      profitFactor: m.profitFactor === null ? null : r2(m.profitFactor),
      profitFactorBand: pfBand(m.profitFactor),
      bestTradeSharePct: m.bestTradeSharePct === null ? null : r2(m.bestTradeSharePct),
      profitableWeeksPct: m.profitableWeeksPct === null ? null : r2(m.profitableWeeksPct),
    },
    behaviour: {
      holdBand: holdBand(medHold),
      sizeBand: sizeBand(medianBucket(s.sizeHist)),
      flipSharePct: s.fills > 0 ? r2((s.flips / s.fills) * 100) : 0,
      longSharePct: s.kind === 'perp' ? (s.opens > 0 ? r2((s.longOpens / s.opens) * 100) : null) : s.buys > 0 ? r2((s.longOpens / s.buys) * 100) : null,
      entryPriceBand: s.kind === 'prediction' && entries > 0 ? (longshot / entries > 0.5 ? 'longshot' : favourite / entries > 0.5 ? 'favourite' : 'balanced') : null,
      copyableSharePct: m.copyableSharePct === null ? null : r2(m.copyableSharePct),
    },
    trackRecord,
  };
}
