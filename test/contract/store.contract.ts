/**
 * The one contract every Store adapter passes (embedded and ClickHouse): run by store.test.ts
 * against each. A fixture is one backing storage (a data dir, a set of suffixed tables); `open()`
 * opens a new client on it, so persistence across reopen / across client instances is tested.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Row, Store, UsageRecord } from '../../infra/store/types.ts';
import { Tables } from '../../infra/store/types.ts';

export interface StoreFixture {
  open(): Promise<Store>;
  /** drop the backing storage */
  cleanup?(): Promise<void>;
}

const plain = (r: Row | undefined) => r && { key: r.key, version: r.version, deleted: Boolean(r.deleted), body: r.body };

export function storeContract(name: string, fixture: () => Promise<StoreFixture>): void {
  describe(`Store contract: ${name}`, () => {
    const opened: Store[] = [];
    const fixtures: StoreFixture[] = [];

    async function setup(): Promise<{ fx: StoreFixture; store: Store }> {
      const fx = await fixture();
      fixtures.push(fx);
      const store = await open(fx);
      return { fx, store };
    }

    async function open(fx: StoreFixture): Promise<Store> {
      const store = await fx.open();
      opened.push(store);
      await store.migrate();
      return store;
    }

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
      await Promise.all(fixtures.splice(0).map((f) => f.cleanup?.()));
    });

    it('get returns the highest version, whatever the write order', async () => {
      const { store } = await setup();
      await store.upsert(Tables.snapshots, [{ key: 'token:1:0xa', version: 1, body: '{"v":1}' }]);
      await store.upsert(Tables.snapshots, [{ key: 'token:1:0xa', version: 3, body: '{"v":3}' }]);
      await store.upsert(Tables.snapshots, [{ key: 'token:1:0xa', version: 2, body: '{"v":2}' }]);
      expect(plain(await store.get(Tables.snapshots, 'token:1:0xa'))).toEqual({
        key: 'token:1:0xa',
        version: 3,
        deleted: false,
        body: '{"v":3}',
      });
      expect(await store.get(Tables.snapshots, 'token:1:0xb')).toBeUndefined();
      // tables are separate
      expect(await store.get(Tables.meta, 'token:1:0xa')).toBeUndefined();
    });

    it('claim: of 30 concurrent claims of one key through three clients exactly one wins, and its row is what every client reads', async () => {
      const { fx, store } = await setup();
      const clients = [store, await open(fx), await open(fx)];
      const t = Tables.walletAuthGuard;
      const claims = Array.from({ length: 30 }, (_, i) => (clients[i % 3] as Store).claim(t, { key: 'msg-1', version: 1, body: `{"by":${i}}`, expiresAt: 5_000 }));
      const won = (await Promise.all(claims)).map((ok, i) => (ok ? i : -1)).filter((i) => i >= 0);
      expect(won).toHaveLength(1);
      for (const c of clients) expect((await c.get(t, 'msg-1'))?.body).toBe(`{"by":${won[0]}}`);
      // claimed stays claimed; another key is free
      expect(await store.claim(t, { key: 'msg-1', version: 1, body: '{"late":true}', expiresAt: 5_000 })).toBe(false);
      expect(await clients[1]?.claim(t, { key: 'msg-2', version: 1, body: '{}', expiresAt: 5_000 })).toBe(true);
      // once expired and dropped, the key can be claimed again
      await store.expire(t, 6_000);
      expect(await clients[2]?.claim(t, { key: 'msg-1', version: 1, body: '{"again":true}', expiresAt: 9_000 })).toBe(true);
      expect((await store.get(t, 'msg-1'))?.body).toBe('{"again":true}');
    });

    it('keeps a large checkpoint row whole, the highest version winning, across reopen', async () => {
      const { fx, store } = await setup();
      const big = (v: number) => JSON.stringify({ offset: v, states: Array.from({ length: 20_000 }, (_, i) => ({ key: `k${i}`, n: i * v })) });
      await store.upsert(Tables.checkpoints, [{ key: 'engine-token:token-events:0', version: 10, body: big(10) }]);
      await store.upsert(Tables.checkpoints, [{ key: 'engine-token:token-events:0', version: 20, body: big(20) }]);
      // a late write of an older checkpoint (a previous owner) never replaces a newer one
      await store.upsert(Tables.checkpoints, [{ key: 'engine-token:token-events:0', version: 15, body: big(15) }]);
      await store.upsert(Tables.checkpoints, [{ key: 'engine-token:token-events:1', version: 3, body: big(3) }]);
      const reopened = await open(fx);
      const row = await reopened.get(Tables.checkpoints, 'engine-token:token-events:0');
      expect(row?.version).toBe(20);
      expect(row?.body).toBe(big(20));
      expect((await reopened.list(Tables.checkpoints, { prefix: 'engine-token:' })).map((r) => [r.key, r.version])).toEqual([
        ['engine-token:token-events:0', 20],
        ['engine-token:token-events:1', 3],
      ]);
      expect(await reopened.get(Tables.checkpoints, 'engine-wallet:trades.by-wallet:0')).toBeUndefined();
    });

    it('breaks version ties by the later write, across and within calls', async () => {
      const { store } = await setup();
      await store.upsert(Tables.orgs, [{ key: 'org1', version: 5, body: 'first' }]);
      await store.upsert(Tables.orgs, [{ key: 'org1', version: 5, body: 'second' }]);
      expect((await store.get(Tables.orgs, 'org1'))?.body).toBe('second');
      await store.upsert(Tables.orgs, [
        { key: 'org2', version: 1, body: 'x' },
        { key: 'org2', version: 1, body: 'y' },
      ]);
      expect((await store.get(Tables.orgs, 'org2'))?.body).toBe('y');
    });

    it('a deleted latest version hides the key; an older deletion does not', async () => {
      const { store } = await setup();
      await store.upsert(Tables.apiKeys, [
        { key: 'k1', version: 1, body: '{}' },
        { key: 'k2', version: 3, body: '{"live":true}' },
      ]);
      await store.upsert(Tables.apiKeys, [
        { key: 'k1', version: 2, deleted: true, body: '{}' },
        { key: 'k2', version: 2, deleted: true, body: '{}' },
      ]);
      expect(await store.get(Tables.apiKeys, 'k1')).toBeUndefined();
      expect((await store.get(Tables.apiKeys, 'k2'))?.body).toBe('{"live":true}');
      expect((await store.list(Tables.apiKeys)).map((r) => r.key)).toEqual(['k2']);
      await store.upsert(Tables.apiKeys, [{ key: 'k1', version: 4, body: '{"back":true}' }]);
      expect((await store.get(Tables.apiKeys, 'k1'))?.body).toBe('{"back":true}');
    });

    it('lists latest rows by prefix, ordered by key, with a limit', async () => {
      const { store } = await setup();
      const keys = ['token:8453:0x02', 'token:1:0x01', 'wallet:1:0x09', 'token:1:0x00', "token:1:0x'q", 'token:1:0x\\b', 'token:1:%_'];
      await store.upsert(
        Tables.snapshots,
        keys.map((key) => ({ key, version: 1, body: JSON.stringify({ key }) })),
      );
      await store.upsert(Tables.snapshots, [{ key: 'token:1:0x01', version: 2, body: '{"v":2}' }]);
      const all = await store.list(Tables.snapshots);
      expect(all.map((r) => r.key)).toEqual([...keys].sort());
      const token1 = await store.list(Tables.snapshots, { prefix: 'token:1:' });
      expect(token1.map((r) => r.key)).toEqual(keys.filter((k) => k.startsWith('token:1:')).sort());
      expect(token1.find((r) => r.key === 'token:1:0x01')).toMatchObject({ version: 2, body: '{"v":2}' });
      expect((await store.list(Tables.snapshots, { prefix: "token:1:0x'" })).map((r) => r.key)).toEqual(["token:1:0x'q"]);
      expect((await store.list(Tables.snapshots, { prefix: 'token:1:0x\\' })).map((r) => r.key)).toEqual(['token:1:0x\\b']);
      expect((await store.list(Tables.snapshots, { prefix: 'token:1:%' })).map((r) => r.key)).toEqual(['token:1:%_']);
      expect(await store.list(Tables.snapshots, { prefix: 'nothing:' })).toEqual([]);
      const limited = await store.list(Tables.snapshots, { prefix: 'token:', limit: 2 });
      expect(limited.map((r) => r.key)).toEqual([...keys].filter((k) => k.startsWith('token:')).sort().slice(0, 2));
      // keyset pages: the keys after the last one seen, whatever was written in between
      const tokens = [...keys].filter((k) => k.startsWith('token:')).sort();
      const after = tokens[1] as string;
      await store.upsert(Tables.snapshots, [{ key: 'token:0:new', version: 1, body: '{}' }]);
      const next = await store.list(Tables.snapshots, { prefix: 'token:', after, limit: 2 });
      expect(next.map((r) => r.key)).toEqual(tokens.slice(2, 4));
      expect((await store.list(Tables.snapshots, { after: "token:1:0x'q" })).map((r) => r.key)).toEqual([...keys, 'token:0:new'].filter((k) => k > "token:1:0x'q").sort());
      expect(await store.list(Tables.snapshots, { prefix: 'token:', after: 'token:~' })).toEqual([]);
    });

    it('history tables keep every version, newest first, one row per version', async () => {
      const { store } = await setup();
      const t = Tables.snapshotHistory;
      await store.upsert(t, [1, 5, 3].map((v) => ({ key: 'token:1:0xa', version: v, body: `v${v}` })));
      await store.upsert(t, [{ key: 'token:1:0xa', version: 3, body: 'v3-rewritten' }]);
      await store.upsert(t, [{ key: 'token:1:0xb', version: 9, body: 'other' }]);
      const h = await store.history(t, 'token:1:0xa');
      expect(h.map((r) => [r.version, r.body])).toEqual([
        [5, 'v5'],
        [3, 'v3-rewritten'],
        [1, 'v1'],
      ]);
      expect((await store.history(t, 'token:1:0xa', { limit: 2 })).map((r) => r.version)).toEqual([5, 3]);
      expect((await store.history(t, 'token:1:0xa', { beforeVersion: 5 })).map((r) => r.version)).toEqual([3, 1]);
      expect((await store.history(t, 'token:1:0xa', { beforeVersion: 5, limit: 1 })).map((r) => r.version)).toEqual([3]);
      expect(await store.history(t, 'token:1:0xc')).toEqual([]);
      expect((await store.get(t, 'token:1:0xa'))?.body).toBe('v5');
    });

    it('keeps bodies byte-exact (quotes, backslashes, control chars, unicode)', async () => {
      const { store } = await setup();
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'binary-ascii', maxLength: 30 }), async (body, key) => {
          await store.upsert(Tables.meta, [{ key, version: 1, body }]);
          expect((await store.get(Tables.meta, key))?.body).toBe(body);
          await store.upsert(Tables.meta, [{ key, version: 1, deleted: true, body: '' }]);
        }),
        { numRuns: 40 },
      );
    });

    it('expiring tables: expire drops the rows past their expiresAt for good, in every client and across reopen; the rest stay', async () => {
      const { fx, store } = await setup();
      const t = Tables.walletAuthGuard;
      await store.upsert(t, [
        { key: 'old', version: 1, body: '{"state":"accepted"}', expiresAt: 1_000 },
        { key: 'young', version: 1, body: '{"state":"accepted"}', expiresAt: 5_000 },
        { key: 'forever', version: 1, body: '{}' },
      ]);
      // a later version that lives longer keeps the key
      await store.upsert(t, [{ key: 'renewed', version: 1, body: 'a', expiresAt: 1_000 }]);
      await store.upsert(t, [{ key: 'renewed', version: 2, body: 'b', expiresAt: 9_000 }]);
      expect((await store.get(t, 'old'))?.expiresAt).toBe(1_000);
      expect((await store.get(t, 'forever'))?.expiresAt).toBeUndefined();
      const other = await open(fx);
      await store.expire(t, 2_000);
      const keys = async (s: Store) => (await s.list(t)).map((r) => [r.key, r.body]);
      const left = [
        ['forever', '{}'],
        ['renewed', 'b'],
        ['young', '{"state":"accepted"}'],
      ];
      expect(await store.get(t, 'old')).toBeUndefined();
      expect(await keys(store)).toEqual(left);
      expect(await other.get(t, 'old')).toBeUndefined();
      expect(await keys(other)).toEqual(left);
      await store.close();
      const reopened = await open(fx);
      expect(await reopened.get(t, 'old')).toBeUndefined();
      expect(await keys(reopened)).toEqual(left);
      // an expired key can be written again
      await reopened.upsert(t, [{ key: 'old', version: 1, body: 'again', expiresAt: 20_000 }]);
      expect((await reopened.get(t, 'old'))?.body).toBe('again');
      await reopened.expire(t, 10_000);
      expect(await keys(reopened)).toEqual([
        ['forever', '{}'],
        ['old', 'again'],
      ]);
      await expect(reopened.expire(Tables.meta, 10_000)).rejects.toThrow(/not an expiring table/);
    });

    it('counts usage once per record id and sums per key and operation', async () => {
      const { store } = await setup();
      const rec = (id: string, o: Partial<UsageRecord> = {}): UsageRecord => ({
        id,
        day: '2026-11-22',
        keyId: 'key_a',
        orgId: 'org_1',
        operation: 'token.get',
        units: 1,
        requests: 1,
        ...o,
      });
      await store.addUsage([rec('r1'), rec('r2', { units: 2.5 }), rec('r1')]);
      await store.addUsage([rec('r2', { units: 2.5 }), rec('r3', { operation: 'wallet.get', units: 4 })]);
      await store.addUsage([rec('r4', { keyId: 'key_b', orgId: 'org_2', units: 7 })]);
      await store.addUsage([rec('r5', { day: '2026-11-23', units: 100 })]);
      const totals = (await store.usage('2026-11-22')).sort((x, y) => (x.keyId + x.operation < y.keyId + y.operation ? -1 : 1));
      expect(totals).toEqual([
        { day: '2026-11-22', keyId: 'key_a', orgId: 'org_1', operation: 'token.get', units: 3.5, requests: 2 },
        { day: '2026-11-22', keyId: 'key_a', orgId: 'org_1', operation: 'wallet.get', units: 4, requests: 1 },
        { day: '2026-11-22', keyId: 'key_b', orgId: 'org_2', operation: 'token.get', units: 7, requests: 1 },
      ]);
      expect((await store.usage('2026-11-22', { keyId: 'key_b' })).map((u) => u.units)).toEqual([7]);
      expect(await store.usage('2026-11-21')).toEqual([]);
    });

    it('persists across reopen and across client instances', async () => {
      const { fx, store } = await setup();
      await store.upsert(Tables.cursors, [{ key: 'chain:1', version: 10, body: '{"next":10}' }]);
      await store.upsert(Tables.snapshotHistory, [
        { key: 'token:1:0xa', version: 1, body: 'v1' },
        { key: 'token:1:0xa', version: 2, body: 'v2' },
      ]);
      await store.addUsage([{ id: 'u1', day: '2026-11-22', keyId: 'k', orgId: 'o', operation: 'op', units: 2, requests: 1 }]);
      // a second client sees the writes of the first while it is still open
      const other = await open(fx);
      expect((await other.get(Tables.cursors, 'chain:1'))?.version).toBe(10);
      await store.close();
      const reopened = await open(fx);
      expect(plain(await reopened.get(Tables.cursors, 'chain:1'))).toEqual({
        key: 'chain:1',
        version: 10,
        deleted: false,
        body: '{"next":10}',
      });
      expect((await reopened.history(Tables.snapshotHistory, 'token:1:0xa')).map((r) => r.body)).toEqual(['v2', 'v1']);
      await reopened.addUsage([{ id: 'u1', day: '2026-11-22', keyId: 'k', orgId: 'o', operation: 'op', units: 2, requests: 1 }]);
      expect((await reopened.usage('2026-11-22')).map((u) => u.units)).toEqual([2]);
    });
  });
}
