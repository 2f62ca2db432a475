/**
 * Operator endpoints (docs/architecture.md "Decisions"): `/metrics`, `/healthz` and `/readyz` on their own
 * port, never on the partners' port; `/readyz` says not ready while a dependency is down.
 */
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../infra/metrics.ts';
import type { Store } from '../infra/store/types.ts';
import { buildOpsApp, readinessChecks } from './ops.ts';
import { appPerTest } from '../test/api-app.ts';
import type { TestApp } from '../test/api-app.ts';

describe('operator endpoints', () => {
  const boot = appPerTest();
  let t: TestApp;

  it("are not on the partners' port: /metrics, /healthz and /readyz answer 404 there, with or without a key", async () => {
    t = await boot({ metrics: createMetrics() });
    const key = await t.newKey();
    for (const url of ['/metrics', '/healthz', '/readyz']) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
      expect((await t.app.inject({ url, headers: { authorization: `Bearer ${key}` } })).statusCode, url).toBe(404);
    }
  });

  it("the operator app serves the partners' request counts at /metrics, /healthz, and /readyz from its checks", async () => {
    const metrics = createMetrics();
    t = await boot({ metrics });
    const key = await t.newKey();
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: '{}' });
    let storeUp = true;
    const store = Object.create(t.store) as Store;
    store.get = (table, k) => (storeUp ? t.store.get(table, k) : new Promise(() => undefined));
    const ops = await buildOpsApp({ metrics, checks: readinessChecks({ store, replica: { lag: async () => 0 } }), checkTimeoutMs: 300 });
    try {
      const scrape = await ops.inject({ url: '/metrics' });
      expect(scrape.statusCode).toBe(200);
      expect(scrape.body).toMatch(/intel_http_requests_total\{operation="probe",status="200"\} 3/);
      expect(scrape.body).toMatch(/intel_units_billed_total\{operation="probe"\} 3/);
      expect((await ops.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
      const ready = await ops.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ ready: true, checks: { store: 'ok', log: 'ok' } });
      // the store stops answering: not ready, naming it, within the check's timeout
      storeUp = false;
      const down = await ops.inject({ url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ ready: false, checks: { store: expect.stringMatching(/timed out/), log: 'ok' } });
      // alive all the same
      expect((await ops.inject({ url: '/healthz' })).statusCode).toBe(200);
      storeUp = true;
      expect((await ops.inject({ url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await ops.close();
    }
  });
});
