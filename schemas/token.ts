import { z } from 'zod';
import {
  Freshness,
  InflectionState as InflectionStateSchema,
  TokenSignalValue as TokenSignalValueSchema,
  Verdict as VerdictSchema,
} from './common.ts';

/**
 * Token snapshots (what the engine derives and stores) and the responses of the token operations
 * of SPEC.md. Responses carry derived values only: verdicts, bands, scores 0-100, percentages,
 * counts and one-sentence texts; never exact liquidity, prices or holder lists. Responses allow
 * additional properties (SPEC.md), hence `looseObject`.
 */

// ---------------------------------------------------------------------------------------------
// vocabulary

// the shared vocabulary lives in common.ts; re-exported here with their types
export const Verdict = VerdictSchema;
export type Verdict = z.infer<typeof Verdict>;
export const TokenSignalValue = TokenSignalValueSchema;
export type TokenSignalValue = z.infer<typeof TokenSignalValue>;
export const InflectionState = InflectionStateSchema;
export type InflectionState = z.infer<typeof InflectionState>;

export const RiskBand = z.enum(['low', 'moderate', 'high', 'extreme']);
export type RiskBand = z.infer<typeof RiskBand>;
export const DepthBand = z.enum(['thin', 'moderate', 'deep']);
export type DepthBand = z.infer<typeof DepthBand>;
export const LevelBand = z.enum(['low', 'moderate', 'high']);
export type LevelBand = z.infer<typeof LevelBand>;
export const VolumeBand = z.enum(['quiet', 'low', 'moderate', 'high', 'extreme']);
export type VolumeBand = z.infer<typeof VolumeBand>;
export const MomentumBand = z.enum(['falling', 'flat', 'rising', 'surging']);
export type MomentumBand = z.infer<typeof MomentumBand>;
export const Trend = z.enum(['growing', 'flat', 'shrinking']);
export type Trend = z.infer<typeof Trend>;
export const FlowDirection = z.enum(['inflow', 'balanced', 'outflow']);
export type FlowDirection = z.infer<typeof FlowDirection>;
export const ValuationStance = z.enum(['undervalued', 'fair', 'stretched']);
export type ValuationStance = z.infer<typeof ValuationStance>;
export const WhaleShape = z.enum(['distributed', 'top-heavy', 'single-whale']);
export type WhaleShape = z.infer<typeof WhaleShape>;
export const Resolution = z.enum(['5m', '15m', '1h', '4h']);
export type Resolution = z.infer<typeof Resolution>;
export const Severity = z.enum(['info', 'warning', 'critical']);
export type Severity = z.infer<typeof Severity>;

const Score = z.number().min(0).max(100);
const Pct = z.number(); // a percentage; may be negative (changes) or above 100 (turnover)
const Count = z.number().int().nonnegative();
const Iso = z.string();

/**
 * One risk flag: whether it is raised, how bad, and a one-line reason (always present). A raised
 * flag is severity `red`; `warning` is an early sign that does not raise the flag.
 */
export const RiskFlag = z.looseObject({
  flagged: z.boolean().meta({ description: 'the flag is raised (severity red)' }),
  severity: z.enum(['none', 'warning', 'red']),
  reason: z.string(),
  /** when what decided the flag was measured (a contract read), or the time of the last trade it weighed */
  measuredAt: Iso.nullable().optional(),
  /** the block it was measured at */
  block: z.number().int().nullable().optional(),
  /** a raised rug flag: when the liquidity was pulled (the drop's sync, or a drain's last removal) */
  happenedAt: Iso.optional(),
  /** what decided it: the token's trades and pool (logs) or a read of its contract (simulation, code) */
  source: z.enum(['trades', 'contract']).optional(),
});
export type RiskFlag = z.infer<typeof RiskFlag>;

export const RiskFlags = z.looseObject({
  rug: RiskFlag,
  honeypot: RiskFlag,
  concentration: RiskFlag,
  /** what the owner can still do to holders (mint, blacklist, pause, taxes, upgrades); never red on its own */
  contract: RiskFlag.optional(),
});

/** What the latest read of the token's contract said (on chains whose contracts are read). */
export const ContractSummary = z.object({
  measuredAt: Iso,
  block: z.number().int(),
  /** what made the ingester read it: launch, first-seen, owner (a call from the owner), liquidity, ownership, schedule, head, dependency (a call to a contract its transfers depend on) */
  trigger: z.string(),
  owner: z.string().nullable(),
  renounced: z.boolean(),
  proxy: z.object({ kind: z.string(), implementation: z.string() }).nullable(),
  powers: z.array(z.string()),
  simulated: z.boolean(),
  simSkipped: z.string().nullable(),
  /** a simulated buy then sell went through, and so did a small sell simulated as each holder; null when not simulated */
  sellable: z.boolean().nullable(),
  /** holders whose sells were simulated from their own addresses (small, typical and whole balance) */
  holdersSimulated: z.number().int().nonnegative().optional(),
  buyTaxPct: z.number().nullable(),
  sellTaxPct: z.number().nullable(),
  transferTaxPct: z.number().nullable(),
  cooldown: z.boolean().nullable(),
  maxTxLimited: z.boolean().nullable(),
  pools: Count,
  lpBurnedPct: z.number().nullable(),
  lpLockedPct: z.number().nullable(),
  /** when the first LP lock still counted comes due (ISO); null when none is (absent on snapshots written before) */
  lpLockedUntil: z.string().nullable().optional(),
  lpHeldByDeployerPct: z.number().nullable(),
});
export type ContractSummary = z.infer<typeof ContractSummary>;
export type RiskFlags = z.infer<typeof RiskFlags>;

export const Pillars = z.looseObject({
  smartMoney: z.boolean(),
  coiling: z.boolean(),
  lowExit: z.boolean(),
  organic: z.boolean(),
  momentum: z.boolean(),
  structure: z.boolean(),
});
export type Pillars = z.infer<typeof Pillars>;

export const ActivityWindow = z.looseObject({
  buys: Count,
  sells: Count,
  buyers: Count,
  sellers: Count,
  volumeBand: VolumeBand,
  /** share of USD volume that was buying, 0-100 */
  buySharePct: Pct,
  netFlow: FlowDirection,
});
export type ActivityWindow = z.infer<typeof ActivityWindow>;

// ---------------------------------------------------------------------------------------------
// the snapshot

/** an OHLCV bar of the engine (price action and the bars behind it; not part of any response) */
export const Bar = z.object({ t: z.number(), o: z.number(), h: z.number(), l: z.number(), c: z.number(), v: z.number() });
export type Bar = z.infer<typeof Bar>;

/**
 * The raw numbers behind the snapshot (reference prices for the track records and the eval, the
 * bar series the spark and price action are computed from). Private: no projection returns them.
 */
export const TokenBasis = z.object({
  priceUsd: z.number().nullable(),
  liquidityUsd: z.number().nullable(),
  reserveToken: z.number().nullable(),
  /** USD value of the quote side of the pool (half the liquidity) */
  quoteReserveUsd: z.number().nullable(),
  /** tokens held by the ten largest holders */
  top10Tokens: z.number(),
  /** share of 1h USD volume that was selling, 0-1 */
  sellPressure: z.number(),
  /** hourly closes, oldest first, gaps filled with the previous close (up to 7 days): reference prices */
  hourly: z.array(z.object({ t: z.number(), c: z.number() })),
  /** the 24 h high and low at derive time (price breaks in token-changes) */
  high24h: z.number().nullable(),
  low24h: z.number().nullable(),
  insiders: z.array(z.string()),
  deployer: z.string().nullable(),
});
export type TokenBasis = z.infer<typeof TokenBasis>;

/** Exit risk at one position size: the ladder token-intel and exit-risk select from. */
export const ExitRung = z.object({
  sizeUsd: z.number(),
  band: RiskBand,
  score: Score,
  priceImpactPct: Pct.nullable(),
});
export type ExitRung = z.infer<typeof ExitRung>;
/** Position sizes (USD) the engine rates exit risk at; a caller's size is served by the first rung at or above it. */
export const EXIT_LADDER_USD = [100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1e6, 2.5e6, 5e6, 1e7, 1e8, 1e9] as const;

export const PriceActionBody = z.object({
  hours: z.number(),
  resolution: Resolution,
  bars: Count,
  trend: z.enum(['up', 'down', 'sideways']),
  structure: z.enum(['higher-lows', 'lower-highs', 'range', 'mixed']),
  breakout: z.enum(['above-range', 'below-range', 'none']),
  volatility: RiskBand,
  /** percent below the window's high (0 at the high) */
  distanceFromHigh: Pct.nullable(),
  /** 0-100, 50 is neutral */
  priceMomentum: Score,
  summary: z.string(),
});
export type PriceActionBody = z.infer<typeof PriceActionBody>;
/**
 * Windows (hours) the engine analyses price action over, per resolution: a requested window is
 * served by the first one at or above it (5-minute bars are kept for 6 hours).
 */
export const PRICE_ACTION_WINDOWS: Record<Resolution, readonly number[]> = {
  '5m': [1, 2, 3, 4, 6],
  '15m': [1, 2, 3, 4, 6],
  '1h': [3, 6, 12, 24, 48, 72, 120, 168],
  '4h': [12, 24, 48, 72, 120, 168],
};
export const priceActionKey = (resolution: Resolution, hours: number) => `${resolution}:${hours}`;

export const ChangeValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const TokenChange = z.looseObject({ metric: z.string(), from: ChangeValue, to: ChangeValue, severity: Severity });
export type TokenChange = z.infer<typeof TokenChange>;

/**
 * What other entities' answers need of a token (a wallet's open book, copy gates): its final
 * bands and flags. Carried in the snapshot and on the compacted token-facts topic.
 */
export const TokenFinal = z.object({
  symbol: z.string().nullable(),
  risk: RiskBand,
  /** the risk score rounded to 5 points (what an open book weighs its positions by) */
  riskScore: Score,
  exitRisk: RiskBand,
  /** raised (red) flags among rug, honeypot, concentration */
  flags: z.array(z.enum(['rug', 'honeypot', 'concentration'])),
  /** false when its rug or honeypot flag is raised: what is held in it cannot be sold */
  sellable: z.boolean(),
  /** who created its pool: a wallet it funded, or the deployer itself trading it, is an insider */
  deployer: z.string().nullable().optional(),
});
export type TokenFinal = z.infer<typeof TokenFinal>;
export type TokenLookup = (token: string) => TokenFinal | undefined;

/** The window smart money is counted in, hours. */
export const SMART_MONEY_WINDOW_HOURS = 24;
/** USD bought by smart buyers as a band: the rule the snapshot and the radar's other windows share. */
export function smartSizeBand(usd: number): 'small' | 'medium' | 'large' | 'whale' {
  return usd >= 100_000 ? 'whale' : usd >= 10_000 ? 'large' : usd >= 1_000 ? 'medium' : 'small';
}
/** A buy `ageS` seconds before asOf is inside a window of `hours`: the one rule the pillar and the radar share. */
export const isSmartWindow = (ageS: number, hours: number) => ageS >= 0 && ageS < hours * 3600;

/**
 * Who bought at the launch: snipers (first buy in the first blocks of the token's first pool) and
 * same-block bundles (several wallets' first buys in one early block), with the share of the
 * supply their wallets hold now
 */
export const LaunchBuyers = z.object({
  snipers: z.object({ wallets: Count, supplySharePct: Pct }),
  bundles: z.object({ count: Count, wallets: Count, supplySharePct: Pct, blocks: z.array(z.number()) }),
});
export type LaunchBuyers = z.infer<typeof LaunchBuyers>;

export const TokenSnapshot = z.object({
  kind: z.literal('token'),
  chain: z.string(),
  token: z.string(),
  symbol: z.string().nullable(),
  /** position of the last event folded in (the store row's version) */
  version: z.number(),
  /** ISO time and unix seconds of the last event folded in */
  asOf: Iso,
  asOfTs: z.number(),
  createdAt: Iso.nullable(),
  ageHours: z.number().nullable(),
  data: z.object({
    swaps: Count,
    hoursObserved: z.number(),
    enough: z.boolean(),
  }),
  verdict: Verdict,
  signal: z.object({ value: TokenSignalValue, conviction: Score }),
  pillars: Pillars,
  pillarsLit: Count,
  /** distinct buyers inside the smart-money window graded mirror-worthy (= smartMoney.mirrorWorthyBuyers) */
  smartBuyers: Count,
  smartMoney: z.object({
    windowHours: z.number(),
    /** distinct buyers inside the window, how many of them carry a grade, how many are mirror-worthy */
    buyers: Count,
    graded: Count,
    mirrorWorthyBuyers: Count,
    /** mirror-worthy buyers' USD bought inside the window, as a band */
    sizeBand: z.enum(['small', 'medium', 'large', 'whale']),
    /** the smartMoney pillar: at least two mirror-worthy buyers inside the window */
    buying: z.boolean(),
    /**
     * the most recent distinct buyers (any time), newest first: seconds between their last buy
     * and asOf, USD bought, and their latest grade. Smart buyers within a window are the
     * mirror-worthy entries younger than the window (the pillar's count at windowHours).
     */
    recent: z.array(z.object({ ageS: z.number(), usd: z.number(), grade: Verdict.nullable() })),
  }),
  risk: z.object({
    band: RiskBand,
    score: Score,
    flags: RiskFlags,
    /** the latest contract read; null where contracts are not read (the simulator) or not yet */
    contract: ContractSummary.nullable().optional(),
    signals: z.object({
      liquidityBand: DepthBand,
      liquidityChange1hPct: Pct.nullable(),
      liquidityOffPeakPct: Pct.nullable(),
      largestLiquidityDropPct: Pct,
      deployerLiquiditySharePct: Pct,
      top10SharePct: Pct,
      largestSharePct: Pct,
      hhi: z.number(),
      buyers: Count,
      nonInsiderSellers: Count,
      sellTaxPct: Pct,
      insiders: Count,
    }),
  }),
  momentum: z.object({
    band: MomentumBand,
    score: Score,
    priceChange5mPct: Pct.nullable(),
    priceChange1hPct: Pct.nullable(),
    priceChange24hPct: Pct.nullable(),
    volumeTrend: Trend,
  }),
  activity: z.object({
    m5: ActivityWindow,
    h1: ActivityWindow,
    h24: ActivityWindow,
    newBuyersPct: Pct,
    returningBuyersPct: Pct,
  }),
  holders: z.object({
    /** absent on snapshots written before it was kept */
    launch: LaunchBuyers.optional(),
    count: Count,
    trend: Trend,
    growth24hPct: Pct.nullable(),
    top10SharePct: Pct,
    largestSharePct: Pct,
    hhi: z.number(),
    whaleShape: WhaleShape,
    concentrationBand: RiskBand,
    /** verdict on the holder base: never better than avoid under a red flag */
    verdict: Verdict,
  }),
  organic: z.object({
    volumeSharePct: Pct,
    buyerSharePct: Pct,
    band: LevelBand,
    botWallets: Count,
    insiderWallets: Count,
  }),
  exit: z.object({
    band: RiskBand,
    score: Score,
    standardSizeUsd: z.number(),
    priceImpactPct: Pct.nullable(),
    sellPressurePct: Pct,
    whaleSupplyPct: Pct,
    direction: z.enum(['improving', 'stable', 'worsening']),
    /** why sells are blocked (honeypot, prohibitive sell tax), making exit risk extreme at every size; null when they are not */
    blocked: z.string().nullable(),
    ladder: z.array(ExitRung),
  }),
  inflection: z.object({
    state: InflectionState.nullable(),
    earlyScore: Score,
    rangePercentile: Pct.nullable(),
    volumeRatio: z.number().nullable(),
  }),
  valuation: z.object({
    stance: ValuationStance,
    turnoverBand: LevelBand,
    turnoverPct: Pct.nullable(),
    holderGrowthVsPricePct: Pct.nullable(),
    distanceFromHighPct: Pct.nullable(),
  }),
  structure: z.object({
    higherLows: z.boolean(),
    aboveBreakout: z.boolean(),
    /** quiet accumulation over 24 h (a setup for BUY): see engine/token/README.md */
    accumulating: z.boolean(),
  }),
  /** price action per window, keyed `resolution:hours` (PRICE_ACTION_WINDOWS) */
  priceAction: z.record(z.string(), PriceActionBody),
  /** hourly closes of the last 72 hours rebased to percent from the first of them, oldest first */
  spark: z.array(z.number()).max(72),
  /** deltas versus the snapshot the engine wrote about an hour before this one */
  changes: z.object({ since: Iso.nullable(), items: z.array(TokenChange), headline: z.string() }),
  /** one-sentence texts over the signals that decided them */
  texts: z.object({ rationale: z.string(), thesis: z.string() }),
  /** what wallets' answers join with (token-facts topic) */
  facts: TokenFinal,
  basis: TokenBasis,
});
export type TokenSnapshot = z.infer<typeof TokenSnapshot>;

// ---------------------------------------------------------------------------------------------
// responses (every one carries chain, token, asOf and ageSeconds)

const Fresh = {
  chain: z.string(),
  token: z.string(),
  symbol: z.string().nullable(),
  ...Freshness,
};

export const TokenIntelResponse = z.looseObject({
  ...Fresh,
  verdict: Verdict,
  risk: z.looseObject({ band: RiskBand, score: Score, flags: RiskFlags }),
  momentum: z.looseObject({
    band: MomentumBand,
    score: Score,
    priceChange1hPct: Pct.nullable(),
    priceChange24hPct: Pct.nullable(),
    volumeTrend: Trend,
  }),
  entry: z.looseObject({
    sizeUsd: z.number(),
    exitRisk: RiskBand,
    priceImpactPct: Pct.nullable(),
    liquidity: DepthBand,
    inflection: InflectionState.nullable(),
    stance: ValuationStance,
  }),
  activity: z.looseObject({ m5: ActivityWindow, h1: ActivityWindow, h24: ActivityWindow, holders: Count, holderTrend: Trend }),
});
export type TokenIntelResponse = z.infer<typeof TokenIntelResponse>;

export const TokenSignalResponse = z.looseObject({
  ...Fresh,
  signal: TokenSignalValue,
  conviction: Score,
  pillars: Pillars,
  pillarsLit: Count,
  rationale: z.string(),
});
export type TokenSignalResponse = z.infer<typeof TokenSignalResponse>;

export const TokenRiskResponse = z.looseObject({
  ...Fresh,
  risk: RiskBand,
  score: Score,
  signals: z.looseObject({
    liquidity: DepthBand,
    liquidityChange1hPct: Pct.nullable(),
    largestLiquidityDropPct: Pct,
    deployerLiquiditySharePct: Pct,
    top10SharePct: Pct,
    largestSharePct: Pct,
    sellTaxPct: Pct,
    buyers: Count,
    nonInsiderSellers: Count,
    insiders: Count,
  }),
  flags: RiskFlags,
});
export type TokenRiskResponse = z.infer<typeof TokenRiskResponse>;

export const TokenHoldersInsightResponse = z.looseObject({
  ...Fresh,
  verdict: Verdict,
  trend: z.looseObject({ direction: Trend, holders: Count, growth24hPct: Pct.nullable(), newBuyersPct: Pct }),
  organic: z.looseObject({ band: LevelBand, volumeSharePct: Pct, buyerSharePct: Pct, botWallets: Count, insiderWallets: Count }),
  whaleShape: z.looseObject({ shape: WhaleShape, top10SharePct: Pct, largestSharePct: Pct, concentration: RiskBand }),
  /** snipers and same-block bundles of the launch, with their share of the supply now */
  launch: LaunchBuyers.nullable().optional(),
});
export type TokenHoldersInsightResponse = z.infer<typeof TokenHoldersInsightResponse>;

export const TokenNarrativeResponse = z.looseObject({ ...Fresh, stance: ValuationStance, thesis: z.string() });
export type TokenNarrativeResponse = z.infer<typeof TokenNarrativeResponse>;

export const TokenInflectionResponse = z.looseObject({
  ...Fresh,
  /** null when the token is neither coiling nor breaking out */
  state: InflectionState.nullable(),
  earlyScore: Score,
  signals: z.looseObject({ rangePercentile: Pct.nullable(), volumeRatio: z.number().nullable() }),
});
export type TokenInflectionResponse = z.infer<typeof TokenInflectionResponse>;

export const TokenValuationResponse = z.looseObject({
  ...Fresh,
  stance: ValuationStance,
  signals: z.looseObject({
    turnover: LevelBand,
    turnoverPct: Pct.nullable(),
    holderGrowthVsPricePct: Pct.nullable(),
    distanceFromHighPct: Pct.nullable(),
    priceChange24hPct: Pct.nullable(),
  }),
});
export type TokenValuationResponse = z.infer<typeof TokenValuationResponse>;

export const ExitRiskResponse = z.looseObject({
  ...Fresh,
  exitRisk: RiskBand,
  direction: z.enum(['improving', 'stable', 'worsening']),
  signals: z.looseObject({
    sizeUsd: z.number(),
    priceImpactPct: Pct.nullable(),
    liquidity: DepthBand,
    sellPressurePct: Pct,
    whaleSupplyPct: Pct,
    score: Score,
  }),
});
export type ExitRiskResponse = z.infer<typeof ExitRiskResponse>;

export const TokenChangesResponse = z.looseObject({
  ...Fresh,
  /** ISO time of the snapshot compared against; null when there was none */
  since: Iso.nullable(),
  changes: z.array(TokenChange),
  current: z.looseObject({
    verdict: Verdict,
    signal: TokenSignalValue,
    risk: RiskBand,
    momentum: MomentumBand,
    inflection: InflectionState.nullable(),
  }),
  headline: z.string(),
});
export type TokenChangesResponse = z.infer<typeof TokenChangesResponse>;

export const TokenPriceActionResponse = z.looseObject({
  ...Fresh,
  ...PriceActionBody.shape,
  hours: z.number().meta({ description: 'the window analysed: the first of the engine windows at or above the hours asked for' }),
  requestedHours: z.number().optional().meta({ description: 'the hours asked for' }),
});
export type TokenPriceActionResponse = z.infer<typeof TokenPriceActionResponse>;

export const SmartMoneyFlowResponse = z.looseObject({
  ...Fresh,
  smartMoneyBuying: z.boolean().meta({ description: 'at least two buyers inside the window are graded mirror-worthy (the smartMoney pillar)' }),
  mirrorWorthyBuyers: Count.meta({ description: 'distinct buyers inside the window graded mirror-worthy' }),
  windowHours: z.number(),
  buyersInWindow: Count,
  verdict: Verdict.meta({ description: "the token's verdict, the same in every operation" }),
  sample: z.looseObject({
    requested: z.number().int(),
    buyers: Count,
    graded: Count,
    mirrorWorthy: Count,
  }).meta({ description: 'grades of the most recent distinct buyers (any time), as many as `sample` asked for' }),
});
export type SmartMoneyFlowResponse = z.infer<typeof SmartMoneyFlowResponse>;

export const TokenSparkResponse = z.looseObject({
  ...Fresh,
  available: z.boolean(),
  hours: z.number().int().min(6).max(72),
  points: z.number().int().min(0).max(72),
  changePct: Pct.nullable(),
  /** hourly closes rebased to percent-from-first-bar (first point 0), oldest first */
  series: z.array(z.number()).max(72),
});
export type TokenSparkResponse = z.infer<typeof TokenSparkResponse>;

// request params of the views (validation of the HTTP bodies lives with the routes)
export const SPARK_HOURS = { min: 6, max: 72, default: 48 } as const;
export const PRICE_ACTION_HOURS = { min: 1, max: 168, default: 24 } as const;
export const STANDARD_SIZE_USD = 1000;
