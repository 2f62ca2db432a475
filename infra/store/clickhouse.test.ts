import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@clickhouse/client';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createClickHouseStore, dropClickHouseDatabase } from './clickhouse.ts';
import { StoreUnavailableError, Tables } from './types.ts';

// What the contract suite can't see: the same answers after ClickHouse merged the parts
// (ReplacingMergeTree drops rows then), and migrations recorded once.
const url = inject('CLICKHOUSE_URL');
const database = `chstore_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const admin = createClient({ url });
afterAll(async () => {
  await dropClickHouseDatabase(url, database);
  await admin.close();
});

async function optimize(table: string): Promise<void> {
  await admin.command({ query: `OPTIMIZE TABLE ${database}.${table} FINAL` });
}

describe('ClickHouse store on merged parts', () => {
  it('latest, ties, deletions and history survive OPTIMIZE FINAL', async () => {
    const store = await createClickHouseStore({ url, database, tableSuffix: '_merge' });
    await store.migrate();
    await store.upsert(Tables.snapshots, [{ key: 'a', version: 3, body: 'a3' }]);
    await store.upsert(Tables.snapshots, [{ key: 'a', version: 2, body: 'a2' }]);
    await store.upsert(Tables.snapshots, [{ key: 'b', version: 1, body: 'b1' }]);
    await store.upsert(Tables.snapshots, [{ key: 'b', version: 1, body: 'b1-later' }]);
    await store.upsert(Tables.snapshots, [{ key: 'c', version: 1, body: 'c1' }]);
    await store.upsert(Tables.snapshots, [{ key: 'c', version: 2, deleted: true, body: '' }]);
    await store.upsert(Tables.snapshotHistory, [1, 2, 3].map((v) => ({ key: 'h', version: v, body: `h${v}` })));
    await store.upsert(Tables.snapshotHistory, [{ key: 'h', version: 2, body: 'h2-later' }]);
    const before = {
      list: await store.list(Tables.snapshots),
      history: await store.history(Tables.snapshotHistory, 'h'),
    };
    await optimize('snapshots_merge');
    await optimize('snapshot_history_merge');
    const after = {
      list: await store.list(Tables.snapshots),
      history: await store.history(Tables.snapshotHistory, 'h'),
    };
    expect(after).toEqual(before);
    expect(after.list.map((r) => [r.key, r.body])).toEqual([
      ['a', 'a3'],
      ['b', 'b1-later'],
    ]);
    expect(after.history.map((r) => r.body)).toEqual(['h3', 'h2-later', 'h1']);
    const rs = await admin.query({ query: `SELECT count() AS n FROM ${database}.snapshots_merge`, format: 'JSONEachRow' });
    expect(Number((await rs.json<{ n: string }>())[0]!.n)).toBe(3);
    await store.close();
  });

  it('claims: the first claim stays the winner after its part is merged with the later ones', async () => {
    const store = await createClickHouseStore({ url, database, tableSuffix: '_claims' });
    await store.migrate();
    const row = (by: string) => ({ key: 'm', version: 1, body: by, expiresAt: 9_000 });
    expect(await store.claim(Tables.walletAuthGuard, row('first'))).toBe(true);
    expect(await store.claim(Tables.walletAuthGuard, row('second'))).toBe(false);
    await optimize('claims_claims');
    // one part now holds both claims: the first row is still the first claim, so a later one loses
    const parts = await admin.query({ query: `SELECT DISTINCT _part AS p FROM ${database}.claims_claims`, format: 'JSONEachRow' });
    expect(await parts.json()).toHaveLength(1);
    expect(await store.claim(Tables.walletAuthGuard, row('third'))).toBe(false);
    expect((await store.get(Tables.walletAuthGuard, 'm'))?.body).toBe('first');
    await store.close();
  });

  it('usage replays collapse after a merge too', async () => {
    const store = await createClickHouseStore({ url, database, tableSuffix: '_usage' });
    await store.migrate();
    const r = { id: 'req-1', day: '2026-11-22', keyId: 'k', orgId: 'o', operation: 'op', units: 3, requests: 1 };
    await store.addUsage([r]);
    await store.addUsage([r]);
    await optimize('usage_usage');
    expect((await store.usage('2026-11-22')).map((u) => [u.units, u.requests])).toEqual([[3, 1]]);
    await store.close();
  });

  it('records each migration once, however often migrate runs', async () => {
    const a = await createClickHouseStore({ url, database, tableSuffix: '_mig' });
    const b = await createClickHouseStore({ url, database, tableSuffix: '_mig' });
    await Promise.all([a.migrate(), b.migrate()]);
    await a.migrate();
    const rs = await admin.query({
      query: `SELECT DISTINCT version FROM ${database}.schema_migrations_mig ORDER BY version`,
      format: 'JSONEachRow',
    });
    expect((await rs.json<{ version: number }>()).map((x) => Number(x.version))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await Promise.all([a.close(), b.close()]);
  });

  it('expired rows of an expiring table stay gone after a merge; expiresAt only on expiring tables', async () => {
    const store = await createClickHouseStore({ url, database, tableSuffix: '_exp' });
    await store.migrate();
    await store.upsert(Tables.walletAuthGuard, [
      { key: 'a', version: 1, body: 'a1', expiresAt: 1_000 },
      { key: 'a', version: 2, body: 'a2', expiresAt: 1_500 },
      { key: 'b', version: 1, body: 'b1', expiresAt: 9_000 },
    ]);
    await store.expire(Tables.walletAuthGuard, 2_000);
    await optimize('wallet_auth_guard_exp');
    expect((await store.list(Tables.walletAuthGuard)).map((r) => [r.key, r.body, r.expiresAt])).toEqual([['b', 'b1', 9_000]]);
    await expect(store.upsert(Tables.meta, [{ key: 'x', version: 1, body: '', expiresAt: 5 }])).rejects.toThrow(RangeError);
    await store.close();
  });

  it('rejects versions ClickHouse cannot order exactly', async () => {
    const store = await createClickHouseStore({ url, database, tableSuffix: '_ver' });
    await store.migrate();
    await expect(store.upsert(Tables.meta, [{ key: 'x', version: -1, body: '' }])).rejects.toThrow(RangeError);
    await expect(store.upsert(Tables.meta, [{ key: 'x', version: 1.5, body: '' }])).rejects.toThrow(RangeError);
    await store.close();
  });
});

describe('ClickHouse store: a server that is gone or does not answer', () => {
  /** an HTTP server that answers /ping as ClickHouse does and then, per `mode`, refuses or hangs */
  async function fakeServer(mode: { hang: boolean }): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/ping')) return void res.end('Ok.\n');
      if (!mode.hang) res.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
    };
  }

  it('says StoreUnavailableError when the server went away, and within the request timeout when it hangs', async () => {
    const gone = await fakeServer({ hang: false });
    const a = await createClickHouseStore({ url: gone.url, database });
    await gone.close();
    await expect(a.get(Tables.apiKeys, 'k')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(a.upsert(Tables.cursors, [{ key: 'k', version: 1, body: '{}' }])).rejects.toBeInstanceOf(StoreUnavailableError);
    await a.close();

    const mode = { hang: true };
    const hung = await fakeServer(mode);
    const b = await createClickHouseStore({ url: hung.url, database, requestTimeoutMs: 300 });
    const t0 = Date.now();
    await expect(b.list(Tables.snapshots)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(Date.now() - t0).toBeLessThan(5_000);
    await b.close();
    await hung.close();
  });

  it('a query the server refuses is not an outage', async () => {
    const store = await createClickHouseStore({ url, database: `${database}_missing` });
    const err = await store.get(Tables.apiKeys, 'k').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(StoreUnavailableError);
    await store.close();
  });
});
