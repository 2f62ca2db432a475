import { z } from 'zod';
import { limitsOf } from '../../schemas/keys.ts';
import { allowances, dailyLimitsOf, keyAllowance, nextUtcMidnight, utcDay } from '../metering.ts';
import type { AnyOperation } from '../operations.ts';
import { defineOperation } from '../operations.ts';
import type { RouteDeps } from './context.ts';

const Allowance = z.object({
  dailyUnits: z.number().int().nullable().meta({ description: 'units per UTC day; null: no such limit for this plan' }),
  usedUnits: z.number().int(),
  remainingUnits: z.number().int().nullable(),
});

/** each daily limit and what is left of it (api/metering.ts allowances) */
export const DailyLimitsResponse = z
  .object({
    key: Allowance.meta({ description: "this key's daily quota" }),
    org: Allowance.meta({ description: "the organisation's daily quota: all its keys together" }),
    sandbox: Allowance.extend({ share: z.number().meta({ description: 'the share (0..1) of the budget sandbox keys may use together' }) })
      .optional()
      .meta({ description: 'sandbox keys only: what all sandbox keys together may still use today' }),
    budget: Allowance.meta({ description: "the service's daily data budget" }),
  })
  .meta({ description: 'every daily limit the key runs under and what is left of it; the first one used up refuses calls until the next UTC midnight' });

export const UsageResponse = z.object({
  day: z.string().meta({ description: 'UTC day, YYYY-MM-DD' }),
  unitsToday: z.number().int().nonnegative(),
  requestsToday: z.number().int().nonnegative(),
  byOperation: z.record(z.string(), z.number()),
  rate: z.object({ plan: z.string(), limit: z.number().int(), remaining: z.number().int() }),
  budget: z.object({
    dailyUnits: z.number().int(),
    usedUnits: z.number().int(),
    remainingUnits: z.number().int(),
    resetsAt: z.string(),
  }),
  limits: DailyLimitsResponse,
});

export function createInfraOperations(deps: Pick<RouteDeps, 'meter' | 'config'>): AnyOperation[] {
  const { meter, config } = deps;
  const limits = dailyLimitsOf(config);
  return [
    defineOperation({
      id: 'usage',
      method: 'GET',
      path: '/usage',
      cost: 0,
      group: 'infra',
      rateLimited: false,
      summary: "The caller's units billed today and what is left of each daily limit: the key's quota, its organisation's, the sandbox share and the service's budget (never rate limited)",
      returns: 'day, unitsToday, requestsToday, byOperation, rate, budget, limits',
      request: z.object({}),
      response: UsageResponse,
      handler: async (_i, ctx) => {
        const k = meter.keyDay(ctx.key.id, ctx.now);
        const used = meter.budgetUsed(ctx.now);
        const limit = limitsOf(ctx.key).ratePerMinute;
        return {
          day: utcDay(ctx.now),
          unitsToday: k.units,
          requestsToday: k.requests,
          byOperation: { ...k.byOperation },
          rate: { plan: ctx.key.plan, limit, remaining: Math.max(0, limit - meter.minuteCount(ctx.key.id, ctx.now)) },
          budget: {
            dailyUnits: config.DAILY_UNIT_BUDGET,
            usedUnits: used,
            remainingUnits: Math.max(0, config.DAILY_UNIT_BUDGET - used),
            resetsAt: new Date(nextUtcMidnight(ctx.now)).toISOString(),
          },
          limits: { key: keyAllowance(meter, ctx.key, ctx.now), ...allowances(meter, ctx.key, limits, ctx.now) },
        };
      },
    }),
  ];
}
