import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@clickhouse/client';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashKey } from '../../infra/keys.ts';
import { createClickHouseStore, dropClickHouseDatabase } from '../../infra/store/clickhouse.ts';
import type { Row, Store } from '../../infra/store/types.ts';
import { Tables } from '../../infra/store/types.ts';
import { cursorKey } from '../../ingest/publisher.ts';
import type { IngestCursor } from '../../ingest/publisher.ts';
import { Topics } from '../../schemas/events.ts';
import { uniqueSuffix } from '../contract/wait.ts';
import { faultFigures, figuresGroup, figuresLine, readTopicIds } from './figures.ts';
import { clusterView } from './kafka-admin.ts';
import type { ClusterView } from './kafka-admin.ts';
import { Procs, callApi as call, distributedEnv, poll } from './procs.ts';
import { SIM_GENESIS_KEY, embeddedSnapshots, simSwapCounts, snapshotMismatches, swapCounts } from './reference.ts';
import type { SimGenesis } from './reference.ts';

/**
 * Distributed mode end to end, as real child processes over the real Kafka and ClickHouse:
 *   intel ingest (simulator) → Kafka → two `intel engine` in one consumer group → ClickHouse
 *   → two `intel api`.
 * One engine is SIGKILLed while it is still folding the backfill; once the survivor has taken its
 * partitions and the lag is 0, the snapshots in ClickHouse must equal those of an embedded run over
 * the same genesis and span, with every swap counted once. Then: a key revoked through the CLI
 * stops working on both APIs within the key cache TTL, and usage billed on both APIs adds up.
 *
 * Each run has its own ClickHouse database and its own Kafka topic and group names (TOPIC_PREFIX),
 * dropped at the end; every child process is stopped in afterAll, also after a failure.
 */
const SEED = 7;
const KEY_TTL_S = 2;
const run = uniqueSuffix();
const database = `it_dist_${run}`;
const prefix = `it-dist-${run}.`;

describe('distributed mode: ingest → Kafka → 2 engines → ClickHouse → 2 APIs', () => {
  const brokers = inject('KAFKA_BROKERS');
  const clickhouseUrl = inject('CLICKHOUSE_URL');
  const dataDir = mkdtempSync(join(tmpdir(), 'intel-distributed-'));
  const procs = new Procs({
    ...distributedEnv({ brokers, clickhouseUrl, database, prefix, dataDir }),
    SIM_SEED: String(SEED),
    SIM_HISTORY_DAYS: '2',
    SIM_FUTURE_DAYS: '0',
    // the live part adds no block while the test runs (0.001 simulated s per real s)
    SIM_SPEED: '0.001',
    KEY_CACHE_TTL_SECONDS: String(KEY_TTL_S),
    // the chain simulator only: the venue simulator is not part of this comparison
    VENUE_SIM_ENABLED: 'false',
  });
  let view: ClusterView | undefined;
  let store: Store | undefined;
  let ch: ClickHouseClient | undefined;
  /** a token with a snapshot, for the API calls */
  let someToken = '';

  beforeAll(async () => {
    view = await clusterView(brokers);
    ch = createClient({ url: clickhouseUrl });
  });

  afterAll(async () => {
    await procs.stopAll();
    await store?.close();
    await ch?.close();
    await view?.dropPrefix(prefix).catch(() => undefined);
    await view?.close();
    await dropClickHouseDatabase(clickhouseUrl, database);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const rawCount = async (table: string): Promise<number> => {
    const rs = await (ch as ClickHouseClient).query({ query: `SELECT count() AS n FROM ${database}.${table}`, format: 'JSONEachRow' });
    const rows = await rs.json<{ n: string | number }>();
    return Number(rows[0]?.n ?? 0);
  };

  it(
    'an engine killed mid-stream: the survivor takes its partitions and the snapshots equal the embedded run',
    async () => {
      const v = view as ClusterView;
      const tokenGroup = `${prefix}engine-token`;
      const walletGroup = `${prefix}engine-wallet`;
      const tokenTopic = `${prefix}${Topics.tokenEvents}`;
      const walletTopic = `${prefix}${Topics.tradesByWallet}`;

      await procs.run('migrate', ['migrate']);
      store = await createClickHouseStore({ url: clickhouseUrl, database });

      // two engines in one consumer group per worker kind, both members before any event
      const engineA = procs.start('engine-a', ['engine']);
      const engineB = procs.start('engine-b', ['engine']);
      await poll(
        async () => {
          const [t, w] = await Promise.all([v.group(tokenGroup), v.group(walletGroup)]);
          return t.state === 'Stable' && t.members.length === 2 && w.state === 'Stable' && w.members.length === 2;
        },
        'both engines to join the token and wallet groups',
        60_000,
      ).catch((err: unknown) => {
        throw new Error(`${String(err)}\n${procs.dump()}`);
      });

      const ingest = procs.start('ingest', ['ingest']);

      // kill engine A while the backfill is being folded: some offsets committed, lag left
      const lagAtKill = await poll(
        async () => {
          const [done, lag] = await Promise.all([v.committed(tokenGroup, tokenTopic), v.lag(tokenGroup, tokenTopic)]);
          return done > 0 && lag > 0 ? lag : undefined;
        },
        'the engines to start folding',
        60_000,
        50,
      );
      await engineA.kill('SIGKILL');
      expect(lagAtKill).toBeGreaterThan(0);

      // the survivor is the only member once the group has noticed (session timeout)
      let groups = '';
      await poll(
        async () => {
          const [t, w] = await Promise.all([v.group(tokenGroup), v.group(walletGroup)]);
          groups = JSON.stringify({ token: t, wallet: w });
          return t.state === 'Stable' && t.members.length === 1 && w.state === 'Stable' && w.members.length === 1;
        },
        'the survivor to own every partition',
        60_000,
      ).catch((err: unknown) => {
        throw new Error(`${String(err)}; groups ${groups}\n${procs.dump()}`);
      });
      expect(engineB.alive()).toBe(true);

      // the ingest's backfill is published (its cursor reaches the last block, then stays) …
      await poll(
        async () => {
          const row = await (store as Store).get(Tables.cursors, cursorKey('sim', 'simulator'));
          const c = row ? (JSON.parse(row.body) as IngestCursor) : undefined;
          return c && c.timestamp >= Date.now() / 1000 - 3600 ? c : undefined;
        },
        'the ingest to publish its backfill',
        60_000,
      );
      expect(ingest.alive()).toBe(true);

      // … and folded: no lag, no new records, no new snapshot rows over several polls
      let last = '';
      let stable = 0;
      await poll(
        async () => {
          const [tl, wl, te, we, fe, sn] = await Promise.all([
            v.lag(tokenGroup, tokenTopic),
            v.lag(walletGroup, walletTopic),
            v.endOffsets(tokenTopic),
            v.endOffsets(walletTopic),
            v.endOffsets(`${prefix}${Topics.funding}`),
            rawCount(Tables.snapshots),
          ]);
          const now = JSON.stringify([te, we, fe, sn]);
          stable = tl === 0 && wl === 0 && now === last ? stable + 1 : 0;
          last = now;
          return stable >= 3;
        },
        'the surviving engine to fold everything',
        90_000,
        1000,
      );

      // the last block the ingest published: after its backfill it stays, SIM_SPEED adds none
      const cursorRow = await (store as Store).get(Tables.cursors, cursorKey('sim', 'simulator'));
      const cursor = JSON.parse((cursorRow as Row).body) as IngestCursor;
      const genesisRow = await (store as Store).get(Tables.meta, SIM_GENESIS_KEY);
      expect(genesisRow).toBeDefined();
      const genesis = JSON.parse((genesisRow as Row).body) as SimGenesis;
      expect(genesis).toMatchObject({ seed: SEED, spanDays: 2 });

      const distributed = await (store as Store).list(Tables.snapshots);
      const reference = await embeddedSnapshots(genesis, cursor.timestamp, {
        SIM_HISTORY_DAYS: '2',
        SIM_FUTURE_DAYS: '0',
        SIM_SPEED: '0.001',
        VENUE_SIM_ENABLED: 'false',
      });

      // every swap counted once: the token snapshots and the wallet snapshots against the simulator
      const truth = simSwapCounts(genesis, cursor.timestamp);
      expect(truth.total).toBeGreaterThan(1000);
      const counts = swapCounts(distributed);
      expect(counts.byToken).toEqual(Object.fromEntries(truth.byToken));
      expect(counts.walletTotal).toBe(truth.total);
      expect(counts.byTrader).toEqual(Object.fromEntries(truth.byTrader));

      // and every snapshot body equals the embedded run's
      const byKind = (rows: Row[]) => {
        const m: Record<string, number> = {};
        for (const r of rows) m[r.key.split(':')[0] as string] = (m[r.key.split(':')[0] as string] ?? 0) + 1;
        return m;
      };
      expect(byKind(distributed)).toEqual(byKind(reference));
      expect(distributed.map((r) => r.key)).toEqual(reference.map((r) => r.key));
      const mismatches = snapshotMismatches(distributed, reference);
      expect(mismatches.slice(0, 10), `${mismatches.length} of ${distributed.length} snapshots differ`).toEqual([]);

      // the fault's figures (test/integration/faults.test.ts prints the same line for its faults)
      const log = await readTopicIds(brokers, tokenTopic, figuresGroup(prefix));
      const f = await faultFigures({ view: v, prefix, genesis, endTs: cursor.timestamp, snapshots: distributed, logIds: log.ids, partitions: log.partitions });
      console.log(figuresLine('engine SIGKILLed mid-fold (1 of 2 in the group)', f, `engine lag at the kill ${lagAtKill}`));
      expect({ lost: f.lost, unexpected: f.unexpected, consumed: f.consumed, swapsDuplicated: f.swapsDuplicated }).toEqual({ lost: 0, unexpected: 0, consumed: f.inLog, swapsDuplicated: 0 });

      someToken = distributed.find((r) => r.key.startsWith('token:'))?.key.split(':')[2] ?? '';
    },
    150_000,
  );

  it(
    'two API processes: a key revoked through the CLI stops working on both within the TTL; usage adds up',
    async () => {
      expect(someToken).not.toBe('');
      const api1 = procs.start('api-1', ['api']);
      const b1 = await api1.waitFor(/intel API listening at (http:\/\/\S+)\/v1[\s\S]*?sandbox key \(shown once, store it now\): (key_test_\w+)/, 90_000);
      const api2 = procs.start('api-2', ['api']);
      const b2 = await api2.waitFor(/intel API listening at (http:\/\/\S+)\/v1[\s\S]*?sandbox organisation (org_\w+)/, 90_000);
      const [url1, key1] = [b1[1] as string, b1[2] as string];
      const [url2, org] = [b2[1] as string, b2[2] as string];
      const urls = [url1, url2];

      // usage billed on both processes with one key
      let units = 0;
      for (const [url, path, n] of [
        [url1, '/v1/token-intel', 3],
        [url2, '/v1/token-signal', 2],
      ] as const) {
        for (let i = 0; i < n; i++) {
          const r = await call(url, 'POST', path, key1, { token: someToken });
          expect(r.status, JSON.stringify(r.json)).toBe(200);
          units += Number(r.headers.get('x-usage-units'));
        }
      }
      expect(units).toBe(3 * 1 + 2 * 2);
      for (const url of urls) {
        // records of the other process arrive over the usage topic (about a second)
        const usage = await poll(
          async () => {
            const r = await call(url, 'GET', '/v1/usage', key1);
            return r.status === 200 && r.json.unitsToday === units ? r.json : undefined;
          },
          `GET /usage on ${url} to count the units billed on both processes`,
          15_000,
        );
        expect(usage).toMatchObject({ unitsToday: units, requestsToday: 5, byOperation: { tokenIntel: 3, tokenSignal: 4 } });
      }

      // a second key, cached as valid by both processes
      const created = await procs.run('keys-create', ['keys', 'create', '--plan', 'sandbox', '--org', org]);
      const key2 = /(key_test_\w+)/.exec(created)?.[1] as string;
      expect(key2).toBeDefined();
      for (const url of urls) expect((await call(url, 'GET', '/v1/usage', key2)).status).toBe(200);

      // revoked through the CLI: both processes refuse it within the key cache TTL
      await procs.run('keys-revoke', ['keys', 'revoke', hashKey(key2).slice(0, 16)]);
      const revokedAt = Date.now();
      const delays = await Promise.all(
        urls.map((url) =>
          poll(
            async () => ((await call(url, 'GET', '/v1/usage', key2)).status === 401 ? Date.now() - revokedAt : undefined),
            `the revoked key to be refused by ${url}`,
            10_000,
            100,
          ),
        ),
      );
      for (const d of delays) expect(d).toBeLessThanOrEqual(KEY_TTL_S * 1000 + 1000);
      // the other key is untouched
      for (const url of urls) expect((await call(url, 'GET', '/v1/usage', key1)).status).toBe(200);
      expect(api1.alive() && api2.alive()).toBe(true);
    },
    120_000,
  );
});
