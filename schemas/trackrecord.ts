import { z } from 'zod';

/**
 * Track records: every verdict and signal served is recorded once per (operation, chain,
 * subject, hour of the snapshot) with its reference (the token's price, or the wallet's realised
 * sums) at the snapshot time, then scored at +1h, +24h and +7d. Misses stay in the record.
 */

export const Horizons = ['1h', '24h', '7d'] as const;
export const Horizon = z.enum(Horizons);
export type Horizon = z.infer<typeof Horizon>;
export const HorizonSeconds: Record<Horizon, number> = { '1h': 3600, '24h': 86400, '7d': 7 * 86400 };

/** pending: not yet due; hit/miss: scored; void: cannot be scored (no data, or no later round trips); unscored: the value makes no claim */
export const Outcome = z.enum(['pending', 'hit', 'miss', 'void', 'unscored']);
export type Outcome = z.infer<typeof Outcome>;

export const HorizonScore = z.object({
  outcome: Outcome,
  /** forward return of the subject, percent (token price, or later round trips' realised return) */
  forwardReturnPct: z.number().nullable(),
  /** median forward return of the chain's tokens over the same span, percent (BUY-like calls) */
  benchmarkPct: z.number().nullable(),
  /** event time at which the outcome was measured (unix seconds) */
  measuredTs: z.number().nullable(),
  note: z.string().nullable(),
  /** token: the liquidity's change from the reference to the horizon, percent (absent on older records) */
  liquidityChangePct: z.number().nullable().optional(),
});
export type HorizonScore = z.infer<typeof HorizonScore>;

export const TrackRecordKind = z.enum(['token', 'trader']);

export const TrackRecord = z.object({
  key: z.string(),
  operation: z.string(),
  kind: TrackRecordKind,
  chain: z.string(),
  subject: z.string(),
  symbol: z.string().nullable(),
  /** the verdict or signal served */
  value: z.string(),
  /** snapshot time (event time) of the served response, unix seconds */
  refTs: z.number(),
  /** token: price at refTs (private, never served) */
  refPrice: z.number().nullable(),
  /** token: the pool's liquidity at refTs, USD (private; absent on older records) */
  refLiquidityUsd: z.number().nullable().optional(),
  /** trader: realised sums at refTs (private) */
  refRealisedUsd: z.number().nullable(),
  refCostSoldUsd: z.number().nullable(),
  refClosed: z.number().nullable(),
  scores: z.record(Horizon, HorizonScore),
});
export type TrackRecord = z.infer<typeof TrackRecord>;

const Count = z.number().int().nonnegative();

export const HorizonStats = z.looseObject({
  n: Count,
  hits: Count,
  misses: Count,
  pending: Count,
  void: Count,
  unscored: Count,
  hitRatePct: z.number().nullable().meta({ description: 'hits / (hits + misses), percent; null with no scored record' }),
});
export type HorizonStats = z.infer<typeof HorizonStats>;

export const BaseRate = z
  .looseObject({
    n: Count.meta({ description: 'subjects recorded (whatever was served) whose outcome was measured at this horizon' }),
    hitRatePct: z.number().nullable().meta({ description: 'the hit rate that serving this value for every one of them would have scored, percent' }),
    medianReturnPct: z.number().nullable().meta({ description: 'their median forward return, percent' }),
    valueMedianReturnPct: z.number().nullable().meta({ description: 'the median forward return of the subjects served this value, percent' }),
  })
  .meta({ description: 'what the hit rate is to be read against: the same rule applied to every subject recorded' });
export type BaseRate = z.infer<typeof BaseRate>;

export const TrackRecordGroup = z.looseObject({
  operation: z.string(),
  value: z.string(),
  rule: z.string().meta({ description: 'what counts as a hit' }),
  horizons: z.looseObject({ '1h': HorizonStats, '24h': HorizonStats, '7d': HorizonStats }),
  baseRates: z.looseObject({ '1h': BaseRate, '24h': BaseRate, '7d': BaseRate }),
});

export const TrackRecordExample = z.looseObject({
  operation: z.string(),
  chain: z.string(),
  token: z.string().optional(),
  wallet: z.string().optional(),
  symbol: z.string().nullable(),
  value: z.string(),
  horizon: Horizon,
  outcome: z.enum(['hit', 'miss']),
  forwardReturnPct: z.number().nullable(),
  benchmarkPct: z.number().nullable(),
  recordedAt: z.string(),
});

export const TrackRecordResponse = z.looseObject({
  chain: z.string(),
  records: Count,
  groups: z.array(TrackRecordGroup),
  overall: z.looseObject({ '1h': HorizonStats, '24h': HorizonStats, '7d': HorizonStats }),
  recent: z.array(TrackRecordExample),
  method: z.string(),
});
