/**
 * Scheduled jobs: two processes' worth of runners over one store
 * (two store handles on one data directory, each with its own view, as two processes have) running
 * the service's real jobs: each period of a cluster job runs once, whoever ticks first or last.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMeter } from '../api/metering.ts';
import type { Meter } from '../api/metering.ts';
import { createMemoryLog } from '../infra/log/memory.ts';
import type { Log } from '../infra/log/types.ts';
import { createMetrics } from '../infra/metrics.ts';
import type { Metrics } from '../infra/metrics.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import type { Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { samplesOf } from './status.ts';
import { LEASE_FINISHED, createJobRunner, createStoreLease } from '../infra/jobs.ts';
import type { Job, JobRunner, LeaseBody } from '../infra/jobs.ts';
import { serviceJobs } from './jobs.ts';
import { createTrackRecords } from './trackrecord.ts';

const silent = pino({ level: 'silent' });
const T0 = Date.UTC(2026, 10, 2, 12, 0, 0);
const minute = (i: number) => new Date(T0 + i * 60_000);

/** one process's worth: its own store handle, log view, meter, track records, metrics and runner */
interface Proc {
  store: Store;
  meter: Meter;
  metrics: Metrics;
  runner: JobRunner;
  stop(): Promise<void>;
}

describe('two processes over one store', () => {
  let dir: string;
  let log: Log;
  const procs: Proc[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-two-'));
    log = createMemoryLog({ dataDir: dir, idlePollMs: 10 });
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.stop();
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function proc(extra: Job[] = []): Promise<Proc> {
    const store = await createEmbeddedStore({ dataDir: dir });
    await store.migrate();
    const meter = await createMeter({ log, store, runSink: false, flushMs: 10 });
    const trackRecords = createTrackRecords({ store });
    const metrics = createMetrics();
    const runner = createJobRunner({
      jobs: [...serviceJobs({ store, trackRecords, meter, logger: silent }), ...extra],
      lease: createStoreLease({ store, settleMs: 30 }),
      metrics,
      logger: silent,
    });
    const p: Proc = {
      store,
      meter,
      metrics,
      runner,
      async stop() {
        await runner.stop();
        await trackRecords.stop();
        await meter.stop();
        await store.close();
      },
    };
    procs.push(p);
    return p;
  }

  const runs = async (p: Proc, job: string) => outcomes(await p.metrics.render(), job);

  it('each period of the scoring and retention jobs runs in exactly one of them, however their ticks interleave', async () => {
    const [a, b] = [await proc(), await proc()];
    for (let i = 0; i < 6; i++) {
      // both tick for the same scheduled minute; the second one sometimes a little later
      const [x, y] = await Promise.all([a.runner.run('track-record-scoring', minute(i)), new Promise((r) => setTimeout(r, i * 5)).then(() => b.runner.run('track-record-scoring', minute(i)))]);
      expect([x, y].sort()).toEqual(['ok', 'skipped']);
    }
    const [x, y] = await Promise.all([a.runner.run('retention', minute(10)), b.runner.run('retention', minute(10))]);
    expect([x, y].sort()).toEqual(['ok', 'skipped']);
    const ra = await runs(a, 'track-record-scoring');
    const rb = await runs(b, 'track-record-scoring');
    expect(ra.ok + rb.ok).toBe(6);
    expect(ra.skipped + rb.skipped).toBe(6);
    expect(ra.failed + rb.failed).toBe(0);
    // the lease rows say who ran each period, and that it finished
    const leases = await a.store.list(Tables.jobLeases, { prefix: 'track-record-scoring:' });
    expect(leases.map((r) => r.key)).toEqual(Array.from({ length: 6 }, (_, i) => `track-record-scoring:${minute(i).toISOString()}`));
    for (const r of leases) {
      expect(r.version).toBe(LEASE_FINISHED);
      expect((JSON.parse(r.body) as LeaseBody).state).toBe('ok');
    }
  });

  it('a process that ticks after the period ran skips it; the next period is contended again', async () => {
    const [a, b] = [await proc(), await proc()];
    expect(await a.runner.run('retention', minute(0))).toBe('ok');
    expect(await b.runner.run('retention', minute(0))).toBe('skipped');
    const next = await Promise.all([b.runner.run('retention', minute(10)), a.runner.run('retention', minute(10))]);
    expect(next.sort()).toEqual(['ok', 'skipped']);
  });

  it('a process job (the budget roll-over) runs in every process: each drops its own closed day', async () => {
    const [a, b] = [await proc(), await proc()];
    const day1 = Date.UTC(2026, 10, 2, 23, 59);
    a.meter.bill({ keyId: 'k1', orgId: 'o', operation: 'tokenIntel', units: 3, requestId: 'r1' }, day1);
    b.meter.bill({ keyId: 'k2', orgId: 'o', operation: 'tokenIntel', units: 4, requestId: 'r2' }, day1);
    expect(a.meter.budgetUsed(day1)).toBeGreaterThanOrEqual(3);
    const midnight = new Date(Date.UTC(2026, 10, 3));
    expect(await Promise.all([a.runner.run('budget-rollover', midnight), b.runner.run('budget-rollover', midnight)])).toEqual(['ok', 'ok']);
    // the closed day is gone from each view
    expect(a.meter.budgetUsed(day1)).toBe(0);
    expect(b.meter.keyDay('k2', day1).units).toBe(0);
  });

  it('a failing job is counted failed and shows it as its last outcome; a later success replaces it', async () => {
    let fail = true;
    const a = await proc([
      everyMinute('flaky', 'cluster', async () => {
        if (fail) throw new Error('the store said no');
      }),
    ]);
    expect(await a.runner.run('flaky', minute(0))).toBe('failed');
    let text = await a.metrics.render();
    expect(samplesOf(text, 'intel_job_last_outcome', 'outcome')).toEqual({ ok: 0, failed: 1 });
    expect(outcomes(text, 'flaky')).toEqual({ ok: 0, failed: 1, skipped: 0 });
    const lease = await a.store.get(Tables.jobLeases, `flaky:${minute(0).toISOString()}`);
    expect(JSON.parse(lease?.body ?? '{}')).toMatchObject({ state: 'failed', error: 'the store said no' });
    fail = false;
    expect(await a.runner.run('flaky', minute(1))).toBe('ok');
    text = await a.metrics.render();
    expect(samplesOf(text, 'intel_job_last_outcome', 'outcome')).toEqual({ ok: 1, failed: 0 });
    expect(outcomes(text, 'flaky')).toEqual({ ok: 1, failed: 1, skipped: 0 });
  });

  it('a period that finds the last run of the job still going in this process is skipped; stop waits for the run', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let finished = false;
    const a = await proc([
      everyMinute('slow', 'process', async () => {
        await held;
        finished = true;
      }),
    ]);
    const first = a.runner.run('slow', minute(0));
    expect(await a.runner.run('slow', minute(1))).toBe('skipped');
    const stopped = a.runner.stop();
    release();
    await stopped;
    expect(finished).toBe(true);
    expect(await first).toBe('ok');
  });
});

/** a job of the test's own, every minute */
const everyMinute = (name: string, scope: Job['scope'], run: Job['run']): Job => ({ name, cron: '* * * * *', scope, run });

/** intel_job_runs_total of one job, by outcome */
function outcomes(text: string, job: string): Record<'ok' | 'failed' | 'skipped', number> {
  const out = { ok: 0, failed: 0, skipped: 0 };
  for (const l of text.split('\n')) {
    const m = /^intel_job_runs_total\{job="([^"]+)",outcome="([^"]+)"\} (\S+)$/.exec(l);
    if (m && m[1] === job) out[m[2] as keyof typeof out] = Number(m[3]);
  }
  return out;
}
