/**
 * Freshness: an event published → visible through the API. One crafted swap at a time on an
 * existing token, each with a timestamp one second after the previous one (after the token's
 * newest event), so the served `asOf` says exactly which event is visible, whatever the
 * granularity of event times. From the moment the event is handed over, `--pollers` loops poll
 * token-intel back to back; the latency runs from the wall time just before the publish to the
 * arrival of the first answer that shows the event (printed with its lower bound: the sending of
 * the last poll that did not).
 *
 *   embedded   bench/embedded-child.ts: the engine and API of `intel start` on the history's
 *              DATA_DIR, events published into its in-process log over IPC
 *   distributed  Kafka and ClickHouse started by the project's scripts (on ports of their own),
 *              `intel engine` and `intel api` as processes, the simulator's history and then the
 *              crafted events published from this process to token-events with the project's
 *              publisher (kafkajs)
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ChainEvent, Swap } from '../schemas/events.ts';
import { Topics } from '../schemas/events.ts';
import { VenueTopics } from '../schemas/venues.ts';
import kafkajs from 'kafkajs';
import { simHistory } from './fold.ts';
import { checkBenchKey, mintBenchKey, servedAsOf } from './instance.ts';
import type { Instance } from './instance.ts';
import type { Child, Children, Options, Summary } from './lib.ts';
import { INTEL, ROOT, fmt, freePort, log, ms, quantile, sleep } from './lib.ts';
import { createKafkaLog, publishEvents } from './runtime.ts';

const run = promisify(execFile);

export interface Base {
  chain: string;
  token: string;
  pool: string;
  /** newest block and time of the token's events */
  block: number;
  ts: number;
  price: number;
}

const BENCH_TRADER = `0x${'be'.repeat(20)}`;
const hex64 = (s: string) => `0x${createHash('sha256').update(s).digest('hex')}`;

/** the i-th crafted swap (i ≥ 1): a small buy or sell at the token's price, one block and one second after the last */
export function craftSwap(base: Base, i: number, runId: string): Swap {
  const usd = 50;
  return {
    type: 'swap',
    chain: base.chain,
    block: base.block + i,
    blockHash: hex64(`${runId}:block:${i}`),
    tx: hex64(`${runId}:tx:${i}`),
    logIndex: 0,
    timestamp: base.ts + i,
    token: base.token,
    pool: base.pool,
    trader: BENCH_TRADER,
    side: i % 2 === 0 ? 'sell' : 'buy',
    amountToken: usd / base.price,
    amountQuote: usd,
    usd,
    priceUsd: base.price,
  };
}

interface FreshnessResult {
  /** publish → arrival of the first answer showing the event (an upper bound), ascending */
  latencies: number[];
  /** publish → sending of the last poll that did not show it (a lower bound), ascending */
  lower: number[];
  timeouts: number;
  pollMs: number;
}

/**
 * Publishes `n` crafted swaps one at a time (a random pause of 50–250 ms between, so publishes
 * fall at every phase of the engine's batching) and measures each one's publish → visible: the
 * event became visible after the sending of the last poll that did not show it and before the
 * arrival of the first that did; the bound pair is printed, the upper bound is the number.
 */
async function measure(pollers: number, n: number, url: string, key: string, base: Base, publish: (events: ChainEvent[]) => Promise<number>): Promise<FreshnessResult> {
  const runId = randomUUID();
  const latencies: number[] = [];
  const lower: number[] = [];
  let timeouts = 0;
  let polls = 0;
  let pollTime = 0;
  for (let i = 1; i <= n; i++) {
    const ev = craftSwap(base, i, runId);
    const published = publish([ev]);
    let hitAt: number | undefined;
    let lastMissSent = -Infinity;
    const deadline = Date.now() + 15_000;
    await Promise.all(
      Array.from({ length: pollers }, async (_, k) => {
        await sleep(k * 3);
        while (hitAt === undefined && Date.now() < deadline) {
          const sent = Date.now();
          const p0 = performance.now();
          const asOf = await servedAsOf(url, key, base.token);
          pollTime += performance.now() - p0;
          polls++;
          if (asOf !== undefined && asOf >= ev.timestamp) hitAt = Math.min(hitAt ?? Infinity, Date.now());
          else lastMissSent = Math.max(lastMissSent, sent);
          await sleep(1);
        }
      }),
    );
    const at = await published;
    if (hitAt === undefined) timeouts++;
    else {
      latencies.push(hitAt - at);
      lower.push(Math.max(0, lastMissSent - at));
    }
    await sleep(50 + Math.random() * 200);
  }
  latencies.sort((a, b) => a - b);
  lower.sort((a, b) => a - b);
  return { latencies, lower, timeouts, pollMs: pollTime / Math.max(1, polls) };
}

function report(label: string, r: FreshnessResult, pollers: number, summary: Summary): void {
  const p50 = quantile(r.latencies, 0.5);
  const p99 = quantile(r.latencies, 0.99);
  log(
    `  ${label}: ${r.latencies.length} events visible, ${r.timeouts} not within 15 s; publish → visible p50 ${ms(p50, 1)}, p99 ${ms(p99, 1)}, max ${ms(r.latencies[r.latencies.length - 1] ?? NaN, 1)} ` +
      `(lower bounds: p50 ${ms(quantile(r.lower, 0.5), 1)}, p99 ${ms(quantile(r.lower, 0.99), 1)}; ${pollers} pollers, poll round trip ${ms(r.pollMs)})`,
  );
  summary.add(`freshness p99, ${label}`, `${ms(p99, 0)} (p50 ${ms(p50, 0)}, n=${r.latencies.length}${r.timeouts ? `, ${r.timeouts} timed out` : ''})`, '< 1500 ms', r.timeouts > 0 ? false : p99 < 1500);
}

/** embedded: the history's data dir (the service stopped), engine + API in a bench child */
export async function freshnessEmbedded(children: Children, opts: Options, inst: Instance, summary: Summary): Promise<void> {
  if (inst.proc?.alive()) await inst.proc.stop('SIGTERM', 60_000);
  const port = await freePort();
  const child = children.start('embedded-child', resolve(ROOT, 'bench/embedded-child.ts'), [], { ...inst.env, PORT: String(port), SIM_ENABLED: 'false', VENUE_SIM_ENABLED: 'false', BENCH_TOKEN: inst.token }, { ipc: true });
  try {
    const waiting = new Map<number, (at: number) => void>();
    let nextId = 0;
    const ready = new Promise<{ url: string; base: Base; caughtUpMs: number }>((res, rej) => {
      child.child.on('message', (m: { type: string; id: number; at: number; url: string; base: Base; caughtUpMs: number }) => {
        if (m.type === 'ready') res(m);
        else if (m.type === 'published') waiting.get(m.id)?.(m.at);
      });
      void child.exited.then((code) => rej(new Error(`embedded child exited (${String(code)}):\n${child.tail()}`)));
    });
    const r = await Promise.race([ready, sleep(300_000).then(() => Promise.reject(new Error(`embedded child not ready in 300 s:\n${child.tail()}`)))]);
    log(`  embedded: engine + API of intel start on the ${inst.days}-day data dir (ingest off), caught up ${(r.caughtUpMs / 1000).toFixed(1)} s after the API listened; token ${r.base.token}, newest event ${new Date(r.base.ts * 1000).toISOString()}`);
    const publish = (events: ChainEvent[]) =>
      new Promise<number>((res) => {
        const id = nextId++;
        waiting.set(id, (at) => {
          waiting.delete(id);
          res(at);
        });
        child.child.send({ type: 'publish', id, events });
      });
    report('embedded', await measure(opts.pollers, opts.events, r.url, inst.keys.key, r.base, publish), opts.pollers, summary);
  } finally {
    await child.stop('SIGTERM', 30_000);
  }
}

// ---------------------------------------------------------------------------------------------
// distributed

const SERVICE_ENV = { KAFKA_PORT: '29092', KAFKA_CONTROLLER_PORT: '29093', CLICKHOUSE_HTTP_PORT: '28123', CLICKHOUSE_TCP_PORT: '29000' };

async function service(name: 'kafka' | 'clickhouse', action: 'start' | 'stop' | 'status'): Promise<string> {
  const script = resolve(ROOT, `infra/${name}/${name}.sh`);
  const { stdout } = await run('bash', [script, action], { env: { ...process.env, ...SERVICE_ENV }, timeout: 600_000, maxBuffer: 16 << 20 });
  return stdout.trim().split('\n').pop() ?? '';
}

async function ensure(name: 'kafka' | 'clickhouse'): Promise<{ address: string; started: boolean }> {
  const running = await service(name, 'status').then(
    () => true,
    () => false,
  );
  const t0 = Date.now();
  const address = await service(name, 'start');
  log(`  ${name} at ${address}${running ? ' (already running: reused, left running)' : `, started by infra/${name}/${name}.sh in ${((Date.now() - t0) / 1000).toFixed(1)} s`}`);
  return { address, started: !running };
}

export async function freshnessDistributed(children: Children, opts: Options, tmp: string, summary: Summary): Promise<void> {
  const started: ('kafka' | 'clickhouse')[] = [];
  const id = randomUUID().replace(/-/g, '').slice(0, 10);
  let kafkaLog: ReturnType<typeof createKafkaLog> | undefined;
  let clickhouseUrl: string | undefined;
  try {
    const [kafka, clickhouse] = await Promise.all([ensure('kafka'), ensure('clickhouse')]);
    if (kafka.started) started.push('kafka');
    if (clickhouse.started) started.push('clickhouse');
    clickhouseUrl = clickhouse.address;
    const dataDir = resolve(tmp, 'dist-data');
    mkdirSync(dataDir, { recursive: true });
    const port = await freePort();
    const env: Record<string, string> = {
      KAFKA_BROKERS: kafka.address,
      CLICKHOUSE_URL: clickhouse.address,
      CLICKHOUSE_DATABASE: `bench_${id}`,
      TOPIC_PREFIX: `bench-${id}.`,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: opts.serverLogLevel,
      SIM_ENABLED: 'false',
      VENUE_SIM_ENABLED: 'false',
      DAILY_UNIT_BUDGET: String(1e12),
    };
    const minted = await mintBenchKey(children, env);

    // the simulator's history, published by this process as the ingest role publishes it
    const history = simHistory(opts.distDays);
    kafkaLog = createKafkaLog({ brokers: kafka.address.split(','), clientId: 'bench', defaultPartitions: 4, topicPrefix: env.TOPIC_PREFIX });
    const tp = Date.now();
    await kafkaLog.ensureTopic(Topics.tokenEvents);
    await kafkaLog.ensureTopic(Topics.candles);
    for (let i = 0; i < history.length; i += 5000) await publishEvents(kafkaLog, history.slice(i, i + 5000));
    log(`  published ${fmt(history.length)} events (${opts.distDays}-day simulator history) to Kafka in ${((Date.now() - tp) / 1000).toFixed(1)} s`);
    const base = busiestToken(history);

    // the engine first, the API once the engine's topics exist: started together, one of them can
    // die on kafkajs's all-topics metadata answer while the other is still creating a topic
    const t0 = Date.now();
    const engine = children.start('intel-engine', INTEL, ['engine'], env);
    await topicsExist(kafka.address, env.TOPIC_PREFIX as string, ENGINE_TOPICS, engine);
    const api = children.start('intel-api', INTEL, ['api'], env);
    await api.waitFor(/intel API listening at (\S+)\/v1/, 300_000);
    const url = `http://127.0.0.1:${port}`;
    const key = minted.key;
    // caught up: the chosen token is served as of its newest history event
    for (;;) {
      if (!engine.alive()) throw new Error(`intel engine exited:\n${engine.tail()}`);
      if (Date.now() - t0 > 900_000) throw new Error(`the distributed engine did not catch up in 900 s:\n${engine.tail()}`);
      const asOf = await servedAsOf(url, key, base.token);
      if (asOf !== undefined && asOf >= base.ts) break;
      await sleep(500);
    }
    log(`  distributed: intel engine + intel api caught up on the history ${((Date.now() - t0) / 1000).toFixed(1)} s after spawn; token ${base.token}`);
    const keys = await checkBenchKey(url, base.token, minted);
    log(`  keys: ${keys.note}`);
    const publish = async (events: ChainEvent[]) => {
      const at = Date.now();
      await publishEvents(kafkaLog as ReturnType<typeof createKafkaLog>, events);
      return at;
    };
    report('Kafka + ClickHouse', await measure(opts.pollers, opts.events, url, keys.key, base, publish), opts.pollers, summary);
    await Promise.all([engine.stop('SIGTERM', 30_000), api.stop('SIGTERM', 30_000)]);
  } finally {
    await kafkaLog?.close().catch(() => undefined);
    if (clickhouseUrl && !started.includes('clickhouse')) {
      await fetch(`${clickhouseUrl}/?query=${encodeURIComponent(`DROP DATABASE IF EXISTS bench_${id}`)}`, { method: 'POST' }).catch(() => undefined);
    }
    for (const s of started) {
      await service(s, 'stop').catch((err: unknown) => log(`  stopping ${s} failed: ${String(err)}`));
      log(`  ${s} stopped (started by this bench)`);
    }
  }
}

/** the topics `intel engine` creates at start (runtime/engine: startEngine and its workers) */
const ENGINE_TOPICS = [Topics.tokenEvents, Topics.tradesByWallet, Topics.walletGrades, Topics.tokenFacts, Topics.snapshots, Topics.funding, VenueTopics.fills];

async function topicsExist(brokers: string, prefix: string, topics: string[], proc: Child): Promise<void> {
  const admin = new kafkajs.Kafka({ clientId: 'bench-admin', brokers: brokers.split(','), logLevel: kafkajs.logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (!proc.alive()) throw new Error(`${proc.name} exited (${String(await proc.exited)}):\n${proc.tail(12)}`);
      const have = new Set(await admin.listTopics().catch(() => [] as string[]));
      if (topics.every((t) => have.has(prefix + t))) return;
      if (Date.now() > deadline) throw new Error(`${proc.name} did not create ${topics.filter((t) => !have.has(prefix + t)).join(', ')} within 120 s`);
      await sleep(200);
    }
  } finally {
    await admin.disconnect();
  }
}

function busiestToken(history: ChainEvent[]): Base {
  const swaps = new Map<string, number>();
  for (const e of history) if (e.type === 'swap') swaps.set(e.token, (swaps.get(e.token) ?? 0) + 1);
  const token = [...swaps.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!token) throw new Error('no swaps in the history');
  let pool = '';
  let block = 0;
  let ts = 0;
  let price = 1;
  for (const e of history) {
    if (e.type === 'candle' || e.token !== token) continue;
    if (e.type === 'pool_created') pool = e.pool;
    if (e.type === 'swap') price = e.priceUsd;
    block = Math.max(block, e.block);
    ts = Math.max(ts, e.timestamp);
  }
  const chain = history[0]?.chain ?? 'sim';
  return { chain, token, pool, block, ts, price };
}
