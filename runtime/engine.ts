import type { Services } from './services.ts';
import { createWriterFromConfig } from '../engine/writer/index.ts';
import { createHeapSettler, fullCollection } from '../infra/heap.ts';
import { startEngineWorkers } from '../stream/engine.ts';
import type { EngineWorkers } from '../stream/engine.ts';
import type { FoldHooks } from '../stream/folds/common.ts';

/**
 * folding this many records between two looks (2 s) is a catch-up, which ends with a full
 * collection (infra/heap.ts); live, a chain brings a few hundred records a block
 */
const CATCH_UP_RECORDS = 20_000;

export type EngineHandle = EngineWorkers;

/**
 * The engine role: the fold workers of stream/engine.ts, with the configured checkpoint
 * intervals and model writer, their failures and restores logged, their lag on /metrics and the
 * heap collected once a catch-up is worked off. Every worker flushes its snapshots before its
 * offsets are committed.
 */
export async function startEngine(services: Services): Promise<EngineHandle> {
  const { log, store, logger, config } = services;
  /** records the workers folded since the heap settler last looked (see settleTimer) */
  let foldedRecords = 0;
  const hooks: FoldHooks = {
    onGap: (info) => logger.error(info, 'records between the checkpoint and the log start are gone: the state misses them'),
    onError: (err) => logger.warn({ err }, 'engine worker step failed; retrying'),
    onRestore: (info) => logger.info(info, 'restored checkpoint'),
    onFlush: (info) => void (foldedRecords += info.records),
  };
  const engine = await startEngineWorkers(
    { log, store },
    {
      hooks,
      worker: { checkpointMs: config.CHECKPOINT_INTERVAL_MS, checkpointMaxMs: config.CHECKPOINT_MAX_INTERVAL_MS },
      writer: config.WRITER_URL ? createWriterFromConfig(config) : undefined,
    },
  );
  const { workers } = engine;
  /** records not yet folded, per worker */
  const lagOf = async (name: keyof EngineWorkers) => (await workers[name].lag()).reduce((a, x) => a + x.lag, 0);
  const names = Object.keys(workers) as (keyof EngineWorkers)[];
  services.metrics.gauge('intel_engine_lag_records', 'records not yet folded, per worker', ['worker'], async () =>
    Promise.all(names.map(async (worker) => ({ labels: { worker }, value: await lagOf(worker) }))),
  );
  const lagTimer = setInterval(() => {
    void Promise.all([lagOf('token'), lagOf('wallet')]).then(
      ([t, w]) => logger.debug({ token_lag: t, wallet_lag: w }, 'engine lag'),
      (err: unknown) => logger.warn({ err }, 'engine lag unavailable'),
    );
  }, 10_000);
  lagTimer.unref();
  const backlog = async () => (await Promise.all(names.map(lagOf))).reduce((a, b) => a + b, 0);
  const settleTimer = startHeapSettling(services, backlog, () => {
    const folded = foldedRecords;
    foldedRecords = 0;
    return folded;
  });
  services.onShutdown(async () => {
    clearInterval(lagTimer);
    clearInterval(settleTimer);
    await engine.stop();
  });
  return workers;
}

/**
 * One full collection once a catch-up is worked off (infra/heap.ts): the process goes live with
 * the heap of its state, not of its backfill. `taken` hands over the records folded since the last look.
 */
function startHeapSettling(services: Services, backlog: () => Promise<number>, taken: () => number): ReturnType<typeof setInterval> {
  const { logger } = services;
  const settler = createHeapSettler({
    catchUpRecords: CATCH_UP_RECORDS,
    collect: async () => {
      const before = process.memoryUsage();
      const t0 = performance.now();
      await fullCollection();
      const after = process.memoryUsage();
      const mb = (b: number) => Math.round(b / 2 ** 20);
      logger.info({ duration_ms: Math.round(performance.now() - t0), heap_mb: [mb(before.heapTotal), mb(after.heapTotal)], rss_mb: [mb(before.rss), mb(after.rss)] }, 'caught up: heap collected');
    },
  });
  let settling = false;
  const timer = setInterval(() => {
    if (settling) return;
    settling = true;
    void settler
      .observe(taken(), backlog)
      .catch((err: unknown) => logger.warn({ err }, 'heap settle failed (engine lag or collection)'))
      .finally(() => (settling = false));
  }, 2_000);
  timer.unref();
  return timer;
}
