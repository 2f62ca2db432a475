/**
 * vitest globalSetup: real Kafka and ClickHouse for the contract and integration suites.
 *
 * Starts both through the project's scripts (idempotent: a server already running on the port is
 * reused), hands their addresses to tests with `provide` (read with `inject('KAFKA_BROKERS')`)
 * and in process.env, and at teardown stops, by PID, only what this setup started. When
 * KAFKA_BROKERS / CLICKHOUSE_URL are already set, those servers are used and nothing is started.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import kafkajs from 'kafkajs';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** comma-separated host:port list */
    KAFKA_BROKERS: string;
    /** http://host:port */
    CLICKHOUSE_URL: string;
  }
}

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const scripts = {
  kafka: `${root}infra/kafka/kafka.sh`,
  clickhouse: `${root}infra/clickhouse/clickhouse.sh`,
} as const;
type Service = keyof typeof scripts;

async function script(service: Service, action: 'start' | 'stop' | 'status'): Promise<string> {
  const { stdout } = await run('bash', [scripts[service], action], {
    timeout: 600_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout.trim().split('\n').pop() ?? '';
}

async function isRunning(service: Service): Promise<boolean> {
  try {
    await script(service, 'status');
    return true;
  } catch {
    return false;
  }
}

/** start unless running; returns the address and whether this call started it */
async function ensure(service: Service): Promise<{ address: string; started: boolean }> {
  const wasRunning = await isRunning(service);
  const t0 = Date.now();
  const address = await script(service, 'start');
  if (!wasRunning) console.log(`[services] ${service} started at ${address} in ${Date.now() - t0} ms`);
  return { address, started: !wasRunning };
}

/** the broker logged "started": make sure a client gets metadata from it too */
async function kafkaAnswers(brokers: string): Promise<void> {
  const admin = new kafkajs.Kafka({
    clientId: 'test-setup',
    brokers: brokers.split(','),
    logLevel: kafkajs.logLevel.NOTHING,
    retry: { retries: 20, initialRetryTime: 100, maxRetryTime: 1000 },
  }).admin();
  try {
    await admin.connect();
    await admin.listTopics();
  } finally {
    await admin.disconnect();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const toStop: Service[] = [];
  const [kafka, clickhouse] = await Promise.all([
    process.env.KAFKA_BROKERS
      ? Promise.resolve({ address: process.env.KAFKA_BROKERS, started: false })
      : ensure('kafka'),
    process.env.CLICKHOUSE_URL
      ? Promise.resolve({ address: process.env.CLICKHOUSE_URL, started: false })
      : ensure('clickhouse'),
  ]);
  if (kafka.started) toStop.push('kafka');
  await kafkaAnswers(kafka.address);
  if (clickhouse.started) toStop.push('clickhouse');
  process.env.KAFKA_BROKERS = kafka.address;
  process.env.CLICKHOUSE_URL = clickhouse.address;
  project.provide('KAFKA_BROKERS', kafka.address);
  project.provide('CLICKHOUSE_URL', clickhouse.address);

  return async () => {
    // KEEP_SERVICES=1 leaves them running for the next run (the scripts reuse them)
    if (process.env.KEEP_SERVICES === '1') return;
    await Promise.all(toStop.map((service) => script(service, 'stop')));
  };
}
