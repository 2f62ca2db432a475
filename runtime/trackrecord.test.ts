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
import { createTrackRecords } from './trackrecord.ts';

const TOKEN = '0x' + 'ab'.repeat(20);
const snapshot = { chain: 'sim', token: TOKEN, symbol: 'ABC', asOfTs: 1_800_000_000, basis: { priceUsd: 1.5 } };

describe('track records on the read path', () => {
  let dir: string;
  let log: Log;
  let store: Store;
  let replica: Replica;
  /** the real store, with its track-record reads and writes counted */
  let counted: Store;
  const calls = { get: 0, upsert: 0 };
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trackrecord-test-'));
    log = createMemoryLog();
    store = await createEmbeddedStore({ dataDir: dir });
    await store.migrate();
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
    await store.close();
    rmSync(dir, { recursive: true, force: true });
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
