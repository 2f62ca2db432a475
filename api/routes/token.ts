import { z } from 'zod';
import {
  exitRiskView,
  fresh,
  smartMoneyFlowView,
  tokenChangesView,
  tokenHoldersInsightView,
  tokenInflectionView,
  tokenIntelView,
  tokenNarrativeView,
  tokenPriceActionView,
  tokenRiskView,
  tokenSignalView,
  tokenSparkView,
  tokenValuationView,
} from '../views/token.ts';
import { ApiError } from '../../schemas/errors.ts';
import {
  ExitRiskResponse,
  Resolution,
  SmartMoneyFlowResponse,
  TokenChangesResponse,
  TokenHoldersInsightResponse,
  TokenInflectionResponse,
  TokenIntelResponse,
  TokenNarrativeResponse,
  TokenPriceActionResponse,
  TokenRiskResponse,
  TokenSignalResponse,
  type TokenSnapshot,
  TokenSparkResponse,
  TokenValuationResponse,
  TokenSignalValue,
  RiskBand,
} from '../../schemas/token.ts';
import { Verdict as VerdictSchema } from '../../schemas/common.ts';
import type { AnyOperation } from '../operations.ts';
import type { SnapshotEntry } from '../replica.ts';
import { defineOperation } from '../operations.ts';
import { AddressParam, ChainParam, bodyNumber, tokenSnapshot } from './common.ts';
import type { RouteDeps } from './context.ts';

const TokenBody = z.object({ chain: ChainParam, token: AddressParam });
const SampleParam = bodyNumber(10, 200, 50, 'how many of the most recent distinct buyers are graded', true);

export const TokenIntelRequest = TokenBody.extend({
  sizeUsd: z
    .number({ error: 'must be a number' })
    .min(1, { error: 'must be at least 1' })
    .max(1e9, { error: 'must be at most 1000000000' })
    .optional()
    .meta({ description: 'position size in USD for entry and exit impact (default 1000)' }),
});
const PriceActionRequest = TokenBody.extend({
  hours: bodyNumber(1, 168, 24, 'hours of history'),
  resolution: Resolution.optional().meta({ description: 'bar resolution: 5m | 15m | 1h | 4h (default 1h)' }),
});
const SparkRequest = TokenBody.extend({ hours: bodyNumber(6, 72, 48, 'hours of hourly closes') });
const SampleRequest = TokenBody.extend({ sample: SampleParam });
const CompareRequest = z.object({
  chain: ChainParam,
  tokens: z.array(AddressParam, { error: 'must be an array of addresses' }).min(1, { error: 'needs at least 1 address' }).max(20, { error: 'at most 20 addresses' }),
});

const CompareItem = z.looseObject({
  rank: z.number().int().min(1),
  token: z.string(),
  chain: z.string(),
  symbol: z.string().nullable(),
  verdict: VerdictSchema,
  signal: TokenSignalValue,
  conviction: z.number(),
  risk: RiskBand,
  pillarsLit: z.number().int(),
});
const TokenCompareResponse = z.looseObject({
  chain: z.string(),
  pick: z.string().nullable().meta({ description: 'address of the best-ranked token that is not AVOID, or null' }),
  ranked: z.array(CompareItem),
  unknown: z.array(z.string()).meta({ description: 'addresses never seen trading on the chain' }),
});

const ErrorSlot = z.object({ error: z.string(), detail: z.string() });
const slot = (s: z.ZodType) => z.union([s, ErrorSlot]);
const OverviewComponents = {
  tokenIntel: TokenIntelResponse,
  tokenSignal: TokenSignalResponse,
  smartMoneyFlow: SmartMoneyFlowResponse,
  exitRisk: ExitRiskResponse,
  tokenInflection: TokenInflectionResponse,
  tokenHoldersInsight: TokenHoldersInsightResponse,
  tokenValuation: TokenValuationResponse,
  tokenNarrative: TokenNarrativeResponse,
  tokenChanges: TokenChangesResponse,
  tokenPriceAction: TokenPriceActionResponse,
} as const;
type ComponentName = keyof typeof OverviewComponents;
const TokenOverviewResponse = z.looseObject({
  token: z.string(),
  chain: z.string(),
  bundle: z.looseObject({ operations: z.array(z.string()), units: z.number().int() }),
  ...(Object.fromEntries(Object.entries(OverviewComponents).map(([k, v]) => [k, slot(v)])) as unknown as Record<ComponentName, z.ZodType>),
  failed: z.array(z.string()),
});

/**
 * token-overview: each slot holds the verbatim response of the single operation of that name;
 * a failing component becomes an error object in its slot and is named in `failed`. Only when
 * every component failed does the call fail (502 dossier_failed).
 */
export async function composeOverview(components: Record<string, () => Promise<unknown>>) {
  const names = Object.keys(components);
  const settled = await Promise.allSettled(names.map((n) => (components[n] as () => Promise<unknown>)()));
  const out: Record<string, unknown> = {};
  const failed: string[] = [];
  settled.forEach((r, i) => {
    const name = names[i] as string;
    if (r.status === 'fulfilled') out[name] = r.value;
    else {
      failed.push(name);
      const e = r.reason;
      out[name] =
        e instanceof ApiError
          ? { error: e.code, detail: e.detail }
          : { error: 'analysis_failed', detail: `the ${name} component could not be computed` };
    }
  });
  if (names.length > 0 && failed.length === names.length) {
    throw new ApiError('dossier_failed', 'every component of the overview failed');
  }
  return { slots: out, failed };
}

export function createTokenOperations(deps: RouteDeps): AnyOperation[] {
  const { replica, config } = deps;
  const chainOf = (c: string | undefined) => c ?? config.DEFAULT_CHAIN;
  /** the snapshot the engine wrote: every token operation is a projection of it */
  const snapshot = (chain: string, token: string) => tokenSnapshot<TokenSnapshot>(replica, chain, token);
  const secs = (nowMs: number) => nowMs / 1000;
  /** token operations project one snapshot: their responses are cached as bytes, aged at send */
  const served = {
    snapshot: (i: { chain?: string; token: string }) => `token:${chainOf(i.chain)}:${i.token}`,
    ageSeconds: (e: SnapshotEntry, nowMs: number) => fresh(e.value<TokenSnapshot>(), secs(nowMs)).ageSeconds,
  };

  const ops: AnyOperation[] = [
    defineOperation({
      id: 'tokenIntel',
      served,
      method: 'POST',
      path: '/token-intel',
      cost: 1,
      group: 'token',
      summary: 'Verdict, risk, momentum, entry and activity of a token',
      returns: 'verdict, risk, momentum, entry, activity',
      request: TokenIntelRequest,
      response: TokenIntelResponse,
      handler: async (i, ctx) => tokenIntelView(snapshot(chainOf(i.chain), i.token), { sizeUsd: i.sizeUsd }, secs(ctx.now)),
    }),
    defineOperation({
      id: 'tokenSignal',
      served,
      method: 'POST',
      path: '/token-signal',
      cost: 2,
      group: 'token',
      summary: 'BUY, ACCUMULATE, HOLD or AVOID with conviction and a one-sentence rationale',
      returns: 'signal, conviction, rationale',
      request: TokenBody,
      response: TokenSignalResponse,
      handler: async (i, ctx) => tokenSignalView(snapshot(chainOf(i.chain), i.token), secs(ctx.now)),
    }),
    defineOperation({
      id: 'tokenRisk',
      served,
      method: 'POST',
      path: '/token-risk',
      cost: 1,
      group: 'token',
      summary: 'Risk band, score, signals and rug, honeypot and concentration flags with reasons',
      returns: 'risk, score, signals, flags',
      request: TokenBody,
      response: TokenRiskResponse,
      handler: async (i, ctx) => tokenRiskView(snapshot(chainOf(i.chain), i.token), secs(ctx.now)),
    }),
    defineOperation({
      id: 'tokenHoldersInsight',
      served,
      method: 'POST',
      path: '/token-holders-insight',
      cost: 1,
      group: 'token',
      summary: 'Holder base: trend, organic share and whale shape',
      returns: 'verdict, trend, organic, whaleShape',
      request: TokenBody,
      response: TokenHoldersInsightResponse,
      handler: async (i, ctx) => tokenHoldersInsightView(snapshot(chainOf(i.chain), i.token), secs(ctx.now)),
    }),
    defineOperation({
      id: 'tokenNarrative',
      served,
      method: 'POST',
      path: '/token-narrative',
      cost: 2,
      group: 'token',
      summary: 'Valuation stance with a one-sentence thesis',
      returns: 'stance, thesis',
      request: TokenBody,
      response: TokenNarrativeResponse,
      handler: async (i, ctx) => tokenNarrativeView(snapshot(chainOf(i.chain), i.token), secs(ctx.now)),
    }),
    defineOperation({
      id: 'tokenCompare',
      method: 'POST',
      path: '/token-compare',
      cost: 2,
      group: 'token',
      summary: 'Rank tokens by signal, conviction and risk and pick one',
      returns: 'pick, ranked[]',
      request: CompareRequest,
      response: TokenCompareResponse,
      handler: async (i) => {
        const chain = chainOf(i.chain);
        const seen = new Set<string>();
        const known: TokenSnapshot[] = [];
        const unknown: string[] = [];
        for (const t of i.tokens) {
          if (seen.has(t)) continue;
          seen.add(t);
          const snap = replica.get<TokenSnapshot>(`token:${chain}:${t}`);
          if (snap) known.push(snap);
          else unknown.push(t);
        }
        if (known.length === 0) throw new ApiError('not_a_token', `none of the tokens has been seen trading on ${chain}`);
        const order = { BUY: 3, ACCUMULATE: 2, HOLD: 1, AVOID: 0 } as const;
        const ranked = known
          .sort((a, b) => order[b.signal.value] - order[a.signal.value] || b.signal.conviction - a.signal.conviction || a.risk.score - b.risk.score)
          .map((s, n) => ({
            rank: n + 1,
            token: s.token,
            chain: s.chain,
            symbol: s.symbol,
            verdict: s.verdict,
            signal: s.signal.value,
            conviction: s.signal.conviction,
            risk: s.risk.band,
            pillarsLit: s.pillarsLit,
          }));
        const pick = ranked.find((r) => r.signal !== 'AVOID')?.token ?? null;
        return { chain, pick, ranked, unknown };
      },
    }),
    defineOperation({
      id: 'tokenInflection',
      served,
      method: 'POST',
      path: '/token-inflection',
      cost: 1,
      group: 'token',
      summary: 'Whether a token is coiling or breaking out, with an early score',
      returns: 'state, earlyScore',
      request: TokenBody,
      response: TokenInflectionResponse,
      handler: async (i, ctx) => tokenInflectionView(snapshot(chainOf(i.chain), i.token), secs(ctx.now)),
    }),
    defineOperation({
      id: 'tokenValuation',
      served,
      method: 'POST',
      path: '/token-valuation',
      cost: 1,
      group: 'token',
      summary: 'Relative valuation stance (undervalued, fair, stretched) with its signals',
      returns: 'stance, signals',
      request: TokenBody,
      response: TokenValuationResponse,
      handler: async (i, ctx) => tokenValuationView(snapshot(chainOf(i.chain), i.token), secs(ctx.now)),
    }),
    defineOperation({
      id: 'exitRisk',
      served,
      method: 'POST',
      path: '/exit-risk',
      cost: 1,
      group: 'token',
      summary: 'How hard it is to get out at a standard size, and which way it is moving',
      returns: 'exitRisk, direction, signals',
      request: TokenBody,
      response: ExitRiskResponse,
      handler: async (i, ctx) => exitRiskView(snapshot(chainOf(i.chain), i.token), {}, secs(ctx.now)),
    }),
    defineOperation({
      id: 'tokenChanges',
      served,
      method: 'POST',
      path: '/token-changes',
      cost: 2,
      group: 'token',
      summary: 'Signal deltas versus the prior snapshot, including price breaks, with a headline',
      returns: 'changes[], current, headline',
      request: TokenBody,
      response: TokenChangesResponse,
      handler: async (i, ctx) => tokenChangesView(snapshot(chainOf(i.chain), i.token), secs(ctx.now)),
    }),
    defineOperation({
      id: 'tokenPriceAction',
      served,
      method: 'POST',
      path: '/token-price-action',
      cost: 2,
      group: 'token',
      summary: 'Trend, structure, breakout, volatility and momentum of price, without raw candles',
      returns: 'trend, structure, breakout, volatility, distanceFromHigh, priceMomentum, summary',
      request: PriceActionRequest,
      response: TokenPriceActionResponse,
      handler: async (i, ctx) =>
        tokenPriceActionView(snapshot(chainOf(i.chain), i.token), { hours: i.hours, resolution: i.resolution }, secs(ctx.now)),
    }),
    defineOperation({
      id: 'tokenSpark',
      served,
      method: 'POST',
      path: '/token-spark',
      cost: 1,
      group: 'token',
      summary: 'Hourly closes rebased to percent from the first bar (at most 72 points)',
      returns: 'chain, token, available, hours, points, changePct, series[]',
      request: SparkRequest,
      response: TokenSparkResponse,
      handler: async (i, ctx) => tokenSparkView(snapshot(chainOf(i.chain), i.token), { hours: i.hours }, secs(ctx.now)),
    }),
    defineOperation({
      id: 'smartMoneyFlow',
      served,
      method: 'POST',
      path: '/smart-money-flow',
      cost: 6,
      group: 'token',
      summary: 'Whether wallets graded mirror-worthy are buying a token',
      returns: 'smartMoneyBuying, mirrorWorthyBuyers, verdict',
      request: SampleRequest,
      response: SmartMoneyFlowResponse,
      handler: async (i, ctx) => smartMoneyFlowView(snapshot(chainOf(i.chain), i.token), i.sample ?? 50, secs(ctx.now)),
    }),
  ];

  const byId = new Map(ops.map((o) => [o.id, o]));
  ops.push(
    defineOperation({
      id: 'tokenOverview',
      // every slot projects the same snapshot: one age per slot, all the snapshot's
      served,
      method: 'POST',
      path: '/token-overview',
      cost: 19,
      group: 'token',
      summary: 'The whole token page in one call: ten operations, each in its own slot',
      returns: 'token, chain, bundle, tokenIntel, tokenSignal, smartMoneyFlow, exitRisk, tokenInflection, tokenHoldersInsight, tokenValuation, tokenNarrative, tokenChanges, tokenPriceAction, failed[]',
      request: SampleRequest,
      response: TokenOverviewResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        snapshot(chain, i.token); // 404 not_a_token before anything else
        const names = Object.keys(OverviewComponents) as ComponentName[];
        const components: Record<string, () => Promise<unknown>> = {};
        for (const n of names) {
          const op = byId.get(n) as AnyOperation;
          const input = op.request.parse(n === 'smartMoneyFlow' ? { chain, token: i.token, sample: i.sample } : { chain, token: i.token });
          components[n] = () => op.handler(input, ctx);
        }
        const { slots, failed } = await composeOverview(components);
        const body: Record<string, unknown> = {
          token: i.token,
          chain,
          bundle: { operations: names, units: names.reduce((a, n) => a + (byId.get(n) as AnyOperation).cost, 0) },
          ...slots,
          failed,
        };
        return body as z.input<typeof TokenOverviewResponse>;
      },
    }),
  );
  return ops;
}
