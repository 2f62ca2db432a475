import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { schedule, validate } from 'node-cron';
import type { RunCoordinator, ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import { z } from 'zod';
import { jsonCodec } from './codec.ts';
import type { Metrics } from './metrics.ts';
import type { Row, Store } from './store/types.ts';
import { ExpiringTables, Tables } from './store/types.ts';

/**
 * Scheduled jobs: declared with their cron expressions (UTC), scheduled by node-cron,
 * each period of a `cluster` job run by ONE of the processes that schedule it (every API process
 * does), a `process` job in every process (what it changes is that process's memory). Each
 * process exports its jobs' last run, duration and outcome on `/metrics`.
 *
 * Once across processes: a lease in the store, per job and scheduled time (node-cron's
 * coordination key, `name:ISO time`), decided by the store's own conflict rule, the highest
 * version wins. The store has no compare-and-set, so every contender writes its claim under a
 * version of its own (a hash of its owner id and the key, below 2^48), waits `settleMs` for the
 * other claims to land, and reads the row back: the contender whose claim is the row runs, after
 * writing the row at LEASE_STARTED, a version above every claim, so a contender that comes late
 * reads a started run and skips; the outcome is written at LEASE_FINISHED. Two runs of a period
 * need a contender to write its claim more than `settleMs` after another read its own back (a
 * process stalled that long between its first read and its claim), so the job bodies are
 * idempotent: a rare double run does no harm. A winner that dies before it finishes leaves its
 * period unrun; the next period does the work (every job here catches up on what is due).
 *
 * Why the store and not the log's consumer-group assignment of a one-partition topic: the store is
 * what every role shares in both modes (the in-process log is not shared between processes), a
 * lease needs no standing consumer, and a Kafka rebalance also leaves moments with two or no
 * leaders; either way the bodies must be idempotent.
 */

/** a run started: above every claim */
export const LEASE_STARTED = 2 ** 49;
/** the run finished (its outcome in the body) */
export const LEASE_FINISHED = LEASE_STARTED + 1;
/** lease rows are kept this long after their run (an operator can read the recent runs), then expire */
const LEASE_KEEP_MS = 2 * 86_400_000;

export interface LeaseBody {
  /** the contender: host, pid and a random id of its runner */
  owner: string;
  state: 'claimed' | 'running' | JobRunOutcome;
  /** ms since epoch: the claim, the start, the end */
  at: number;
  durationMs?: number;
  error?: string;
}

/** the version a contender claims a key with: 1..2^48, the same for the same owner and key */
export function claimVersion(owner: string, key: string): number {
  return createHash('sha256').update(`${owner}\n${key}`).digest().readUIntBE(0, 6) + 1;
}

/**
 * The lease rule, on the row a contender reads (its claim `me`): `skip` when a run has started or
 * a higher claim holds the row, `run` when the row is its own claim, `claim` otherwise (no row, a
 * lower claim, or another owner's claim of the same version: the store kept one of the two and
 * the read after the settle tells which).
 */
export function leaseStep(seen: Row | undefined, me: { owner: string; version: number }): 'claim' | 'run' | 'skip' {
  if (!seen) return 'claim';
  if (seen.version >= LEASE_STARTED || seen.version > me.version) return 'skip';
  if (seen.version === me.version && ownerOf(seen) === me.owner) return 'run';
  return 'claim';
}

/** what a contender reads of a lease row: whose claim it is (a row that does not decode is no one's) */
const LeaseOwner = jsonCodec(z.looseObject({ owner: z.string() }));
const ownerOf = (row: Row): string | undefined => LeaseOwner.decode(row.body)?.owner;

/** node-cron's coordinator, with the outcome written when a run completes */
export interface JobLease extends RunCoordinator {
  readonly owner: string;
  shouldRun(key: string): Promise<boolean>;
  onComplete(key: string, result?: { outcome: JobRunOutcome; durationMs: number; error?: string }): Promise<void>;
}

export function createStoreLease(deps: { store: Store; owner?: string; settleMs?: number; now?: () => number }): JobLease {
  const { store } = deps;
  const owner = deps.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const settleMs = deps.settleMs ?? 2000;
  const now = deps.now ?? Date.now;
  const write = (key: string, version: number, body: LeaseBody) =>
    store.upsert(Tables.jobLeases, [{ key, version, body: JSON.stringify(body), expiresAt: now() + LEASE_KEEP_MS }]);
  return {
    owner,
    async shouldRun(key) {
      const me = { owner, version: claimVersion(owner, key) };
      const first = leaseStep(await store.get(Tables.jobLeases, key), me);
      if (first === 'skip') return false;
      if (first === 'claim') await write(key, me.version, { owner, state: 'claimed', at: now() });
      await new Promise((r) => setTimeout(r, settleMs));
      if (leaseStep(await store.get(Tables.jobLeases, key), me) !== 'run') return false;
      await write(key, LEASE_STARTED, { owner, state: 'running', at: now() });
      return true;
    },
    async onComplete(key, result) {
      await write(key, LEASE_FINISHED, { owner, state: result?.outcome ?? 'ok', at: now(), ...(result ? { durationMs: result.durationMs } : {}), ...(result?.error ? { error: result.error } : {}) });
    },
  };
}

export type JobRunOutcome = 'ok' | 'failed';
/** a period's outcome in this process: `skipped` when another process holds its lease, or this process's last run is still going */
export type JobOutcome = JobRunOutcome | 'skipped';

export interface Job {
  name: string;
  /** node-cron expression, in UTC */
  cron: string;
  /** `cluster`: one process per period (the lease); `process`: every process (its own memory) */
  scope: 'cluster' | 'process';
  /** the work of the period scheduled at `slot`; idempotent */
  run(slot: Date): Promise<unknown>;
}

export interface JobRunner {
  readonly jobs: readonly Job[];
  /** schedule every job (node-cron) */
  start(): void;
  /** run a job's period as its schedule would (the lease included); `slot` is the scheduled time */
  run(name: string, slot: Date): Promise<JobOutcome>;
  /** stop scheduling and wait for the runs in progress */
  stop(): Promise<void>;
}

interface LastRun {
  startedAt: number;
  durationMs: number;
  outcome: JobRunOutcome;
}

const OUTCOMES: readonly JobOutcome[] = ['ok', 'failed', 'skipped'];

export function createJobRunner(deps: { jobs: Job[]; lease: JobLease; metrics: Metrics; logger: Logger; now?: () => number }): JobRunner {
  const { jobs, lease, metrics, logger } = deps;
  const now = deps.now ?? Date.now;
  const byName = new Map(jobs.map((j) => [j.name, j]));
  for (const j of jobs) if (!validate(j.cron)) throw new Error(`job ${j.name}: ${j.cron} is not a cron expression`);
  const last = new Map<string, LastRun>();
  const running = new Map<string, Promise<JobOutcome>>();
  const tasks: ScheduledTask[] = [];

  for (const j of jobs) for (const outcome of OUTCOMES) metrics.inc('intel_job_runs_total', { job: j.name, outcome }, 0);
  metrics.gauge('intel_job_last_run_timestamp_seconds', 'when the last run of a scheduled job in this process started (runs only: a period another process ran is counted as skipped)', ['job'], () =>
    [...last].map(([job, r]) => ({ labels: { job }, value: r.startedAt / 1000 })),
  );
  metrics.gauge('intel_job_last_duration_seconds', 'how long the last run of a scheduled job in this process took', ['job'], () =>
    [...last].map(([job, r]) => ({ labels: { job }, value: r.durationMs / 1000 })),
  );
  metrics.gauge('intel_job_last_outcome', 'the outcome of the last run of a scheduled job in this process: 1 for the outcome it had, 0 for the other', ['job', 'outcome'], () =>
    [...last].flatMap(([job, r]) => (['ok', 'failed'] as const).map((outcome) => ({ labels: { job, outcome }, value: r.outcome === outcome ? 1 : 0 }))),
  );

  async function runPeriod(job: Job, slot: Date): Promise<JobOutcome> {
    const key = `${job.name}:${slot.toISOString()}`;
    const startedAt = now();
    let outcome: JobRunOutcome = 'ok';
    let error: string | undefined;
    let leased = false;
    try {
      if (job.scope === 'cluster') {
        if (!(await lease.shouldRun(key))) return 'skipped';
        leased = true;
      }
      await job.run(slot);
    } catch (err) {
      // a lease that cannot be read (the store is down) fails the period too: the job would have
      outcome = 'failed';
      error = err instanceof Error ? err.message : String(err);
      logger.warn({ err, job: job.name, slot: slot.toISOString() }, 'scheduled job failed');
    }
    const durationMs = now() - startedAt;
    last.set(job.name, { startedAt, durationMs, outcome });
    if (outcome === 'ok') logger.debug({ job: job.name, slot: slot.toISOString(), duration_ms: durationMs }, 'scheduled job ran');
    if (leased) await lease.onComplete(key, { outcome, durationMs, ...(error ? { error } : {}) }).catch((err: unknown) => logger.warn({ err, job: job.name }, 'job lease outcome not written'));
    return outcome;
  }

  async function run(name: string, slot: Date): Promise<JobOutcome> {
    const job = byName.get(name);
    if (!job) throw new Error(`no job named ${name}`);
    let outcome: JobOutcome = 'skipped';
    // one run of a job at a time in a process: a period that finds the last one going is skipped
    if (running.has(name)) logger.warn({ job: name, slot: slot.toISOString() }, 'scheduled job skipped: its last run is still going');
    else {
      const p = runPeriod(job, slot);
      running.set(name, p);
      try {
        outcome = await p;
      } finally {
        running.delete(name);
      }
    }
    metrics.inc('intel_job_runs_total', { job: name, outcome });
    return outcome;
  }

  return {
    jobs,
    start() {
      if (tasks.length > 0) return;
      for (const j of jobs) {
        // the scheduled time (not the moment the timer fired) names the period: the same in every process
        tasks.push(schedule(j.cron, (ctx) => run(j.name, ctx.date), { name: `intel-${j.name}`, timezone: 'Etc/UTC', suppressMissedWarning: true, unref: true }));
      }
    },
    run,
    async stop() {
      for (const t of tasks.splice(0)) await t.destroy();
      await Promise.allSettled([...running.values()]);
    },
  };
}

/** drops the rows past their expiry in every expiring table (each table tried, the failures thrown together) */
export async function expireRows(store: Store, at: number): Promise<void> {
  const failed: unknown[] = [];
  for (const table of ExpiringTables) {
    try {
      await store.expire(table, at);
    } catch (err) {
      failed.push(err);
    }
  }
  if (failed.length > 0) throw new AggregateError(failed, `expiring rows failed in ${failed.length} of ${ExpiringTables.size} tables`);
}
