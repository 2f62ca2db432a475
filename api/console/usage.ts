import type { FastifyInstance } from 'fastify';
import type { Store } from '../../infra/store/types.ts';
import { PlanLimits } from '../../schemas/keys.ts';
import type { Plan } from '../../schemas/keys.ts';
import type { ApiKeyRecord } from '../../infra/keys.ts';
import type { Meter } from '../metering.ts';
import { allowances, utcDay } from '../metering.ts';
import type { ConsoleContext } from './context.ts';

/** per day of the last 14: the organisation's units and requests (today from the meter, the days before from the store) */
async function dailyUsage(meter: Meter, store: Store, orgKeys: ApiKeyRecord[], now: number) {
  const ids = new Set(orgKeys.map((k) => k.id));
  const days: { day: string; units: number; requests: number }[] = [];
  for (let d = 13; d >= 0; d--) {
    const day = utcDay(now - d * 86_400_000);
    let units = 0;
    let requestsN = 0;
    if (d === 0) {
      // today from this process's view of every process's usage (the store lags by a sink batch)
      for (const k of orgKeys) {
        const kd = meter.keyDay(k.id, now);
        units += kd.units;
        requestsN += kd.requests;
      }
    } else {
      for (const t of await store.usage(day)) {
        if (!ids.has(t.keyId)) continue;
        units += t.units;
        requestsN += t.requests;
      }
    }
    days.push({ day, units, requests: requestsN });
  }
  return days;
}

/** The usage panel: the organisation's units and requests over 14 days, today's by operation, and each limit with what is left of it. */
export function usageRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { clock, deps } = ctx;
  app.get('/console/api/usage', async function usage(req) {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    const orgKeys = await deps.keys.list(s.org.id);
    const days = await dailyUsage(deps.meter, deps.store, orgKeys, now);
    const byOperation: Record<string, number> = {};
    for (const k of orgKeys) {
      for (const [op, units] of Object.entries(deps.meter.keyDay(k.id, now).byOperation)) byOperation[op] = (byOperation[op] ?? 0) + units;
    }
    const plan: Plan = s.org.live ? 'free' : 'sandbox';
    const today = days[days.length - 1] ?? { day: utcDay(now), units: 0, requests: 0 };
    return {
      day: today.day,
      unitsToday: today.units,
      requestsToday: today.requests,
      byOperation,
      days,
      plan,
      ratePerMinute: PlanLimits[plan].ratePerMinute,
      dailyUnitsPerKey: PlanLimits[plan].dailyUnits,
      limits: { dailyUnitsPerKey: PlanLimits[plan].dailyUnits, ...allowances(deps.meter, { orgId: s.org.id, plan }, deps.limits, now) },
      activeKeys: orgKeys.filter((k) => !k.revokedAt).length,
    };
  });
}
