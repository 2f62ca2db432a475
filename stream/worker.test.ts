import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLog } from '../infra/log/memory.ts';
import { CheckpointRow } from '../infra/rows.ts';
import type { Log } from '../infra/log/types.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import type { Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { startFoldWorker } from './worker.ts';
import { createChangeClock } from '../engine/tables.ts';
import { waitFor } from '../test/contract/wait.ts';
import type { FoldSpec, FoldWorker } from './worker.ts';

/**
 * The fold worker's checkpoints: a restarted worker loads each partition's checkpoint and folds
 * only the records after it, ending on exactly the state of a worker that never stopped; the log
 * drops the segments the checkpoints cover.
 */
interface Sum {
  key: string;
  total: number;
  n: number;
  last: number;
}

const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** a temporary data dir, removed after the test */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'worker-ckpt-'));
  dirs.push(dir);
  return dir;
}

/** the log (with the numbers topic) and the store on `dir`, closed after the test or by `closeLast` */
async function open(dir: string): Promise<{ log: Log; store: Store }> {
  const log = createMemoryLog({ dataDir: dir, defaultPartitions: 2, idlePollMs: 10, segmentBytes: 4_000 });
  const store = createEmbeddedStore({ dataDir: dir });
  closers.push(async () => {
    await log.close();
    await (await store).close();
  });
  await log.ensureTopic('numbers');
  return { log, store: await store };
}

/** closes the log and the store opened last: the process stops, and the test opens them again */
const closeLast = () => (closers.pop() as () => Promise<void>)();

function spec(decoded: { n: number }): FoldSpec<Sum, { v: number; pos: number }> {
  return {
    groupId: 'sum',
    kind: 'sum',
    topics: ['numbers'],
    init: (key) => ({ key, total: 0, n: 0, last: -1 }),
    decode: (v) => {
      decoded.n++;
      return JSON.parse(v) as { v: number; pos: number };
    },
    fold: (s, e) => ({ ...s, total: s.total + e.v, n: s.n + 1, last: e.pos }),
    derive: (s) => ({ total: s.total, n: s.n }),
    version: (s) => s.last,
  };
}

const events = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ key: `k${(from + i) % 10}`, value: JSON.stringify({ v: from + i, pos: from + i }) }));

const drained = (w: FoldWorker) => waitFor(async () => (await w.lag()).every((l) => l.lag === 0), 'the worker to drain', 5_000, 10);

describe('fold worker checkpoints', () => {
  it('a restart folds only the records after the checkpoint and ends on the uninterrupted state', async () => {
    const dir = tempDir();
    const first = await open(dir);
    await first.log.publish('numbers', events(0, 1000));
    const decodedA = { n: 0 };
    const a = await startFoldWorker(first, spec(decodedA), { checkpointMs: 50 });
    await drained(a);
    expect(decodedA.n).toBe(1000);
    await a.stop();
    await closeLast();

    const second = await open(dir);
    await second.log.publish('numbers', events(1000, 100));
    const decodedB = { n: 0 };
    const b = await startFoldWorker(second, spec(decodedB), { checkpointMs: 50 });
    await drained(b);
    // only the tail was read and folded
    expect(decodedB.n).toBe(100);
    for (let k = 0; k < 10; k++) {
      const values = Array.from({ length: 1100 }, (_, i) => i).filter((i) => i % 10 === k);
      expect(b.state(`k${k}`)).toEqual({ key: `k${k}`, total: values.reduce((x, y) => x + y, 0), n: 110, last: values[values.length - 1] });
      const row = await second.store.get(Tables.snapshots, `sum:k${k}`);
      expect(JSON.parse(row?.body ?? '{}')).toEqual({ total: values.reduce((x, y) => x + y, 0), n: 110 });
    }
    await b.stop();

    // the log kept only what no checkpoint covers: a reader from offset 0 starts far past it
    let firstOffset = Infinity;
    const c = await second.log.consume({
      groupId: 'ephemeral-check',
      topics: ['numbers'],
      startOffset: () => 0,
      eachBatch: async (batch) => void (firstOffset = Math.min(firstOffset, batch.records[0]?.offset ?? Infinity)),
    });
    await waitFor(() => firstOffset !== Infinity, 'the reader to get a batch', 5_000, 10);
    await c.stop();
    expect(firstOffset).toBeGreaterThan(100);
  });

  it('records the fold ignores (decoded to nothing: the prediction worker reading a perp fill) leave the checkpoint restorable', async () => {
    const dir = tempDir();
    // keys k0-k4 carry odd values only, which this fold ignores: they never get a state
    const ignoring = (decoded: { n: number }): FoldSpec<Sum, { v: number; pos: number }> => {
      const base = spec(decoded);
      const decode: typeof base.decode = (v, t) => {
        const e = base.decode(v, t);
        return e && e.v % 2 === 1 && e.pos % 10 < 5 ? undefined : e;
      };
      return { ...base, decode };
    };
    const first = await open(dir);
    await first.log.publish('numbers', events(0, 1000));
    const a = await startFoldWorker(first, ignoring({ n: 0 }), { checkpointMs: 50 });
    await drained(a);
    const expected = Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`k${k}`, a.state(`k${k}`)]));
    expect(expected.k1).toBeUndefined();
    expect((expected.k2 as Sum).n).toBe(100);
    await a.stop();
    await closeLast();

    const second = await open(dir);
    const decoded = { n: 0 };
    const restored: { partition: number; offset: number }[] = [];
    const errors: unknown[] = [];
    const b = await startFoldWorker(
      second,
      { ...ignoring(decoded), onRestore: (r) => void restored.push(r), onError: (err) => void errors.push(err) },
      { checkpointMs: 50 },
    );
    await drained(b);
    // both partitions restored from their checkpoints, nothing folded again
    expect(restored.map((r) => r.partition).sort()).toEqual([0, 1]);
    expect(restored.every((r) => r.offset > 0)).toBe(true);
    expect(decoded.n).toBe(0);
    expect(errors).toEqual([]);
    for (let k = 0; k < 10; k++) expect(b.state(`k${k}`)).toEqual(expected[`k${k}`]);
    await b.stop();
  });

  it('a checkpoint written before that was mended (entries without a state) is restored without those entries', () => {
    const body = '{"offset":799,"stateVersion":1,"keys":[{"key":"sim:0xea"},{"key":"sim:0x28","state":{"n":2},"version":7}]}';
    expect(CheckpointRow.codec.decode(body)).toEqual({ offset: 799, stateVersion: 1, keys: [{ key: 'sim:0x28', state: { n: 2 }, version: 7 }] });
  });

  it('a checkpoint after some keys changed holds the new state of those and the unchanged state of the rest', async () => {
    const dir = tempDir();
    const first = await open(dir);
    const a = await startFoldWorker(first, spec({ n: 0 }), { checkpointMs: 50 });
    await first.log.publish('numbers', events(0, 100));
    await drained(a);
    // a batch on each partition after the interval checkpoints every key (each serialized once, then reused)
    await new Promise((r) => setTimeout(r, 60));
    await first.log.publish('numbers', events(1000, 10));
    await drained(a);
    // then only k1 and k2 move; the stop's checkpoint must carry their new states
    await first.log.publish('numbers', [1, 2].map((k) => ({ key: `k${k}`, value: JSON.stringify({ v: 5000 + k, pos: 5000 + k }) })));
    await drained(a);
    const expected = Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`k${k}`, a.state(`k${k}`)]));
    expect((expected.k1 as Sum).last).toBe(5001);
    await a.stop();
    await closeLast();

    const second = await open(dir);
    const decoded = { n: 0 };
    const b = await startFoldWorker(second, spec(decoded), { checkpointMs: 50 });
    // nothing to fold: the lag stays above 0 until the checkpoints are restored
    await drained(b);
    expect(decoded.n).toBe(0);
    for (let k = 0; k < 10; k++) expect(b.state(`k${k}`)).toEqual(expected[`k${k}`]);
    await b.stop();
  });

  it('a backfill\'s tail is not held in the log until the longest interval: a checkpoint is due once the records since take more bytes than it', async () => {
    const dir = tempDir();
    const first = await open(dir);
    const { store } = first;
    // a state of 4 kB a key, records of 2 kB: 20 records a partition replay in far less time than
    // their checkpoint takes to write, but take more disk than it
    const padded: FoldSpec<Sum & { pad: string }, { v: number; pos: number }> = {
      ...spec({ n: 0 }),
      init: (key) => ({ key, total: 0, n: 0, last: -1, pad: '' }),
      fold: (s, e) => ({ ...s, total: s.total + e.v, n: s.n + 1, last: e.pos, pad: 'x'.repeat(4000) }),
    } as FoldSpec<Sum & { pad: string }, { v: number; pos: number }>;
    const big = (from: number, n: number) => events(from, n).map((r) => ({ ...r, value: r.value.replace('}', `,"pad":"${'y'.repeat(2000)}"}`) }));
    const a = await startFoldWorker(first, padded, { checkpointMs: 50, checkpointMaxMs: 600_000 });
    const covered = async () => (await store.list(Tables.checkpoints)).reduce((sum, r) => sum + r.version, 0);
    await first.log.publish('numbers', events(0, 10));
    await drained(a);
    // the first checkpoints (none yet: due at once), each partition's five keys, 20 kB
    await waitFor(async () => (await covered()) === 10, 'the first checkpoints', 5_000, 10);
    // then 20 records a partition, the last batch for a while: 4 kB to replay, 40 kB of log
    await first.log.publish('numbers', big(10, 40));
    await drained(a);
    await waitFor(async () => (await covered()) === 50, 'checkpoints covering the big records, with no batch after them', 5_000, 10);
    await a.stop();
  });

  describe('a restart derives again only the restored keys whose snapshot may be stale', () => {
    /**
     * a derivation that joins a table: each key's snapshot is its total times the key's factor
     * (one table row per key, `factor|kN`), its reads given back at restore (FoldSpec.reads)
     */
    function joining(factors: Map<string, number>, clock: ReturnType<typeof createChangeClock>, deriveId: string, derived: string[]): FoldSpec<Sum, { v: number; pos: number }> {
      const base = spec({ n: 0 });
      return {
        ...base,
        derive: (s, key) => {
          derived.push(key);
          return { total: s.total * (factors.get(key) ?? 1), n: s.n };
        },
        reads: {
          deriveId,
          watermark: () => clock.watermark(),
          save: (key) => [`factor|${key}`],
          restore: (_key, _s, saved, since) => (saved as string[]).some((row) => clock.changedSince(row, since)),
        },
      };
    }
    const snapshot = async (store: Store, k: string) => JSON.parse((await store.get(Tables.snapshots, `sum:${k}`))?.body ?? '{}') as { total: number; n: number };
    /** a worker of `deriveId` folds 100 events on a fresh data dir and stops (its stop checkpoints) */
    async function firstRun(factors: Map<string, number>, clock: ReturnType<typeof createChangeClock>, deriveId: string): Promise<string> {
      const dir = tempDir();
      const first = await open(dir);
      await first.log.publish('numbers', events(0, 100));
      const a = await startFoldWorker(first, joining(factors, clock, deriveId, []), { checkpointMs: 50 });
      await drained(a);
      await a.stop();
      await closeLast();
      return dir;
    }
    /** k's snapshot: the total of its 10 events times `factor` */
    const expectedOf = (k: number, factor: number) => ({ total: factor * Array.from({ length: 100 }, (_, i) => i).filter((i) => i % 10 === k).reduce((x, y) => x + y, 0), n: 10 });

    it('a table row that changed while the worker was down re-derives the keys that read it, and only those', async () => {
      const factors = new Map<string, number>();
      const clock = createChangeClock();
      // the table's changes up to offset 5 were handed to the worker before it stopped
      clock.handed('factors:0', 5);
      const dir = await firstRun(factors, clock, 'code-1');

      // while it was down: k3's factor changed by the table's record at offset 5, k4's by one at offset 2, below the watermark (its readers were derived with it)
      factors.set('k3', 10);
      clock.changed('factor|k3', 'factors:0', 5);
      clock.changed('factor|k4', 'factors:0', 2);
      const second = await open(dir);
      const derived: string[] = [];
      const restored: { keys: number; stale: number }[] = [];
      const b = await startFoldWorker(second, { ...joining(factors, clock, 'code-1', derived), onRestore: (r) => void restored.push(r) }, { checkpointMs: 50 });
      await drained(b);
      expect(restored.reduce((n, r) => n + r.keys, 0)).toBe(10);
      expect(restored.reduce((n, r) => n + r.stale, 0)).toBe(1);
      expect(derived).toEqual(['k3']);
      expect(await snapshot(second.store, 'k3')).toEqual(expectedOf(3, 10));
      await b.stop();
    });

    it('a checkpoint written by other derivation code re-derives every key; keys waiting for a re-derivation at the checkpoint are derived at the restore', async () => {
      const factors = new Map<string, number>();
      const clock = createChangeClock();
      const dir = await firstRun(factors, clock, 'code-1');

      const second = await open(dir);
      const derivedNew: string[] = [];
      const b = await startFoldWorker(second, joining(factors, clock, 'code-2', derivedNew), { checkpointMs: 50 });
      await drained(b);
      expect([...derivedNew].sort()).toEqual(Array.from({ length: 10 }, (_, k) => `k${k}`));
      // a table change handed to the worker (k5 dirty) is written by the stop's checkpoint before its re-derivation ran
      factors.set('k5', 3);
      void b.rederive(['k5']);
      await b.stop();
      await closeLast();

      const third = await open(dir);
      const derived: string[] = [];
      const c = await startFoldWorker(third, joining(factors, clock, 'code-2', derived), { checkpointMs: 50 });
      await drained(c);
      expect(derived).toEqual(['k5']);
      expect(await snapshot(third.store, 'k5')).toEqual(expectedOf(5, 3));
      await c.stop();
    });
  });
});
