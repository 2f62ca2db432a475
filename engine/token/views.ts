import type {
  Bar,
  ExitRiskResponse,
  Resolution,
  RiskBand,
  Severity,
  TokenChange,
  TokenChangesResponse,
  TokenHoldersInsightResponse,
  TokenInflectionResponse,
  TokenIntelResponse,
  TokenNarrativeResponse,
  TokenPriceActionResponse,
  TokenRiskResponse,
  TokenSignalResponse,
  TokenSnapshot,
  TokenSparkResponse,
  TokenValuationResponse,
  Verdict,
} from '../../schemas/token.ts';
import { PRICE_ACTION_HOURS, SPARK_HOURS, STANDARD_SIZE_USD } from '../../schemas/token.ts';
import type { Writer } from '../writer/index.ts';
import { clamp, depthBand, exitScore } from './derive.ts';

/**
 * Per-operation projections of a token snapshot. Pure: the request time comes in `ctx.now` (unix
 * seconds) and prose from `ctx.writer`. They never return the snapshot's private `basis`.
 */

export interface ViewContext {
  /** request time, unix seconds */
  now: number;
}
export interface WriterContext extends ViewContext {
  writer: Writer;
}

function fresh(s: TokenSnapshot, ctx: ViewContext) {
  return {
    chain: s.chain,
    token: s.token,
    symbol: s.symbol,
    asOf: s.asOf,
    ageSeconds: Math.max(0, Math.round(ctx.now - s.asOfTs)),
  };
}

function subject(s: TokenSnapshot): string {
  return s.symbol ?? 'This token';
}

function redFlags(s: TokenSnapshot): string[] {
  const f = s.risk.flags;
  return (['rug', 'honeypot', 'concentration'] as const).filter((k) => f[k].severity === 'red');
}

function litPillars(s: TokenSnapshot): string[] {
  const p = s.pillars;
  const names: Array<[boolean, string]> = [
    [p.smartMoney, 'smart money'],
    [p.coiling, 'coiling'],
    [p.lowExit, 'low exit risk'],
    [p.organic, 'organic flow'],
    [p.momentum, 'momentum'],
    [p.structure, 'structure'],
  ];
  return names.filter(([on]) => on).map(([, n]) => n);
}

function sizeOrStandard(sizeUsd: number | undefined): number {
  return sizeUsd !== undefined && Number.isFinite(sizeUsd) && sizeUsd > 0 ? sizeUsd : STANDARD_SIZE_USD;
}

function exitAt(s: TokenSnapshot, sizeUsd: number) {
  const b = s.basis;
  const e = exitScore(sizeUsd, b.quoteReserveUsd, b.sellPressure, b.top10Tokens, b.reserveToken);
  return { ...e, impactPct: e.impact === null ? null : Math.round(e.impact * 10_000) / 100 };
}

// ---------------------------------------------------------------------------------------------

export function tokenIntelView(s: TokenSnapshot, params: { sizeUsd?: number }, ctx: ViewContext): TokenIntelResponse {
  const size = sizeOrStandard(params.sizeUsd);
  const e = exitAt(s, size);
  return {
    ...fresh(s, ctx),
    verdict: s.verdict,
    risk: { band: s.risk.band, score: s.risk.score, flags: s.risk.flags },
    momentum: {
      band: s.momentum.band,
      score: s.momentum.score,
      priceChange1hPct: s.momentum.priceChange1hPct,
      priceChange24hPct: s.momentum.priceChange24hPct,
      volumeTrend: s.momentum.volumeTrend,
    },
    entry: {
      sizeUsd: size,
      exitRisk: e.band,
      priceImpactPct: e.impactPct,
      liquidity: depthBand(s.basis.liquidityUsd),
      inflection: s.inflection.state,
      stance: s.valuation.stance,
    },
    activity: { m5: s.activity.m5, h1: s.activity.h1, h24: s.activity.h24, holders: s.holders.count, holderTrend: s.holders.trend },
  };
}

export async function tokenSignalView(s: TokenSnapshot, _params: object, ctx: WriterContext): Promise<TokenSignalResponse> {
  const rationale = await ctx.writer.rationale({
    operation: 'token-signal',
    subject: subject(s),
    facts: {
      signal: s.signal.value,
      conviction: s.signal.conviction,
      pillars: litPillars(s),
      redFlags: redFlags(s),
      risk: s.risk.band,
      verdict: s.verdict,
    },
  });
  return {
    ...fresh(s, ctx),
    signal: s.signal.value,
    conviction: s.signal.conviction,
    pillars: s.pillars,
    pillarsLit: s.pillarsLit,
    rationale,
  };
}

export function tokenRiskView(s: TokenSnapshot, _params: object, ctx: ViewContext): TokenRiskResponse {
  const r = s.risk.signals;
  return {
    ...fresh(s, ctx),
    risk: s.risk.band,
    score: s.risk.score,
    signals: {
      liquidity: r.liquidityBand,
      liquidityChange1hPct: r.liquidityChange1hPct,
      largestLiquidityDropPct: r.largestLiquidityDropPct,
      deployerLiquiditySharePct: r.deployerLiquiditySharePct,
      top10SharePct: r.top10SharePct,
      largestSharePct: r.largestSharePct,
      sellTaxPct: r.sellTaxPct,
      buyers: r.buyers,
      nonInsiderSellers: r.nonInsiderSellers,
      insiders: r.insiders,
    },
    flags: s.risk.flags,
  };
}

export function tokenHoldersInsightView(s: TokenSnapshot, _params: object, ctx: ViewContext): TokenHoldersInsightResponse {
  const f = s.risk.flags;
  let verdict: Verdict;
  if (f.concentration.severity === 'red' || f.rug.severity === 'red' || f.honeypot.severity === 'red') verdict = 'avoid';
  else if (!s.data.enough || s.holders.count < 10) verdict = 'unrated';
  else if (s.organic.band === 'high' && s.holders.whaleShape === 'distributed' && s.holders.trend !== 'shrinking') verdict = 'mirror-worthy';
  else if (s.organic.band === 'low' && s.holders.whaleShape !== 'distributed') verdict = 'avoid';
  else verdict = 'watch';
  return {
    ...fresh(s, ctx),
    verdict,
    trend: {
      direction: s.holders.trend,
      holders: s.holders.count,
      growth24hPct: s.holders.growth24hPct,
      newBuyersPct: s.activity.newBuyersPct,
    },
    organic: {
      band: s.organic.band,
      volumeSharePct: s.organic.volumeSharePct,
      buyerSharePct: s.organic.buyerSharePct,
      botWallets: s.organic.botWallets,
      insiderWallets: s.organic.insiderWallets,
    },
    whaleShape: {
      shape: s.holders.whaleShape,
      top10SharePct: s.holders.top10SharePct,
      largestSharePct: s.holders.largestSharePct,
      concentration: s.holders.concentrationBand,
    },
  };
}

export async function tokenNarrativeView(s: TokenSnapshot, _params: object, ctx: WriterContext): Promise<TokenNarrativeResponse> {
  const thesis = await ctx.writer.thesis({
    operation: 'token-narrative',
    subject: subject(s),
    facts: {
      stance: s.valuation.stance,
      momentum: s.momentum.band,
      turnover: s.valuation.turnoverBand,
      holderTrend: s.holders.trend,
      inflection: s.inflection.state,
      risk: s.risk.band,
      signal: s.signal.value,
    },
  });
  return { ...fresh(s, ctx), stance: s.valuation.stance, thesis };
}

export function tokenInflectionView(s: TokenSnapshot, _params: object, ctx: ViewContext): TokenInflectionResponse {
  return {
    ...fresh(s, ctx),
    state: s.inflection.state,
    earlyScore: s.inflection.earlyScore,
    signals: { rangePercentile: s.inflection.rangePercentile, volumeRatio: s.inflection.volumeRatio },
  };
}

export function tokenValuationView(s: TokenSnapshot, _params: object, ctx: ViewContext): TokenValuationResponse {
  return {
    ...fresh(s, ctx),
    stance: s.valuation.stance,
    signals: {
      turnover: s.valuation.turnoverBand,
      turnoverPct: s.valuation.turnoverPct,
      holderGrowthVsPricePct: s.valuation.holderGrowthVsPricePct,
      distanceFromHighPct: s.valuation.distanceFromHighPct,
      priceChange24hPct: s.momentum.priceChange24hPct,
    },
  };
}

export function exitRiskView(s: TokenSnapshot, params: { sizeUsd?: number }, ctx: ViewContext): ExitRiskResponse {
  const size = sizeOrStandard(params.sizeUsd);
  const e = exitAt(s, size);
  return {
    ...fresh(s, ctx),
    exitRisk: e.band,
    direction: s.exit.direction,
    signals: {
      sizeUsd: size,
      priceImpactPct: e.impactPct,
      liquidity: depthBand(s.basis.liquidityUsd),
      sellPressurePct: s.exit.sellPressurePct,
      whaleSupplyPct: s.exit.whaleSupplyPct,
      score: e.score,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// token-changes

const RISK_ORDER: RiskBand[] = ['low', 'moderate', 'high', 'extreme'];
const DEPTH_ORDER = ['thin', 'moderate', 'deep'];

/** Signal deltas between the prior snapshot and the current one, including price breaks. */
export function tokenChanges(prev: TokenSnapshot | null, cur: TokenSnapshot): TokenChange[] {
  if (!prev) return [];
  const out: TokenChange[] = [];
  const push = (metric: string, from: string | number | boolean | null, to: string | number | boolean | null, severity: Severity) => {
    if (from !== to) out.push({ metric, from, to, severity });
  };
  push('verdict', prev.verdict, cur.verdict, cur.verdict === 'avoid' ? 'critical' : prev.verdict === 'avoid' || cur.verdict === 'mirror-worthy' ? 'warning' : 'info');
  push('signal', prev.signal.value, cur.signal.value, cur.signal.value === 'AVOID' ? 'critical' : 'warning');
  const rUp = RISK_ORDER.indexOf(cur.risk.band) > RISK_ORDER.indexOf(prev.risk.band);
  push('risk', prev.risk.band, cur.risk.band, cur.risk.band === 'extreme' ? 'critical' : rUp ? 'warning' : 'info');
  for (const k of ['rug', 'honeypot', 'concentration'] as const) {
    const to = cur.risk.flags[k].severity;
    push(`flags.${k}`, prev.risk.flags[k].severity, to, to === 'red' ? 'critical' : to === 'warning' ? 'warning' : 'info');
  }
  const dDown = DEPTH_ORDER.indexOf(cur.risk.signals.liquidityBand) < DEPTH_ORDER.indexOf(prev.risk.signals.liquidityBand);
  push('liquidity', prev.risk.signals.liquidityBand, cur.risk.signals.liquidityBand, dDown ? 'warning' : 'info');
  push('momentum', prev.momentum.band, cur.momentum.band, 'info');
  push('inflection', prev.inflection.state, cur.inflection.state, cur.inflection.state === 'breaking-out' ? 'warning' : 'info');
  push('holders.trend', prev.holders.trend, cur.holders.trend, cur.holders.trend === 'shrinking' ? 'warning' : 'info');
  const eUp = RISK_ORDER.indexOf(cur.exit.band) > RISK_ORDER.indexOf(prev.exit.band);
  push('exitRisk', prev.exit.band, cur.exit.band, eUp ? 'warning' : 'info');
  push('valuation', prev.valuation.stance, cur.valuation.stance, 'info');
  push('pillarsLit', prev.pillarsLit, cur.pillarsLit, 'info');

  // price breaks, as percentages only
  const p0 = prev.basis.priceUsd;
  const p1 = cur.basis.priceUsd;
  if (p0 !== null && p1 !== null && p0 > 0) {
    const chg = Math.round((1000 * (p1 - p0)) / p0) / 10;
    if (Math.abs(chg) >= 10) push('priceChangePct', 0, chg, Math.abs(chg) >= 30 ? 'critical' : 'warning');
    const hi = prev.basis.high24h;
    const lo = prev.basis.low24h;
    if (hi !== null && p1 > hi) push('priceBreak', 'in-range', 'above-24h-high', 'warning');
    else if (lo !== null && p1 < lo) push('priceBreak', 'in-range', 'below-24h-low', chg <= -30 ? 'critical' : 'warning');
  }
  return out;
}

export async function tokenChangesView(prev: TokenSnapshot | null, cur: TokenSnapshot, ctx: WriterContext): Promise<TokenChangesResponse> {
  const changes = tokenChanges(prev, cur);
  const headline = await ctx.writer.headline({
    operation: 'token-changes',
    subject: subject(cur),
    facts: {
      changed: changes.map((c) => c.metric),
      critical: changes.some((c) => c.severity === 'critical'),
      signal: cur.signal.value,
      verdict: cur.verdict,
    },
  });
  return {
    ...fresh(cur, ctx),
    since: prev ? prev.asOf : null,
    changes,
    current: {
      verdict: cur.verdict,
      signal: cur.signal.value,
      risk: cur.risk.band,
      momentum: cur.momentum.band,
      inflection: cur.inflection.state,
    },
    headline,
  };
}

// ---------------------------------------------------------------------------------------------
// price action and spark

const RES_SECONDS: Record<Resolution, number> = { '5m': 300, '15m': 900, '1h': 3600, '4h': 14_400 };

function groupBars(bars: Bar[], size: number): Bar[] {
  const out: Bar[] = [];
  for (const b of bars) {
    const t = b.t - (b.t % size);
    const cur = out[out.length - 1];
    if (cur && cur.t === t) {
      cur.h = Math.max(cur.h, b.h);
      cur.l = Math.min(cur.l, b.l);
      cur.c = b.c;
      cur.v += b.v;
    } else out.push({ ...b, t });
  }
  return out;
}

export function barsFor(s: TokenSnapshot, hours: number, resolution: Resolution): Bar[] {
  const size = RES_SECONDS[resolution];
  const src = size < 3600 ? s.basis.fiveMinute : s.basis.hourly;
  const bars = size === 300 || size === 3600 ? src.map((b) => ({ ...b })) : groupBars(src, size);
  const last = bars[bars.length - 1];
  if (!last) return [];
  const from = last.t + size - hours * 3600;
  return bars.filter((b) => b.t >= from);
}

function clampHours(h: number | undefined, lim: { min: number; max: number; default: number }): number {
  if (h === undefined || !Number.isFinite(h)) return lim.default;
  return Math.min(lim.max, Math.max(lim.min, Math.round(h)));
}

export async function tokenPriceActionView(
  s: TokenSnapshot,
  params: { hours?: number; resolution?: Resolution },
  ctx: WriterContext,
): Promise<TokenPriceActionResponse> {
  const hours = clampHours(params.hours, PRICE_ACTION_HOURS);
  const resolution = params.resolution ?? '1h';
  const bars = barsFor(s, hours, resolution);
  const n = bars.length;
  let trend: TokenPriceActionResponse['trend'] = 'sideways';
  let structure: TokenPriceActionResponse['structure'] = 'mixed';
  let breakout: TokenPriceActionResponse['breakout'] = 'none';
  let volatility: RiskBand = 'low';
  let distanceFromHigh: number | null = null;
  let priceMomentum = 50;
  if (n >= 3) {
    const first = bars[0]!;
    const last = bars[n - 1]!;
    const chg = first.o > 0 ? last.c / first.o - 1 : 0;
    trend = chg > 0.03 ? 'up' : chg < -0.03 ? 'down' : 'sideways';
    const k = Math.max(1, Math.floor(n / 3));
    const thirds = [bars.slice(0, k), bars.slice(k, n - k), bars.slice(n - k)].filter((g) => g.length > 0);
    const lows = thirds.map((g) => Math.min(...g.map((b) => b.l)));
    const highs = thirds.map((g) => Math.max(...g.map((b) => b.h)));
    const rising = lows.every((l, i) => i === 0 || l > lows[i - 1]!);
    const falling = highs.every((h, i) => i === 0 || h < highs[i - 1]!);
    const hi = Math.max(...bars.map((b) => b.h));
    const lo = Math.min(...bars.map((b) => b.l));
    const mean = bars.reduce((x, b) => x + b.c, 0) / n;
    if (rising && !falling) structure = 'higher-lows';
    else if (falling && !rising) structure = 'lower-highs';
    else if (mean > 0 && (hi - lo) / mean < 0.05) structure = 'range';
    const prior = bars.slice(0, -1);
    const pHi = Math.max(...prior.map((b) => b.h));
    const pLo = Math.min(...prior.map((b) => b.l));
    breakout = last.c > pHi ? 'above-range' : last.c < pLo ? 'below-range' : 'none';
    const rets: number[] = [];
    for (let i = 1; i < n; i++) {
      const a = bars[i - 1]!.c;
      const b = bars[i]!.c;
      if (a > 0 && b > 0) rets.push(Math.log(b / a));
    }
    const m = rets.reduce((x, r) => x + r, 0) / Math.max(1, rets.length);
    const sd = Math.sqrt(rets.reduce((x, r) => x + (r - m) ** 2, 0) / Math.max(1, rets.length));
    const hourly = sd * Math.sqrt(3600 / RES_SECONDS[resolution]);
    volatility = hourly < 0.01 ? 'low' : hourly < 0.03 ? 'moderate' : hourly < 0.08 ? 'high' : 'extreme';
    distanceFromHigh = hi > 0 ? Math.round(1000 * (1 - last.c / hi)) / 10 : null;
    const ref = bars[n - k - 1] ?? first;
    const roc = ref.c > 0 ? 100 * (last.c / ref.c - 1) : 0;
    priceMomentum = Math.round(clamp(50 + 2.5 * roc));
  }
  const summary = await ctx.writer.summary({
    operation: 'token-price-action',
    subject: subject(s),
    facts: { trend, structure, breakout, volatility, resolution, enoughBars: n >= 3 },
  });
  return {
    ...fresh(s, ctx),
    hours,
    resolution,
    bars: n,
    trend,
    structure,
    breakout,
    volatility,
    distanceFromHigh,
    priceMomentum,
    summary,
  };
}

/** Hourly closes rebased to percent-from-first-bar; at most 72 points, no timestamps. */
export function tokenSparkView(s: TokenSnapshot, params: { hours?: number }, ctx: ViewContext): TokenSparkResponse {
  const hours = clampHours(params.hours, SPARK_HOURS);
  const closes = s.basis.hourly.slice(-hours).map((b) => b.c);
  const base = closes[0];
  const series = base && base > 0 ? closes.map((c) => Math.round((10_000 * (c - base)) / base) / 100) : [];
  if (series.length > 0) series[0] = 0;
  return {
    ...fresh(s, ctx),
    available: series.length >= 2,
    hours,
    points: series.length,
    changePct: series.length >= 2 ? series[series.length - 1]! : null,
    series,
  };
}
