import type { BaseRate, HorizonScore, HorizonStats, Horizon, TrackRecord } from '../../schemas/trackrecord.ts';
import { HorizonSeconds, Horizons } from '../../schemas/trackrecord.ts';

/**
 * Track-record scoring: pure functions. A record is a verdict or signal served, with its
 * reference at the snapshot time (event time). At each horizon (+1h, +24h, +7d) it is scored
 * against what happened next; misses stay in the record. Rules (also served in the report):
 *
 * - token BUY / ACCUMULATE and token verdict `mirror-worthy`: hit when the token's forward return
 *   beats the median forward return of the chain's tokens over the same span.
 * - token AVOID and token verdict `avoid`: hit when the token fell (forward return < 0) or at least
 *   half of its liquidity left. Never from a flag of our own: that would score the engine against
 *   itself.
 * - trader grade (trader-score) and copy-decision `mirror-worthy`: hit when the wallet's round trips
 *   closed after the record were profitable in sum; `avoid`: hit when they were not. No later round
 *   trip: `void`.
 * - HOLD, `watch`, `unrated`: no directional claim, counted as `unscored`; their forward returns
 *   are measured all the same, as the population the base rates are taken over.
 *
 * Every hit rate is reported beside its base rate: the rate that saying the same value of every
 * subject recorded (whatever was served) would have scored at that horizon.
 */

/** What scoring needs of a token snapshot: time, last price, hourly bars and liquidity. */
export interface TokenPriceView {
  token: string;
  asOfTs: number;
  createdTs: number | null;
  priceUsd: number | null;
  /** hourly bars (t = hour start), oldest first */
  hourly: { t: number; c: number }[];
  /** the pool's liquidity at asOfTs (USD), null when unknown */
  liquidityUsd: number | null;
}

export interface WalletBasisAt {
  measuredTs: number;
  realisedUsd: number;
  costSoldUsd: number;
  closed: number;
}

export type Claim = 'outperform' | 'fall' | 'profit' | 'no-profit' | null;

/** What a served value claims. */
export function claimOf(kind: 'token' | 'trader', value: string): Claim {
  if (kind === 'token') {
    if (value === 'BUY' || value === 'ACCUMULATE' || value === 'mirror-worthy') return 'outperform';
    if (value === 'AVOID' || value === 'avoid') return 'fall';
    return null;
  }
  if (value === 'mirror-worthy') return 'profit';
  if (value === 'avoid') return 'no-profit';
  return null;
}

export const RULES: Record<Exclude<Claim, null> | 'none', string> = {
  outperform: 'hit when the forward return beats the median forward return of the chain\u2019s tokens',
  fall: 'hit when the token fell or at least half of its liquidity left',
  profit: 'hit when the round trips closed after the grade were profitable in sum',
  'no-profit': 'hit when the round trips closed after the grade were not profitable',
  none: 'no directional claim: recorded, not scored',
};

/**
 * The token's price at time t from its snapshot: the close of the hourly bar containing t; after
 * the snapshot's last event the price has not moved (its last price); before its first bar: null,
 * unless the first bar starts within `toleranceS` after t (then its close).
 */
export function priceAt(v: TokenPriceView, t: number, toleranceS = 0): number | null {
  if (t >= v.asOfTs) return v.priceUsd !== null && v.priceUsd > 0 ? v.priceUsd : null;
  let found: number | null = null;
  for (const b of v.hourly) {
    if (b.t > t) break;
    found = b.c;
  }
  const first = v.hourly[0];
  if (found === null && first && first.t - t <= toleranceS) found = first.c;
  return found !== null && found > 0 ? found : null;
}

/**
 * Snapshots keep 7 days of hourly bars, so at +7d the start of the span lies up to an hour before
 * the oldest bar: the benchmark's start price may come from a bar that starts this much later.
 */
export const BENCHMARK_START_TOLERANCE_S = 2 * 3600;

export function pctChange(p0: number, p1: number): number {
  return Math.round((p1 / p0 - 1) * 10000) / 100;
}

export function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Median forward return of the chain's tokens from t0 to t1 (tokens priced at both times). */
export function chainBenchmarkPct(chain: TokenPriceView[], t0: number, t1: number): number | null {
  const rs: number[] = [];
  for (const v of chain) {
    if (v.createdTs !== null && v.createdTs > t0) continue;
    const a = priceAt(v, t0, BENCHMARK_START_TOLERANCE_S);
    const b = priceAt(v, t1);
    if (a !== null && b !== null) rs.push(pctChange(a, b));
  }
  const m = median(rs);
  return m === null ? null : Math.round(m * 100) / 100;
}

const pending: HorizonScore = { outcome: 'pending', forwardReturnPct: null, benchmarkPct: null, measuredTs: null, note: null };

/** every horizon waits, claims or not: what follows a value without a claim is the base rates' population */
export function initialScores(_kind: 'token' | 'trader', _value: string): Record<Horizon, HorizonScore> {
  return { '1h': { ...pending }, '24h': { ...pending }, '7d': { ...pending } };
}

/** liquidity that fell to half or less of the reference (at the time scored) */
export const LIQUIDITY_LEFT_SHARE = 0.5;

/** the measured outcome under a claim; a value without a claim stays `unscored`, its measures kept */
function judged(claim: Claim, hit: boolean, measured: Omit<HorizonScore, 'outcome'>): HorizonScore {
  if (claim === null) return { ...measured, outcome: 'unscored', note: RULES.none };
  return { ...measured, outcome: hit ? 'hit' : 'miss' };
}

/** a token horizon's outcome under the `fall` rule: the price fell or the liquidity left */
export function fell(s: Pick<HorizonScore, 'forwardReturnPct' | 'liquidityChangePct'>): boolean {
  const liq = s.liquidityChangePct ?? null;
  return (s.forwardReturnPct !== null && s.forwardReturnPct < 0) || (liq !== null && liq <= -100 * LIQUIDITY_LEFT_SHARE);
}

/** Score one horizon of a token record; `pending` while chain time has not reached it. */
export function scoreTokenHorizon(...args: Parameters<typeof measureToken>): HorizonScore {
  return claimless(claimOf('token', args[0].value), measureToken(...args));
}

/** a value without a claim is `unscored` whether or not its measure could be taken */
function claimless(claim: Claim, s: HorizonScore): HorizonScore {
  return claim === null && s.outcome === 'void' ? { ...s, outcome: 'unscored', note: RULES.none } : s;
}

function measureToken(
  rec: Pick<TrackRecord, 'kind' | 'value' | 'refTs' | 'refPrice' | 'refLiquidityUsd'>,
  horizon: Horizon,
  subject: TokenPriceView | undefined,
  chain: TokenPriceView[],
  chainNowTs: number,
): HorizonScore {
  const claim = claimOf('token', rec.value);
  const t1 = rec.refTs + HorizonSeconds[horizon];
  if (chainNowTs < t1) return pending;
  if (!subject || rec.refPrice === null || !(rec.refPrice > 0)) return { ...pending, outcome: 'void', measuredTs: t1, note: 'no reference or later price' };
  const p1 = priceAt(subject, t1);
  if (p1 === null) return { ...pending, outcome: 'void', measuredTs: t1, note: 'no price at the horizon' };
  const fwd = pctChange(rec.refPrice, p1);
  const bench = chainBenchmarkPct(chain, rec.refTs, t1);
  const measured = { forwardReturnPct: fwd, benchmarkPct: bench, measuredTs: t1, note: null, liquidityChangePct: liquidityChange(rec, subject) };
  if (claim === 'fall') {
    const byLiquidity = !(fwd < 0) && fell(measured);
    return { ...judged(claim, fell(measured), measured), note: byLiquidity ? 'liquidity left' : null };
  }
  if (bench === null && claim !== null) return { ...measured, outcome: 'void', note: 'no benchmark at the horizon' };
  return judged(claim, bench !== null && fwd > bench, measured);
}

/**
 * The liquidity's change from the record's reference to the snapshot scored (the scoring runs
 * every minute, so that is the liquidity within about a minute of the horizon).
 */
function liquidityChange(rec: Pick<TrackRecord, 'refLiquidityUsd'>, subject: TokenPriceView): number | null {
  const ref = rec.refLiquidityUsd ?? null;
  if (ref === null || !(ref > 0) || subject.liquidityUsd === null) return null;
  return pctChange(ref, Math.max(0, subject.liquidityUsd));
}

/** Score one horizon of a trader record from the wallet's realised sums at (or just before) the horizon. */
export function scoreTraderHorizon(...args: Parameters<typeof measureTrader>): HorizonScore {
  return claimless(claimOf('trader', args[0].value), measureTrader(...args));
}

function measureTrader(
  rec: Pick<TrackRecord, 'value' | 'refTs' | 'refRealisedUsd' | 'refCostSoldUsd' | 'refClosed'>,
  horizon: Horizon,
  later: WalletBasisAt | null,
  chainNowTs: number,
): HorizonScore {
  const claim = claimOf('trader', rec.value);
  const t1 = rec.refTs + HorizonSeconds[horizon];
  if (chainNowTs < t1) return pending;
  if (!later || rec.refRealisedUsd === null || rec.refCostSoldUsd === null || rec.refClosed === null) {
    return { ...pending, outcome: 'void', measuredTs: t1, note: 'no wallet state at the horizon' };
  }
  const closed = later.closed - rec.refClosed;
  const cost = later.costSoldUsd - rec.refCostSoldUsd;
  if (closed <= 0 || !(cost > 0)) return { ...pending, outcome: 'void', measuredTs: t1, note: 'no round trip closed after the grade' };
  const ret = Math.round(((later.realisedUsd - rec.refRealisedUsd) / cost) * 10000) / 100;
  const profitable = ret > 0;
  const measured = { forwardReturnPct: ret, benchmarkPct: null, measuredTs: t1, note: `${closed} later round trips` };
  return { ...judged(claim, claim === 'profit' ? profitable : !profitable, measured), ...(claim === null ? {} : { note: measured.note }) };
}

/** The record's horizons that still wait. */
export function pendingHorizons(rec: TrackRecord): Horizon[] {
  return Horizons.filter((h) => rec.scores[h]?.outcome === 'pending');
}

/** Resolved horizons: the row version of a record (more resolved = newer). */
export function resolvedCount(rec: TrackRecord): number {
  return Horizons.filter((h) => rec.scores[h]?.outcome !== 'pending').length;
}

function emptyStats(): HorizonStats {
  return { n: 0, hits: 0, misses: 0, pending: 0, void: 0, unscored: 0, hitRatePct: null };
}

function add(st: HorizonStats, s: HorizonScore | undefined): void {
  st.n++;
  const o = s?.outcome ?? 'pending';
  if (o === 'hit') st.hits++;
  else if (o === 'miss') st.misses++;
  else if (o === 'pending') st.pending++;
  else if (o === 'void') st.void++;
  else st.unscored++;
}

function finish(st: HorizonStats): HorizonStats {
  const scored = st.hits + st.misses;
  return { ...st, hitRatePct: scored > 0 ? Math.round((st.hits / scored) * 1000) / 10 : null };
}

/** whether a measured horizon would be a hit under a claim (null: not measured for it) */
function hitUnder(claim: Exclude<Claim, null>, s: HorizonScore): boolean | null {
  const fwd = s.forwardReturnPct;
  if (fwd === null || (s.outcome !== 'hit' && s.outcome !== 'miss' && s.outcome !== 'unscored')) return null;
  if (claim === 'outperform') return s.benchmarkPct === null ? null : fwd > s.benchmarkPct;
  if (claim === 'fall') return fell(s);
  return claim === 'profit' ? fwd > 0 : fwd <= 0;
}

const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);

/**
 * The base rate of a value at a horizon: its claim's rule applied to every record of the same
 * kind measured there, whatever value was served (what "always say X" would have scored), with
 * the population's median forward return beside that of the records served the value.
 */
export function baseRate(records: TrackRecord[], kind: 'token' | 'trader', value: string, horizon: Horizon): BaseRate {
  const claim = claimOf(kind, value);
  let n = 0;
  let hits = 0;
  const all: number[] = [];
  const mine: number[] = [];
  for (const r of records) {
    const s = r.scores[horizon];
    if (r.kind !== kind || !s || s.forwardReturnPct === null || s.outcome === 'pending' || s.outcome === 'void') continue;
    all.push(s.forwardReturnPct);
    if (r.value === value) mine.push(s.forwardReturnPct);
    const hit = claim === null ? null : hitUnder(claim, s);
    if (hit === null) continue;
    n++;
    if (hit) hits++;
  }
  return {
    n,
    hitRatePct: n > 0 ? Math.round((hits / n) * 1000) / 10 : null,
    medianReturnPct: round1(median(all)),
    valueMedianReturnPct: round1(median(mine)),
  };
}

/** Hit rates per (operation, value) and horizon beside their base rates, overall, and the most recent scored examples. */
export function summarize(records: TrackRecord[], opts: { examples: number }) {
  const groups = new Map<string, { operation: string; value: string; kind: 'token' | 'trader'; horizons: Record<Horizon, HorizonStats> }>();
  const overall: Record<Horizon, HorizonStats> = { '1h': emptyStats(), '24h': emptyStats(), '7d': emptyStats() };
  for (const r of records) {
    const k = `${r.operation}\u0000${r.value}`;
    const g = groups.get(k) ?? { operation: r.operation, value: r.value, kind: r.kind, horizons: { '1h': emptyStats(), '24h': emptyStats(), '7d': emptyStats() } };
    groups.set(k, g);
    for (const h of Horizons) {
      add(g.horizons[h], r.scores[h]);
      add(overall[h], r.scores[h]);
    }
  }
  return {
    groups: [...groups.values()]
      .sort((a, b) => a.operation.localeCompare(b.operation) || a.value.localeCompare(b.value))
      .map((g) => ({
        operation: g.operation,
        value: g.value,
        rule: RULES[claimOf(g.kind, g.value) ?? 'none'],
        horizons: { '1h': finish(g.horizons['1h']), '24h': finish(g.horizons['24h']), '7d': finish(g.horizons['7d']) },
        baseRates: {
          '1h': baseRate(records, g.kind, g.value, '1h'),
          '24h': baseRate(records, g.kind, g.value, '24h'),
          '7d': baseRate(records, g.kind, g.value, '7d'),
        },
      })),
    overall: { '1h': finish(overall['1h']), '24h': finish(overall['24h']), '7d': finish(overall['7d']) },
    recent: scoredExamples(records)
      .slice(0, opts.examples)
      .map((x) => x.example),
  };
}

/**
 * Every scored horizon (a hit or a miss) as an example, the most recent first: by the time it was
 * measured, then the record's key and the horizon, a key (`sortKey`, the time negated) that never
 * changes once the horizon is scored, so a list of them can be paged by keyset.
 */
export function scoredExamples(records: TrackRecord[]) {
  const out = [];
  for (const r of records)
    for (const h of Horizons) {
      const s = r.scores[h];
      if (!s || (s.outcome !== 'hit' && s.outcome !== 'miss')) continue;
      const example = {
        operation: r.operation,
        chain: r.chain,
        ...(r.kind === 'token' ? { token: r.subject } : { wallet: r.subject }),
        symbol: r.symbol,
        value: r.value,
        horizon: h,
        outcome: s.outcome,
        forwardReturnPct: s.forwardReturnPct,
        benchmarkPct: s.benchmarkPct,
        recordedAt: new Date(r.refTs * 1000).toISOString(),
      };
      out.push({ example, sortKey: [-(s.measuredTs ?? r.refTs), r.key, h] as [number, string, Horizon] });
    }
  // strings by code unit (as a keyset cursor compares them); horizon names sort in their own order
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return out.sort((a, b) => a.sortKey[0] - b.sortKey[0] || cmp(a.sortKey[1], b.sortKey[1]) || cmp(a.sortKey[2], b.sortKey[2]));
}
