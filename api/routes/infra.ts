import { z } from 'zod';
import { limitsOf } from '../../schemas/keys.ts';
import { nextUtcMidnight, utcDay } from '../metering.ts';
import type { AnyOperation } from '../operations.ts';
import { defineOperation } from '../operations.ts';
import type { RouteDeps } from './context.ts';

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
});

export function createInfraOperations(deps: RouteDeps): AnyOperation[] {
  const { meter, config } = deps;
  return [
    defineOperation({
      id: 'usage',
      method: 'GET',
      path: '/usage',
      cost: 0,
      group: 'infra',
      rateLimited: false,
      summary: "The caller's units billed today and the service's remaining daily data budget (never rate limited)",
      returns: 'day, unitsToday, requestsToday, byOperation, rate, budget',
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
        };
      },
    }),
  ];
}
