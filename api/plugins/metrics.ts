import type { onSendHookHandler } from 'fastify';
import type { Metrics } from '../../infra/metrics.ts';
import { unitsOf } from './metering.ts';
import { addRouteHook, shared } from './plugin.ts';

export interface MetricsOptions {
  [k: string]: unknown;
  metrics: Metrics;
}

/**
 * Request and billed-unit counters per operation for `/metrics` (the operators' scrape on the
 * operator port, api/ops.ts; it carries counts and lag, no customer data). Each operation route
 * counts into its own small table, which is folded into the registry when scraped: no label
 * formatting per request.
 */
export const metricsPlugin = shared<MetricsOptions>('metrics', async (app, opts) => {
  const { metrics } = opts;
  const pending: { operation: string; byStatus: Map<number, number>; units: { n: number } }[] = [];

  function fold(): void {
    for (const p of pending) {
      for (const [status, n] of p.byStatus) metrics.inc('intel_http_requests_total', { operation: p.operation, status: String(status) }, n);
      p.byStatus.clear();
      if (p.units.n > 0) metrics.inc('intel_units_billed_total', { operation: p.operation }, p.units.n);
      p.units.n = 0;
    }
  }

  app.addHook('onRoute', (route) => {
    const op = route.config?.operation;
    if (!op) return;
    const counts = { operation: op.id, byStatus: new Map<number, number>(), units: { n: 0 } };
    pending.push(counts);
    // counted as the answer is sent (an onResponse hook made fastify listen on every response)
    const hook: onSendHookHandler = (req, reply, payload, done) => {
      const status = reply.statusCode;
      counts.byStatus.set(status, (counts.byStatus.get(status) ?? 0) + 1);
      if (status === 200) counts.units.n += unitsOf(req, op);
      done(null, payload);
    };
    addRouteHook(route, 'onSend', hook);
  });
  metrics.onScrape(fold);
});
