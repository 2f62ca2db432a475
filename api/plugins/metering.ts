import type { FastifyRequest, onSendHookHandler } from 'fastify';
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
      if (reply.statusCode === 200 && key) {
        const units = unitsOf(req, op);
        void reply.header('x-usage-units', String(units));
        if (units > 0) meter.bill({ keyId: key.id, orgId: key.orgId, operation: op.id, units, requestId: req.id, sandbox: key.plan === 'sandbox' }, req.at);
      }
      done(null, payload);
    };
    addRouteHook(route, 'onSend', hook);
  });
});
