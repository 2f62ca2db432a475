import { z } from 'zod';
import { NextCursor, Verdict } from './common.ts';
import { DepthBand, FlowDirection, LevelBand, MomentumBand, Pillars, RiskBand, VolumeBand } from './token.ts';

const Score = z.number().min(0).max(100);
const Count = z.number().int().nonnegative();

const TokenRef = {
  token: z.string().meta({ description: 'token address, for follow-up token operations' }),
  chain: z.string(),
  symbol: z.string().nullable(),
};

export const SizeBandUsd = z.enum(['small', 'medium', 'large', 'whale']);

export const MoverItem = z.looseObject({
  ...TokenRef,
  momentum: z.looseObject({ band: MomentumBand, score: Score }),
  risk: RiskBand,
  signals: z.looseObject({ flow: FlowDirection, activity: VolumeBand, liquidity: DepthBand, holderBase: LevelBand }),
  verdict: Verdict,
});
export type MoverItem = z.infer<typeof MoverItem>;

const Fresh = { asOf: z.string().nullable(), ageSeconds: z.number().nonnegative().nullable() };

export const MarketMoversResponse = z.looseObject({ chain: z.string(), ...Fresh, movers: z.array(MoverItem), next: NextCursor });
export const NamedChainMoversResponse = MarketMoversResponse;

export const RadarItem = z.looseObject({
  ...TokenRef,
  smartBuyers: Count,
  conviction: Score,
  sizeBand: SizeBandUsd,
});
export const SmartMoneyRadarResponse = z.looseObject({
  chain: z.string(),
  ...Fresh,
  windowHours: z.number().int(),
  headline: z.string(),
  accumulating: z.array(RadarItem),
  next: NextCursor,
  /** how many wallets graded mirror-worthy form the smart-money set */
  setSize: Count,
  cached: z.boolean(),
});

export const BoardItem = z.looseObject({
  ...TokenRef,
  conviction: Score,
  pillarsLit: z.number().int().min(0).max(6),
  pillars: Pillars,
});
export const ConvictionBoardResponse = z.looseObject({
  chain: z.string(),
  ...Fresh,
  headline: z.string(),
  board: z.array(BoardItem),
  next: NextCursor,
  cached: z.boolean(),
});

export const MarketRegime = z.enum(['risk-on', 'neutral', 'risk-off']);
export const MarketRegimeResponse = z.looseObject({
  chain: z.string(),
  ...Fresh,
  regime: MarketRegime,
  score: Score,
  signals: z.looseObject({
    breadthPct: z.number().meta({ description: 'share of active tokens with rising momentum, percent' }),
    volatility: RiskBand,
    volumeToNewPct: z.number().meta({ description: 'share of 24h volume going to tokens younger than 72 hours, percent' }),
    riskyTokensPct: z.number().meta({ description: 'share of active tokens with high or extreme risk, percent' }),
    tokens: Count,
  }),
  summary: z.string(),
});
