import { mkdirSync } from 'node:fs';
import { pino } from 'pino';
import type { Logger } from 'pino';
import type { Config } from '../infra/config.ts';
import type { Log } from '../infra/log/types.ts';
import { createMemoryLog } from '../infra/log/memory.ts';
import type { Store } from '../infra/store/types.ts';
import { createMetrics } from '../infra/metrics.ts';
import type { Metrics } from '../infra/metrics.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import { redact } from '../infra/redact.ts';

/** Shared services, passed down explicitly (never singletons). */
export interface Services {
  config: Config;
  logger: Logger;
  log: Log;
  store: Store;
  metrics: Metrics;
  /** run on shutdown, last registered first */
  onShutdown(fn: () => Promise<void> | void): void;
  shutdown(): Promise<void>;
}

/** an error as pino writes it, its text redacted: libraries name the URLs they called, and URLs carry providers' keys */
function redactedErr(e: Error) {
  const s = pino.stdSerializers.err(e);
  return { ...s, message: redact(s.message), stack: redact(s.stack) };
}

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: pino.DestinationStream): Logger {
  const opts = { level: config.LOG_LEVEL, base: { service: 'intel' }, timestamp: pino.stdTimeFunctions.isoTime, serializers: { err: redactedErr } };
  return destination ? pino(opts, destination) : pino(opts);
}

/** Chooses the adapters from config: Kafka and ClickHouse when configured, else in-process and embedded. */
export async function createServices(config: Config, logger = createLogger(config)): Promise<Services> {
  mkdirSync(config.DATA_DIR, { recursive: true });
  let log: Log;
  if (config.KAFKA_BROKERS) {
    const { createKafkaLog } = await import('../infra/log/kafka.ts');
    log = createKafkaLog({
      brokers: config.KAFKA_BROKERS.split(',').map((b) => b.trim()),
      clientId: 'intel',
      defaultPartitions: config.LOG_PARTITIONS,
      topicPrefix: config.TOPIC_PREFIX,
      retentionMs: config.LOG_RETENTION_HOURS * 3_600_000,
    });
  } else {
    log = createMemoryLog({ dataDir: config.DATA_DIR, defaultPartitions: config.LOG_PARTITIONS });
  }
  let store: Store;
  if (config.CLICKHOUSE_URL) {
    const { createClickHouseStore } = await import('../infra/store/clickhouse.ts');
    store = await createClickHouseStore({ url: config.CLICKHOUSE_URL, database: config.CLICKHOUSE_DATABASE });
  } else {
    store = await createEmbeddedStore({ dataDir: config.DATA_DIR });
  }
  await store.migrate();
  return servicesOf(config, logger, log, store);
}

/**
 * The services over a log and a store already open: the metrics registry and the shutdown hooks.
 * The API's own thread (runtime/api-thread.ts) assembles its services here over the bridged log
 * and store; its shutdown closes only its use of them.
 */
export function servicesOf(config: Config, logger: Logger, log: Log, store: Store): Services {
  const hooks: (() => Promise<void> | void)[] = [];
  let down: Promise<void> | undefined;
  const metrics = createMetrics({
    intel_http_requests_total: 'API requests by operation and status',
    intel_units_billed_total: 'units billed by operation',
    intel_http_lane_answered_total: 'of the API requests, those the served lane answered from cached snapshot bytes before the framework (repeated calls of served operations), by operation',
    intel_webhook_push_total: 'live stream events for webhook endpoints subscribed to their topic, by result: queued, or not queued (quota, budget, key_revoked: the billed key is revoked; overflow: too many waiting; failed: the store refused)',
    intel_job_runs_total: 'periods of the scheduled jobs by job and outcome (skipped: another process held the period, or the last run was still going)',
  });
  return {
    config,
    logger,
    log,
    store,
    metrics,
    onShutdown: (fn) => hooks.push(fn),
    shutdown() {
      down ??= (async () => {
        for (const fn of hooks.reverse()) {
          try {
            await fn();
          } catch (err) {
            logger.error({ err }, 'shutdown step failed');
          }
        }
        await log.close();
        await store.close();
      })();
      return down;
    },
  };
}
