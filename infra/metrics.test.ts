/**
 * The metrics registry (infra/metrics.ts): what a scrape renders when a reading fails, when
 * another thread's registry keeps the same families, and when a caller names a label it did not
 * declare.
 */
import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.ts';

describe('metrics registry', () => {
  it('renders counters with their help and label sets, summing the increments of one label set', async () => {
    const m = createMetrics({ intel_http_requests_total: 'API requests' });
    m.inc('intel_http_requests_total', { operation: 'tokenIntel', status: '200' });
    m.inc('intel_http_requests_total', { operation: 'tokenIntel', status: '200' }, 4);
    m.inc('intel_http_requests_total', { operation: 'walletIntel', status: '429' }, 0);
    expect(await m.render()).toBe(
      [
        '# HELP intel_http_requests_total API requests',
        '# TYPE intel_http_requests_total counter',
        'intel_http_requests_total{operation="tokenIntel",status="200"} 5',
        'intel_http_requests_total{operation="walletIntel",status="429"} 0',
        '',
      ].join('\n'),
    );
  });

  it('a label value with quotes, backslashes or a newline cannot forge another sample line', async () => {
    const m = createMetrics();
    m.inc('intel_job_runs_total', { job: 'a"} 99\nintel_forged 1\\' });
    const lines = (await m.render()).split('\n');
    expect(lines.some((l) => l.startsWith('intel_forged'))).toBe(false);
    expect(lines).toContain('intel_job_runs_total{job="a\\"} 99\\nintel_forged 1\\\\"} 1');
  });

  it('a gauge whose reading fails is left out of that scrape, and the rest still renders', async () => {
    const m = createMetrics();
    let up = false;
    m.gauge('intel_budget_used_units', 'units billed today', [], () => {
      if (!up) throw new Error('store down');
      return [{ labels: {}, value: 12 }];
    });
    m.gauge('intel_ingest_lag_blocks', 'blocks behind', ['chain'], async () => [{ labels: { chain: 'base' }, value: 3 }]);
    let text = await m.render();
    expect(text).not.toContain('intel_budget_used_units');
    expect(text).toContain('intel_ingest_lag_blocks{chain="base"} 3');
    up = true;
    text = await m.render();
    expect(text).toContain('intel_budget_used_units 12');
  });

  it('a gauge sample with a label it did not declare fails that gauge, never renders under another series', async () => {
    const m = createMetrics();
    m.gauge('intel_engine_lag_records', 'records behind', ['worker'], () => [{ labels: { worker: 'token', chain: 'base' }, value: 1 }]);
    expect(await m.render()).not.toContain('intel_engine_lag_records{');
  });

  it('a counter increment naming a label the family was not created with throws', () => {
    const m = createMetrics();
    m.inc('intel_units_billed_total', { operation: 'tokenIntel' });
    expect(() => m.inc('intel_units_billed_total', { operation: 'tokenIntel', key: 'k' })).toThrow(/label/);
  });

  it('a gauge reads fresh at each scrape: a sample its reader no longer returns is gone', async () => {
    const m = createMetrics();
    let chains = ['base', 'eth'];
    m.gauge('intel_ingest_lag_blocks', 'blocks behind', ['chain'], () => chains.map((chain) => ({ labels: { chain }, value: 1 })));
    expect(await m.render()).toContain('intel_ingest_lag_blocks{chain="eth"} 1');
    chains = ['base'];
    const text = await m.render();
    expect(text).toContain('intel_ingest_lag_blocks{chain="base"} 1');
    expect(text).not.toContain('chain="eth"');
  });

  it("another registry's families: counters sum per label set, this registry's gauge sample wins, theirs alone are kept", async () => {
    const there = createMetrics({ intel_job_runs_total: 'runs' });
    there.inc('intel_job_runs_total', { job: 'score', outcome: 'ok' }, 2);
    there.inc('intel_job_runs_total', { job: 'retention', outcome: 'ok' });
    there.gauge('intel_snapshot_age_seconds', 'age', ['chain'], () => [{ labels: { chain: 'base' }, value: 50 }, { labels: { chain: 'eth' }, value: 9 }]);
    const here = createMetrics({ intel_job_runs_total: 'runs' });
    here.include(() => there.collect());
    here.inc('intel_job_runs_total', { job: 'score', outcome: 'ok' }, 3);
    here.gauge('intel_snapshot_age_seconds', 'age', ['chain'], () => [{ labels: { chain: 'base' }, value: 1 }]);
    const text = await here.render();
    expect(text.match(/# TYPE intel_job_runs_total counter/g)).toHaveLength(1);
    expect(text).toContain('intel_job_runs_total{job="score",outcome="ok"} 5');
    expect(text).toContain('intel_job_runs_total{job="retention",outcome="ok"} 1');
    expect(text).toContain('intel_snapshot_age_seconds{chain="base"} 1');
    expect(text).toContain('intel_snapshot_age_seconds{chain="eth"} 9');
  });

  it('an included registry that cannot answer (its thread ended) leaves only this registry in the scrape', async () => {
    const here = createMetrics();
    here.include(() => Promise.reject(new Error('port closed')));
    here.inc('intel_webhook_push_total', { result: 'queued' });
    expect(await here.render()).toContain('intel_webhook_push_total{result="queued"} 1');
  });

  it('counts folded in at scrape time are counted once, and a second scrape renders the same', async () => {
    const m = createMetrics();
    let pending = 4;
    m.onScrape(() => {
      if (pending > 0) m.inc('intel_units_billed_total', { operation: 'probe' }, pending);
      pending = 0;
    });
    const first = await m.render();
    expect(first).toContain('intel_units_billed_total{operation="probe"} 4');
    expect(await m.render()).toBe(first);
  });
});
