import type { Verdict } from '../../schemas/common.ts';
import { keysetPage } from '../../infra/page.ts';
import type { Page } from '../../infra/page.ts';
import type { TokenLookup } from '../../schemas/trader.ts';
import type { HealthPhase, PositionSummary, WalletSnapshot } from '../../schemas/wallet.ts';
import { ageSeconds } from '../routes/common.ts';

/**
 * Trader and wallet responses as projections of wallet snapshots: every grade, score, band, flag
 * and phrase is the engine's (engine/wallet/final.ts); here fields are only selected, joined with
 * the final fields of the tokens they name, filtered, sorted by stored scores and sliced. "now"
 * is the request time (for ageSeconds); chain time is the newest token snapshot of the chain.
 */

const GRADE_ORDER: Record<Verdict, number> = { 'mirror-worthy': 3, watch: 2, avoid: 1, unrated: 0 };

/** Names the wallet and states freshness. */
export function walletFresh(s: WalletSnapshot, nowMs: number) {
  return { chain: s.chain, wallet: s.wallet, asOf: s.asOf, ageSeconds: ageSeconds(s.asOf, nowMs) };
}

/** Freshness of a list: its newest snapshot. */
export function listFresh(asOf: string | null, nowMs: number) {
  return { asOf, ageSeconds: asOf === null ? null : ageSeconds(asOf, nowMs) };
}

export function newestAsOf(snaps: { asOf: string }[]): string | null {
  let t: string | null = null;
  for (const s of snaps) if (t === null || Date.parse(s.asOf) > Date.parse(t)) t = s.asOf;
  return t;
}

export function traderScoreView(s: WalletSnapshot, nowMs: number) {
  return {
    ...walletFresh(s, nowMs),
    grade: s.grade,
    score: s.scores.trader,
    components: { edge: s.edge.score, consistency: s.consistency.score, copyability: s.copyability.score, pnlQuality: s.pnlQuality.score },
    style: s.style,
    reasons: s.reasons,
    sample: s.sample,
  };
}

export function traderStyleView(s: WalletSnapshot, nowMs: number) {
  return {
    ...walletFresh(s, nowMs),
    style: s.style,
    medianHold: s.copyability.medianHold,
    medianSize: s.copyability.medianSize,
    tempo: s.tempo.band,
    launchTiming: s.launchTiming,
    signals: {
      tradesPerDay: s.tempo.tradesPerDay,
      launchWindowBuys: s.activity.launchWindowBuys,
      sameBlockRoundTrips: s.activity.sameBlockRoundTrips,
      copyableHoldPct: s.copyability.copyableHoldPct,
    },
    disqualifiers: s.disqualifiers.reasons,
  };
}

export function traderEdgeView(s: WalletSnapshot, nowMs: number) {
  const e = s.edge;
  return {
    ...walletFresh(s, nowMs),
    edge: {
      score: e.score,
      band: e.band,
      excessReturnPct: e.excessReturnPct,
      forwardExcessPct: e.forwardExcessPct,
      roundTripExcessPct: e.roundTripExcessPct,
      forwardSamples: e.forwardSamples,
      roundTripSamples: e.roundTripSamples,
      horizonMinutes: e.horizonMinutes,
    },
    confidence: s.edgeVerdict.confidence,
    verdict: s.edgeVerdict.verdict,
  };
}

export function walletPnlQualityView(s: WalletSnapshot, nowMs: number) {
  const { score: _score, quality, ...fields } = s.pnlQuality;
  return {
    ...walletFresh(s, nowMs),
    ...fields,
    consistency: {
      score: s.consistency.score,
      band: s.consistency.band,
      bestTradeSharePct: s.consistency.bestTradeSharePct,
      profitableWeeksPct: s.consistency.profitableWeeksPct,
    },
    quality,
    roundTrips: s.sample.closedRoundTrips,
  };
}

/** One position as a derived trade summary: bands and percentages, never prices or USD rows. */
function tradeSummary(p: PositionSummary, chain: string, tokens: TokenLookup) {
  const t = tokens(p.token);
  return {
    token: p.token,
    chain,
    symbol: t?.symbol ?? null,
    status: p.status,
    firstTradeAt: new Date(p.firstTradeTs * 1000).toISOString(),
    lastTradeAt: new Date(p.lastTradeTs * 1000).toISOString(),
    buys: p.buys,
    sells: p.sells,
    roundTrips: p.roundTrips,
    wins: p.wins,
    losses: p.losses,
    // the engine marks an open position in a token that cannot be sold at −100 %, a heavy loss
    outcome: p.outcome,
    returnPct: p.status === 'closed' ? p.realisedReturnPct : p.unrealisedReturnPct,
    hold: p.hold,
    sizeBand: p.sizeBand,
    launchWindowBuy: p.launchWindowBuy,
  };
}

export function walletTradesView(s: WalletSnapshot, nowMs: number, tokens: TokenLookup, opts: { status?: 'open' | 'closed' } & Page) {
  const all = s.positions ?? [];
  // newest first, as the engine stores them
  const picked = keysetPage(
    all.filter((p) => !opts.status || p.status === opts.status),
    (p) => [-p.lastTradeTs, p.token],
    opts,
  );
  return {
    ...walletFresh(s, nowMs),
    trades: picked.items.map((p) => tradeSummary(p, s.chain, tokens)),
    next: picked.next,
    totals: {
      tokens: s.sample.distinctTokens,
      open: s.sample.openPositions,
      closed: all.filter((p) => p.status === 'closed').length,
      winningTokens: all.filter((p) => (p.realisedReturnPct ?? 0) > 0).length,
      losingTokens: all.filter((p) => (p.realisedReturnPct ?? 0) < 0).length,
    },
  };
}

/** The stored health phase that holds at chain time `chainNowTs`. */
export function healthAt(s: WalletSnapshot, chainNowTs: number): HealthPhase {
  let at = s.health[0] as HealthPhase;
  for (const p of s.health) if (p.afterTs === null || chainNowTs > p.afterTs) at = p;
  return at;
}

export function walletHealthView(s: WalletSnapshot, nowMs: number, chainNowTs: number) {
  const h = healthAt(s, chainNowTs);
  return {
    ...walletFresh(s, nowMs),
    health: h.health,
    score: h.score,
    flags: h.flags,
    activity: h.activity,
    openPositions: s.sample.openPositions,
    staleOpenPositions: h.staleOpenPositions,
  };
}

/**
 * The open positions of portfolio-risk, largest exposure first, each with its token's final
 * risk, exit risk and raised flags (the token snapshots) and the outcome the engine stored.
 */
export function portfolioPositions(s: WalletSnapshot, tokens: TokenLookup) {
  return (s.positions ?? [])
    .filter((p) => p.status === 'open' && p.openCostUsd > 0)
    .map((p) => {
      const t = tokens(p.token);
      return {
        token: p.token,
        chain: s.chain,
        symbol: t?.symbol ?? null,
        risk: t?.risk ?? null,
        exitRisk: t?.exitRisk ?? null,
        flags: t?.flags ?? [],
        exposureSharePct: p.exposureSharePct,
        unrealised: p.outcome,
      };
    })
    .sort((a, b) => b.exposureSharePct - a.exposureSharePct || a.token.localeCompare(b.token));
}

export function portfolioView(s: WalletSnapshot, nowMs: number, tokens: TokenLookup) {
  return {
    ...walletFresh(s, nowMs),
    risk: s.portfolio.risk.band,
    score: s.portfolio.risk.score,
    openPositions: s.portfolio.openPositions,
    concentration: s.portfolio.concentration,
    flaggedExposurePct: s.portfolio.risk.flaggedExposurePct,
    positions: portfolioPositions(s, tokens),
  };
}

export function walletAnalyzeView(s: WalletSnapshot, nowMs: number) {
  return {
    ...walletFresh(s, nowMs),
    grade: s.grade,
    style: s.style,
    strengths: s.analysis.strengths,
    weaknesses: s.analysis.weaknesses,
    edge: s.edge.band,
    pnl: s.pnlQuality.profitFactorBand,
    consistency: s.consistency.band,
    copyability: s.copyability.band,
  };
}

function leaderboardItem(s: WalletSnapshot, rank: number, score: number) {
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

/** the sort key of a wallet list: grade first, then a stored score, descending */
const byGradeThen = (score: (s: WalletSnapshot) => number) => (s: WalletSnapshot) => [-GRADE_ORDER[s.grade], -score(s), s.wallet];

/** Rated wallets, grade first (mirror-worthy, watch, avoid), then the stored trader score. */
export function traderLeaderboard(snaps: WalletSnapshot[], opts: { style?: string } & Page) {
  const rated = snaps.filter((s) => s.rated);
  const p = keysetPage(
    rated.filter((s) => !opts.style || s.style === opts.style),
    byGradeThen((s) => s.scores.trader),
    opts,
  );
  const leaders = p.items.map((s, i) => leaderboardItem(s, p.firstRank + i, s.scores.trader));
  return { asOf: newestAsOf(snaps), leaders, rated: rated.length, next: p.next };
}

/** Rated wallets not graded avoid, by the stored performance score (edge and PnL quality). */
export function topTraders(snaps: WalletSnapshot[], page: Page) {
  const p = keysetPage(
    snaps.filter((s) => s.rated && s.grade !== 'avoid'),
    (s) => [-s.scores.performance, -GRADE_ORDER[s.grade], s.wallet],
    page,
  );
  const traders = p.items.map((s, i) => leaderboardItem(s, p.firstRank + i, s.scores.performance));
  return { asOf: newestAsOf(snaps), traders, next: p.next };
}

/** Spot copy leaders (the stored `copy.leader`), grade then the stored copy score. */
export function spotLeaders(snaps: WalletSnapshot[], page: Page) {
  const p = keysetPage(
    snaps.filter((s) => s.copy.leader),
    byGradeThen((s) => s.scores.copy),
    page,
  );
  const leaders = p.items.map((s, i) => ({
      rank: p.firstRank + i,
      wallet: s.wallet,
      chain: s.chain,
      grade: s.grade,
      copyScore: s.scores.copy,
      style: s.style,
      edge: s.edge.band,
      copyability: s.copyability.band,
      medianHold: s.copyability.medianHold,
      medianSize: s.copyability.medianSize,
    }));
  return { asOf: newestAsOf(snaps), leaders, next: p.next };
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
  return { asOf: lb.asOf, grades, styles, top: lb.leaders, holding };
}
