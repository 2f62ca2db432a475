import { z } from 'zod';
import { NextCursor, Verdict } from './common.ts';
import { Hex40 } from './events.ts';

/**
 * Events of the off-chain venues (a perpetuals exchange, a prediction market) and the derived
 * account snapshots the engine folds from them. Ingest adapters decode each venue's wire format
 * into these events; the venue simulator emits the same events. Times are unix milliseconds.
 */

/** Venue slugs. `sim` is the built-in venue simulator (one perps venue and one prediction venue). */
export const PerpVenue = z.enum(['hyperliquid', 'sim']).meta({ description: 'Perpetuals venue; defaults to `hyperliquid` when the perps adapter is configured, else `sim` (the venue simulator).' });
export type PerpVenue = z.infer<typeof PerpVenue>;
export const PredictionVenue = z.enum(['polymarket', 'sim']).meta({ description: 'Prediction venue; defaults to `polymarket` when the prediction adapter is configured, else `sim` (the venue simulator).' });
export type PredictionVenue = z.infer<typeof PredictionVenue>;

/** One fill of an account on a perpetuals venue (Hyperliquid `userFills` fill, normalised). */
export const PerpFill = z.object({
  type: z.literal('perp_fill'),
  venue: z.string(),
  account: Hex40,
  coin: z.string().min(1),
  side: z.enum(['buy', 'sell']),
  /** base-asset size, positive */
  size: z.number().positive(),
  price: z.number().positive(),
  /** signed position before this fill (positive long) */
  startPosition: z.number(),
  /** venue's direction label, e.g. `Open Long`, `Close Short`, `Long > Short` */
  dir: z.string(),
  /** realised PnL of this fill in the quote asset, as reported by the venue, fees excluded */
  closedPnl: z.number(),
  fee: z.number(),
  /** unix ms */
  time: z.number().int().nonnegative(),
  /** venue's trade id: the identity of the fill (dedupe key) */
  fillId: z.string().min(1),
  hash: z.string(),
  crossed: z.boolean().optional(),
});
export type PerpFill = z.infer<typeof PerpFill>;

/** One trade of an account on a prediction venue (Polymarket data-API trade shape, normalised). */
export const PredictionTrade = z.object({
  type: z.literal('prediction_trade'),
  venue: z.string(),
  /** the proxy wallet that traded */
  account: Hex40,
  /** market (condition id) */
  market: z.string().min(1),
  /** outcome token id */
  asset: z.string().min(1),
  outcome: z.string(),
  side: z.enum(['buy', 'sell']),
  /** shares */
  size: z.number().positive(),
  /** price of one share, 0..1 */
  price: z.number().min(0).max(1),
  /** unix ms */
  time: z.number().int().nonnegative(),
  txHash: z.string(),
  /** identity: the venue has no trade id in this shape, so `txHash:asset:side:size:price` */
  tradeId: z.string().min(1),
});
export type PredictionTrade = z.infer<typeof PredictionTrade>;

export const VenueEvent = z.discriminatedUnion('type', [PerpFill, PredictionTrade]);
export type VenueEvent = z.infer<typeof VenueEvent>;

/** Topic of venue events, keyed `venue:account` (so an account's fills stay in order on one partition). */
export const VenueTopics = {
  fills: 'venue-fills',
} as const;

export function venueKey(venue: string, account: string): string {
  return `${venue}:${account}`;
}

/** Identity of a venue event within its venue. */
export function venueEventId(e: VenueEvent): string {
  return e.type === 'perp_fill' ? `${e.venue}:${e.fillId}` : `${e.venue}:${e.tradeId}`;
}

// ---------------------------------------------------------------------------------------------
// Derived account snapshots (what the engine writes; derived values only: no PnL rows, no prices)

export const VenueHoldBand = z.enum(['seconds', 'minutes', 'hours', 'days', 'weeks']);
export const VenueSizeBand = z.enum(['micro', 'small', 'medium', 'large', 'whale']);
export const VenueReturnBand = z.enum(['heavy-loss', 'loss', 'flat', 'gain', 'strong-gain']);
export const VenueProfitFactorBand = z.enum(['losing', 'breakeven', 'profitable', 'strong']);
export const VenueStyle = z.enum(['scalper', 'swing', 'position']);
export const Horizon = z.enum(['1d', '7d']);
export type Horizon = z.infer<typeof Horizon>;

/** Per grade and horizon: how the account's own trades went after it was given that grade. */
export const GradeOutcome = z.object({
  grade: Verdict,
  horizon: Horizon,
  /** daily grade checkpoints carrying this grade */
  graded: z.number().int().nonnegative(),
  /** checkpoints whose horizon has passed and that had closed trades after them */
  hits: z.number().int().nonnegative(),
  misses: z.number().int().nonnegative(),
  /** horizon passed without a closed trade: neither hit nor miss */
  inactive: z.number().int().nonnegative(),
  /** horizon not reached yet */
  pending: z.number().int().nonnegative(),
  /** sum over resolved checkpoints of the return (percent of closed notional) after the grade */
  forwardReturnPctSum: z.number(),
});
export type GradeOutcome = z.infer<typeof GradeOutcome>;

export const VenueAccountSnapshot = z.object({
  kind: z.enum(['perp', 'prediction']),
  venue: z.string(),
  account: z.string(),
  /** ISO time of the last folded event */
  asOf: z.string(),
  grade: Verdict,
  /** short reasons behind the grade, most important first */
  reasons: z.array(z.string()),
  /** 0-100: ranks accounts within a grade */
  score: z.number().int().min(0).max(100),
  style: VenueStyle.nullable(),
  sample: z.object({
    fills: z.number().int().nonnegative(),
    closedTrades: z.number().int().nonnegative(),
    /** distinct coins (perps) or markets (prediction) */
    instruments: z.number().int().nonnegative(),
    daysActive: z.number().nonnegative(),
    openPositions: z.number().int().nonnegative(),
  }),
  performance: z.object({
    /** realised PnL net of fees as a percent of the closed entry notional */
    realisedReturnPct: z.number().nullable(),
    returnBand: VenueReturnBand.nullable(),
    winRatePct: z.number().nullable(),
    profitFactor: z.number().nullable(),
    profitFactorBand: VenueProfitFactorBand.nullable(),
    /** the best closed trade's share of gross profit */
    bestTradeSharePct: z.number().nullable(),
    /** share of active weeks with positive realised PnL */
    profitableWeeksPct: z.number().nullable(),
  }),
  behaviour: z.object({
    holdBand: VenueHoldBand.nullable(),
    sizeBand: VenueSizeBand.nullable(),
    /** perps: fills that flipped a position through zero; prediction: trades that switched outcome in a market */
    flipSharePct: z.number(),
    /** perps: share of opened trades that were long; prediction: share of buys of the favourite (price >= 0.5) */
    longSharePct: z.number().nullable(),
    /** prediction only: where entries are priced */
    entryPriceBand: z.enum(['longshot', 'balanced', 'favourite']).nullable(),
    /** share of closed trades held longer than a copier's latency */
    copyableSharePct: z.number().nullable(),
  }),
  trackRecord: z.array(GradeOutcome),
});
export type VenueAccountSnapshot = z.infer<typeof VenueAccountSnapshot>;

// ---------------------------------------------------------------------------------------------
// Operation shapes

const Fresh = {
  asOf: z.string().nullable().meta({ description: 'ISO time of the last event folded into the data behind this response' }),
  ageSeconds: z.number().nullable().meta({ description: 'seconds between asOf and the time of the response' }),
};

export const VenueWalletResponse = z.object({
  venue: z.string(),
  wallet: z.string(),
  grade: Verdict,
  reasons: z.array(z.string()),
  score: z.number().int().min(0).max(100),
  style: VenueStyle.nullable(),
  sample: VenueAccountSnapshot.shape.sample,
  performance: VenueAccountSnapshot.shape.performance,
  behaviour: VenueAccountSnapshot.shape.behaviour,
  /** this account's own record: did its grades carry signal */
  trackRecord: z.array(GradeOutcome),
  summary: z.string(),
  asOf: z.string(),
  ageSeconds: z.number(),
});

export const VenueLeader = z.object({
  rank: z.number().int().min(1),
  venue: z.string(),
  wallet: z.string(),
  grade: Verdict,
  score: z.number().int().min(0).max(100),
  style: VenueStyle.nullable(),
  winRatePct: z.number().nullable(),
  profitFactorBand: VenueProfitFactorBand.nullable(),
  returnBand: VenueReturnBand.nullable(),
  realisedReturnPct: z.number().nullable(),
  closedTrades: z.number().int().nonnegative(),
  holdBand: VenueHoldBand.nullable(),
  sizeBand: VenueSizeBand.nullable(),
});

export const VenueLeadersResponse = z.object({
  venue: z.string(),
  headline: z.string(),
  leaders: z.array(VenueLeader),
  next: NextCursor,
  /** accounts graded on the venue, by grade (leaders are mirror-worthy, then watch) */
  graded: z.record(z.string(), z.number().int().nonnegative()),
  ...Fresh,
});

export const TrackRecordRow = z.object({
  grade: Verdict,
  horizon: Horizon,
  /** grade checkpoints (account-days) carrying this grade */
  sample: z.number().int().nonnegative(),
  /** checkpoints whose horizon passed with closed trades after them */
  resolved: z.number().int().nonnegative(),
  hits: z.number().int().nonnegative(),
  misses: z.number().int().nonnegative(),
  inactive: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  hitRatePct: z.number().nullable(),
  /** mean return after the grade over resolved checkpoints, percent of closed notional */
  avgForwardReturnPct: z.number().nullable(),
  /** distinct accounts contributing */
  accounts: z.number().int().nonnegative(),
});

export const VenueTrackRecordResponse = z.object({
  venue: z.string(),
  method: z.string(),
  rows: z.array(TrackRecordRow),
  /** did the grades separate outcomes: mirror-worthy hit rate minus avoid hit-as-winner rate, per horizon */
  separation: z.array(z.object({ horizon: Horizon, mirrorWorthyWinPct: z.number().nullable(), avoidWinPct: z.number().nullable(), spreadPct: z.number().nullable() })),
  accounts: z.number().int().nonnegative(),
  ...Fresh,
});
