import type { FastifyRequest, onSendHookHandler } from 'fastify';
import type { ApiKeyRecord } from '../../infra/keys.ts';
import type { MeteredRoute } from '../operations.ts';
import type { Meter } from '../metering.ts';
import { addRouteHook, shared } from './plugin.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** a batch's units, once answered: its cost × the items answered with a result (api/pipeline.ts) */
    billedUnits: number | null;
  }
}

/** the units a successful call of `op` is billed: its cost, or a batch's cost × the items answered */
export function unitsOf(req: FastifyRequest, op: MeteredRoute): number {
  return req.billedUnits ?? op.cost;
}

/**
 * Bills a successful call's `units` of `operation` to the key (nothing when 0), the metering
 * plugin's and the served lane's (api/lane.ts) bill alike; the value of its X-Usage-Units.
 */
export function billCall(meter: Meter, key: ApiKeyRecord, operation: string, units: number, requestId: string, now: number): string {
  if (units > 0) meter.bill({ keyId: key.id, orgId: key.orgId, operation, units, requestId, sandbox: key.plan === 'sandbox' }, now);
  return String(units);
}

export interface MeteringOptions {
  [k: string]: unknown;
  meter: Meter;
}

/**
 * Bills each successful operation call (its units, one request; a batch's units are its cost
 * times the items answered with a result) as it is sent, and states the
 * units in `X-Usage-Units`. Only successful calls are billed. Billing never waits: the meter
 * queues the usage record (see api/metering.ts).
 */
export const meteringPlugin = shared<MeteringOptions>('metering', async (app, opts) => {
  const { meter } = opts;
  app.decorateRequest('billedUnits', null);
  app.addHook('onRoute', (route) => {
    const op = route.config?.operation;
    if (!op) return;
    const hook: onSendHookHandler = (req, reply, payload, done) => {
      const key = req.apiKey;
      if (reply.statusCode === 200 && key) void reply.header('x-usage-units', billCall(meter, key, op.id, unitsOf(req, op), req.id, req.at));
      done(null, payload);
    };
    addRouteHook(route, 'onSend', hook);
  });
});
