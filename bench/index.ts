/**
 * `npm run bench`: the service measured as a user would, printed as numbers and ratios against
 * the acceptance targets (never asserted: a miss is printed, the exit code stays 0).
 * Load goes only to 127.0.0.1 and is bounded in count and time; every process started here is
 * stopped by its PID at the end, also on error and on Ctrl-C.
 *
 *   fold       engine folds on one core (bench/fold.ts)
 *   api        intel start in its own process vs a bare fastify answering the same bytes, load
 *              from autocannon in a third process, A B A B A B (bench/api.ts)
 *   restart    restart time and data-dir size after the 10-day history and after 20 days
 *              (bench/restart.ts)
 *   freshness  event published → visible, embedded and on Kafka + ClickHouse (bench/freshness.ts)
 *
 *   npm run bench [-- --only api,restart] [--duration 10] [--connections 16] [--no-distributed] [--help]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchApi } from './api.ts';
import { benchFold } from './fold.ts';
import { freshnessDistributed, freshnessEmbedded } from './freshness.ts';
import { createInstance } from './instance.ts';
import type { Instance } from './instance.ts';
import { Children, INTEL, MB, ROOT, Summary, log, parseOptions } from './lib.ts';
import { buildIntel } from '../scripts/build.ts';
import { restartInTurn } from './restart.ts';
import type { RestartResult } from './restart.ts';

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const tmp = mkdtempSync(join(tmpdir(), 'intel-bench-'));
  const children = new Children(tmp);
  const summary = new Summary();
  let interrupted = false;
  const onSignal = (sig: string) => {
    if (interrupted) process.exit(130);
    interrupted = true;
    log(`\n${sig}: stopping every process this bench started`);
    void children.stopAll(5000).finally(() => {
      if (!opts.keepTmp) rmSync(tmp, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  const commit = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  })();
  const started = Date.now();
  log(`intel bench: commit ${commit}, node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  log(`sections ${[...opts.only].join(', ')}; tmp ${tmp}`);
  // the service as `npm start` runs it, built from the sources measured here
  const built = await buildIntel();
  log(`built ${INTEL} (scripts/build.ts): ${built.inputs} modules in ${built.ms} ms`);

  const section = async (name: string, fn: () => Promise<void> | void) => {
    const t0 = Date.now();
    // other processes on the machine skew every number here: the load is printed with each section
    log(`\n== ${name} == (load average ${loadavg()[0]?.toFixed(2)})`);
    try {
      await fn();
    } catch (err) {
      log(`  ${name} FAILED: ${err instanceof Error ? err.message : String(err)}`);
      summary.add(`${name}`, 'failed (see above)', '-', undefined);
    }
    log(`  (${name}: ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  };

  let ten: Instance | undefined;
  const tenDay = async () => (ten ??= await createInstance(children, opts, tmp, `intel-${opts.days}d`, opts.days));
  try {
    if (opts.only.has('fold')) await section('engine folds, one core', () => benchFold(opts.days, summary));
    if (opts.only.has('api')) {
      await section(`API throughput (intel start, ${opts.days}-day history)`, async () => {
        await benchApi(children, opts, tmp, await tenDay(), summary);
      });
    }
    if (opts.only.has('restart')) {
      await section('restart time and data dir', async () => {
        // both histories caught up and running (idle but for the live simulator), then restarted in turn
        const first = await tenDay();
        const long = await createInstance(children, opts, tmp, `intel-${opts.longDays}d`, opts.longDays);
        let results: RestartResult[];
        try {
          results = await restartInTurn(children, [first, long]);
        } finally {
          await first.proc?.stop('SIGTERM', 60_000);
          await long.proc?.stop('SIGTERM', 60_000);
          if (!opts.keepTmp) rmSync(long.dataDir, { recursive: true, force: true });
        }
        const [a, b] = results as [RestartResult, RestartResult];
        const perDay = (b.bytesCaughtUp - a.bytesCaughtUp) / (b.days - a.days);
        log(`  backfill to caught up: ${first.backfillS.toFixed(0)} s for ${a.days} days, ${long.backfillS.toFixed(0)} s for ${b.days} days`);
        log(`  data dir when caught up: ${MB(a.bytesCaughtUp)} after ${a.days} days, ${MB(b.bytesCaughtUp)} after ${b.days} days: ${MB(perDay)} per simulated day`);
        const rounds = (r: RestartResult) => `${r.restartS.toFixed(1)} s, median of ${r.roundsS.map((x) => x.toFixed(1)).join(' / ')} (listening ${r.listenS.toFixed(1)} s)`;
        summary.add(`restart to a fresh token-intel, ${a.days}-day history`, rounds(a), '< 5 s', a.restartS < 5);
        summary.add(`restart to a fresh token-intel, ${b.days}-day history`, rounds(b), '< 5 s', b.restartS < 5);
        const drift = b.restartS / a.restartS - 1;
        summary.add(`restart ${b.days} days vs ${a.days} days`, `${drift >= 0 ? '+' : ''}${(drift * 100).toFixed(0)} %`, 'within 20 %', Math.abs(drift) <= 0.2);
        summary.add(`data dir after the ${a.days}-day history`, `${MB(a.bytesCaughtUp)} (${MB(a.bytesStopped)} at the stop)`, '< 150 MB', a.bytesCaughtUp < 150e6);
        summary.add(`memory after catch-up (RSS), ${a.days} and ${b.days} days`, `${MB(first.rssCaughtUp)}, ${MB(long.rssCaughtUp)}`, '(info)', true);
        summary.add('data dir growth per simulated day', `${MB(perDay)} (${a.days} → ${b.days} days)`, '< 50 MB', perDay < 50e6);
      });
    }
    if (opts.only.has('freshness')) {
      if (!opts.noEmbedded) {
        await section('freshness, embedded', async () => {
          await freshnessEmbedded(children, opts, await tenDay(), summary);
        });
      }
      if (!opts.noDistributed) await section('freshness, Kafka + ClickHouse', () => freshnessDistributed(children, opts, tmp, summary));
    }
  } finally {
    await children.stopAll();
    if (!opts.keepTmp) rmSync(tmp, { recursive: true, force: true });
  }
  summary.print();
  log(`\nbench finished in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
