import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedStore } from './embedded.ts';
import type { Row, Store } from './types.ts';
import { Tables } from './types.ts';

/**
 * Retention drops a large table's expired rows without stalling the process (one synchronous pass
 * over a large table holds every read until it ends): the rows go in chunks, one write
 * transaction each, the event loop turning between them. A row another client writes meanwhile
 * survives it. Replacing versions of a key, the data dir stays bounded: the pages of the versions
 * replaced are reused.
 */
const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
async function open(dataDir: string): Promise<Store> {
  const s = await createEmbeddedStore({ dataDir });
  stores.push(s);
  return s;
}

const NOW = Date.parse('2026-11-20T00:00:00Z');
const body = JSON.stringify({ pad: 'x'.repeat(400) });
/** 20,000 rows of ~500 bytes, every other one expired at NOW */
const rows = (): Row[] => Array.from({ length: 20_000 }, (_, i) => ({ key: `trade-${i}`, version: 1, body, expiresAt: i % 2 === 0 ? NOW - 1 : NOW + 86_400_000 }));

describe('retention of a large expiring table', () => {
  it('drops the expired rows for good while the event loop keeps turning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-'));
    dirs.push(dir);
    const store = await open(dir);
    await store.upsert(Tables.leaderTrades, rows());
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    await store.expire(Tables.leaderTrades, NOW);
    clearInterval(ticker);
    // the rewrite yielded to the event loop (a synchronous rewrite gives no timer a turn)
    expect(turns).toBeGreaterThan(2);
    expect(await store.get(Tables.leaderTrades, 'trade-0')).toBeUndefined();
    expect(await store.get(Tables.leaderTrades, 'trade-1')).toBeDefined();
    await store.close();
    stores.splice(0);
    const reopened = await open(dir);
    expect((await reopened.list(Tables.leaderTrades)).length).toBe(10_000);
    expect(await reopened.get(Tables.leaderTrades, 'trade-2')).toBeUndefined();
    // no temporary file is left behind
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps a row another client writes while the expired rows are dropped, and drops the expired ones all the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-'));
    dirs.push(dir);
    const a = await open(dir);
    const b = await open(dir);
    await a.upsert(Tables.leaderTrades, rows());
    const expiring = a.expire(Tables.leaderTrades, NOW);
    // b writes while a is still dropping the expired rows
    await new Promise((r) => setImmediate(r));
    await b.upsert(Tables.leaderTrades, [{ key: 'from-b', version: 1, body: '{"b":true}', expiresAt: NOW + 86_400_000 }]);
    await expiring;
    for (const s of stores.splice(0)) await s.close();
    const reopened = await open(dir);
    expect(await reopened.get(Tables.leaderTrades, 'from-b')).toMatchObject({ body: '{"b":true}' });
    expect(await reopened.get(Tables.leaderTrades, 'trade-0')).toBeUndefined();
    expect((await reopened.list(Tables.leaderTrades)).length).toBe(10_001);
  });

  it('a checkpoint and a row rewritten hundreds of times: the data dir stays the size of the live data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-'));
    dirs.push(dir);
    const store = await open(dir);
    const checkpoint = (v: number) => JSON.stringify({ v, pad: 'c'.repeat(256 << 10) });
    const row = (v: number) => JSON.stringify({ v, pad: 'r'.repeat(20_000) });
    // 200 versions of each: 50 MB of checkpoints and 4 MB of rows written
    for (let v = 1; v <= 200; v++) {
      await store.upsert(Tables.checkpoints, [{ key: 'engine:0', version: v, body: checkpoint(v) }]);
      await store.upsert(Tables.cursors, [{ key: 'c', version: v, body: row(v) }]);
    }
    expect((await store.get(Tables.checkpoints, 'engine:0'))?.body).toBe(checkpoint(200));
    await store.close();
    stores.splice(0);
    const bytes = readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
    expect(bytes).toBeLessThan(4 << 20);
    const reopened = await open(dir);
    expect((await reopened.get(Tables.cursors, 'c'))?.body).toBe(row(200));
  });
});
