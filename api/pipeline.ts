import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../schemas/errors.ts';
import type { KeyService } from './keys.ts';
import { limitsOf } from '../schemas/keys.ts';
import type { Meter } from './metering.ts';
import { nextUtcMidnight } from './metering.ts';
import type { AnyOperation } from './operations.ts';
import { parseInput } from './validate.ts';

export interface PipelineDeps {
  keys: KeyService;
  meter: Meter;
  dailyUnitBudget: number;
  /** the clock, injectable for tests of the day boundary */
  now?: () => number;
}

/** The API key of a request: `Authorization: Bearer <key>` or `x-api-key: <key>`. */
function presentedKey(req: FastifyRequest): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  const x = req.headers['x-api-key'];
  return typeof x === 'string' ? x.trim() : undefined;
}

/** The caller's key, or 401 invalid_api_key. */
export async function authenticate(req: FastifyRequest, keys: KeyService, now: number) {
  const plaintext = presentedKey(req);
  if (!plaintext) throw new ApiError('invalid_api_key', 'an API key is required: send Authorization: Bearer <key> or x-api-key: <key>');
  const key = await keys.resolve(plaintext, now);
  if (!key) throw new ApiError('invalid_api_key', 'the API key is unknown or revoked');
  return key;
}

/**
 * Every operation runs through the same steps: authenticate, rate limit, check the daily
 * budget, validate, run, bill. Only successful calls are billed.
 */
export function createOperationHandler(op: AnyOperation, deps: PipelineDeps) {
  const clock = deps.now ?? Date.now;
  return async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const now = clock();
    const key = await authenticate(req, deps.keys, now);

    const limits = limitsOf(key);
    const limit = limits.ratePerMinute;
    if (op.rateLimited !== false) {
      const used = deps.meter.minuteCount(key.id, now);
      if (used >= limit) {
        throw new ApiError('rate_limited', `rate limit of ${limit} requests per minute for the ${key.plan} plan exceeded`, {
          headers: {
            'retry-after': '60',
            'x-ratelimit-limit': String(limit),
            'x-ratelimit-remaining': '0',
          },
        });
      }
    }
    if (op.cost > 0 && limits.dailyUnits !== null && deps.meter.keyDay(key.id, now).units + op.cost > limits.dailyUnits) {
      const retry = Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / 1000));
      throw new ApiError('rate_limited', `daily quota of ${limits.dailyUnits} units for this key exceeded; it resets at the next UTC midnight`, {
        headers: { 'retry-after': String(retry), 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(Math.max(0, limit - deps.meter.minuteCount(key.id, now))) },
      });
    }
    if (op.cost > 0) {
      const used = deps.meter.budgetUsed(now);
      if (used + op.cost > deps.dailyUnitBudget) {
        const retry = Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / 1000));
        throw new ApiError('capacity', 'the service has used its daily data budget; it resets at the next UTC midnight', {
          headers: { 'retry-after': String(retry) },
        });
      }
    }
    if (op.rateLimited !== false) deps.meter.admit(key.id, now);

    const raw = op.method === 'GET' ? req.query : req.body;
    const input = parseInput(op.request, raw, op.method === 'GET' ? 'query' : 'body');
    const result = await op.handler(input, { key, now, requestId: req.id });
    if (op.cost > 0) {
      deps.meter.bill({ keyId: key.id, orgId: key.orgId, operation: op.id, units: op.cost, requestId: req.id }, now);
    }
    const remaining = limit - deps.meter.minuteCount(key.id, now);
    void reply.headers({
      'x-usage-units': String(op.cost),
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, remaining)),
    });
    return result;
  };
}
