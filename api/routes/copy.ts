import { z } from 'zod';
import { copyDecision, copyOverlap, copyPlan, copySimulate } from '../views/copy-whatif.ts';
import type { CopyLimitsInput } from '../views/copy-whatif.ts';
import {
  CopyDecisionResponse,
  CopyOverlapResponse,
  CopyPlanResponse,
  CopySimulateResponse,
  CopyStrategiesResponse,
  SpotLeadersResponse,
  TopTradersResponse,
} from '../../schemas/copy.ts';
import { ApiError } from '../../schemas/errors.ts';
import { RiskBand } from '../../schemas/token.ts';
import type { WalletSnapshot } from '../../schemas/wallet.ts';
import type { AnyOperation } from '../operations.ts';
import { defineOperation } from '../operations.ts';
import { copyStrategies } from '../views/copy.ts';
import { listFresh, spotLeaders, topTraders, walletFresh } from '../views/trader.ts';
import { AddressParam, ChainParam, CursorParam, bodyNumber, decodeCursor, encodeCursor } from './common.ts';
import type { RouteDeps } from './context.ts';
import { LimitParam, WalletBody, chainNow, tokenLookup, walletSnapshot } from './trader.ts';

/**
 * Copy-trading read side (spot). Units: decision and plan 3, simulate and overlap 4, leader
 * boards and strategies 6. Perps and prediction leaders live in their own module.
 */

const LimitsBody = WalletBody.extend({
  budgetUsd: bodyNumber(10, 100_000_000, 1000, 'copy budget in USD'),
  maxPerTradeUsd: z
    .number({ error: 'must be a number' })
    .min(1, { error: 'must be between 1 and 100000000' })
    .max(100_000_000, { error: 'must be between 1 and 100000000' })
    .optional()
    .meta({ description: 'cap per copied entry in USD (default budget / maxOpenPositions)' }),
  maxOpenPositions: bodyNumber(1, 50, 5, 'copied positions open at once', true),
  stopLossPct: bodyNumber(1, 90, 25, 'exit a copied position at this loss, percent'),
  skipRiskAtOrAbove: RiskBand.default('high').meta({ description: 'skip tokens whose risk band is this or worse (default high)' }),
});

function limitsOf(i: z.output<typeof LimitsBody>): CopyLimitsInput {
  return {
    budgetUsd: i.budgetUsd,
    maxPerTradeUsd: i.maxPerTradeUsd,
    maxOpenPositions: i.maxOpenPositions,
    stopLossPct: i.stopLossPct,
    skipRiskAtOrAbove: i.skipRiskAtOrAbove,
  };
}

export function createCopyOperations(deps: RouteDeps): AnyOperation[] {
  const { replica, writer, config } = deps;
  const chainOf = (c: string | undefined) => c ?? config.DEFAULT_CHAIN;
  const wallets = (chain: string) => replica.list<WalletSnapshot>('wallet', chain);

  return [
    defineOperation({
      id: 'copyDecision',
      method: 'POST',
      path: '/copy-decision',
      cost: 3,
      group: 'copytrading',
      summary: 'Should I mirror this leader: eight gates and a verdict with a one-sentence rationale',
      returns: 'verdict, gates[], gatesPassed, gatesTotal, rationale',
      request: WalletBody,
      response: CopyDecisionResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const s = walletSnapshot(replica, chain, i.wallet);
        const d = copyDecision(s, chainNow(replica, chain));
        const rationale = await writer.rationale({
          operation: 'copy-decision',
          subject: 'This leader',
          facts: { verdict: d.verdict, passed: d.gates.filter((g) => g.passed).map((g) => g.gate), failed: d.gates.filter((g) => !g.passed).map((g) => g.gate) },
        });
        return { ...walletFresh(s, ctx.now), ...d, rationale };
      },
    }),
    defineOperation({
      id: 'copyPlan',
      method: 'POST',
      path: '/copy-plan',
      cost: 3,
      group: 'copytrading',
      summary: 'Sizing for mirroring a leader under given risk limits, with skip rules and warnings',
      returns: 'verdict, limits, plan, skipRules, warnings, summary',
      request: LimitsBody,
      response: CopyPlanResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const s = walletSnapshot(replica, chain, i.wallet);
        const p = copyPlan(s, limitsOf(i), tokenLookup(replica, chain), chainNow(replica, chain));
        const summary = await writer.summary({
          operation: 'copy-plan',
          subject: 'This plan',
          facts: { verdict: p.verdict, copyRatio: p.plan.copyRatio, expectedHold: p.plan.expectedHold, warnings: p.warnings.length > 0 ? 'present' : 'none' },
        });
        return { ...walletFresh(s, ctx.now), ...p, summary };
      },
    }),
    defineOperation({
      id: 'copySimulate',
      method: 'POST',
      path: '/copy-simulate',
      cost: 4,
      group: 'copytrading',
      summary: "Replay the leader's recent tokens under the limits: what would have been copied, skipped and why, and the outcome band",
      returns: 'limits, window, copied, skipped, skips, trades[], outcome, summary',
      request: LimitsBody,
      response: CopySimulateResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const s = walletSnapshot(replica, chain, i.wallet);
        const r = copySimulate(s, limitsOf(i), tokenLookup(replica, chain));
        const summary = await writer.summary({
          operation: 'copy-simulate',
          subject: 'Copying this leader',
          facts: { outcome: r.outcome.band, mainSkipReason: Object.entries(r.skips).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null },
        });
        return { ...walletFresh(s, ctx.now), ...r, summary };
      },
    }),
    defineOperation({
      id: 'copyOverlap',
      method: 'POST',
      path: '/copy-overlap',
      cost: 4,
      group: 'copytrading',
      summary: 'How much two or more leaders trade the same tokens',
      returns: 'overlap, overlapPct, leaders[], pairs[], shared[]',
      request: z.object({
        chain: ChainParam,
        wallets: z
          .array(AddressParam, { error: 'must be an array of addresses' })
          .min(2, { error: 'needs at least 2 addresses' })
          .max(10, { error: 'at most 10 addresses' }),
      }),
      response: CopyOverlapResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const unique = [...new Set(i.wallets)];
        const snapOf = (w: string) => replica.get<WalletSnapshot>(`wallet:${chain}:${w}`);
        if (unique.every((w) => !snapOf(w))) throw new ApiError('not_found', `none of the wallets has been seen trading on ${chain}`);
        const o = copyOverlap(unique, snapOf, chain, tokenLookup(replica, chain));
        const { asOf, ...rest } = o;
        return { chain, ...listFresh(asOf, ctx.now), ...rest };
      },
    }),
    defineOperation({
      id: 'copyTopTraders',
      method: 'GET',
      path: '/copy/top-traders',
      cost: 6,
      group: 'copytrading',
      summary: 'Best-performing rated traders (edge and PnL quality), any style',
      returns: 'traders[]',
      request: z.object({ chain: ChainParam, limit: LimitParam, cursor: CursorParam }),
      response: TopTradersResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const list = `copyTopTraders:${chain}`;
        const t = topTraders(wallets(chain), { limit: i.limit, after: decodeCursor(list, i.cursor) });
        return { chain, ...listFresh(t.asOf, ctx.now), traders: t.traders, next: encodeCursor(list, t.next) };
      },
    }),
    defineOperation({
      id: 'copySpotLeaders',
      method: 'GET',
      path: '/copy/spot-leaders',
      cost: 6,
      group: 'copytrading',
      summary: 'Leaders worth mirroring on spot: rated, not avoid, copyable; grade then copy score',
      returns: 'venue, leaders[]',
      request: z.object({ chain: ChainParam, limit: LimitParam, cursor: CursorParam }),
      response: SpotLeadersResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const list = `copySpotLeaders:${chain}`;
        const l = spotLeaders(wallets(chain), { limit: i.limit, after: decodeCursor(list, i.cursor) });
        return { chain, ...listFresh(l.asOf, ctx.now), venue: 'spot' as const, leaders: l.leaders, next: encodeCursor(list, l.next) };
      },
    }),
    defineOperation({
      id: 'copyStrategies',
      method: 'GET',
      path: '/copy/strategies',
      cost: 6,
      group: 'copytrading',
      summary: 'Copy strategies by leader style with suggested limits and the leaders that fit each',
      returns: 'headline, strategies[]',
      request: z.object({ chain: ChainParam }),
      response: CopyStrategiesResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const st = copyStrategies(wallets(chain));
        const best = [...st.strategies].sort((a, b) => b.leaders - a.leaders)[0];
        const headline = await writer.headline({
          operation: 'copy-strategies',
          subject: chain,
          facts: { mostLeaders: best && best.leaders > 0 ? best.name : null },
        });
        return { chain, ...listFresh(st.asOf, ctx.now), headline, strategies: st.strategies };
      },
    }),
  ];
}
