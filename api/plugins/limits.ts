import type { FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { ApiKeyRecord } from '../../infra/keys.ts';
import { ApiError } from '../../schemas/errors.ts';
import { limitsOf } from '../../schemas/keys.ts';
import type { MeteredRoute } from '../operations.ts';
import type { Meter } from '../metering.ts';
import { dailyLimitRefusal, nextUtcMidnight, refusalText } from '../metering.ts';
import type { DailyLimits, MeteredKey } from '../metering.ts';
import { requestBody } from './errors.ts';
import { addRouteHook, shared } from './plugin.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** units this call holds against its key's daily quota and the global budget until it is answered */
    reservedUnits: number;
  }
}

/**
 * The units held by calls admitted and not yet answered (per key, per organisation, of sandbox
 * keys and in all), and the checks of the daily limits (api/metering.ts dailyLimitRefusal): one
 * per app, shared by the limits plugin and the served lane (api/lane.ts), so a call either admits
 * sees what the other holds.
 */
export interface Holds {
  /** the error that refuses `units` more for the key now (the quotas' and the sandbox share's 429, the budget's 503), or undefined; holds nothing */
  refusal(key: MeteredKey, units: number, now: number): ApiError | undefined;
  /** holds `units` for the key until `release` */
  hold(key: MeteredKey, units: number): void;
  release(key: MeteredKey, units: number): void;
}

/** keys whose holds are back at 0 keep their entry while the map holds no more than this */
const IDLE_HOLDS_KEPT = 10_000;

export function createHolds(meter: Meter, limits: DailyLimits): Holds {
  const byKey = new Map<string, number>();
  const byOrg = new Map<string, number>();
  let sandbox = 0;
  let total = 0;
  // a key's (or an organisation's) entry stays, at 0, while few are held: a delete and a set per call
  // rehash an old Map into the old generation (see the key cache, api/keys.ts), which then fills at the call rate
  const add = (m: Map<string, number>, id: string, units: number) => {
    const left = Math.max(0, (m.get(id) ?? 0) + units);
    if (left > 0 || m.size <= IDLE_HOLDS_KEPT) m.set(id, left);
    else m.delete(id);
  };
  const change = (key: MeteredKey, units: number) => {
    add(byKey, key.id, units);
    add(byOrg, key.orgId, units);
    if (key.plan === 'sandbox') sandbox += units;
    total += units;
  };
  return {
    refusal(key, units, now) {
      const held = { key: byKey.get(key.id) ?? 0, org: byOrg.get(key.orgId) ?? 0, sandbox, total };
      const refused = dailyLimitRefusal(meter, key, units, limits, now, held);
      if (!refused) return undefined;
      const { code, detail } = refusalText(refused, key, limits);
      return new ApiError(code, `${detail}; it resets at the next UTC midnight`, { headers: { 'retry-after': toMidnight(now) } });
    },
    hold: (key, units) => change(key, units),
    release: (key, units) => change(key, -units),
  };
}

const toMidnight = (now: number) => String(Math.max(1, seconds(nextUtcMidnight(now) - now)));

/**
 * The limits' decision on a call of `op` by `key` now, the limits plugin's and the served lane's
 * (api/lane.ts) alike: refused by the key's rate, its daily quota, its organisation's, the sandbox
 * share or the global budget, with the error and the rate-limit headers as they stand; or admitted
 * (a rate-limited operation's call counts in the key's window) with the headers that count it.
 * Nothing is held: a caller that answers later holds the call's units (`Holds`) until it does.
 */
export interface Admission {
  /** X-RateLimit-Limit, -Remaining and -Reset, RateLimit-Policy and RateLimit, on every answer of the call, errors included */
  headers: Record<string, string>;
  refused?: ApiError;
}

/** (the headers are set in `into`: see api/pipeline.ts answerHeaders) */
export function admit(meter: Meter, holds: Holds, key: ApiKeyRecord, op: Pick<MeteredRoute, 'cost' | 'rateLimited'>, now: number, into: Record<string, string> = {}): Admission {
  const limit = limitsOf(key).ratePerMinute;
  const used = meter.minuteCount(key.id, now);
  const rateLimited = op.rateLimited !== false;
  let refused: ApiError | undefined;
  const byRate = rateLimited && used >= limit;
  if (byRate) {
    const retry = Math.max(1, seconds(meter.minuteFreesIn(key.id, limit - 1, now)));
    refused = new ApiError('rate_limited', `rate limit of ${limit} requests per minute for the ${key.plan} plan exceeded`, { headers: { 'retry-after': String(retry) } });
  } else if (op.cost > 0) refused = holds.refusal(key, op.cost, now);
  if (refused) return { headers: dayHeaders(meter, key, !byRate, now, rateHeaders(meter, key.id, limit, used, now, into)), refused };
  if (rateLimited) meter.admit(key.id, now);
  return { headers: dayHeaders(meter, key, false, now, rateHeaders(meter, key.id, limit, rateLimited ? used + 1 : used, now, into)) };
}

/**
 * The key's daily unit quota as the draft's second policy: units left of it (0 once a daily limit
 * refused the call, whichever refused it), reset at the next UTC midnight, the quota's Retry-After.
 */
function dayHeaders(meter: Meter, key: ApiKeyRecord, dailyRefusal: boolean, now: number, into: Record<string, string>): Record<string, string> {
  const quota = limitsOf(key).dailyUnits;
  if (quota === null) return into; // no daily quota to state
  const left = dailyRefusal ? 0 : Math.max(0, quota - meter.keyDay(key.id, now).units);
  into['ratelimit-policy'] += `, "day";q=${quota};w=86400`;
  into.ratelimit += `, "day";r=${left.toFixed(0)};t=${toMidnight(now)}`;
  return into;
}

/**
 * The rate-limit headers of a key with `admitted` calls in its window. `remaining` is a new number
 * on every call: `toFixed` renders it without V8's number-to-string cache, an old table that kept
 * each call's string alive across scavenges into the old generation (sampled under load: about
 * 0.2 MB a second of old-generation garbage, a share of the major GCs that stall the reads).
 */
export function rateHeaders(meter: Meter, keyId: string, limit: number, admitted: number, now: number, into: Record<string, string> = {}): Record<string, string> {
  into['x-ratelimit-limit'] = String(limit);
  into['x-ratelimit-remaining'] = Math.max(0, limit - admitted).toFixed(0);
  into['x-ratelimit-reset'] = String(seconds(meter.minuteFreesIn(keyId, 0, now)));
  // the same window in the IETF draft's structured fields (draft-ietf-httpapi-ratelimit-headers-11),
  // which new clients parse: `t` is when the next call is let in once `r` is 0, the 429's Retry-After
  const counted = Math.min(admitted, limit);
  const nextSlot = counted > 0 ? Math.max(1, seconds(meter.minuteFreesIn(keyId, counted - 1, now))) : 0;
  into['ratelimit-policy'] = `"minute";q=${limit};w=60`;
  into.ratelimit = `"minute";r=${into['x-ratelimit-remaining']};t=${nextSlot}`;
  return into;
}

export interface LimitsOptions {
  [k: string]: unknown;
  meter: Meter;
  /** the daily budget, the organisations' quotas and the sandbox share */
  limits: DailyLimits;
  /** the app's holds (shared with the served lane); default its own */
  holds?: Holds;
}

const seconds = (ms: number) => Math.ceil(ms / 1000);

/**
 * Rate limit (per key, one-minute window), the key's daily unit quota and the global daily data
 * budget, checked as the call arrives (after auth, before the body is read); an admitted call
 * counts in the key's window. Limits are the key's plan's with the operator's overrides
 * (schemas/keys.ts).
 *
 * Every answer of the route states the key's limits (docs/architecture.md "Decisions": rate limits), errors
 * included: `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until
 * the window holds none of the calls it holds now). A 429 for the rate carries `Retry-After`, the
 * seconds until a call is admitted again; the daily quota's 429 and the budget's 503 carry the
 * seconds to the next UTC midnight.
 *
 * A call admitted with a cost holds its units against the quota and the budget until it is
 * answered (then they are billed, or released): concurrent calls of one key cannot pass the
 * check together and overspend its quota or the budget. A batch (`perItem`) holds one item's
 * units as it arrives and the other items' once its body is read, before the handler runs.
 */
export const limitsPlugin = shared<LimitsOptions>('limits', async (app, opts) => {
  const { meter } = opts;
  const holds = opts.holds ?? createHolds(meter, opts.limits);
  app.decorateRequest('reservedUnits', 0);
  const release: onSendHookHandler = (req, _reply, payload, done) => {
    const units = req.reservedUnits;
    if (units > 0) {
      req.reservedUnits = 0;
      holds.release(req.apiKey as ApiKeyRecord, units);
    }
    done(null, payload);
  };

  /** holds `units` for the call (released as it is answered) */
  function reserve(req: FastifyRequest, key: ApiKeyRecord, units: number): void {
    req.reservedUnits += units;
    holds.hold(key, units);
  }

  /** holds `units` for the call, or the error that refuses it */
  function hold(req: FastifyRequest, key: ApiKeyRecord, units: number, now: number): ApiError | undefined {
    const refused = holds.refusal(key, units, now);
    if (!refused) reserve(req, key, units);
    return refused;
  }

  app.addHook('onRoute', (route) => {
    const op = route.config?.operation;
    if (!op) return;
    const cost = op.cost;
    // a batch's units are known once its body is read: held then (below), not as it arrives
    const perItem = op.perItem;
    addRouteHook(route, 'onRequest', (req, reply, done) => {
      const key = req.apiKey;
      const now = req.at;
      if (!key) return done(new ApiError('invalid_api_key', 'the API key is unknown or revoked'));
      const a = admit(meter, holds, key, op, now);
      void reply.headers(a.headers);
      if (a.refused) return done(a.refused);
      // (admit checked the quotas and the budget for these units)
      if (cost > 0) reserve(req, key, cost);
      done();
    });
    if (perItem && cost > 0) {
      // the call already holds one item's units: the rest of the items asked for, before the handler runs
      const holdItems: preHandlerHookHandler = (req, _reply, done) => {
        const key = req.apiKey as ApiKeyRecord;
        let body: unknown;
        try {
          body = requestBody(req);
        } catch {
          body = undefined; // not JSON: the handler answers 400
        }
        const more = cost * Math.max(0, perItem.items(body) - 1);
        if (more === 0) return done();
        done(hold(req, key, more, req.at));
      };
      addRouteHook(route, 'preHandler', holdItems);
    }
    if (cost > 0) {
      addRouteHook(route, 'onSend', release);
    }
  });
});
