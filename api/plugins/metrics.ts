import type { onSendHookHandler } from 'fastify';
import type { Metrics } from '../../infra/metrics.ts';
import { unitsOf } from './metering.ts';
import { addRouteHook, shared } from './plugin.ts';

/** one operation's calls by status and its billed units since the last scrape */
export interface CallCount {
  byStatus: Map<number, number>;
  units: { n: number };
  /** of those calls, the ones the served lane answered (api/lane.ts) */
  lane: { n: number };
}

/**
 * Request and billed-unit counters per operation for `/metrics` (the operators' scrape on the
 * operator port, api/ops.ts; it carries counts and lag, no customer data). Each operation counts
 * into its own small table, which is folded into the registry when scraped: no label formatting
 * per request. Shared by the metrics plugin and the served lane (api/lane.ts).
 */
export interface CallCounts {
  of(operation: string): CallCount;
}

/** counts an answer of `status`; a 200 also counts its billed `units` */
export function countCall(c: CallCount, status: number, units: number): void {
  c.byStatus.set(status, (c.byStatus.get(status) ?? 0) + 1);
  if (status === 200) c.units.n += units;
}

export function createCallCounts(metrics: Metrics): CallCounts {
  const pending = new Map<string, CallCount>();
  metrics.onScrape(() => {
    for (const [operation, p] of pending) {
      for (const [status, n] of p.byStatus) metrics.inc('intel_http_requests_total', { operation, status: String(status) }, n);
      p.byStatus.clear();
      if (p.units.n > 0) metrics.inc('intel_units_billed_total', { operation }, p.units.n);
      p.units.n = 0;
      if (p.lane.n > 0) metrics.inc('intel_http_lane_answered_total', { operation }, p.lane.n);
      p.lane.n = 0;
    }
  });
  return {
    of(operation) {
      let c = pending.get(operation);
      if (!c) pending.set(operation, (c = { byStatus: new Map(), units: { n: 0 }, lane: { n: 0 } }));
      return c;
    },
  };
}

export interface MetricsOptions {
  [k: string]: unknown;
  metrics: Metrics;
  /** the app's counters (shared with the served lane); default its own */
  counts?: CallCounts;
}

/** Counts every operation route's answers and billed units (CallCounts). */
export const metricsPlugin = shared<MetricsOptions>('metrics', async (app, opts) => {
  const calls = opts.counts ?? createCallCounts(opts.metrics);
  app.addHook('onRoute', (route) => {
    const op = route.config?.operation;
    if (!op) return;
    const counts = calls.of(op.id);
    // counted as the answer is sent (an onResponse hook made fastify listen on every response)
    const hook: onSendHookHandler = (req, reply, payload, done) => {
      countCall(counts, reply.statusCode, unitsOf(req, op));
      done(null, payload);
    };
    addRouteHook(route, 'onSend', hook);
  });
});
