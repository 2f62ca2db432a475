import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TornTail } from '../files.ts';
import { createEmbeddedStore } from './embedded.ts';
import { embeddedStores } from './test-stores.ts';
import type { Store, UsageRecord } from './types.ts';
import { Tables } from './types.ts';

/**
 * torn tail: a process killed while it appended rows leaves part of a line at the end of a table
 * file. Reopened, the store keeps every row before it, drops the torn one, and never appends after
 * the torn bytes: a row written again after the restart is there after the next one, once (issue 15:
 * rows appended after a torn line were merged into it and lost on the next open).
 */
/** the data dirs, the stores on them, and the tears the stores reported */
const { tmp, open, closeAll, torn } = embeddedStores('torn-store-');

const DAY = '2026-03-01';
const usage = (i: number): UsageRecord => ({ id: `req-${i}`, day: DAY, keyId: 'key', orgId: 'org', operation: 'tokenIntel', units: i + 1, requests: 1 });
const unitsOf = (ids: number[]) => ids.reduce((a, i) => a + i + 1, 0);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** every byte offset inside the last line of `file` (relative to the store dir) of a copy of `pristine` */
function* tears(pristine: string, file: string): Generator<{ dir: string; cut: number; reported: () => TornTail[] }> {
  const bytes = readFileSync(join(pristine, 'store', file));
  const lastStart = bytes.lastIndexOf('\n', bytes.length - 2) + 1;
  for (let cut = lastStart; cut < bytes.length; cut++) {
    const dir = tmp();
    cpSync(pristine, dir, { recursive: true });
    const path = join(dir, 'store', file);
    truncateSync(path, cut);
    torn.length = 0;
    // what the first open must say: the torn bytes cut off, back to the last complete row
    const reported = () => {
      expect(torn, `cut at byte ${cut}`).toEqual(cut > lastStart ? [{ file: path, kept: lastStart, dropped: cut - lastStart }] : []);
      expect(readFileSync(path).length).toBe(lastStart);
      return torn.splice(0);
    };
    yield { dir, cut, reported };
  }
}

describe('torn tail (embedded store)', () => {
  it('a latest-row table torn at every byte of its last row: the rows before intact, a re-upsert after the reopen kept, no row twice', async () => {
    const pristine = tmp();
    const s = await open(pristine);
    for (const i of range(6)) await s.upsert(Tables.cursors, [{ key: `c${i}`, version: 1, body: `{"next":${i}}` }]);
    // the torn row is a newer version of c2: the older one is what stays
    await s.upsert(Tables.cursors, [{ key: 'c2', version: 2, body: '{"next":22}' }]);
    await closeAll();

    for (const { dir, cut, reported } of tears(pristine, 'cursors.jsonl')) {
      let store = await open(dir);
      reported();
      const bodies = async () => (await store.list(Tables.cursors)).map((r) => [r.key, r.version, r.body]);
      const before = range(6).map((i) => [`c${i}`, 1, `{"next":${i}}`]);
      expect(await bodies(), `cut at byte ${cut}`).toEqual(before);
      // written again after the restart, then a row more
      await store.upsert(Tables.cursors, [{ key: 'c2', version: 2, body: '{"next":22}' }]);
      await store.upsert(Tables.cursors, [{ key: 'c9', version: 1, body: '{"next":9}' }]);
      await closeAll();
      store = await open(dir);
      const after = [...before.slice(0, 2), ['c2', 2, '{"next":22}'], ...before.slice(3), ['c9', 1, '{"next":9}']];
      expect(await bodies(), `cut at byte ${cut}, reopened`).toEqual(after);
      await closeAll();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a history table torn at every byte of its last version: the versions before intact, the torn one written again once', async () => {
    const pristine = tmp();
    const s = await open(pristine);
    for (const v of [1, 2, 3, 4]) await s.upsert(Tables.snapshotHistory, [{ key: 'token:sim:0xa', version: v, body: `v${v}` }]);
    await closeAll();

    for (const { dir, cut, reported } of tears(pristine, 'snapshot_history.jsonl')) {
      let store = await open(dir);
      reported();
      const versions = async () => (await store.history(Tables.snapshotHistory, 'token:sim:0xa')).map((r) => r.body);
      expect(await versions(), `cut at byte ${cut}`).toEqual(['v3', 'v2', 'v1']);
      // a replay writes v3 again (already there) and v4 (torn): each is kept once
      await store.upsert(Tables.snapshotHistory, [{ key: 'token:sim:0xa', version: 3, body: 'v3' }]);
      await store.upsert(Tables.snapshotHistory, [{ key: 'token:sim:0xa', version: 4, body: 'v4' }]);
      expect(await versions()).toEqual(['v4', 'v3', 'v2', 'v1']);
      await closeAll();
      store = await open(dir);
      expect(await versions(), `cut at byte ${cut}, reopened`).toEqual(['v4', 'v3', 'v2', 'v1']);
      await closeAll();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('usage torn at every byte of its last record: totals of the records before, a replayed batch counted once', async () => {
    const pristine = tmp();
    const s = await open(pristine);
    await s.addUsage(range(5).map(usage));
    await s.addUsage([usage(5)]);
    await closeAll();
    const total = async (store: Store) => (await store.usage(DAY)).reduce((a, t) => a + t.units, 0);

    for (const { dir, cut, reported } of tears(pristine, 'usage.jsonl')) {
      let store = await open(dir);
      reported();
      expect(await total(store), `cut at byte ${cut}`).toBe(unitsOf(range(5)));
      // the sink replays the batch it had not committed: the torn record lands, the others are known
      await store.addUsage([usage(3), usage(4), usage(5)]);
      await store.addUsage([usage(6)]);
      expect(await total(store)).toBe(unitsOf(range(7)));
      await closeAll();
      store = await open(dir);
      expect(await total(store), `cut at byte ${cut}, reopened`).toBe(unitsOf(range(7)));
      expect((await store.usage(DAY))[0]?.requests).toBe(7);
      await closeAll();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a corrupt line in the middle of a table file is a loud error naming the file and the byte offset', async () => {
    const dir = tmp();
    const s = await open(dir);
    for (const i of range(4)) await s.upsert(Tables.meta, [{ key: `m${i}`, version: 1, body: '{}' }]);
    await closeAll();
    const file = join(dir, 'store', 'meta.jsonl');
    const text = readFileSync(file, 'utf8');
    const second = text.indexOf('\n') + 1;
    writeFileSync(file, `${text.slice(0, second)}#${text.slice(second + 1)}`);
    const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await expect(createEmbeddedStore({ dataDir: dir })).rejects.toThrow(new RegExp(`${escaped}.*byte ${second}`));
  });

  it('a torn tail another process left while this one runs is cut before this one appends', async () => {
    const dir = tmp();
    const s = await open(dir);
    await s.upsert(Tables.orgs, [{ key: 'o1', version: 1, body: '{}' }]);
    const file = join(dir, 'store', 'orgs.jsonl');
    const kept = readFileSync(file).length;
    // the keys CLI, killed while it appended a row
    appendFileSync(file, '{"key":"o2","version":1,"bo');
    expect((await s.list(Tables.orgs)).map((r) => r.key)).toEqual(['o1']);
    await s.upsert(Tables.orgs, [{ key: 'o3', version: 1, body: '{}' }]);
    expect(torn.splice(0)).toEqual([{ file, kept, dropped: 27 }]);
    await closeAll();
    const again = await open(dir);
    expect((await again.list(Tables.orgs)).map((r) => r.key)).toEqual(['o1', 'o3']);
  });

  it('bytes past the last row while another live process has the store open are its append in flight: kept when it completes, cut when it never does', async () => {
    // a live process registered as having the store open (as a second store in another process is)
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      for (const completes of [true, false]) {
        const dir = tmp();
        const s = await open(dir);
        await s.upsert(Tables.orgs, [{ key: 'o1', version: 1, body: '{}' }]);
        await closeAll();
        writeFileSync(join(dir, 'store', 'open', `${other.pid}.peer`), '');
        const file = join(dir, 'store', 'orgs.jsonl');
        const line = '{"key":"o2","version":1,"body":"{}"}\n';
        appendFileSync(file, line.slice(0, 20));
        const opening = open(dir);
        await new Promise((r) => setTimeout(r, 60));
        if (completes) appendFileSync(file, line.slice(20));
        const store = await opening;
        expect((await store.list(Tables.orgs)).map((r) => r.key)).toEqual(completes ? ['o1', 'o2'] : ['o1']);
        expect(torn.splice(0).map((t) => t.dropped)).toEqual(completes ? [] : [20]);
        await closeAll();
      }
    } finally {
      other.kill('SIGKILL');
    }
  });
});
