import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../infra/config.ts';
import type { Log } from '../infra/log/types.ts';
import type { Row, Store } from '../infra/store/types.ts';
import { StoreUnavailableError, Tables } from '../infra/store/types.ts';
import { createKeyService } from '../infra/keys.ts';
import { cursorKey } from '../ingest/publisher.ts';
import { createSimulator } from '../ingest/simulator/index.ts';
import type { Swap } from '../schemas/events.ts';
import { Topics } from '../schemas/events.ts';
import { FundingTopic, TokenFactsTopic, TradesByWalletTopic, publishTo } from '../infra/topics.ts';
import { addr } from '../engine/token/testkit.ts';
import { VenueTopics } from '../schemas/venues.ts';
import { waitFor } from '../test/contract/wait.ts';
import { embeddedSnapshots, snapshotMismatches } from '../test/integration/reference.ts';
import { startApi } from './api.ts';
import { startEngine } from './engine.ts';
import { startIngest } from './ingest.ts';
import { createLogger, createServices } from './services.ts';
import type { Services } from './services.ts';

/**
 * The roles through an outage of the log or the store (Kafka or ClickHouse stopped in distributed
 * mode; test/integration/faults.test.ts stops the real servers).
 *
 * Ingest: a source whose publish or cursor write fails is resumed from its cursor with a backoff,
 * so every block ends up published, where it used to stop for good (and the process, with nothing
 * left to do, exited).
 *
 * Engine: the tables published "only when changed" (a wallet's grade, a token's final facts) are
 * remembered as published only once they are: a flush whose publish failed is retried with the
 * same records, where the grade used to count as published and was never sent, so the tokens its
 * wallet bought in kept an old grade.
 *
 * API: a call that needs the store (a key not cached) while it is unreachable answers a clear 503,
 * where it answered 500 internal.
 */
const NOW = Date.UTC(2026, 0, 10);
const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** failures to inject: the nth call of a topic or table fails when this says so */
interface Faults {
  publish?: (topic: string, n: number) => boolean;
  upsert?: (table: string, n: number) => boolean;
}

async function setup(env: Record<string, string>, faults: Faults): Promise<{ services: Services; published: Map<string, string[]>; failed: { publish: number; upsert: number } }> {
  const dir = mkdtempSync(join(tmpdir(), 'intel-ingest-faults-'));
  dirs.push(dir);
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', PORT: '0', SIM_SEED: '3', SIM_HISTORY_DAYS: '1', SIM_FUTURE_DAYS: '0', SIM_SPEED: '0.001', VENUE_SIM_ENABLED: 'false', ...env });
  const inner = await createServices(config, createLogger({ LOG_LEVEL: 'silent' }));
  closers.push(() => inner.shutdown());
  const published = new Map<string, string[]>();
  const failed = { publish: 0, upsert: 0 };
  const calls = { publish: new Map<string, number>(), upsert: new Map<string, number>() };
  const nth = (m: Map<string, number>, k: string) => {
    const n = (m.get(k) ?? 0) + 1;
    m.set(k, n);
    return n;
  };
  const log: Log = {
    kind: inner.log.kind,
    ensureTopic: (t, o) => inner.log.ensureTopic(t, o),
    consume: (o) => inner.log.consume(o),
    partitions: (t) => inner.log.partitions(t),
    close: () => inner.log.close(),
    async publish(topic, records) {
      if (faults.publish?.(topic, nth(calls.publish, topic))) {
        failed.publish++;
        throw new Error('Connection error: connect ECONNREFUSED 127.0.0.1:19092');
      }
      await inner.log.publish(topic, records);
      published.set(topic, [...(published.get(topic) ?? []), ...records.map((r) => r.value)]);
    },
  };
  const store: Store = Object.create(inner.store) as Store;
  store.upsert = async (table, rows) => {
    if (faults.upsert?.(table, nth(calls.upsert, table))) {
      failed.upsert++;
      throw new Error('connect ECONNREFUSED 127.0.0.1:18123');
    }
    return inner.store.upsert(table, rows);
  };
  return { services: { ...inner, log, store }, published, failed };
}

/** every event the simulator generates up to NOW, as (tx, logIndex, type) */
function simEvents(seed: number): Set<string> {
  const genesisTime = Math.floor(NOW / 1000 - 86_400);
  const sim = createSimulator({ seed, genesisTime, spanDays: 1 });
  const out = new Set<string>();
  for (const b of sim.blocksUntil(NOW / 1000)) for (const e of b.events) out.add(`${e.tx}:${e.logIndex}:${e.type}`);
  return out;
}

const idOf = (value: string) => {
  const e = JSON.parse(value) as { tx: string; logIndex: number; type: string };
  return `${e.tx}:${e.logIndex}:${e.type}`;
};

/** the engine and the ingest over the simulator's history, until the engine has folded all of it */
async function foldAll(services: Services): Promise<void> {
  const engine = await startEngine(services);
  const ingest = await startIngest(services, { now: () => NOW });
  await ingest.caughtUp;
  for (let stable = 0; stable < 5; ) {
    const lags = [...(await engine.token.lag()), ...(await engine.wallet.lag())];
    stable = lags.every((l) => l.lag === 0) ? stable + 1 : 0;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** the snapshots equal those of an uninterrupted embedded run over the same history (seed 9, 2 days) */
async function expectReference(snapshots: Row[]): Promise<void> {
  const genesis = { seed: 9, genesisTime: Math.floor(NOW / 1000 - 2 * 86_400), spanDays: 2 };
  const reference = await embeddedSnapshots(genesis, NOW / 1000, { SIM_SPEED: '0.001', VENUE_SIM_ENABLED: 'false' });
  expect(snapshots.map((r) => r.key)).toEqual(reference.map((r) => r.key));
  const mismatches = snapshotMismatches(snapshots, reference);
  expect(mismatches.slice(0, 10), `${mismatches.length} of ${snapshots.length} snapshots differ`).toEqual([]);
}

describe('the ingest role through an outage of the log or the store', () => {
  it('publishes that fail (the broker unreachable) are resumed from the cursor: every event is published', async () => {
    const { services, published, failed } = await setup({}, { publish: (topic, n) => topic === Topics.tokenEvents && (n === 2 || n === 3) });
    const ingest = await startIngest(services, { now: () => NOW });
    const last = Math.floor(86_400 / 12);
    await waitFor(() => (ingest.cursors()['sim:simulator']?.block ?? -1) >= last, 'the simulator to publish its whole backfill', 10_000);
    expect(failed.publish).toBe(2);
    const got = new Set((published.get(Topics.tokenEvents) ?? []).map(idOf));
    const want = simEvents(3);
    expect(want.size).toBeGreaterThan(1000);
    expect([...want].filter((id) => !got.has(id))).toEqual([]);
    expect(JSON.parse((await services.store.get(Tables.cursors, cursorKey('sim', 'simulator')))?.body ?? '{}')).toMatchObject({ block: last });
  });

  it('cursor writes that fail (the store unreachable) are resumed too', async () => {
    const { services, failed } = await setup({}, { upsert: (table, n) => table === Tables.cursors && n <= 2 });
    const ingest = await startIngest(services, { now: () => NOW });
    await waitFor(() => (ingest.cursors()['sim:simulator']?.block ?? -1) >= Math.floor(86_400 / 12), 'the simulator to publish its whole backfill', 10_000);
    expect(failed.upsert).toBe(2);
  });

  it('the venue simulator resumes after a failed publish as well', async () => {
    const { services, published, failed } = await setup({ VENUE_SIM_ENABLED: 'true', SIM_ENABLED: 'false' }, { publish: (topic, n) => topic === VenueTopics.fills && n === 2 });
    const ingest = await startIngest(services, { now: () => NOW });
    const before = () => (published.get(VenueTopics.fills) ?? []).length;
    await waitFor(() => failed.publish === 1 && before() > 0 && (ingest.venues?.progress().venuesim?.time ?? 0) >= NOW - 3_600_000, 'the venue simulator to go on after the failure', 10_000);
  });
});

describe('engine: table records of a failed flush are published on its retry', () => {
  it('with publishes of the grades and facts tables failing for a while, the tables end equal to the snapshots', async () => {
    // the broker unreachable for a while, from the 5th publish of each table on
    const tables: string[] = [Topics.walletGrades, Topics.tokenFacts];
    const { services, failed } = await setup({ SIM_SEED: '9', SIM_HISTORY_DAYS: '2' }, { publish: (topic, n) => tables.includes(topic) && n >= 5 && n < 40 });
    await foldAll(services);
    expect(failed.publish).toBeGreaterThan(10);

    // the latest record per key of a table topic, read from its start
    const latest = async (topic: string): Promise<Map<string, string>> => {
      const out = new Map<string, string>();
      const c = await services.log.consume({ groupId: `ephemeral-check-${topic}`, topics: [topic], startOffset: () => 0, eachBatch: async (b) => void b.records.forEach((r) => out.set(r.key, r.value)) });
      await waitFor(async () => (await c.lag()).every((l) => l.lag === 0), `${topic} read`, 10_000, 20);
      await c.stop();
      return out;
    };
    const grades = await latest(Topics.walletGrades);
    const facts = await latest(Topics.tokenFacts);
    const snapshots = await services.store.list(Tables.snapshots);
    const stale: string[] = [];
    for (const r of snapshots) {
      const [kind, chain, id] = r.key.split(':') as [string, string, string];
      const body = JSON.parse(r.body) as { grade?: string; facts?: Record<string, unknown> };
      if (kind === 'wallet' && body.grade !== 'unrated') {
        const g = grades.get(`${chain}:${id}`);
        if ((g ? (JSON.parse(g) as { grade: string }).grade : undefined) !== body.grade) stale.push(`${r.key}: grade ${body.grade}, table ${g}`);
      }
      if (kind === 'token' && body.facts) {
        const f = facts.get(`${chain}:${id}`);
        const table = f ? (JSON.parse(f) as Record<string, unknown>) : {};
        for (const [k, v] of Object.entries(body.facts)) if (JSON.stringify(table[k]) !== JSON.stringify(v)) stale.push(`${r.key}: facts.${k} ${JSON.stringify(v)}, table ${JSON.stringify(table[k])}`);
      }
    }
    expect(grades.size).toBeGreaterThan(10);
    expect(stale.slice(0, 10), `${stale.length} stale`).toEqual([]);
    await expectReference(snapshots);
  }, 60_000);
});

describe('engine: a batch whose fan-out failed is not folded twice', () => {
  it("with the token worker's publishes to the wallet topic failing for a while, and the ingest's (it publishes again after its cursor), the snapshots end equal to an uninterrupted run's", async () => {
    const { services, failed } = await setup({ SIM_SEED: '9', SIM_HISTORY_DAYS: '2' }, { publish: (topic, n) => (topic === Topics.tradesByWallet && n >= 3 && n < 30) || (topic === Topics.tokenEvents && n >= 3 && n < 5) });
    await foldAll(services);
    expect(failed.publish).toBeGreaterThan(10);
    await expectReference(await services.store.list(Tables.snapshots));
  }, 90_000);
});

describe("engine: a wallet's grade does not depend on when its tokens' facts came", () => {
  it('the deployer of a token known only after a wallet closed its position there makes the wallet an insider all the same', async () => {
    const { services } = await setup({ SIM_ENABLED: 'false' }, {});
    await startEngine(services);
    const [wallet, token, deployer, weth] = [addr('wallet'), addr('token'), addr('deployer'), addr('weth')];
    const swap = (i: number, side: 'buy' | 'sell'): Swap => ({
      type: 'swap',
      chain: 'sim',
      block: 100 + i,
      blockHash: `0x${'1'.repeat(64)}`,
      tx: `0x${i.toString(16).padStart(64, '0')}`,
      logIndex: 0,
      timestamp: 1_700_000_000 + i * 600,
      token,
      pool: addr('pool'),
      trader: wallet,
      side,
      amountToken: 100,
      amountQuote: 1,
      usd: 1_000,
      priceUsd: 10,
    });
    // first funded by the token's deployer; a buy and a sell: the position is closed
    await publishTo(services.log, FundingTopic, [{ chain: 'sim', wallet, asset: weth, funder: deployer, position: 1 }]);
    await publishTo(services.log, TradesByWalletTopic, [swap(1, 'buy'), swap(2, 'sell')].map((s) => ({ kind: 'swap' as const, swap: s, poolBlock: 90, liquidityUsd: 100_000 })));
    const insider = async () => {
      const row = await services.store.get(Tables.snapshots, `wallet:sim:${wallet}`);
      return row ? (JSON.parse(row.body) as { disqualifiers: { insider: boolean }; basis: { closed: number } }) : undefined;
    };
    await waitFor(async () => (await insider())?.basis.closed === 1, 'the wallet snapshot with its closed position', 10_000);
    expect((await insider())?.disqualifiers.insider).toBe(false);
    // the token's facts, with its deployer, come after
    await publishTo(services.log, TokenFactsTopic, [{ chain: 'sim', token, symbol: 'TOK', risk: 'low', riskScore: 10, exitRisk: 'low', flags: [], sellable: true, deployer }]);
    await waitFor(async () => (await insider())?.disqualifiers.insider === true, 'the wallet to be derived again as an insider', 10_000);
  });
});

describe('API: a call that needs the store while it is unreachable', () => {
  it('answers 503 unavailable with Retry-After, not 500, and 200 again once it is back', async () => {
    const { services } = await setup({}, {});
    const keys = createKeyService({ store: services.store, cacheTtlSeconds: 0 });
    const org = await keys.createOrg('outage');
    const { plaintext } = await keys.createKey(org.id, 'sandbox');
    let down = false;
    const store: Store = Object.create(services.store) as Store;
    store.get = (table, key) => (down ? Promise.reject(new StoreUnavailableError('ClickHouse at http://127.0.0.1:18123 is unreachable')) : services.store.get(table, key));
    const api = await startApi({ ...services, store }, { port: 0 });
    const call = () => fetch(`${api.url}/v1/usage`, { headers: { authorization: `Bearer ${plaintext}` }, signal: AbortSignal.timeout(5_000) });
    down = true;
    const res = await call();
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toMatchObject({ error: 'unavailable' });
    down = false;
    expect((await call()).status).toBe(200);
  });
});
