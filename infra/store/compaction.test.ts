import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedStore } from './embedded.ts';
import type { Row, Store } from './types.ts';
import { Tables } from './types.ts';

/**
 * Retention and compaction rewrite a table's file with its live rows. They used to do it in one
 * synchronous turn (a 16 MB table: 180 ms in which no read was answered, the p99 of a service at
 * half its rate went to 150 ms); now the rows are written in slices off the event loop. A row that
 * another process appends while the file is rewritten must survive it.
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
    expect(readdirSync(join(dir, 'store')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps a row another process appends while the file is rewritten, and drops the expired ones all the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-'));
    dirs.push(dir);
    const a = await open(dir);
    const b = await open(dir);
    await a.upsert(Tables.leaderTrades, rows());
    const expiring = a.expire(Tables.leaderTrades, NOW);
    // b appends while a is still writing the live rows out
    await new Promise((r) => setImmediate(r));
    await b.upsert(Tables.leaderTrades, [{ key: 'from-b', version: 1, body: '{"b":true}', expiresAt: NOW + 86_400_000 }]);
    await expiring;
    for (const s of stores.splice(0)) await s.close();
    const reopened = await open(dir);
    expect(await reopened.get(Tables.leaderTrades, 'from-b')).toMatchObject({ body: '{"b":true}' });
    expect(await reopened.get(Tables.leaderTrades, 'trade-0')).toBeUndefined();
    expect((await reopened.list(Tables.leaderTrades)).length).toBe(10_001);
  });
});
