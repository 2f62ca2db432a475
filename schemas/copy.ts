import { z } from 'zod';
import { NextCursor, Verdict } from './common.ts';
import { RiskBand } from './token.ts';
import { EdgeBand, HoldBand, QualityBand, ReturnBand, SizeBand, TraderStyle } from './wallet.ts';
import { LeaderboardItem, WalletFresh } from './trader.ts';

/** Copy-trading read side: decision, plan, simulation, overlap and leader boards. */

const Score = z.number().int().min(0).max(100);
const Count = z.number().int().nonnegative();
const Pct = z.number();

export const Gate = z.looseObject({
  gate: z.string(),
  passed: z.boolean(),
  detail: z.string(),
});

export const CopyDecisionResponse = z.looseObject({
  ...WalletFresh,
  verdict: Verdict,
  gates: z.array(Gate),
  gatesPassed: Count,
  gatesTotal: Count,
  rationale: z.string().meta({ description: 'model-written' }),
});

export const CopyLimits = z.looseObject({
  budgetUsd: z.number(),
  perTradeUsd: z.number(),
  maxOpenPositions: Count,
  stopLossPct: z.number(),
  skipRiskAtOrAbove: RiskBand,
});

export const CopyPlanResponse = z.looseObject({
  ...WalletFresh,
  verdict: Verdict,
  limits: CopyLimits,
  plan: z.looseObject({
    copyRatio: z.enum(['fixed', 'scaled']).meta({ description: 'fixed: every copied entry uses perTradeUsd; scaled: the leader is smaller than perTradeUsd' }),
    perTradeUsd: z.number().nonnegative(),
    capitalAtRiskPct: Pct.meta({ description: 'maxOpenPositions x perTradeUsd x stopLossPct / budget' }),
    expectedEntriesPerWeek: z.number().nonnegative(),
    expectedHold: HoldBand.nullable(),
    leaderSize: SizeBand.nullable(),
  }),
  skipRules: z.array(z.string()),
  warnings: z.array(z.string()),
  summary: z.string().meta({ description: 'model-written' }),
});

export const SimulatedTrade = z.looseObject({
  token: z.string(),
  chain: z.string(),
  symbol: z.string().nullable(),
  enteredAt: z.string(),
  action: z.enum(['copied', 'skipped']),
  reason: z.string().nullable().meta({ description: 'why a trade was skipped' }),
  copySizeUsd: z.number().nonnegative(),
  status: z.enum(['open', 'closed']),
  outcome: ReturnBand.nullable(),
  returnPct: Pct.nullable().meta({ description: 'the leader return on the token, capped at the stop loss' }),
});

export const CopySimulateResponse = z.looseObject({
  ...WalletFresh,
  limits: CopyLimits,
  window: z.looseObject({ from: z.string().nullable(), to: z.string().nullable(), trades: Count }),
  copied: Count,
  skipped: Count,
  skips: z.record(z.string(), Count),
  trades: z.array(SimulatedTrade),
  outcome: z.looseObject({
    band: ReturnBand.nullable(),
    returnOnDeployedPct: Pct.nullable(),
    hitRatePct: Pct.nullable(),
    scored: Count,
  }),
  summary: z.string().meta({ description: 'model-written' }),
});

export const CopyOverlapResponse = z.looseObject({
  chain: z.string(),
  asOf: z.string().nullable(),
  ageSeconds: z.number().nonnegative().nullable(),
  overlap: z.enum(['none', 'low', 'moderate', 'high']),
  overlapPct: Pct.meta({ description: 'tokens traded by two or more leaders over tokens traded by any, percent' }),
  leaders: z.array(z.looseObject({ wallet: z.string(), grade: Verdict.nullable(), tokens: Count, known: z.boolean() })),
  pairs: z.array(z.looseObject({ wallets: z.array(z.string()).meta({ description: 'the two leaders of the pair' }), sharedTokens: Count, jaccardPct: Pct })),
  shared: z.array(z.looseObject({ token: z.string(), chain: z.string(), symbol: z.string().nullable(), leaders: Count, wallets: z.array(z.string()) })),
});

const ListFresh = { chain: z.string(), asOf: z.string().nullable(), ageSeconds: z.number().nonnegative().nullable() };

export const TopTradersResponse = z.looseObject({ ...ListFresh, traders: z.array(LeaderboardItem), next: NextCursor });

export const SpotLeaderItem = z.looseObject({
  rank: z.number().int().min(1),
  wallet: z.string(),
  chain: z.string(),
  grade: Verdict,
  copyScore: Score.meta({ description: 'trader score weighted towards copyability' }),
  style: TraderStyle,
  edge: EdgeBand,
  copyability: QualityBand,
  medianHold: HoldBand.nullable(),
  medianSize: SizeBand.nullable(),
});
export const SpotLeadersResponse = z.looseObject({ ...ListFresh, venue: z.literal('spot'), leaders: z.array(SpotLeaderItem), next: NextCursor });

export const StrategyItem = z.looseObject({
  id: z.string(),
  name: z.string(),
  style: TraderStyle,
  description: z.string(),
  risk: RiskBand,
  leaders: Count.meta({ description: 'mirror-worthy leaders of this style' }),
  candidates: Count.meta({ description: 'leaders graded watch of this style' }),
  topLeaders: z.array(z.looseObject({ wallet: z.string(), grade: Verdict, score: Score })),
  suggestedLimits: z.looseObject({ maxOpenPositions: Count, perTradeSharePct: Pct, stopLossPct: Pct }),
});
export const CopyStrategiesResponse = z.looseObject({ ...ListFresh, headline: z.string().meta({ description: 'model-written' }), strategies: z.array(StrategyItem) });
