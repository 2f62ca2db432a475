import type { Logger } from 'pino';
import type { Meter } from '../api/metering.ts';
import type { TrackRecords } from '../api/routes/context.ts';
import { createJobRunner, createStoreLease, expireRows } from '../infra/jobs.ts';
import type { Job, JobRunner } from '../infra/jobs.ts';
import type { Metrics } from '../infra/metrics.ts';
import type { Store } from '../infra/store/types.ts';

/**
 * The service's jobs: track-record scoring every minute, retention (every expiring table: the
 * wallet-authorization replay guard, the webhook delivery log, leader trades, console sessions and
 * sign-in challenges, these leases) every ten minutes, and the budget's UTC day roll-over.
 */
export function serviceJobs(deps: { store: Store; trackRecords: TrackRecords; meter: Meter; logger: Logger; now?: () => number }): Job[] {
  const now = deps.now ?? Date.now;
  return [
    // a missed period is harmless: the next one scores everything that became due
    { name: 'track-record-scoring', cron: '* * * * *', scope: 'cluster', run: () => deps.trackRecords.runScoring() },
    { name: 'retention', cron: '*/10 * * * *', scope: 'cluster', run: () => expireRows(deps.store, now()) },
    {
      name: 'budget-rollover',
      cron: '0 0 * * *',
      scope: 'process',
      run: async () => {
        const r = deps.meter.rollOver(now());
        for (const c of r.closed) deps.logger.info({ day: c.day, units: c.units, keys: c.keys }, 'budget day closed');
        deps.logger.info({ day: r.day, idle_keys: r.idleKeys }, 'budget day opened');
      },
    },
  ];
}

/** The jobs of an API process, scheduled; `stop` before the services they use. */
export function startJobs(deps: { store: Store; metrics: Metrics; logger: Logger; trackRecords: TrackRecords; meter: Meter }): JobRunner {
  const runner = createJobRunner({
    jobs: serviceJobs(deps),
    lease: createStoreLease({ store: deps.store }),
    metrics: deps.metrics,
    logger: deps.logger,
  });
  runner.start();
  return runner;
}
