import { z } from 'zod';
import { Freshness, NextCursor, Verdict } from './common.ts';
import { RiskBand } from './token.ts';
import { EdgeBand, HoldBand, PnlQualityFields, ProfitFactorBand, QualityBand, ReturnBand, SizeBand, TraderStyle } from './wallet.ts';

/**
 * Trader and wallet operations: requests and responses. Derived values only (grades, bands,
 * scores 0-100, percentages, counts, one-sentence texts); never raw PnL rows or prices.
 */

const Score = z.number().int().min(0).max(100);
const Count = z.number().int().nonnegative();
const Pct = z.number();

/**
 * What the wallet operations read of a token: the final fields of its snapshot (symbol, risk band
 * and score, exit-risk band, raised red flags), never a re-decided value.
 */
export { TokenFinal } from './token.ts';
export type { TokenLookup } from './token.ts';

/** Every response about one wallet names it and states freshness. */
export const WalletFresh = {
  chain: z.string(),
  wallet: z.string().meta({ description: 'the wallet address (lowercase)' }),
  ...Freshness,
};

export const Sample = z.looseObject({
  closedRoundTrips: Count,
  daysActive: z.number().nonnegative(),
  distinctTokens: Count,
  openPositions: Count,
  trades: Count,
  met: z.boolean().meta({ description: 'the minimum history for a grade other than unrated is met' }),
});

export const TraderScoreResponse = z.looseObject({
  ...WalletFresh,
  grade: Verdict,
  score: Score.meta({ description: 'composite trader score: 40% edge, 20% consistency, 20% copyability, 20% PnL quality' }),
  components: z.looseObject({ edge: Score, consistency: Score, copyability: Score, pnlQuality: Score }),
  style: TraderStyle,
  reasons: z.array(z.string()),
  sample: Sample,
});

export const TraderStyleResponse = z.looseObject({
  ...WalletFresh,
  style: TraderStyle,
  medianHold: HoldBand.nullable(),
  medianSize: SizeBand.nullable(),
  tempo: z.enum(['occasional', 'active', 'frantic']).meta({ description: 'trades per active day: <3 occasional, <20 active, else frantic' }),
  launchTiming: z.enum(['none', 'some', 'habitual']).meta({ description: 'how often first buys fall in a launch window' }),
  signals: z.looseObject({
    tradesPerDay: z.number().nonnegative(),
    launchWindowBuys: Count,
    sameBlockRoundTrips: Count,
    copyableHoldPct: Pct.nullable(),
  }),
  disqualifiers: z.array(z.string()),
});

export const TraderEdgeResponse = z.looseObject({
  ...WalletFresh,
  edge: z.looseObject({
    score: Score,
    band: EdgeBand,
    excessReturnPct: Pct.nullable(),
    forwardExcessPct: Pct.nullable(),
    roundTripExcessPct: Pct.nullable(),
    forwardSamples: Count,
    roundTripSamples: Count,
    horizonMinutes: z.number().int(),
  }),
  confidence: z.enum(['low', 'moderate', 'high']).meta({ description: 'from sample sizes: <10 low, <40 moderate, else high' }),
  verdict: Verdict,
});

export const WalletPnlQualityResponse = z.looseObject({
  ...WalletFresh,
  ...PnlQualityFields,
  consistency: z.looseObject({ score: Score, band: QualityBand, bestTradeSharePct: Pct.nullable(), profitableWeeksPct: Pct.nullable() }),
  quality: z.enum(['poor', 'mixed', 'solid', 'excellent', 'unknown']),
  roundTrips: Count,
});

export const TradeSummary = z.looseObject({
  token: z.string(),
  chain: z.string(),
  symbol: z.string().nullable(),
  status: z.enum(['open', 'closed']),
  firstTradeAt: z.string(),
  lastTradeAt: z.string(),
  buys: Count,
  sells: Count,
  roundTrips: Count,
  wins: Count,
  losses: Count,
  outcome: ReturnBand.nullable().meta({ description: 'realised (closed) or unrealised (open) return band' }),
  returnPct: Pct.nullable(),
  hold: HoldBand.nullable(),
  sizeBand: SizeBand,
  launchWindowBuy: z.boolean(),
});
export type TradeSummary = z.infer<typeof TradeSummary>;

export const WalletTradesResponse = z.looseObject({
  ...WalletFresh,
  trades: z.array(TradeSummary),
  next: NextCursor,
  totals: z.looseObject({ tokens: Count, open: Count, closed: Count, winningTokens: Count, losingTokens: Count }),
});

export const WalletHealthResponse = z.looseObject({
  ...WalletFresh,
  health: z.enum(['healthy', 'caution', 'unhealthy', 'unknown']),
  score: Score,
  flags: z.array(z.looseObject({ flag: z.string(), severity: z.enum(['info', 'warn', 'red']), reason: z.string() })),
  activity: z.enum(['active', 'quiet', 'dormant']).meta({ description: 'last trade within 1 day, 7 days, or older (chain time)' }),
  openPositions: Count,
  staleOpenPositions: Count,
});

export const PortfolioPosition = z.looseObject({
  token: z.string(),
  chain: z.string(),
  symbol: z.string().nullable(),
  risk: RiskBand.nullable(),
  exitRisk: RiskBand.nullable(),
  flags: z.array(z.string()),
  exposureSharePct: Pct.meta({ description: "share of the wallet's open cost in this token" }),
  unrealised: ReturnBand.nullable(),
});

export const PortfolioRiskResponse = z.looseObject({
  ...WalletFresh,
  risk: RiskBand,
  score: Score,
  openPositions: Count,
  concentration: z.looseObject({ topPositionSharePct: Pct.nullable(), band: z.enum(['diversified', 'moderate', 'concentrated', 'none']) }),
  flaggedExposurePct: Pct.meta({ description: 'share of open cost in tokens with a rug or honeypot flag, or extreme risk' }),
  positions: z.array(PortfolioPosition),
  summary: z.string().meta({ description: 'model-written' }),
});

export const WalletAnalyzeResponse = z.looseObject({
  ...WalletFresh,
  grade: Verdict,
  style: TraderStyle,
  strengths: z.array(z.string()),
  weaknesses: z.array(z.string()),
  edge: EdgeBand,
  pnl: ProfitFactorBand.nullable(),
  consistency: QualityBand,
  copyability: QualityBand,
  summary: z.string().meta({ description: 'model-written' }),
});

export const LeaderboardItem = z.looseObject({
  rank: z.number().int().min(1),
  wallet: z.string(),
  chain: z.string(),
  grade: Verdict,
  score: Score,
  style: TraderStyle,
  edge: EdgeBand,
  winRatePct: Pct.nullable(),
  profitFactorBand: ProfitFactorBand.nullable(),
  roundTrips: Count,
});
export type LeaderboardItem = z.infer<typeof LeaderboardItem>;

const ListFresh = { chain: z.string(), asOf: z.string().nullable(), ageSeconds: z.number().nonnegative().nullable() };

export const TraderLeaderboardResponse = z.looseObject({
  ...ListFresh,
  leaders: z.array(LeaderboardItem),
  next: NextCursor,
  rated: Count.meta({ description: 'wallets with enough history to be ranked' }),
});

export const TraderBoardResponse = z.looseObject({
  ...ListFresh,
  headline: z.string().meta({ description: 'model-written' }),
  grades: z.looseObject({ 'mirror-worthy': Count, watch: Count, avoid: Count, unrated: Count }),
  styles: z.record(z.string(), Count),
  top: z.array(LeaderboardItem),
  holding: z.array(
    z.looseObject({ token: z.string(), chain: z.string(), symbol: z.string().nullable(), mirrorWorthyHolders: Count, risk: RiskBand.nullable() }),
  ),
});

const ErrorSlot = z.object({ error: z.string(), detail: z.string() });
const slot = (s: z.ZodType) => z.union([s, ErrorSlot]);
export const WalletOverviewComponents = {
  traderScore: TraderScoreResponse,
  traderStyle: TraderStyleResponse,
  traderEdge: TraderEdgeResponse,
  walletHealth: WalletHealthResponse,
  walletPnlQuality: WalletPnlQualityResponse,
  walletTrades: WalletTradesResponse,
  portfolioRisk: PortfolioRiskResponse,
  walletAnalyze: WalletAnalyzeResponse,
} as const;
export type WalletOverviewComponent = keyof typeof WalletOverviewComponents;
export const WalletOverviewResponse = z.looseObject({
  wallet: z.string(),
  chain: z.string(),
  bundle: z.looseObject({ operations: z.array(z.string()), units: z.number().int() }),
  ...(Object.fromEntries(Object.entries(WalletOverviewComponents).map(([k, v]) => [k, slot(v)])) as unknown as Record<WalletOverviewComponent, z.ZodType>),
  failed: z.array(z.string()),
});
