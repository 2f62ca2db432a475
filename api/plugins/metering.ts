import type { onSendHookHandler } from 'fastify';
import type { Meter } from '../metering.ts';
import { shared } from './plugin.ts';

export interface MeteringOptions {
  [k: string]: unknown;
  meter: Meter;
}

/**
 * Bills each successful operation call (its units, one request) as it is sent, and states the
 * units in `X-Usage-Units`. Only successful calls are billed. Billing never waits: the meter
 * queues the usage record (see api/metering.ts).
 */
export const meteringPlugin = shared<MeteringOptions>('metering', async (app, opts) => {
  const { meter } = opts;
  app.addHook('onRoute', (route) => {
    const op = route.config?.operation;
    if (!op) return;
    const units = String(op.cost);
    const hook: onSendHookHandler = (req, reply, payload, done) => {
      const key = req.apiKey;
      if (reply.statusCode === 200 && key) {
        void reply.header('x-usage-units', units);
        if (op.cost > 0) meter.bill({ keyId: key.id, orgId: key.orgId, operation: op.id, units: op.cost, requestId: req.id }, req.at);
      }
      done(null, payload);
    };
    const existing = route.onSend;
    route.onSend = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
  });
});
