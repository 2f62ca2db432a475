import type { Verdict } from '../../schemas/common.ts';
import type { HoldBand, PositionSummary, SizeBand, WalletSnapshot } from '../../schemas/wallet.ts';

/**
 * Trader and wallet views: pure functions over wallet snapshots (and a token lookup for the
 * tokens a wallet holds). No I/O, no clock: "now" comes in as an argument, chain time is the
 * newest token snapshot of the chain. Formulas: engine/trader/README.md.
 */

export type RiskBandT = 'low' | 'moderate' | 'high' | 'extreme';
export type ReturnBandT = 'heavy-loss' | 'loss' | 'flat' | 'gain' | 'strong-gain';

/** What a view needs to know about a token: derived bands only. */
export interface TokenInfo {
  symbol: string | null;
  risk: RiskBandT;
  riskScore: number;
  exitRisk: RiskBandT;
  /** raised flags: rug, honeypot, concentration */
  flags: string[];
}
export type TokenLookup = (token: string) => TokenInfo | undefined;

const clamp = (x: number, lo = 0, hi = 100) => Math.max(lo, Math.min(hi, x));
const r1 = (x: number) => Math.round(x * 10) / 10;
const GRADE_ORDER: Record<Verdict, number> = { 'mirror-worthy': 3, watch: 2, avoid: 1, unrated: 0 };

export function asOfTs(s: WalletSnapshot): number {
  return Math.floor(Date.parse(s.asOf) / 1000);
}

export function freshness(s: WalletSnapshot, nowS: number) {
  return { chain: s.chain, wallet: s.wallet, asOf: s.asOf, ageSeconds: Math.max(0, Math.round(nowS - asOfTs(s))) };
}

export function returnBand(pct: number): ReturnBandT {
  if (pct <= -30) return 'heavy-loss';
  if (pct < -2) return 'loss';
  if (pct <= 2) return 'flat';
  if (pct < 30) return 'gain';
  return 'strong-gain';
}

/** Hold seconds to a band (same buckets as the wallet engine). */
export function holdBandOf(seconds: number): HoldBand {
  if (seconds < 60) return 'seconds';
  if (seconds < 3600) return 'minutes';
  if (seconds < 86400) return 'hours';
  if (seconds < 7 * 86400) return 'days';
  return 'weeks';
}

export function sizeBandOf(usd: number): SizeBand {
  return usd < 100 ? 'micro' : usd < 1_000 ? 'small' : usd < 10_000 ? 'medium' : usd < 100_000 ? 'large' : 'whale';
}

function disqualified(s: WalletSnapshot): boolean {
  return s.disqualifiers.bot || s.disqualifiers.insider || s.disqualifiers.sniper;
}

/**
 * PnL quality 0-100: 70% profit factor (50 at break-even, 50 + 50 tanh(ln pf)), 30% win rate;
 * wins without losses count as a strong profit factor; 0 without closed round trips.
 */
export function pnlQualityScore(s: WalletSnapshot): number {
  const q = s.pnlQuality;
  if (s.sample.closedRoundTrips === 0) return 0;
  const pf = q.profitFactor;
  const pfScore = pf === null ? (q.winRatePct ?? 0) > 0 ? 90 : 50 : pf <= 0 ? 0 : 50 + 50 * Math.tanh(Math.log(pf));
  return Math.round(clamp(0.7 * pfScore + 0.3 * (q.winRatePct ?? 0)));
}

/** Composite trader score: 40% edge, 20% consistency, 20% copyability, 20% PnL quality. */
export function traderScore(s: WalletSnapshot) {
  const components = {
    edge: s.edge.score,
    consistency: s.consistency.score,
    copyability: s.copyability.score,
    pnlQuality: pnlQualityScore(s),
  };
  const score = Math.round(clamp(0.4 * components.edge + 0.2 * components.consistency + 0.2 * components.copyability + 0.2 * components.pnlQuality));
  return { score, components };
}

export function traderScoreView(s: WalletSnapshot, nowS: number) {
  const { score, components } = traderScore(s);
  return { ...freshness(s, nowS), grade: s.grade, score, components, style: s.style, reasons: s.reasons, sample: s.sample };
}

export function traderStyleView(s: WalletSnapshot, nowS: number) {
  const days = Math.max(1, s.sample.daysActive);
  const tradesPerDay = r1(s.sample.trades / days);
  const tokens = Math.max(1, s.sample.distinctTokens);
  const launchShare = s.activity.launchWindowBuys / tokens;
  return {
    ...freshness(s, nowS),
    style: s.style,
    medianHold: s.copyability.medianHold,
    medianSize: s.copyability.medianSize,
    tempo: (tradesPerDay < 3 ? 'occasional' : tradesPerDay < 20 ? 'active' : 'frantic') as 'occasional' | 'active' | 'frantic',
    launchTiming: (s.activity.launchWindowBuys === 0 ? 'none' : launchShare >= 0.3 ? 'habitual' : 'some') as 'none' | 'some' | 'habitual',
    signals: {
      tradesPerDay,
      launchWindowBuys: s.activity.launchWindowBuys,
      sameBlockRoundTrips: s.activity.sameBlockRoundTrips,
      copyableHoldPct: s.copyability.copyableHoldPct,
    },
    disqualifiers: s.disqualifiers.reasons,
  };
}

export function traderEdgeView(s: WalletSnapshot, nowS: number) {
  const n = Math.max(s.edge.forwardSamples, s.edge.roundTripSamples);
  const confidence = (n < 10 ? 'low' : n < 40 ? 'moderate' : 'high') as 'low' | 'moderate' | 'high';
  // the edge alone: a claim about skill, not about copying (that is copy-decision)
  let verdict: Verdict;
  if (disqualified(s) || s.edge.band === 'negative') verdict = 'avoid';
  else if (!s.sample.met || confidence === 'low') verdict = 'unrated';
  else if (s.edge.band === 'strong' || (s.edge.band === 'positive' && s.edge.score >= 65)) verdict = 'mirror-worthy';
  else verdict = 'watch';
  return { ...freshness(s, nowS), edge: s.edge, confidence, verdict };
}

export function walletPnlQualityView(s: WalletSnapshot, nowS: number) {
  const q = s.pnlQuality;
  const score = pnlQualityScore(s);
  const quality =
    s.sample.closedRoundTrips === 0 ? 'unknown' : score >= 75 ? 'excellent' : score >= 55 ? 'solid' : score >= 40 ? 'mixed' : 'poor';
  return {
    ...freshness(s, nowS),
    ...q,
    consistency: {
      score: s.consistency.score,
      band: s.consistency.band,
      bestTradeSharePct: s.consistency.bestTradeSharePct,
      profitableWeeksPct: s.consistency.profitableWeeksPct,
    },
    quality: quality as 'poor' | 'mixed' | 'solid' | 'excellent' | 'unknown',
    roundTrips: s.sample.closedRoundTrips,
  };
}

function iso(ts: number): string {
  return new Date(ts * 1000).toISOString();
}

/** One position as a derived trade summary: bands and percentages, never prices or USD rows. */
export function tradeSummary(p: PositionSummary, chain: string, tokens: TokenLookup) {
  const ret = p.status === 'closed' ? p.realisedReturnPct : p.unrealisedReturnPct;
  return {
    token: p.token,
    chain,
    symbol: tokens(p.token)?.symbol ?? null,
    status: p.status,
    firstTradeAt: iso(p.firstTradeTs),
    lastTradeAt: iso(p.lastTradeTs),
    buys: p.buys,
    sells: p.sells,
    roundTrips: p.roundTrips,
    wins: p.wins,
    losses: p.losses,
    outcome: ret === null ? null : returnBand(ret),
    returnPct: ret,
    hold: p.avgHoldSeconds === null ? null : holdBandOf(p.avgHoldSeconds),
    sizeBand: p.sizeBand,
    launchWindowBuy: p.launchWindowBuy,
  };
}

export function walletTradesView(s: WalletSnapshot, nowS: number, tokens: TokenLookup, opts: { limit: number; status?: 'open' | 'closed' }) {
  const all = s.positions ?? [];
  const picked = all.filter((p) => !opts.status || p.status === opts.status).slice(0, opts.limit);
  return {
    ...freshness(s, nowS),
    trades: picked.map((p) => tradeSummary(p, s.chain, tokens)),
    totals: {
      tokens: s.sample.distinctTokens,
      open: s.sample.openPositions,
      closed: all.filter((p) => p.status === 'closed').length,
      winningTokens: all.filter((p) => (p.realisedReturnPct ?? 0) > 0).length,
      losingTokens: all.filter((p) => (p.realisedReturnPct ?? 0) < 0).length,
    },
  };
}

const STALE_S = 7 * 86400;

export function walletHealthView(s: WalletSnapshot, nowS: number, chainNowTs: number) {
  const flags: { flag: string; severity: 'info' | 'warn' | 'red'; reason: string }[] = [];
  for (const r of s.disqualifiers.reasons) flags.push({ flag: r.split(':')[0] ?? 'disqualifier', severity: 'red', reason: r });
  if (s.edge.band === 'negative') flags.push({ flag: 'negative-edge', severity: 'warn', reason: 'trades underperform the tokens they trade' });
  if (s.pnlQuality.profitFactorBand === 'losing') flags.push({ flag: 'losing', severity: 'warn', reason: 'gross losses exceed gross wins' });
  const u = s.pnlQuality.unrealisedBand;
  if (u === 'heavy-loss') flags.push({ flag: 'underwater', severity: 'warn', reason: 'open positions are heavily under water' });
  if ((s.consistency.bestTradeSharePct ?? 0) > 60) flags.push({ flag: 'one-hit', severity: 'info', reason: 'most gains come from a single round trip' });
  const lastTrade = Math.max(0, ...(s.positions ?? []).map((p) => p.lastTradeTs));
  const idle = lastTrade > 0 ? chainNowTs - lastTrade : Infinity;
  const activity = (idle <= 86400 ? 'active' : idle <= STALE_S ? 'quiet' : 'dormant') as 'active' | 'quiet' | 'dormant';
  if (activity === 'dormant') flags.push({ flag: 'dormant', severity: 'warn', reason: 'no trade in the last week' });
  const open = (s.positions ?? []).filter((p) => p.status === 'open');
  const stale = open.filter((p) => chainNowTs - p.lastTradeTs > STALE_S).length;
  if (stale > 0) flags.push({ flag: 'stale-positions', severity: 'info', reason: 'open positions untouched for over a week' });
  if (!s.sample.met) flags.push({ flag: 'thin-history', severity: 'info', reason: 'too little history for a grade' });
  const reds = flags.filter((f) => f.severity === 'red').length;
  const warns = flags.filter((f) => f.severity === 'warn').length;
  const infos = flags.length - reds - warns;
  const score = Math.round(clamp(100 - 40 * reds - 15 * warns - 5 * infos));
  const health =
    s.sample.trades === 0 ? 'unknown' : reds > 0 || warns >= 3 ? 'unhealthy' : warns > 0 ? 'caution' : 'healthy';
  return {
    ...freshness(s, nowS),
    health: health as 'healthy' | 'caution' | 'unhealthy' | 'unknown',
    score,
    flags,
    activity,
    openPositions: s.sample.openPositions,
    staleOpenPositions: stale,
  };
}

const RISK_SCORE: Record<RiskBandT, number> = { low: 15, moderate: 40, high: 70, extreme: 95 };

export function riskBandOf(score: number): RiskBandT {
  return score < 25 ? 'low' : score < 50 ? 'moderate' : score < 75 ? 'high' : 'extreme';
}

/**
 * Portfolio risk of the open positions among the newest summarised tokens: exposure-weighted
 * token risk score, +15 when one position is over half the open cost; flagged exposure = share of
 * open cost in tokens with a raised rug or honeypot flag or extreme risk.
 */
export function portfolioRiskView(s: WalletSnapshot, nowS: number, tokens: TokenLookup) {
  const open = (s.positions ?? []).filter((p) => p.status === 'open' && p.openCostUsd > 0);
  const total = open.reduce((a, p) => a + p.openCostUsd, 0);
  let weighted = 0;
  let flaggedCost = 0;
  const positions = open
    .map((p) => {
      const t = tokens(p.token);
      const share = total > 0 ? p.openCostUsd / total : 0;
      const rs = t ? t.riskScore : RISK_SCORE.high; // an unknown token is treated as high risk
      weighted += share * rs;
      const flagged = t ? t.risk === 'extreme' || t.flags.includes('rug') || t.flags.includes('honeypot') : false;
      if (flagged) flaggedCost += p.openCostUsd;
      return {
        token: p.token,
        chain: s.chain,
        symbol: t?.symbol ?? null,
        risk: t?.risk ?? null,
        exitRisk: t?.exitRisk ?? null,
        flags: t?.flags ?? [],
        exposureSharePct: r1(share * 100),
        unrealised: p.unrealisedReturnPct === null ? null : returnBand(p.unrealisedReturnPct),
      };
    })
    .sort((a, b) => b.exposureSharePct - a.exposureSharePct || a.token.localeCompare(b.token));
  const top = positions[0]?.exposureSharePct ?? null;
  const concentration =
    top === null ? 'none' : positions.length === 1 || top > 50 ? 'concentrated' : top > 25 ? 'moderate' : 'diversified';
  const score = open.length === 0 ? 0 : Math.round(clamp(weighted + (concentration === 'concentrated' ? 15 : 0)));
  return {
    ...freshness(s, nowS),
    risk: riskBandOf(score),
    score,
    openPositions: open.length,
    concentration: { topPositionSharePct: top, band: concentration as 'diversified' | 'moderate' | 'concentrated' | 'none' },
    flaggedExposurePct: total > 0 ? r1((flaggedCost / total) * 100) : 0,
    positions,
  };
}

/** Strengths and weaknesses as short phrases (facts for the writer and for the partner). */
export function walletAnalyzeView(s: WalletSnapshot, nowS: number) {
  const strengths: string[] = [];
  const weaknesses: string[] = [];
  if (s.edge.band === 'strong' || s.edge.band === 'positive') strengths.push(`${s.edge.band} edge over the tokens' own moves`);
  if (s.edge.band === 'negative') weaknesses.push('negative edge: entries underperform the tokens');
  const pf = s.pnlQuality.profitFactorBand;
  if (pf === 'strong' || pf === 'profitable') strengths.push(`${pf} profit factor`);
  if (pf === 'losing') weaknesses.push('losses outweigh wins');
  if (s.consistency.band === 'high') strengths.push('profits spread across trades and weeks');
  if (s.consistency.band === 'low') weaknesses.push('results depend on few trades');
  if (s.copyability.band === 'high') strengths.push('holds long enough to be copied');
  if (s.copyability.band === 'low') weaknesses.push('hard to copy: holds too short or buys at launch');
  for (const r of s.disqualifiers.reasons) weaknesses.push(r);
  if (!s.sample.met) weaknesses.push('too little history for a grade');
  return {
    ...freshness(s, nowS),
    grade: s.grade,
    style: s.style,
    strengths,
    weaknesses,
    edge: s.edge.band,
    pnl: pf,
    consistency: s.consistency.band,
    copyability: s.copyability.band,
  };
}

export function leaderboardItem(s: WalletSnapshot, rank: number, score: number) {
  return {
    rank,
    wallet: s.wallet,
    chain: s.chain,
    grade: s.grade,
    score,
    style: s.style,
    edge: s.edge.band,
    winRatePct: s.pnlQuality.winRatePct,
    profitFactorBand: s.pnlQuality.profitFactorBand,
    roundTrips: s.sample.closedRoundTrips,
  };
}

/** Ranked: enough history and no disqualifier. */
export function isRated(s: WalletSnapshot): boolean {
  return s.sample.met && !disqualified(s);
}

function newest(snaps: WalletSnapshot[]): number | null {
  let t: number | null = null;
  for (const s of snaps) {
    const a = asOfTs(s);
    if (t === null || a > t) t = a;
  }
  return t;
}

/** Rated wallets, grade first (mirror-worthy, watch, avoid), then trader score. */
export function traderLeaderboard(snaps: WalletSnapshot[], opts: { limit: number; style?: string }) {
  const rated = snaps.filter(isRated);
  const items = rated
    .filter((s) => !opts.style || s.style === opts.style)
    .map((s) => ({ s, score: traderScore(s).score }))
    .sort((a, b) => GRADE_ORDER[b.s.grade] - GRADE_ORDER[a.s.grade] || b.score - a.score || a.s.wallet.localeCompare(b.s.wallet))
    .slice(0, opts.limit)
    .map(({ s, score }, i) => leaderboardItem(s, i + 1, score));
  return { asOfTs: newest(snaps), leaders: items, rated: rated.length };
}

/** Performance board for copiers: rated, not avoid; 50% edge, 50% PnL quality. */
export function topTraders(snaps: WalletSnapshot[], limit: number) {
  const items = snaps
    .filter((s) => isRated(s) && s.grade !== 'avoid')
    .map((s) => ({ s, score: Math.round(0.5 * s.edge.score + 0.5 * pnlQualityScore(s)) }))
    .sort((a, b) => b.score - a.score || GRADE_ORDER[b.s.grade] - GRADE_ORDER[a.s.grade] || a.s.wallet.localeCompare(b.s.wallet))
    .slice(0, limit)
    .map(({ s, score }, i) => leaderboardItem(s, i + 1, score));
  return { asOfTs: newest(snaps), traders: items };
}

/** Copy score: 35% edge, 35% copyability, 15% consistency, 15% PnL quality. */
export function copyScore(s: WalletSnapshot): number {
  return Math.round(clamp(0.35 * s.edge.score + 0.35 * s.copyability.score + 0.15 * s.consistency.score + 0.15 * pnlQualityScore(s)));
}

/** Spot leaders: rated, graded mirror-worthy or watch, copyability not low; grade then copy score. */
export function spotLeaders(snaps: WalletSnapshot[], limit: number) {
  const items = snaps
    .filter((s) => isRated(s) && (s.grade === 'mirror-worthy' || s.grade === 'watch') && s.copyability.band !== 'low')
    .map((s) => ({ s, score: copyScore(s) }))
    .sort((a, b) => GRADE_ORDER[b.s.grade] - GRADE_ORDER[a.s.grade] || b.score - a.score || a.s.wallet.localeCompare(b.s.wallet))
    .slice(0, limit)
    .map(({ s, score }, i) => ({
      rank: i + 1,
      wallet: s.wallet,
      chain: s.chain,
      grade: s.grade,
      copyScore: score,
      style: s.style,
      edge: s.edge.band,
      copyability: s.copyability.band,
      medianHold: s.copyability.medianHold,
      medianSize: s.copyability.medianSize,
    }));
  return { asOfTs: newest(snaps), leaders: items };
}

/** The chain's trader population: grades, styles, the top of the leaderboard and what mirror-worthy wallets hold. */
export function traderBoard(snaps: WalletSnapshot[], tokens: TokenLookup, opts: { limit: number; chain: string }) {
  const grades = { 'mirror-worthy': 0, watch: 0, avoid: 0, unrated: 0 };
  const styles: Record<string, number> = {};
  const holders = new Map<string, number>();
  for (const s of snaps) {
    grades[s.grade]++;
    styles[s.style] = (styles[s.style] ?? 0) + 1;
    if (s.grade !== 'mirror-worthy') continue;
    for (const p of s.positions ?? []) if (p.status === 'open') holders.set(p.token, (holders.get(p.token) ?? 0) + 1);
  }
  const holding = [...holders.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, opts.limit)
    .map(([token, n]) => ({ token, chain: opts.chain, symbol: tokens(token)?.symbol ?? null, mirrorWorthyHolders: n, risk: tokens(token)?.risk ?? null }));
  const lb = traderLeaderboard(snaps, { limit: opts.limit });
  return { asOfTs: lb.asOfTs, grades, styles, top: lb.leaders, holding };
}
