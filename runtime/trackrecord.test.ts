import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLog } from '../infra/log/memory.ts';
import type { Log } from '../infra/log/types.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import type { Store, TableName } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { createReplica } from '../api/replica.ts';
import type { Replica } from '../api/replica.ts';
import type { TrackRecord } from '../schemas/trackrecord.ts';
import { createTrackRecords } from './trackrecord.ts';

const TOKEN = '0x' + 'ab'.repeat(20);
const snapshot = { chain: 'sim', token: TOKEN, symbol: 'ABC', asOfTs: 1_800_000_000, basis: { priceUsd: 1.5 } };

/**
 * A migrated embedded store in a fresh temp dir for each test of the calling describe, closed and
 * removed after it (after the describe's own afterEach: hooks after a test run in reverse).
 */
function tempStore(prefix: string): { store: Store } {
  const t = { store: undefined as unknown as Store, dir: '' };
  beforeEach(async () => {
    t.dir = mkdtempSync(join(tmpdir(), prefix));
    t.store = await createEmbeddedStore({ dataDir: t.dir });
    await t.store.migrate();
  });
  afterEach(async () => {
    await t.store.close();
    rmSync(t.dir, { recursive: true, force: true });
  });
  return t;
}

describe('track records on the read path', () => {
  const temp = tempStore('trackrecord-test-');
  let log: Log;
  let store: Store;
  let replica: Replica;
  /** the real store, with its track-record reads and writes counted */
  let counted: Store;
  const calls = { get: 0, upsert: 0 };
  beforeEach(async () => {
    log = createMemoryLog();
    store = temp.store;
    await store.upsert(Tables.snapshots, [{ key: `token:sim:${TOKEN}`, version: 1, body: JSON.stringify(snapshot) }]);
    replica = await createReplica({ log, store });
    calls.get = 0;
    calls.upsert = 0;
    counted = Object.create(store) as Store;
    counted.get = (t: TableName, k: string) => ((calls.get += t === Tables.trackRecords ? 1 : 0), store.get(t, k));
    counted.upsert = (t: TableName, rows) => ((calls.upsert += t === Tables.trackRecords ? 1 : 0), store.upsert(t, rows));
  });
  afterEach(async () => {
    await replica.stop();
    await log.close();
  });

  it('record returns at once; a subject-hour served many times is read from the store once and written once, in a batch', async () => {
    const tr = createTrackRecords({ store: counted, replica, flushMs: 10 });
    const served = { chain: 'sim', token: TOKEN, verdict: 'watch' };
    expect(tr.record('tokenIntel', served)).toBeUndefined();
    for (let i = 0; i < 500; i++) tr.record('tokenIntel', served);
    tr.record('tokenSignal', { chain: 'sim', token: TOKEN, signal: 'HOLD' });
    // nothing is written before the flush interval
    expect(calls.upsert).toBe(0);
    const rows = await tr.list('sim', ['tokenIntel', 'tokenSignal']);
    expect(rows.map((r) => r.key).sort()).toEqual([`tokenIntel:sim:${TOKEN}:500000`, `tokenSignal:sim:${TOKEN}:500000`]);
    expect(calls.get).toBe(2);
    expect(calls.upsert).toBe(1);
    await tr.stop();
  });

  it('another process (or an earlier run) that recorded the subject-hour is not written again', async () => {
    const first = createTrackRecords({ store: counted, replica, flushMs: 10 });
    first.record('tokenIntel', { chain: 'sim', token: TOKEN, verdict: 'watch' });
    await first.stop();
    expect(calls.upsert).toBe(1);
    const second = createTrackRecords({ store: counted, replica, flushMs: 10 });
    for (let i = 0; i < 10; i++) second.record('tokenIntel', { chain: 'sim', token: TOKEN, verdict: 'avoid' });
    const rows = await second.list('sim', ['tokenIntel']);
    expect(rows.map((r) => r.value)).toEqual(['watch']);
    expect(calls.upsert).toBe(1);
    await second.stop();
  });

  it('stop drains what is queued', async () => {
    const tr = createTrackRecords({ store, replica, flushMs: 60_000 });
    tr.record('tokenIntel', { chain: 'sim', token: TOKEN, verdict: 'watch' });
    await tr.stop();
    expect((await store.list(Tables.trackRecords)).length).toBe(1);
  });
});

describe('the recent scored examples, by cursor', () => {
  const temp = tempStore('trackrecord-pages-');
  let store: Store;
  beforeEach(() => {
    store = temp.store;
  });

  const T = 1_800_000_000;
  const score = (outcome: 'hit' | 'miss' | 'pending', measuredTs: number | null) => ({ outcome, forwardReturnPct: outcome === 'pending' ? null : 1, benchmarkPct: null, measuredTs, note: null });
  /** a token-signal record of subject i, its 1h horizon scored at T + i, its 24h horizon pending */
  function rec(i: number, scored24h?: number): TrackRecord {
    const subject = `0x${i.toString(16).padStart(40, '0')}`;
    return {
      key: `tokenSignal:sim:${subject}:${Math.floor(T / 3600)}`,
      operation: 'tokenSignal',
      kind: 'token',
      chain: 'sim',
      subject,
      symbol: null,
      value: 'BUY',
      refTs: T - 3600,
      refPrice: 1,
      refRealisedUsd: null,
      refCostSoldUsd: null,
      refClosed: null,
      scores: { '1h': score(i % 2 ? 'hit' : 'miss', T + i), '24h': scored24h === undefined ? score('pending', null) : score('hit', scored24h), '7d': score('pending', null) },
    };
  }
  const put = (r: TrackRecord) => store.upsert(Tables.trackRecords, [{ key: r.key, version: Object.values(r.scores).filter((s) => s.outcome !== 'pending').length, body: JSON.stringify(r) }]);

  it('pages the most recent first; a horizon scored between pages comes on a new first page, never again further on', async () => {
    for (let i = 0; i < 7; i++) await put(rec(i));
    const tr = createTrackRecords({ store });
    const seen = (r: { recent: { token?: string; horizon: string }[] }) => r.recent.map((e) => `${parseInt((e.token as string).slice(2), 16)}/${e.horizon}`);
    const p1 = await tr.report('sim', ['tokenSignal'], { limit: 3 });
    expect(seen(p1)).toEqual(['6/1h', '5/1h', '4/1h']);
    expect(p1.records).toBe(7);
    // the record of subject 5 (on the first page) has its 24h horizon scored: a newer example
    await put(rec(5, T + 100));
    const p2 = await tr.report('sim', ['tokenSignal'], { limit: 3, after: p1.next ?? undefined });
    expect(seen(p2)).toEqual(['3/1h', '2/1h', '1/1h']);
    const p3 = await tr.report('sim', ['tokenSignal'], { limit: 3, after: p2.next ?? undefined });
    expect(seen(p3)).toEqual(['0/1h']);
    expect(p3.next).toBeNull();
    expect(seen(await tr.report('sim', ['tokenSignal'], { limit: 3 }))).toEqual(['5/24h', '6/1h', '5/1h']);
    // the hit rates are over every record on every page
    expect(p3.overall['1h']).toMatchObject({ n: 7, hits: 3, misses: 4 });
    await tr.stop();
  });

  it('a record that does not decode is left out of the report and said; the report of the rest stands', async () => {
    for (let i = 0; i < 3; i++) await put(rec(i));
    const { key, ...unkeyed } = rec(9);
    await store.upsert(Tables.trackRecords, [
      { key: `${key}:damaged`, version: 1, body: '{"operation":"tokenSignal",' },
      { key, version: 1, body: JSON.stringify({ ...unkeyed, kind: 'someone' }) },
    ]);
    const errors: string[] = [];
    const tr = createTrackRecords({ store, onError: (err) => void errors.push(String(err)) });
    const report = await tr.report('sim', ['tokenSignal'], { limit: 10 });
    expect(report.records).toBe(3);
    expect(report.overall['1h']).toMatchObject({ n: 3, hits: 1, misses: 2 });
    expect(errors.filter((e) => e.includes('does not decode')).length).toBe(2);
    await tr.stop();
  });
});

describe("the minute's scoring of track records", () => {
  const temp = tempStore('trackrecord-scoring-test-');
  let log: Log;
  let store: Store;
  let replica: Replica;
  beforeEach(() => {
    log = createMemoryLog();
    store = temp.store;
  });
  afterEach(async () => {
    await replica.stop();
    await log.close();
  });

  const T = 1_800_000_000;
  const tokens = [1, 2, 3, 4, 5].map((i) => '0x' + String(i).repeat(40));
  const tokenSnapshot = (token: string, asOfTs: number, priceUsd: number) => ({
    chain: 'sim',
    token,
    symbol: null,
    asOfTs,
    basis: { priceUsd, hourly: [T, T + 3600, T + 7200].filter((t) => t <= asOfTs).map((t) => ({ t, c: priceUsd })) },
    risk: { flags: { rug: { flagged: false } } },
  });
  const putSnapshots = (asOfTs: number, priceUsd: number) =>
    store.upsert(
      Tables.snapshots,
      tokens.map((t) => ({ key: `token:sim:${t}`, version: asOfTs, body: JSON.stringify(tokenSnapshot(t, asOfTs, priceUsd)) })),
    );

  it('reads the records a page at a time, skips the fully resolved ones unparsed, and scores every pending one', async () => {
    // five tokens served with a claim at T, then their snapshots two hours on: the 1h horizon is due
    await putSnapshots(T, 1);
    replica = await createReplica({ log, store });
    const writer = createTrackRecords({ store, replica, flushMs: 10 });
    for (const token of tokens) writer.record('tokenIntel', { chain: 'sim', token, verdict: 'AVOID' });
    await writer.stop();
    await putSnapshots(T + 7200, 0.5);
    // a record with all its horizons resolved (version 3): the scoring must not even parse it
    await store.upsert(Tables.trackRecords, [{ key: 'tokenIntel:sim:0xresolved:500000', version: 3, body: '{not json' }]);

    const pages: (number | undefined)[] = [];
    const paged = Object.create(store) as Store;
    paged.list = (t, opts) => {
      if (t === Tables.trackRecords) pages.push(opts?.limit);
      return store.list(t, opts);
    };
    const tr = createTrackRecords({ store: paged, replica, scoringPageRows: 2 });
    const run = await tr.runScoring();
    // six rows in pages of two: three full pages and the empty one that ends the scan
    expect(pages).toEqual([2, 2, 2, 2]);
    expect(run).toEqual({ records: 5, resolved: 5 });
    const rows = (await store.list(Tables.trackRecords)).filter((r) => !r.key.includes('0xresolved'));
    expect(rows.map((r) => r.version)).toEqual([1, 1, 1, 1, 1]);
    // the token fell by half: an AVOID is a hit at 1h
    expect(rows.map((r) => (JSON.parse(r.body) as TrackRecord).scores['1h']?.outcome)).toEqual(['hit', 'hit', 'hit', 'hit', 'hit']);
    await tr.stop();
  });
});
