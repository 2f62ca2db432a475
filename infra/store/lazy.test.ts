import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedStores } from './test-stores.ts';
import type { Row } from './types.ts';
import { Tables } from './types.ts';

/**
 * A lazy table (the leader trades) is not read at open: rows upserted before it is first read go
 * to its file only, and reading it in (when first asked for, or in the background in slices) gives
 * exactly the table an eagerly read one holds; a torn last append is cut before a row follows it.
 */
// no background read unless asked for: the table stays cold until a read
const { tmp, open, closeAll, torn } = embeddedStores('lazy-store-', { warmAfterMs: 3_600_000 });

const T = Tables.leaderTrades;
const row = (i: number, version = 1): Row => ({ key: `w:${String(i).padStart(6, '0')}`, version, body: JSON.stringify({ i, version }), expiresAt: Date.now() + 86_400_000 });
const keysOf = (rows: Row[]) => rows.map((r) => `${r.key}@${r.version}`);

describe('a lazy table (embedded store)', () => {
  it('rows upserted while it is cold are all there when it is read, a newer version winning, also after a reopen', async () => {
    const dir = tmp();
    const a = await open(dir);
    await a.upsert(T, [row(1), row(2)]);
    await closeAll();

    // cold again: appends without reading, then the first read reads it in
    const b = await open(dir);
    await b.upsert(T, [row(3), row(2, 2)]);
    await b.upsert(T, [row(1, 0)]);
    const expected = ['w:000001@1', 'w:000002@2', 'w:000003@1'];
    expect((await b.get(T, 'w:000002'))?.version).toBe(2);
    expect(keysOf(await b.list(T))).toEqual(expected);
    // once read in, an upsert is applied as to any table
    await b.upsert(T, [row(4)]);
    expect(keysOf(await b.list(T))).toEqual([...expected, 'w:000004@1']);
    await closeAll();

    const c = await open(dir);
    expect(keysOf(await c.list(T))).toEqual([...expected, 'w:000004@1']);
  });

  it('a torn last append (a crash) is cut when the next row comes, before it is written, and no row is lost', async () => {
    const dir = tmp();
    const a = await open(dir);
    await a.upsert(T, [row(1), row(2)]);
    await closeAll();
    const file = join(dir, 'store', `${T}.jsonl`);
    const whole = readFileSync(file).length;
    appendFileSync(file, '{"key":"w:000009","vers');

    torn.length = 0;
    const b = await open(dir);
    // the open does not read it, so it says nothing yet
    expect(torn).toEqual([]);
    await b.upsert(T, [row(3)]);
    expect(torn).toEqual([{ file, kept: whole, dropped: 23 }]);
    expect(keysOf(await b.list(T))).toEqual(['w:000001@1', 'w:000002@1', 'w:000003@1']);
    await closeAll();
    const c = await open(dir);
    expect(keysOf(await c.list(T))).toEqual(['w:000001@1', 'w:000002@1', 'w:000003@1']);
  });

  it('is read in the background, in slices, and a read meanwhile waits for the whole table', async () => {
    const dir = tmp();
    const a = await open(dir);
    const rows = Array.from({ length: 30_000 }, (_, i) => ({ ...row(i), body: JSON.stringify({ i, pad: 'x'.repeat(300) }) }));
    await a.upsert(T, rows);
    await closeAll();

    const b = await open(dir, { warmAfterMs: 0 });
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    // the background read starts on the first timer turn; this read comes while it runs
    await new Promise((r) => setTimeout(r, 1));
    const all = await b.list(T);
    clearInterval(ticker);
    expect(all.length).toBe(30_000);
    expect(JSON.parse((await b.get(T, 'w:029999'))?.body ?? '{}')).toMatchObject({ i: 29_999 });
    // the read yielded to the event loop (a synchronous read gives no timer a turn)
    expect(turns).toBeGreaterThan(2);
  });
});
