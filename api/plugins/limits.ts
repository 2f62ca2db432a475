import { ApiError } from '../../schemas/errors.ts';
import { limitsOf } from '../../schemas/keys.ts';
import type { Meter } from '../metering.ts';
import { nextUtcMidnight } from '../metering.ts';
import { addPreHandler } from './auth.ts';
import { shared } from './plugin.ts';

export interface LimitsOptions {
  [k: string]: unknown;
  meter: Meter;
  /** the global daily data budget in units */
  dailyUnitBudget: number;
}

/**
 * Rate limit (per key, one-minute window), the key's daily unit quota and the global daily data
 * budget, checked before an operation runs; an admitted call counts in the key's window. Limits
 * are the key's plan's with the operator's overrides (schemas/keys.ts). Registered after auth.
 */
export const limitsPlugin = shared<LimitsOptions>('limits', async (app, opts) => {
  const { meter } = opts;
  app.addHook('onRoute', (route) => {
    const op = route.config?.operation;
    if (!op) return;
    const rateLimited = op.rateLimited !== false;
    addPreHandler(route, (req, reply, done) => {
      const key = req.apiKey;
      const now = req.at;
      if (!key) return done(new ApiError('invalid_api_key', 'the API key is unknown or revoked'));
      const limits = limitsOf(key);
      const limit = limits.ratePerMinute;
      if (rateLimited && meter.minuteCount(key.id, now) >= limit) {
        return done(
          new ApiError('rate_limited', `rate limit of ${limit} requests per minute for the ${key.plan} plan exceeded`, {
            headers: { 'retry-after': '60', 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': '0' },
          }),
        );
      }
      if (op.cost > 0 && limits.dailyUnits !== null && meter.keyDay(key.id, now).units + op.cost > limits.dailyUnits) {
        const retry = Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / 1000));
        return done(
          new ApiError('rate_limited', `daily quota of ${limits.dailyUnits} units for this key exceeded; it resets at the next UTC midnight`, {
            headers: { 'retry-after': String(retry), 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(Math.max(0, limit - meter.minuteCount(key.id, now))) },
          }),
        );
      }
      if (op.cost > 0 && meter.budgetUsed(now) + op.cost > opts.dailyUnitBudget) {
        const retry = Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / 1000));
        return done(
          new ApiError('capacity', 'the service has used its daily data budget; it resets at the next UTC midnight', {
            headers: { 'retry-after': String(retry) },
          }),
        );
      }
      if (rateLimited) meter.admit(key.id, now);
      void reply.headers({ 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(Math.max(0, limit - meter.minuteCount(key.id, now))) });
      done();
    });
  });
});
