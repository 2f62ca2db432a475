/**
 * Scheduled jobs (issue 18): the lease rule, and two processes' worth of runners over one store
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
import type { Row, Store } from '../infra/store/types.ts';
import { ExpiringTables, Tables } from '../infra/store/types.ts';
import { samplesOf } from './status.ts';
import { LEASE_FINISHED, LEASE_STARTED, claimVersion, createJobRunner, createStoreLease, expireRows, leaseStep, serviceJobs } from './jobs.ts';
import type { Job, JobRunner, LeaseBody } from './jobs.ts';
import { createTrackRecords } from './trackrecord.ts';

const silent = pino({ level: 'silent' });
const T0 = Date.UTC(2026, 10, 2, 12, 0, 0);
const minute = (i: number) => new Date(T0 + i * 60_000);
const claim = (owner: string, version: number): Row => ({ key: 'k', version, body: JSON.stringify({ owner, state: 'claimed', at: 0 } satisfies LeaseBody) });

describe('the lease rule', () => {
  it('a claim version is the same for the same owner and key, differs between owners, and stays below a started run', () => {
    const v = claimVersion('host:1:a', 'retention:2026-11-02T12:00:00.000Z');
    expect(claimVersion('host:1:a', 'retention:2026-11-02T12:00:00.000Z')).toBe(v);
    const others = new Set(Array.from({ length: 200 }, (_, i) => claimVersion(`host:${i}:b`, 'retention:2026-11-02T12:00:00.000Z')));
    expect(others.size).toBe(200);
    for (const x of [v, ...others]) {
      expect(Number.isSafeInteger(x)).toBe(true);
      expect(x).toBeGreaterThanOrEqual(1);
      expect(x).toBeLessThan(LEASE_STARTED);
    }
    expect(LEASE_FINISHED).toBeGreaterThan(LEASE_STARTED);
    expect(Number.isSafeInteger(LEASE_FINISHED)).toBe(true);
  });

  it('claims while the row is free or lower, runs on its own claim, skips a higher claim or a started run', () => {
    const me = { owner: 'a', version: 500 };
    expect(leaseStep(undefined, me)).toBe('claim');
    expect(leaseStep(claim('b', 499), me)).toBe('claim');
    expect(leaseStep(claim('a', 500), me)).toBe('run');
    // the same version by another owner: the store kept theirs
    expect(leaseStep(claim('b', 500), me)).toBe('claim');
    expect(leaseStep(claim('b', 501), me)).toBe('skip');
    expect(leaseStep({ ...claim('a', 0), version: LEASE_STARTED }, me)).toBe('skip');
    expect(leaseStep({ ...claim('b', 0), version: LEASE_FINISHED }, me)).toBe('skip');
  });

  it('contenders writing through their own store handles in any order: every one reads the same winner, the highest claim', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobs-lease-'));
    const stores = await Promise.all(Array.from({ length: 4 }, () => createEmbeddedStore({ dataDir: dir })));
    try {
      const key = 'retention:2026-11-02T12:10:00.000Z';
      const owners = ['p1', 'p2', 'p3', 'p4'];
      for (const i of [2, 0, 3, 1]) {
        const owner = owners[i] as string;
        await (stores[i] as Store).upsert(Tables.jobLeases, [{ ...claim(owner, claimVersion(owner, key)), key, expiresAt: Date.now() + 60_000 }]);
      }
      const steps = await Promise.all(owners.map(async (owner, i) => leaseStep(await (stores[i] as Store).get(Tables.jobLeases, key), { owner, version: claimVersion(owner, key) })));
      expect(steps.filter((s) => s === 'run')).toHaveLength(1);
      const highest = owners.reduce((a, b) => (claimVersion(a, key) > claimVersion(b, key) ? a : b));
      expect(steps[owners.indexOf(highest)]).toBe('run');
    } finally {
      for (const s of stores) await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

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

describe('retention', () => {
  it('drops the rows past their expiry in every expiring table, and keeps the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobs-retention-'));
    const store = await createEmbeddedStore({ dataDir: dir });
    try {
      for (const t of ExpiringTables) {
        await store.upsert(t, [
          { key: 'old', version: 1, body: '{}', expiresAt: T0 - 1 },
          { key: 'young', version: 1, body: '{}', expiresAt: T0 + 60_000 },
        ]);
      }
      await expireRows(store, T0);
      for (const t of ExpiringTables) expect((await store.list(t)).map((r) => r.key), t).toEqual(['young']);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
