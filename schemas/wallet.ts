import { z } from 'zod';
import { Verdict } from './common.ts';
import { RiskBand } from './token.ts';

/**
 * Derived snapshot of one wallet (trader) on one chain, produced by
 * engine/wallet/derive.ts from the wallet's folded state. Derived values only: grades, bands,
 * scores 0-100, percentages, ratios and counts. Never USD PnL rows or prices.
 */

export const TraderStyle = z.enum(['scalper', 'swing', 'holder', 'sniper', 'bot']);
export type TraderStyle = z.infer<typeof TraderStyle>;

/** Hold-time bands, shortest first. */
export const HoldBand = z.enum(['seconds', 'minutes', 'hours', 'days', 'weeks']);
export type HoldBand = z.infer<typeof HoldBand>;

/** Trade size bands (USD notional of one swap): <100, <1k, <10k, <100k, larger. */
export const SizeBand = z.enum(['micro', 'small', 'medium', 'large', 'whale']);
export type SizeBand = z.infer<typeof SizeBand>;

export const EdgeBand = z.enum(['negative', 'none', 'positive', 'strong']);
export const QualityBand = z.enum(['low', 'moderate', 'high']);
export const ReturnBand = z.enum(['heavy-loss', 'loss', 'flat', 'gain', 'strong-gain']);
export const ProfitFactorBand = z.enum(['losing', 'breakeven', 'profitable', 'strong']);

const Pct = z.number();
const Score = z.number().int().min(0).max(100);

/**
 * One token the wallet traded, summarised (derived values, no prices): the newest
 * POSITIONS_KEPT tokens by last trade, newest first. Feeds wallet-trades, copy-simulate and
 * portfolio-risk. `avgBuyUsd` and `openCostUsd` are private sizing bases (views turn it into bands).
 */
export const PositionSummary = z.object({
  token: z.string(),
  status: z.enum(['open', 'closed']),
  /** unix seconds of the first and the last trade of the token */
  firstTradeTs: z.number(),
  lastTradeTs: z.number(),
  buys: z.number().int().nonnegative(),
  sells: z.number().int().nonnegative(),
  roundTrips: z.number().int().nonnegative(),
  wins: z.number().int().nonnegative(),
  losses: z.number().int().nonnegative(),
  /** realised PnL / cost sold on this token, percent */
  realisedReturnPct: Pct.nullable(),
  /** open quantity at the last seen price versus its cost, percent */
  unrealisedReturnPct: Pct.nullable(),
  /** mean hold of closed round trips, seconds */
  avgHoldSeconds: z.number().nonnegative().nullable(),
  sizeBand: SizeBand,
  avgBuyUsd: z.number().nonnegative(),
  /** cost of the open quantity (private, for exposure shares) */
  openCostUsd: z.number().nonnegative(),
  /** first buy within the launch window of the pool's creation */
  launchWindowBuy: z.boolean(),
  /**
   * band of the realised (closed) or unrealised (open) return, at the wallet's last seen price;
   * an open position in a token that cannot be sold is a heavy loss (−100 %)
   */
  outcome: ReturnBand.nullable(),
  /** false for an open position in a token whose rug or honeypot flag is raised */
  sellable: z.boolean(),
  /** band of the mean hold of the closed round trips */
  hold: HoldBand.nullable(),
  /** closed, and held on average shorter than a copier's latency: a copier could not mirror it */
  tooFastToCopy: z.boolean(),
  /** open positions: share of the wallet's open cost in this token, percent (0 when closed) */
  exposureSharePct: Pct,
});
export type PositionSummary = z.infer<typeof PositionSummary>;

/** Private realised sums, for track records (later round trips = difference of two snapshots). */
export const WalletBasis = z.object({
  realisedUsd: z.number(),
  costSoldUsd: z.number().nonnegative(),
  closed: z.number().int().nonnegative(),
  wins: z.number().int().nonnegative(),
  losses: z.number().int().nonnegative(),
});
export type WalletBasis = z.infer<typeof WalletBasis>;

/** the PnL-quality figures of a wallet (wallet profile) and of a trader (wallet-pnl-quality) */
export const PnlQualityFields = {
  winRatePct: Pct.nullable(),
  /** gross wins / gross losses over closed round trips (null: no losses, or no trades) */
  profitFactor: z.number().nonnegative().nullable(),
  profitFactorBand: ProfitFactorBand.nullable(),
  /** realised PnL / cost of the quantities sold, percent */
  realisedReturnPct: Pct.nullable(),
  realisedBand: ReturnBand.nullable(),
  /** open positions marked at each token's last seen price versus their cost, percent */
  unrealisedReturnPct: Pct.nullable(),
  unrealisedBand: ReturnBand.nullable(),
  avgWinPct: Pct.nullable(),
  avgLossPct: Pct.nullable(),
};

export const Tempo = z.enum(['occasional', 'active', 'frantic']);
export const LaunchTiming = z.enum(['none', 'some', 'habitual']);
export const Confidence = z.enum(['low', 'moderate', 'high']);
export const PnlQuality = z.enum(['poor', 'mixed', 'solid', 'excellent', 'unknown']);
export const Health = z.enum(['healthy', 'caution', 'unhealthy', 'unknown']);
export const Activity = z.enum(['active', 'quiet', 'dormant']);
export const Concentration = z.enum(['diversified', 'moderate', 'concentrated', 'none']);

export const HealthFlag = z.object({ flag: z.string(), severity: z.enum(['info', 'warn', 'red']), reason: z.string() });
export type HealthFlag = z.infer<typeof HealthFlag>;

/**
 * The wallet's health from a point of chain time on: activity and stale positions depend on how
 * long ago the wallet last traded, so the engine writes one phase per change, oldest first. A
 * phase holds while chain time (the newest event of the chain) is later than `afterTs` (the
 * first phase: from the snapshot on).
 */
export const HealthPhase = z.object({
  afterTs: z.number().nullable(),
  health: Health,
  score: Score,
  flags: z.array(HealthFlag),
  activity: Activity,
  staleOpenPositions: z.number().int().nonnegative(),
});
export type HealthPhase = z.infer<typeof HealthPhase>;

// a type alias in the response is a loose object; here a strict one
export const CopyGate = z.object({ gate: z.string(), passed: z.boolean(), detail: z.string() });
export type CopyGate = z.infer<typeof CopyGate>;

export const WalletSnapshot = z.object({
  chain: z.string(),
  wallet: z.string(),
  /** ISO time of the last folded event */
  asOf: z.string(),
  /** position (block * 100000 + logIndex) of the highest folded swap; the snapshot row version */
  version: z.number().int().nonnegative(),
  grade: Verdict,
  /** short reasons behind the grade, most important first */
  reasons: z.array(z.string()),
  style: TraderStyle,
  sample: z.object({
    closedRoundTrips: z.number().int().nonnegative(),
    /** days between the first and the last folded trade */
    daysActive: z.number().nonnegative(),
    distinctTokens: z.number().int().nonnegative(),
    openPositions: z.number().int().nonnegative(),
    trades: z.number().int().nonnegative(),
    /** the minimum sample for any grade other than `unrated` is met */
    met: z.boolean(),
  }),
  edge: z.object({
    score: Score,
    band: EdgeBand,
    /** mean excess return per observation versus the token's own drift, percent (null: no data) */
    excessReturnPct: Pct.nullable(),
    /** mean forward excess return after trades (buys up, sells down), percent, at horizonMinutes */
    forwardExcessPct: Pct.nullable(),
    /** mean round-trip log return minus the token's drift over the hold, percent */
    roundTripExcessPct: Pct.nullable(),
    forwardSamples: z.number().int().nonnegative(),
    roundTripSamples: z.number().int().nonnegative(),
    horizonMinutes: z.number().int().min(1),
  }),
  consistency: z.object({
    score: Score,
    band: QualityBand,
    /** best single round trip's share of gross profit, percent (null: no winning trade) */
    bestTradeSharePct: Pct.nullable(),
    /** most profitable token's share of gross per-token profit, percent */
    topTokenSharePct: Pct.nullable(),
    /** share of active weeks with positive realised PnL, percent */
    profitableWeeksPct: Pct.nullable(),
    weeksActive: z.number().int().nonnegative(),
    profitableTokens: z.number().int().nonnegative(),
  }),
  copyability: z.object({
    score: Score,
    band: QualityBand,
    medianHold: HoldBand.nullable(),
    /** share of closed round trips held at least the copier latency (5 min), percent */
    copyableHoldPct: Pct.nullable(),
    medianSize: SizeBand.nullable(),
    /** share of its tokens (with liquidity known) in which a buy took over 2 % of the pool's liquidity, percent */
    oversizedTokensPct: Pct.nullable().optional(),
  }),
  disqualifiers: z.object({
    bot: z.boolean(),
    insider: z.boolean(),
    sniper: z.boolean(),
    reasons: z.array(z.string()),
  }),
  activity: z.object({
    buys: z.number().int().nonnegative(),
    sells: z.number().int().nonnegative(),
    /** trades per distinct (token, block) pair */
    tradesPerBlock: z.number().nonnegative(),
    /** trades per distinct (token, minute) pair */
    tradesPerMinute: z.number().nonnegative(),
    sameBlockRoundTrips: z.number().int().nonnegative(),
    /** tokens first bought in the pool-creation block */
    creationBlockBuys: z.number().int().nonnegative(),
    /** tokens first bought within the launch window (a few blocks) of pool creation */
    launchWindowBuys: z.number().int().nonnegative(),
  }),
  pnlQuality: z.object({
    ...PnlQualityFields,
    /** 0-100: 70% profit factor (50 at break-even), 30% win rate; 0 without closed round trips */
    score: Score,
    quality: PnlQuality,
  }),
  /** final scores 0-100 the boards rank by */
  scores: z.object({
    /** 40% edge, 20% consistency, 20% copyability, 20% PnL quality */
    trader: Score,
    /** 35% edge, 35% copyability, 15% consistency, 15% PnL quality */
    copy: Score,
    /** 50% edge, 50% PnL quality (copy/top-traders) */
    performance: Score,
  }),
  /** enough history and no disqualifier: ranked on the boards */
  rated: z.boolean(),
  /** the edge alone, as a claim about skill (not about copying), with its confidence from sample sizes */
  edgeVerdict: z.object({ verdict: Verdict, confidence: Confidence }),
  tempo: z.object({ band: Tempo, tradesPerDay: z.number().nonnegative() }),
  launchTiming: LaunchTiming,
  /** short phrases for the partner and the writer */
  analysis: z.object({ strengths: z.array(z.string()), weaknesses: z.array(z.string()) }),
  /** health phases by chain time, oldest first (see HealthPhase) */
  health: z.array(HealthPhase).min(1),
  /** open book among the summarised positions */
  portfolio: z.object({
    openPositions: z.number().int().nonnegative(),
    concentration: z.object({ topPositionSharePct: Pct.nullable(), band: Concentration }),
    /** the open book joined with its tokens' final risk (portfolio-risk) */
    risk: z.object({ band: RiskBand, score: z.number().min(0).max(100), flaggedExposurePct: Pct }),
  }),
  copy: z.object({
    /** a spot copy leader: rated, graded mirror-worthy or watch, copyability not low */
    leader: z.boolean(),
    decision: z.object({
      /** the leader's grade: the verdict while the active and portfolio gates pass */
      verdict: Verdict,
      /** the verdict when either fails (a mirror-worthy leader drops to watch) */
      otherwise: Verdict,
      /** the gates the wallet alone decides: history, clean, edge, profitable, consistent, copyable */
      gates: z.array(CopyGate),
      /** the `active` gate passes while chain time is at most this (null: never traded) */
      activeUntilTs: z.number().nullable(),
      /** the `portfolio` gate passes while the open cost in flagged tokens is below this share, percent */
      maxFlaggedExposurePct: Pct,
      /** the `portfolio` gate: open cost in flagged tokens below maxFlaggedExposurePct */
      portfolioClean: z.boolean(),
    }),
    /** the leader's side of a copy plan */
    plan: z.object({
      /** median entry size in USD (private sizing basis) */
      entryUsd: z.number().nonnegative().nullable(),
      entrySize: SizeBand.nullable(),
      expectedHold: HoldBand.nullable(),
      entriesPerWeek: z.number().nonnegative(),
      /** warnings about copying this leader whatever the limits */
      warnings: z.array(z.string()),
    }),
  }),
  /** newest tokens traded, summarised (optional: snapshots written before it lack it) */
  positions: z.array(PositionSummary).optional(),
  basis: WalletBasis.optional(),
});
export type WalletSnapshot = z.infer<typeof WalletSnapshot>;

export type ReturnBandT = 'heavy-loss' | 'loss' | 'flat' | 'gain' | 'strong-gain';

/** A return in percent to its band: heavy-loss ≤ −30 < loss < −2 ≤ flat ≤ 2 < gain < 30 ≤ strong-gain. */
export function returnBandOfPct(pct: number): ReturnBandT {
  if (pct <= -30) return 'heavy-loss';
  if (pct < -2) return 'loss';
  if (pct <= 2) return 'flat';
  if (pct < 30) return 'gain';
  return 'strong-gain';
}
