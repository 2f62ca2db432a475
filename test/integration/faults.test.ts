import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../infra/keys.ts';
import { utcDay } from '../../api/metering.ts';
import { createClickHouseStore } from '../../infra/store/clickhouse.ts';
import type { Row, Store } from '../../infra/store/types.ts';
import { Tables } from '../../infra/store/types.ts';
import { cursorKey } from '../../ingest/publisher.ts';
import type { IngestCursor } from '../../ingest/publisher.ts';
import { Topics } from '../../schemas/events.ts';
import { uniqueSuffix } from '../contract/wait.ts';
import { faultFigures, figuresGroup, figuresLine, readTopicIds } from './figures.ts';
import { clusterView } from './kafka-admin.ts';
import type { ClusterView } from './kafka-admin.ts';
import { Procs, callApi, distributedEnv, poll, sleep, warnings } from './procs.ts';
import type { ApiAnswer, Proc } from './procs.ts';
import { SIM_GENESIS_KEY, embeddedSnapshots, snapshotMismatches } from './reference.ts';
import type { SimGenesis } from './reference.ts';

/**
 * Faults on the real servers, in distributed mode as real child processes:
 *   intel ingest (simulator: backfill, then live) → Kafka → intel engine → ClickHouse → intel api.
 *
 * This file runs its OWN broker and ClickHouse server (the ports below, state in a temp dir),
 * started and stopped with the project's scripts, so stopping them disturbs no other test file:
 *   1. the Kafka broker stopped mid-stream (`kafka.sh down`) for 18 s, then started again on the
 *      same data (`kafka.sh up`);
 *   3. ClickHouse stopped for 60 s (`clickhouse.sh down` / `up`).
 * During each outage the API is called with a short client timeout: it answers from its replica
 * (200 with ageSeconds) or with a clear JSON 503, never hangs, and its /readyz (operator port)
 * says not ready. Afterwards, with no process started again by hand, everything has caught up:
 * every event the simulator produced is in the log and counted once in the snapshots, which equal
 * an embedded run's over the same genesis and span, and the usage in the store equals the
 * successful calls made (X-Usage-Units of the 200 answers). Each scenario prints a one-line
 * summary of its figures ([faults] …).
 * 2. An engine SIGKILLed mid-fold is test/integration/distributed.test.ts (its [faults] line too).
 * FAULTS_LOGS=<dir> keeps each process's whole output there.
 */
const KAFKA_PORT = 19192;
const CH_HTTP_PORT = 18223;
const CH_TCP_PORT = 19100;
const KAFKA_DOWN_MS = 18_000;
const CLICKHOUSE_DOWN_MS = 60_000;
/** the client's patience with one API call: an answer must come well within it */
const CLIENT_TIMEOUT_MS = 5_000;

const root = resolve(import.meta.dirname, '../..');
const stateRoot = mkdtempSync(join(tmpdir(), 'intel-faults-'));
const brokers = `127.0.0.1:${KAFKA_PORT}`;
const clickhouseUrl = `http://127.0.0.1:${CH_HTTP_PORT}`;
const serviceEnv = {
  // every port named: a KAFKA_CONTROLLER_PORT set for the run's shared broker must not be taken over
  kafka: { KAFKA_PORT: String(KAFKA_PORT), KAFKA_CONTROLLER_PORT: String(KAFKA_PORT + 1), KAFKA_STATE_DIR: join(stateRoot, 'intel-kafka') },
  clickhouse: { CLICKHOUSE_HTTP_PORT: String(CH_HTTP_PORT), CLICKHOUSE_TCP_PORT: String(CH_TCP_PORT), CLICKHOUSE_STATE_DIR: join(stateRoot, 'intel-clickhouse') },
};
const scripts = { kafka: join(root, 'infra/kafka/kafka.sh'), clickhouse: join(root, 'infra/clickhouse/clickhouse.sh') };
type Service = keyof typeof scripts;

const exec = promisify(execFile);
async function service(name: Service, action: 'start' | 'stop' | 'down' | 'up' | 'status'): Promise<string> {
  const { stdout } = await exec('bash', [scripts[name], action], { env: { ...process.env, ...serviceEnv[name] }, timeout: 300_000 });
  return stdout.trim();
}
/** services a scenario stopped: started again after a failure, so the next scenario has them */
const stopped = new Set<Service>();
async function outage(name: Service): Promise<void> {
  stopped.add(name);
  await service(name, 'down');
}
async function recover(name: Service): Promise<void> {
  await service(name, 'up');
  stopped.delete(name);
}
async function restore(): Promise<void> {
  for (const name of [...stopped]) await recover(name).catch(() => undefined);
}
const running = async (name: Service) => service(name, 'status').then(
  () => true,
  () => false,
);

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** /readyz on an operator port: its status, or 0 when nothing answers within the client timeout */
async function readyz(port: number): Promise<number> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    await res.text();
    return res.status;
  } catch {
    return 0;
  }
}

interface Running {
  engine: Proc;
  ingest: Proc;
  api: Proc;
  url: string;
  /** the API's operator port (/readyz) */
  opsPort: number;
  key: string;
  token: string;
}

/**
 * One distributed deployment on this file's servers: its own database and topic prefix, one
 * engine, the ingest (2 simulated days of backfill, then live at SIM_SPEED so the stream goes on
 * through the outage) and one API.
 */
function deployment(name: string, env: Record<string, string>) {
  const run = uniqueSuffix();
  const database = `it_faults_${name}_${run}`;
  const prefix = `it-faults-${name}-${run}.`;
  const dataDir = mkdtempSync(join(tmpdir(), `intel-faults-${name}-`));
  const procs = new Procs({
    ...distributedEnv({ brokers, clickhouseUrl, database, prefix, dataDir }),
    SIM_SEED: '5',
    SIM_HISTORY_DAYS: '2',
    SIM_FUTURE_DAYS: '1',
    // live: 10 simulated minutes a second, about 50 blocks a second while the test runs
    SIM_SPEED: '600',
    VENUE_SIM_ENABLED: 'false',
    CHECKPOINT_INTERVAL_MS: '1000',
    ...env,
  });
  const groups = { token: `${prefix}engine-token`, wallet: `${prefix}engine-wallet` };
  const topics = { token: `${prefix}${Topics.tokenEvents}`, wallet: `${prefix}${Topics.tradesByWallet}` };
  let store: Store | undefined;
  let view: ClusterView | undefined;
  const d = {
    procs,
    groups,
    topics,
    get store() {
      return store as Store;
    },
    get view() {
      return view as ClusterView;
    },
    /** migrate, the engine in its groups, then the API and the ingest; the API's key and a token */
    async up(): Promise<Running> {
      view = await clusterView(brokers);
      await procs.run('migrate', ['migrate']);
      store = await createClickHouseStore({ url: clickhouseUrl, database, requestTimeoutMs: 5_000 });
      const engine = procs.start('engine', ['engine']);
      await poll(
        async () => {
          const [t, w] = await Promise.all([view!.group(groups.token), view!.group(groups.wallet)]);
          return t.state === 'Stable' && t.members.length === 1 && w.state === 'Stable' && w.members.length === 1;
        },
        'the engine to join the token and wallet groups',
        60_000,
      ).catch((err: unknown) => {
        throw new Error(`${String(err)}\n${procs.dump()}`);
      });
      const opsPort = await freePort();
      const api = procs.start('api', ['api'], { OPS_PORT: String(opsPort) });
      const ingest = procs.start('ingest', ['ingest']);
      const m = await api.waitFor(/intel API listening at (http:\/\/\S+)\/v1[\s\S]*?sandbox key \(shown once, store it now\): (key_test_\w+)/, 90_000);
      const token = await poll(
        async () => (await store!.list(Tables.snapshots, { prefix: 'token:sim:', limit: 1 }))[0]?.key.split(':')[2],
        'a token snapshot',
        60_000,
      );
      return { engine, ingest, api, url: m[1] as string, opsPort, key: m[2] as string, token };
    },
    /** the ingest's cursor in the store */
    async cursor(): Promise<number> {
      const row = await store!.get(Tables.cursors, cursorKey('sim', 'simulator'));
      return row ? (JSON.parse(row.body) as IngestCursor).block : -1;
    },
    /** once the ingest has stopped: the engine has folded everything (no lag, nothing new over several polls) */
    async folded(timeoutMs: number): Promise<void> {
      let last = '';
      let stable = 0;
      await poll(
        async () => {
          const [tl, wl, te, we, sn] = await Promise.all([
            view!.lag(groups.token, topics.token),
            view!.lag(groups.wallet, topics.wallet),
            view!.endOffsets(topics.token),
            view!.endOffsets(topics.wallet),
            store!.list(Tables.snapshots).then((rs) => rs.reduce((a, r) => a + 1 + r.version, 0)),
          ]);
          const now = JSON.stringify([te, we, sn]);
          stable = tl === 0 && wl === 0 && now === last ? stable + 1 : 0;
          last = now;
          return stable >= 3;
        },
        'the engine to fold everything',
        timeoutMs,
        1000,
      ).catch((err: unknown) => {
        throw new Error(`${String(err)} (last ${last})\n${procs.dump()}`);
      });
    },
    /**
     * The ingest is stopped (a clean stop: what it published stays, nothing more comes) and the
     * engine has folded everything: the figures, printed, and the snapshots against the reference.
     */
    async verify(scenario: string, extra: string, ingestOutput: () => string): Promise<void> {
      const genesisRow = await store!.get(Tables.meta, SIM_GENESIS_KEY);
      expect(genesisRow).toBeDefined();
      const genesis = JSON.parse((genesisRow as Row).body) as SimGenesis;
      const log = await readTopicIds(brokers, topics.token, figuresGroup(prefix));
      const snapshots = await store!.list(Tables.snapshots);
      const f = await faultFigures({ view: view!, prefix, genesis, endTs: log.maxTs, snapshots, logIds: log.ids, partitions: log.partitions });
      console.log(figuresLine(scenario, f, extra));
      expect(f.produced).toBeGreaterThan(10_000);
      expect(
        { lost: f.lost, unexpected: f.unexpected, consumed: f.consumed },
        `${f.lostWhere}; the ingest's warnings:\n${warnings(ingestOutput())}`,
      ).toEqual({ lost: 0, unexpected: 0, consumed: f.inLog });
      expect({ swapsLost: f.swapsLost, swapsDuplicated: f.swapsDuplicated, byToken: f.swapsByToken, byWallet: f.swapsByWallet }).toEqual({
        swapsLost: 0,
        swapsDuplicated: 0,
        byToken: f.swaps,
        byWallet: f.swaps,
      });
      const reference = await embeddedSnapshots(genesis, log.maxTs, { SIM_SPEED: '0.001', VENUE_SIM_ENABLED: 'false' });
      expect(snapshots.map((r) => r.key)).toEqual(reference.map((r) => r.key));
      const mismatches = snapshotMismatches(snapshots, reference);
      expect(mismatches.slice(0, 10), `${mismatches.length} of ${snapshots.length} snapshots differ`).toEqual([]);
    },
    /** the usage the store holds today for a key */
    async usage(keyId: string): Promise<{ requests: number; units: number }> {
      const totals = await store!.usage(utcDay(Date.now()), { keyId });
      return totals.reduce((a, t) => ({ requests: a.requests + t.requests, units: a.units + t.units }), { requests: 0, units: 0 });
    },
    async down(): Promise<void> {
      await procs.stopAll();
      await store?.close();
      store = undefined;
      await view?.dropPrefix(prefix).catch(() => undefined);
      await view?.close().catch(() => undefined);
      view = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return d;
}

/** token-intel calls, and what they answered, by phase */
class Calls {
  readonly answers: (ApiAnswer & { during: boolean })[] = [];
  /** successful calls and the units their X-Usage-Units say */
  ok = 0;
  units = 0;
  constructor(private readonly r: Running) {}
  async make(during = false): Promise<ApiAnswer> {
    let a: ApiAnswer;
    try {
      a = await callApi(this.r.url, 'POST', '/v1/token-intel', this.r.key, { token: this.r.token }, CLIENT_TIMEOUT_MS);
    } catch (err) {
      throw new Error(`POST /v1/token-intel did not answer within ${CLIENT_TIMEOUT_MS} ms (${String(err)})`);
    }
    this.answers.push({ ...a, during });
    if (a.status === 200) {
      this.ok++;
      this.units += Number(a.headers.get('x-usage-units'));
    }
    return a;
  }
  summary(): string {
    const during = this.answers.filter((a) => a.during);
    const by: Record<string, number> = {};
    for (const a of during) by[a.status] = (by[a.status] ?? 0) + 1;
    const first503 = during.find((a) => a.status === 503)?.json.error;
    return `API during the outage: ${during.length} calls answered ${JSON.stringify(by)}${first503 ? ` (503 ${String(first503)})` : ''}, slowest ${Math.max(0, ...during.map((a) => a.ms))} ms`;
  }
}

/** an answer during an outage: 200 from the replica with ageSeconds stated, or a JSON 503 */
function expectReplicaOr503(a: ApiAnswer): void {
  const body = JSON.stringify(a.json).slice(0, 300);
  if (a.status === 200) {
    expect(typeof a.json.ageSeconds, body).toBe('number');
  } else {
    expect(a.status, body).toBe(503);
    expect(typeof a.json.error, body).toBe('string');
  }
}

/**
 * A deployment runs; mid-stream (the engine has committed, the ingest goes on live) the service is
 * stopped for `downMs`, the API called every `callEveryMs` meanwhile; then started again. Nothing
 * is restarted by hand: the processes must live through it and catch up.
 */
async function outageScenario(o: {
  name: string;
  title: string;
  service: Service;
  downMs: number;
  callEveryMs: number;
  /** the API's key cache TTL: the outage starts right after the key was read, and outlasts the TTL */
  keyTtlS?: number;
  /** what the calls during the outage must include: 200s from the replica, 503s */
  during: { replica: boolean; unavailable: boolean };
}): Promise<void> {
  const d = deployment(o.name, o.keyTtlS !== undefined ? { KEY_CACHE_TTL_SECONDS: String(o.keyTtlS) } : {});
  let started: Running | undefined;
  try {
    const r = (started = await d.up());
    const calls = new Calls(r);
    await poll(async () => (await readyz(r.opsPort)) === 200, 'the API to say ready', 60_000, 500);
    // calls before, billed through the usage topic
    for (let i = 0; i < 3; i++) expect((await calls.make()).status).toBe(200);
    await poll(async () => (await d.view.committed(d.groups.token, d.topics.token)) > 0, 'the engine to commit a batch', 60_000, 50);
    const cursorAtStop = await d.cursor();
    if (o.keyTtlS !== undefined) {
      // the key leaves the cache, is read from the store once more, and is cached for the TTL
      await sleep(o.keyTtlS * 1000 + 500);
      expect((await calls.make()).status).toBe(200);
    }
    const lagAtStop = await d.view.lag(d.groups.token, d.topics.token);

    // the calls start with the stop (a server may take a while to go: ClickHouse waits up to 30 s for its connections)
    const downAt = Date.now();
    const stopped = outage(o.service).then(() => Date.now() - downAt);
    let notReady = 0;
    while (Date.now() - downAt < o.downMs) {
      expectReplicaOr503(await calls.make(true));
      if ((await readyz(r.opsPort)) === 503) notReady++;
      await sleep(o.callEveryMs);
    }
    const stopTook = await stopped;
    // the processes live through the outage (no supervisor would start them again)
    expect({ engine: r.engine.alive(), ingest: r.ingest.alive(), api: r.api.alive() }, d.procs.dump()).toEqual({ engine: true, ingest: true, api: true });
    expect(notReady, `/readyz said not ready while ${o.service} was down`).toBeGreaterThan(0);
    const during = calls.answers.filter((a) => a.during);
    const why = `${calls.summary()}; the stop took ${stopTook} ms`;
    if (o.during.replica) expect(during.filter((a) => a.status === 200).length, why).toBeGreaterThan(0);
    if (o.during.unavailable) expect(during.filter((a) => a.status === 503).length, why).toBeGreaterThan(0);
    await recover(o.service);
    const upAt = Date.now();
    const endAtUp = await d.view.endOffsets(d.topics.token);

    // everything goes on by itself: the ingest publishes again, its cursor moves on, the API is ready and bills
    const dumped = (err: unknown) => {
      throw new Error(`${String(err)}\n${d.procs.dump()}`);
    };
    await poll(async () => (await d.view.endOffsets(d.topics.token)) > endAtUp, 'the ingest to publish after the restart', 90_000, 500).catch(dumped);
    await poll(async () => (await d.cursor()) > cursorAtStop, 'the ingest cursor to move on', 90_000, 500).catch(dumped);
    await poll(async () => (await readyz(r.opsPort)) === 200, 'the API to say ready again', 90_000, 500).catch(dumped);
    for (let i = 0; i < 2; i++) expect((await calls.make()).status).toBe(200);

    // the end of the stream: a clean stop of the ingest, then the engine folds what is left
    await r.ingest.kill('SIGTERM');
    await d.folded(120_000);
    expect(r.engine.alive() && r.api.alive()).toBe(true);

    // usage billed before, during and after the outage: in the store once
    const keyId = hashKey(r.key);
    const want = { requests: calls.ok, units: calls.units };
    await poll(async () => JSON.stringify(await d.usage(keyId)) === JSON.stringify(want), 'the usage in the store to equal the successful calls', 30_000, 500).catch(
      async (err: unknown) => {
        throw new Error(`${String(err)}: store ${JSON.stringify(await d.usage(keyId))}, calls ${JSON.stringify(want)}`);
      },
    );
    await sleep(1500);
    const billed = await d.usage(keyId);
    expect(billed).toEqual(want);

    await d.verify(
      o.title,
      `engine lag at the stop ${lagAtStop}; ${calls.summary()}; /readyz not ready ${notReady}× while down, ready after; ` +
        `back ${Math.round((upAt - downAt) / 1000)} s after the stop began (the stop took ${Math.round(stopTook / 1000)} s); usage: ${calls.ok} successful calls (${calls.units} units), billed ${billed.requests} calls (${billed.units} units)`,
      () => r.ingest.output(),
    );
  } finally {
    if (process.env.FAULTS_LOGS && started) for (const p of [started.engine, started.ingest, started.api]) writeFileSync(join(process.env.FAULTS_LOGS, `${o.name}-${p.name}.log`), p.output());
    await restore();
    await d.down();
  }
}

describe('faults on the real servers: Kafka and ClickHouse stopped mid-stream, the API never hangs, nothing lost or counted twice', () => {
  beforeAll(async () => {
    // this file's own servers: a server already on these ports is someone else's, never ours to stop
    for (const s of ['kafka', 'clickhouse'] as const) {
      if (await running(s)) throw new Error(`${s} already answers on this file's port: another run of faults.test.ts?`);
    }
    await Promise.all([service('kafka', 'start'), service('clickhouse', 'start')]);
  });

  afterAll(async () => {
    await Promise.all([service('kafka', 'stop').catch(() => undefined), service('clickhouse', 'stop').catch(() => undefined)]);
    rmSync(stateRoot, { recursive: true, force: true });
  });

  it('1. the Kafka broker stopped mid-stream and started again: every process recovers by itself, every event is folded once', async () => {
    await outageScenario({
      name: 'kafka',
      title: 'Kafka broker down 18 s mid-stream',
      service: 'kafka',
      downMs: KAFKA_DOWN_MS,
      callEveryMs: 2000,
      // the store is up: every call is answered from the replica
      during: { replica: true, unavailable: false },
    });
  }, 420_000);

  it('3. ClickHouse stopped for 60 s: the API answers from its replica or 503, writes are retried, everything catches up', async () => {
    await outageScenario({
      name: 'clickhouse',
      title: 'ClickHouse down 60 s',
      service: 'clickhouse',
      downMs: CLICKHOUSE_DOWN_MS,
      callEveryMs: 3000,
      // the key cached when the store stops: answered from the replica for 10 s, then 503 (the key needs the store)
      keyTtlS: 10,
      during: { replica: true, unavailable: true },
    });
  }, 420_000);
});
