import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tables } from '../../infra/store/types.ts';
import type { JobOutcome } from '../../infra/jobs.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/**
 * Scheduled jobs on the operator port: the API runs track-record scoring, retention and
 * the budget's day roll-over; `/metrics` says when each last ran, how long it took and how it
 * ended, and counts the runs by outcome. A damaged track record makes scoring fail: the failure
 * shows, and the next run after the repair is ok again.
 */

/** the samples of a metric family, by the label sets they carry */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const out: { labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    const m = new RegExp(`^${name}(?:\\{([^}]*)\\})? (\\S+)$`).exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)) labels[k as string] = v as string;
    out.push({ labels, value: Number(m[2]) });
  }
  return out;
}

describe('scheduled jobs on /metrics', () => {
  let stack: Stack;
  const metrics = async () => (await fetch(`${stack.opsUrl}/metrics`)).text();
  const value = (text: string, name: string, labels: Record<string, string>) =>
    samples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
  let slot = Date.UTC(2001, 0, 1);
  /**
   * a period of a job, run now; the schedule's own tick of the same job in this process can be
   * going (it then skips ours: one run of a job at a time), and the next period is asked again
   */
  async function run(job: string): Promise<JobOutcome> {
    for (;;) {
      const outcome = await stack.jobs.run(job, new Date((slot += 60_000)));
      if (outcome !== 'skipped') return outcome;
    }
  }

  beforeAll(async () => {
    stack = await startStack({ seed: 11, days: 1 });
  }, 120_000);
  afterAll(async () => stack?.stop());

  it('declares the three jobs with their schedules', () => {
    expect(stack.jobs.jobs.map((j) => [j.name, j.cron, j.scope])).toEqual([
      ['track-record-scoring', '* * * * *', 'cluster'],
      ['retention', '*/10 * * * *', 'cluster'],
      ['budget-rollover', '0 0 * * *', 'process'],
    ]);
  });

  it('each job run shows its last run, duration and outcome ok, and its runs are counted', async () => {
    const before = Date.now() / 1000;
    for (const job of ['track-record-scoring', 'retention', 'budget-rollover']) expect(await run(job)).toBe('ok');
    const text = await metrics();
    for (const job of ['track-record-scoring', 'retention', 'budget-rollover']) {
      expect(value(text, 'intel_job_last_run_timestamp_seconds', { job }), job).toBeGreaterThanOrEqual(Math.floor(before));
      expect(value(text, 'intel_job_last_duration_seconds', { job }), job).toBeGreaterThanOrEqual(0);
      expect(value(text, 'intel_job_last_outcome', { job, outcome: 'ok' }), job).toBe(1);
      expect(value(text, 'intel_job_last_outcome', { job, outcome: 'failed' }), job).toBe(0);
      expect(value(text, 'intel_job_runs_total', { job, outcome: 'ok' }), job).toBeGreaterThanOrEqual(1);
    }
    expect(text).toMatch(/^# TYPE intel_job_runs_total counter$/m);
  }, 60_000);

  it('damaged-track-record: scoring fails and /metrics says failed; after the repair the next run is ok', async () => {
    const key = `tokenSignal:sim:0x${'ab'.repeat(20)}:1`;
    await stack.services.store.upsert(Tables.trackRecords, [{ key, version: 1, body: '{"operation":"tokenSignal",' }]);
    const failedBefore = value(await metrics(), 'intel_job_runs_total', { job: 'track-record-scoring', outcome: 'failed' }) ?? 0;
    expect(await run('track-record-scoring')).toBe('failed');
    let text = await metrics();
    expect(value(text, 'intel_job_last_outcome', { job: 'track-record-scoring', outcome: 'failed' })).toBe(1);
    expect(value(text, 'intel_job_last_outcome', { job: 'track-record-scoring', outcome: 'ok' })).toBe(0);
    expect(value(text, 'intel_job_runs_total', { job: 'track-record-scoring', outcome: 'failed' })).toBeGreaterThan(failedBefore);
    // the other jobs are not affected
    expect(value(text, 'intel_job_last_outcome', { job: 'retention', outcome: 'ok' })).toBe(1);

    await stack.services.store.upsert(Tables.trackRecords, [{ key, version: 2, deleted: true, body: '{}' }]);
    expect(await run('track-record-scoring')).toBe('ok');
    text = await metrics();
    expect(value(text, 'intel_job_last_outcome', { job: 'track-record-scoring', outcome: 'ok' })).toBe(1);
  }, 60_000);
});
