import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMeter, utcDay } from '../../api/metering.ts';
import type { Meter } from '../../api/metering.ts';
import { createMemoryLog } from '../../infra/log/memory.ts';
import type { Log } from '../../infra/log/types.ts';
import type { TornTail } from '../../infra/files.ts';
import { createEmbeddedStore } from '../../infra/store/embedded.ts';
import type { Store } from '../../infra/store/types.ts';
import { waitFor } from './wait.ts';

/**
 * torn tail on the usage path, end to end on the embedded default: billed calls go to the usage
 * topic (api/metering.ts), the usage sink lands them in the store by record id. A process killed
 * while it published leaves part of a usage message at the end of `log/usage~0~0.jsonl`, and its
 * offsets file from before its last commits; after the restart, and after the one after it, the
 * store's totals are exactly the calls whose publish was acknowledged: nothing lost (the
 * records published after the second restart reused offsets below the sink's commit and never
 * reached the store), nothing counted twice (the sink replays what its lost commits covered).
 */
interface Run {
  log: Log;
  store: Store;
  meter: Meter;
}
const runs: Run[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const r of runs.splice(0)) await stop(r);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const torn: TornTail[] = [];
async function start(dataDir: string): Promise<Run> {
  const log = createMemoryLog({ dataDir, defaultPartitions: 1, idlePollMs: 5, onTornTail: (t) => void torn.push(t) });
  const store = await createEmbeddedStore({ dataDir });
  const meter = await createMeter({ log, store, runSink: true, flushMs: 5 });
  const run = { log, store, meter };
  runs.push(run);
  return run;
}
async function stop(r: Run): Promise<void> {
  runs.splice(runs.indexOf(r), 1);
  await r.meter.stop();
  await r.log.close();
  await r.store.close();
}

/** call i: key k<i>, i + 1 units, one message of its own on the topic */
async function bill(r: Run, calls: number[]): Promise<void> {
  for (const i of calls) r.meter.bill({ keyId: `k${i}`, orgId: 'org', operation: 'tokenIntel', units: i + 1, requestId: `req-${i}` }, Date.now());
  // acknowledged: the publish resolved
  await r.meter.flush();
}
const unitsOf = (calls: number[]) => calls.reduce((a, i) => a + i + 1, 0);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
async function totals(store: Store): Promise<{ units: number; requests: number }> {
  const t = await store.usage(utcDay(Date.now()));
  return { units: t.reduce((a, x) => a + x.units, 0), requests: t.reduce((a, x) => a + x.requests, 0) };
}
async function landed(r: Run, calls: number[]): Promise<void> {
  const want = { units: unitsOf(calls), requests: calls.length };
  await waitFor(async () => (await totals(r.store)).requests >= want.requests, `${want.requests} calls in the store`, 5_000, 5);
  // and no more arrive (a replay counted twice would)
  await new Promise((res) => setTimeout(res, 30));
  expect(await totals(r.store)).toEqual(want);
}

describe('torn tail on the usage path (metering → usage topic → sink → store)', () => {
  const segment = (dir: string) => join(dir, 'log', readdirSync(join(dir, 'log')).find((f) => f.startsWith('usage~0~')) as string);

  it.each([1, 40, 100, -2, -1])(
    'a publish torn at byte %i of its line and a lost offsets save: after two restarts the store holds exactly the acknowledged calls',
    async (at) => {
      const dir = mkdtempSync(join(tmpdir(), 'torn-usage-'));
      dirs.push(dir);
      // first life: calls 0..2 land and their commit is saved; calls 3..4 land, but the process is
      // killed before their commit reaches offsets.json, while it published one more message
      let r = await start(dir);
      await bill(r, range(0, 3));
      await landed(r, range(0, 3));
      await new Promise((res) => setTimeout(res, 400)); // the offsets save (200 ms)
      copyFileSync(join(dir, 'log', 'offsets.json'), join(dir, 'offsets.before'));
      await bill(r, range(3, 5));
      await landed(r, range(0, 5));
      await stop(r);
      copyFileSync(join(dir, 'offsets.before'), join(dir, 'log', 'offsets.json'));
      const lines = readFileSync(segment(dir), 'utf8').split('\n').filter(Boolean);
      const line = `${lines[lines.length - 1] as string}\n`;
      const cut = at > 0 ? at : line.length + at;
      appendFileSync(segment(dir), line.slice(0, cut).replace('req-4', 'req-X'));

      // second life: the torn message is cut off; the sink replays 3..4 (known), calls 5..7 land
      torn.length = 0;
      r = await start(dir);
      expect(torn.map((t) => [t.file, t.dropped])).toEqual([[segment(dir), cut]]);
      await bill(r, range(5, 8));
      await landed(r, range(0, 8));
      await stop(r);

      // third life: calls 8..9 land too, and the view counts every call once
      r = await start(dir);
      expect(torn).toEqual([{ file: segment(dir), kept: expect.any(Number), dropped: cut }]);
      await bill(r, range(8, 10));
      await landed(r, range(0, 10));
      expect(r.meter.budgetUsed(Date.now())).toBe(unitsOf(range(0, 10)));
      await stop(r);

      const store = await createEmbeddedStore({ dataDir: dir });
      expect(await totals(store)).toEqual({ units: unitsOf(range(0, 10)), requests: 10 });
      await store.close();
    },
  );
});
