import type { Verdict } from '../../schemas/common.ts';
import type { CopyGate, HealthFlag, HealthPhase, PositionSummary, WalletSnapshot } from '../../schemas/wallet.ts';
import type { RiskBand, TokenFinal, TokenLookup } from '../../schemas/token.ts';
import { holdBandOf, returnBandOfPct, sizeBandOf } from './bands.ts';

/**
 * The final values of a wallet snapshot, computed once here so that every operation serves them
 * as they are: scores, the edge verdict, tempo, strengths and weaknesses, health by chain time,
 * the open book's concentration and the copy decision's wallet side. Pure; formulas in
 * engine/wallet/README.md ("Final values").
 */

export const FinalThresholds = {
  /** copy-decision gates (the same bars as the mirror-worthy grade) */
  copyEdgeScore: 65,
  copyProfitFactor: 1.5,
  copyConsistency: 50,
  copyCopyability: 50,
  /** a leader is active while it traded within this many seconds of chain time */
  activeWithinS: 7 * 86400,
  /** share of open cost in flagged tokens at which the portfolio gate fails, percent */
  flaggedExposurePct: 25,
  /** portfolio risk: an open position in a token the table does not know counts as this risk score */
  unknownTokenRiskScore: 70,
  /** portfolio risk: points added when the open book is concentrated */
  concentrationPoints: 15,
  /** copier latency: round trips held shorter than this cannot be mirrored */
  copierLatencyS: 300,
  /** wallet-health: quiet after a day without a trade, dormant (and positions stale) after a week */
  quietAfterS: 86400,
  staleAfterS: 7 * 86400,
  /** edge confidence from the larger sample: < 10 low, < 40 moderate */
  confidenceLow: 10,
  confidenceModerate: 40,
  /** tempo: trades per active day < 3 occasional, < 20 active */
  tempoActive: 3,
  tempoFrantic: 20,
  /** launch timing: launch-window first buys on this share of tokens or more is habitual */
  launchHabitualShare: 0.3,
} as const;

/** The snapshot as the wallet engine measures it, before the final values. */
export type MeasuredWallet = Omit<
  WalletSnapshot,
  'scores' | 'rated' | 'edgeVerdict' | 'tempo' | 'launchTiming' | 'analysis' | 'health' | 'portfolio' | 'copy' | 'pnlQuality' | 'positions'
> & {
  pnlQuality: Omit<WalletSnapshot['pnlQuality'], 'score' | 'quality'>;
  positions: Omit<PositionSummary, 'outcome' | 'hold' | 'tooFastToCopy' | 'exposureSharePct' | 'sellable'>[];
};

const clamp = (x: number, lo = 0, hi = 100) => Math.max(lo, Math.min(hi, x));
const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/**
 * PnL quality 0-100: 70% profit factor (50 at break-even, 50 + 50 tanh(ln pf)), 30% win rate;
 * wins without losses count as a strong profit factor; 0 without closed round trips.
 */
function pnlQualityScore(m: MeasuredWallet): number {
  const q = m.pnlQuality;
  if (m.sample.closedRoundTrips === 0) return 0;
  const pf = q.profitFactor;
  const pfScore = pf === null ? ((q.winRatePct ?? 0) > 0 ? 90 : 50) : pf <= 0 ? 0 : 50 + 50 * Math.tanh(Math.log(pf));
  return Math.round(clamp(0.7 * pfScore + 0.3 * (q.winRatePct ?? 0)));
}

function disqualified(m: MeasuredWallet): boolean {
  return m.disqualifiers.bot || m.disqualifiers.insider || m.disqualifiers.sniper;
}

function edgeVerdict(m: MeasuredWallet): WalletSnapshot['edgeVerdict'] {
  const T = FinalThresholds;
  const n = Math.max(m.edge.forwardSamples, m.edge.roundTripSamples);
  const confidence = n < T.confidenceLow ? 'low' : n < T.confidenceModerate ? 'moderate' : 'high';
  let verdict: Verdict;
  if (disqualified(m) || m.edge.band === 'negative') verdict = 'avoid';
  else if (!m.sample.met || confidence === 'low') verdict = 'unrated';
  else if (m.edge.band === 'strong' || (m.edge.band === 'positive' && m.edge.score >= T.copyEdgeScore)) verdict = 'mirror-worthy';
  else verdict = 'watch';
  return { verdict, confidence };
}

function analysis(m: MeasuredWallet): WalletSnapshot['analysis'] {
  const strengths: string[] = [];
  const weaknesses: string[] = [];
  if (m.edge.band === 'strong' || m.edge.band === 'positive') strengths.push(`${m.edge.band} edge over the tokens' own moves`);
  if (m.edge.band === 'negative') weaknesses.push('negative edge: entries underperform the tokens');
  const pf = m.pnlQuality.profitFactorBand;
  if (pf === 'strong' || pf === 'profitable') strengths.push(`${pf} profit factor`);
  if (pf === 'losing') weaknesses.push('losses outweigh wins');
  if (m.consistency.band === 'high') strengths.push('profits spread across trades and weeks');
  if (m.consistency.band === 'low') weaknesses.push('results depend on few trades');
  if (m.copyability.band === 'high') strengths.push('holds long enough to be copied');
  if (m.copyability.band === 'low') weaknesses.push('hard to copy: holds too short or buys at launch');
  for (const r of m.disqualifiers.reasons) weaknesses.push(r);
  if (!m.sample.met) weaknesses.push('too little history for a grade');
  return { strengths, weaknesses };
}

/**
 * Health phases. Flags: red (disqualifiers), warn (negative edge, losing, open book heavily under
 * water, dormant), info (one-hit gains, stale open positions, thin history). Score = 100 − 40·red
 * − 15·warn − 5·info; unhealthy with a red flag or 3 warnings, caution with a warning. Activity
 * and staleness change with chain time only: one phase from each instant one of them changes.
 */
function healthPhases(m: MeasuredWallet, positions: PositionSummary[]): HealthPhase[] {
  const T = FinalThresholds;
  const base: HealthFlag[] = [];
  for (const r of m.disqualifiers.reasons) base.push({ flag: r.split(':')[0] ?? 'disqualifier', severity: 'red', reason: r });
  if (m.edge.band === 'negative') base.push({ flag: 'negative-edge', severity: 'warn', reason: 'trades underperform the tokens they trade' });
  if (m.pnlQuality.profitFactorBand === 'losing') base.push({ flag: 'losing', severity: 'warn', reason: 'gross losses exceed gross wins' });
  if (m.pnlQuality.unrealisedBand === 'heavy-loss') base.push({ flag: 'underwater', severity: 'warn', reason: 'open positions are heavily under water' });
  if ((m.consistency.bestTradeSharePct ?? 0) > 60) base.push({ flag: 'one-hit', severity: 'info', reason: 'most gains come from a single round trip' });
  const last = positions.length > 0 ? Math.max(...positions.map((p) => p.lastTradeTs)) : null;
  const openLast = positions.filter((p) => p.status === 'open').map((p) => p.lastTradeTs);
  // the instants after which something changes, oldest first
  const changes = last === null ? [] : [last + T.quietAfterS, last + T.staleAfterS, ...openLast.map((t) => t + T.staleAfterS)];
  const instants = [null, ...[...new Set(changes)].sort((a, b) => a - b)];
  // `passed(x)`: chain time is later than x, in the phase that starts after `afterTs`
  return instants.map((afterTs) => {
    const passed = (x: number) => afterTs !== null && afterTs >= x;
    const activity = last === null ? 'dormant' : passed(last + T.staleAfterS) ? 'dormant' : passed(last + T.quietAfterS) ? 'quiet' : 'active';
    const stale = openLast.filter((t) => passed(t + T.staleAfterS)).length;
    const flags = [...base];
    if (activity === 'dormant') flags.push({ flag: 'dormant', severity: 'warn', reason: 'no trade in the last week' });
    if (stale > 0) flags.push({ flag: 'stale-positions', severity: 'info', reason: 'open positions untouched for over a week' });
    if (!m.sample.met) flags.push({ flag: 'thin-history', severity: 'info', reason: 'too little history for a grade' });
    const reds = flags.filter((f) => f.severity === 'red').length;
    const warns = flags.filter((f) => f.severity === 'warn').length;
    const infos = flags.length - reds - warns;
    const health = m.sample.trades === 0 ? 'unknown' : reds > 0 || warns >= 3 ? 'unhealthy' : warns > 0 ? 'caution' : 'healthy';
    return { afterTs, health, score: Math.round(clamp(100 - 40 * reds - 15 * warns - 5 * infos)), flags, activity, staleOpenPositions: stale };
  });
}

/** The gates the wallet alone decides, and the verdict they give (the grade). */
function copyDecision(m: MeasuredWallet, positions: PositionSummary[], flaggedExposurePct: number): WalletSnapshot['copy']['decision'] {
  const T = FinalThresholds;
  const pf = m.pnlQuality.profitFactor;
  const dq = m.disqualifiers;
  const gates: CopyGate[] = [
    { gate: 'history', passed: m.sample.met, detail: m.sample.met ? 'enough round trips, days and tokens' : 'too little history to judge' },
    { gate: 'clean', passed: !disqualified(m), detail: dq.reasons.length ? dq.reasons.join('; ') : 'no bot, insider or sniper behaviour' },
    {
      gate: 'edge',
      passed: m.edge.score >= T.copyEdgeScore && (m.edge.band === 'positive' || m.edge.band === 'strong'),
      detail: `${m.edge.band} edge, score ${m.edge.score}`,
    },
    {
      gate: 'profitable',
      passed: pf === null ? (m.pnlQuality.winRatePct ?? 0) > 0 : pf >= T.copyProfitFactor,
      detail: `profit factor ${m.pnlQuality.profitFactorBand ?? 'unknown'}`,
    },
    { gate: 'consistent', passed: m.consistency.score >= T.copyConsistency, detail: `consistency ${m.consistency.band}` },
    {
      gate: 'copyable',
      passed: m.copyability.score >= T.copyCopyability,
      detail: `copyability ${m.copyability.band}, median hold ${m.copyability.medianHold ?? 'unknown'}`,
    },
  ];
  const last = positions.length > 0 ? Math.max(...positions.map((p) => p.lastTradeTs)) : null;
  return {
    verdict: m.grade,
    otherwise: m.grade === 'mirror-worthy' ? 'watch' : m.grade,
    gates,
    activeUntilTs: last === null ? null : last + T.activeWithinS,
    maxFlaggedExposurePct: T.flaggedExposurePct,
    portfolioClean: flaggedExposurePct < T.flaggedExposurePct,
  };
}

function copyPlan(m: MeasuredWallet, positions: PositionSummary[]): WalletSnapshot['copy']['plan'] {
  const entryUsd = median(positions.map((p) => p.avgBuyUsd).filter((x) => x > 0));
  const hold = median(positions.map((p) => p.avgHoldSeconds).filter((x): x is number => x !== null));
  const warnings: string[] = [];
  if (m.copyability.medianHold === 'seconds' || m.copyability.medianHold === 'minutes') warnings.push('short holds: copies may lag the leader exits');
  if (m.activity.launchWindowBuys > 0) warnings.push('some entries are launch-window buys that cannot be copied');
  return {
    entryUsd: entryUsd === null ? null : r2(entryUsd),
    entrySize: entryUsd === null ? null : sizeBandOf(entryUsd),
    expectedHold: hold === null ? null : holdBandOf(hold),
    entriesPerWeek: r1(m.sample.distinctTokens / Math.max(1, m.sample.daysActive / 7)),
    warnings,
  };
}

/** Flagged for exposure: cannot be sold, or of extreme risk. */
function flagged(t: TokenFinal | undefined): boolean {
  return t !== undefined && (!t.sellable || t.risk === 'extreme');
}

/**
 * The open book joined with its tokens' final facts (the token-facts table): exposure-weighted
 * token risk score (an unknown token counts as 70), +15 when concentrated, banded like a token's
 * risk score; and the share of the open cost in flagged tokens.
 */
function portfolioRisk(open: PositionSummary[], concentrated: boolean, tokens: TokenLookup): WalletSnapshot['portfolio']['risk'] {
  const T = FinalThresholds;
  const total = open.reduce((a, p) => a + p.openCostUsd, 0);
  if (total === 0) return { band: 'low', score: 0, flaggedExposurePct: 0 };
  const weighted = open.reduce((a, p) => a + (p.openCostUsd / total) * (tokens(p.token)?.riskScore ?? T.unknownTokenRiskScore), 0);
  const score = Math.round(clamp(weighted + (concentrated ? T.concentrationPoints : 0)));
  const band: RiskBand = score < 25 ? 'low' : score < 50 ? 'moderate' : score < 75 ? 'high' : 'extreme';
  const flaggedCost = open.filter((p) => flagged(tokens(p.token))).reduce((a, p) => a + p.openCostUsd, 0);
  return { band, score, flaggedExposurePct: r1((flaggedCost / total) * 100) };
}

/**
 * Adds the final values to a measured wallet. `tokens` is the token-facts table: an open position
 * in a token that cannot be sold (rug or honeypot flag raised) is worth nothing, never a gain.
 */
export function finishWalletSnapshot(m: MeasuredWallet, tokens: TokenLookup = () => undefined): WalletSnapshot {
  const T = FinalThresholds;
  const openCost = m.positions.filter((p) => p.status === 'open').reduce((a, p) => a + p.openCostUsd, 0);
  const positions: PositionSummary[] = m.positions.map((p) => {
    const unsellable = p.status === 'open' && tokens(p.token)?.sellable === false;
    const ret = p.status === 'closed' ? p.realisedReturnPct : unsellable ? -100 : p.unrealisedReturnPct;
    return {
      ...p,
      unrealisedReturnPct: unsellable ? -100 : p.unrealisedReturnPct,
      sellable: !unsellable,
      outcome: ret === null ? null : returnBandOfPct(ret),
      hold: p.avgHoldSeconds === null ? null : holdBandOf(p.avgHoldSeconds),
      tooFastToCopy: p.status === 'closed' && p.avgHoldSeconds !== null && p.avgHoldSeconds < T.copierLatencyS,
      exposureSharePct: p.status === 'open' && openCost > 0 ? r1((p.openCostUsd / openCost) * 100) : 0,
    };
  });
  const open = positions.filter((p) => p.status === 'open' && p.openCostUsd > 0);
  const top = open.length > 0 ? Math.max(...open.map((p) => p.exposureSharePct)) : null;
  const concentration = top === null ? 'none' : open.length === 1 || top > 50 ? 'concentrated' : top > 25 ? 'moderate' : 'diversified';
  const risk = portfolioRisk(open, concentration === 'concentrated', tokens);

  const pnlQuality = pnlQualityScore(m);
  const trader = Math.round(clamp(0.4 * m.edge.score + 0.2 * m.consistency.score + 0.2 * m.copyability.score + 0.2 * pnlQuality));
  const copy = Math.round(clamp(0.35 * m.edge.score + 0.35 * m.copyability.score + 0.15 * m.consistency.score + 0.15 * pnlQuality));
  const rated = m.sample.met && !disqualified(m);
  const tradesPerDay = r1(m.sample.trades / Math.max(1, m.sample.daysActive));
  const launchShare = m.activity.launchWindowBuys / Math.max(1, m.sample.distinctTokens);

  return {
    ...m,
    pnlQuality: {
      ...m.pnlQuality,
      score: pnlQuality,
      quality:
        m.sample.closedRoundTrips === 0 ? 'unknown' : pnlQuality >= 75 ? 'excellent' : pnlQuality >= 55 ? 'solid' : pnlQuality >= 40 ? 'mixed' : 'poor',
    },
    scores: { trader, copy, performance: Math.round(0.5 * m.edge.score + 0.5 * pnlQuality) },
    rated,
    edgeVerdict: edgeVerdict(m),
    tempo: { band: tradesPerDay < T.tempoActive ? 'occasional' : tradesPerDay < T.tempoFrantic ? 'active' : 'frantic', tradesPerDay },
    launchTiming: m.activity.launchWindowBuys === 0 ? 'none' : launchShare >= T.launchHabitualShare ? 'habitual' : 'some',
    analysis: analysis(m),
    health: healthPhases(m, positions),
    portfolio: { openPositions: open.length, concentration: { topPositionSharePct: top, band: concentration }, risk },
    copy: {
      leader: rated && (m.grade === 'mirror-worthy' || m.grade === 'watch') && m.copyability.band !== 'low',
      decision: copyDecision(m, positions, risk.flaggedExposurePct),
      plan: copyPlan(m, positions),
    },
    positions,
  };
}
