import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TornTail } from '../files.ts';
import type { ConsumeOptions, Consumer, Log, LogRecord } from './types.ts';
import { waitFor } from '../../test/contract/wait.ts';
import { createMemoryLog } from './memory.ts';

/**
 * What only the embedded log does (the contract suite covers what both adapters share): segments
 * on disk, dropped once every group reading the topic is past them, compacted topics that
 * survive a restart with the latest record per key, and torn tails.
 */
const dirs: string[] = [];
const logs: Log[] = [];
const consumers: Consumer[] = [];
afterEach(async () => {
  for (const c of consumers.splice(0)) await c.stop();
  for (const l of logs.splice(0)) await l.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(dataDir: string): Log {
  const log = createMemoryLog({ dataDir, defaultPartitions: 1, idlePollMs: 10, segmentBytes: 2_000 });
  logs.push(log);
  return log;
}

const until = (cond: () => boolean) => waitFor(cond, 'the consumer to read it', 5_000, 10);

const records = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${(from + i) % 7}`, value: `v${from + i}`.padEnd(60, '.') }));
const segments = (dir: string, topic: string) => readdirSync(join(dir, 'log')).filter((f) => f.startsWith(`${topic}~0~`));

/** a data dir whose log holds `n` records on `events` (one partition) */
async function eventsLog(n: number): Promise<{ dir: string; log: Log }> {
  const dir = mkdtempSync(join(tmpdir(), 'memlog-'));
  dirs.push(dir);
  const log = open(dir);
  await log.ensureTopic('events');
  await log.publish('events', records(0, n));
  return { dir, log };
}

/** a group reading `events`; `next()` is the offset after the last record it read */
async function reader(log: Log, groupId: string, opts: Partial<ConsumeOptions> = {}): Promise<{ consumer: Consumer; next(): number }> {
  let next = 0;
  const consumer = await log.consume({
    groupId,
    topics: ['events'],
    ...opts,
    eachBatch: async (b) => void (next = (b.records[b.records.length - 1] as LogRecord).offset + 1),
  });
  return { consumer, next: () => next };
}

describe('embedded log retention', () => {
  it('drops the segments a releasing group released and a committing group committed, and no others', async () => {
    const { dir, log } = await eventsLog(400);
    expect(segments(dir, 'events').length).toBeGreaterThan(5);
    const { consumer: worker, next } = await reader(log, 'worker', { retainUntilReleased: true });
    consumers.push(worker);
    await until(() => next() === 400);
    // committed everything, released nothing: a checkpointing group still needs it all
    expect(segments(dir, 'events').length).toBeGreaterThan(5);
    worker.release('events', 0, 300);
    const basesOf = () => segments(dir, 'events').map((f) => Number(f.split('~')[2]?.replace('.jsonl', ''))).sort((a, b) => a - b);
    // the dropped segments are unlinked in the background: only the one holding 300 and later ones stay
    await waitFor(() => (basesOf()[1] ?? Infinity) > 300, 'the released segments to go', 5_000, 10);
    const bases = basesOf();
    expect(bases[0]).toBeLessThanOrEqual(300);
    expect(bases[1]).toBeGreaterThan(300);

    // a committing group that is behind holds the floor at its commit
    const sinkSeen: number[] = [];
    const sink = await log.consume({ groupId: 'sink', topics: ['events'], maxBatchSize: 10, eachBatch: async (b) => void sinkSeen.push(...b.records.map((r) => r.offset)) });
    consumers.push(sink);
    await until(() => sinkSeen.length > 0);
    // it started from the first retained record: older ones are gone
    expect(sinkSeen[0]).toBe(bases[0]);
    await until(() => sinkSeen.length === 400 - (bases[0] as number));
    await log.publish('events', records(400, 200));
    await until(() => sinkSeen.length === 600 - (bases[0] as number));
    worker.release('events', 0, 590);
    await sink.stop();
    consumers.splice(consumers.indexOf(sink), 1);
    await worker.stop();
    consumers.splice(consumers.indexOf(worker), 1);
    await log.close();

    // after a restart the log holds the retained tail, at the same offsets
    const again = open(dir);
    await again.ensureTopic('events');
    const seen: LogRecord[] = [];
    const c = await again.consume({ groupId: 'ephemeral-reader', topics: ['events'], startOffset: () => 0, eachBatch: async (b) => void seen.push(...b.records) });
    consumers.push(c);
    await until(() => seen[seen.length - 1]?.offset === 599);
    expect((seen[0] as LogRecord).offset).toBeGreaterThan(bases[0] as number);
    expect((seen[0] as LogRecord).offset).toBeLessThanOrEqual(590);
    expect(seen.map((r) => r.value)).toEqual(records(0, 600).slice((seen[0] as LogRecord).offset).map((r) => r.value));
    await again.publish('events', records(600, 1));
    await until(() => seen[seen.length - 1]?.offset === 600);
  });

  it('a checkpointing group that is not running holds the partitions it reads, also one it never released (a restart before it rejoins)', async () => {
    const { dir, log } = await eventsLog(400);
    const { consumer: worker, next } = await reader(log, 'worker', { retainUntilReleased: true });
    await until(() => next() === 400);
    // stopped before its first checkpoint of the partition: it released nothing
    await worker.stop();
    await log.close();

    // the restart: another group commits the whole partition before the worker's group rejoins
    const again = open(dir);
    await again.ensureTopic('events');
    const { consumer: sink, next: sinkNext } = await reader(again, 'sink');
    consumers.push(sink);
    await again.publish('events', records(400, 200));
    await until(() => sinkNext() === 600);
    await sink.stop();
    consumers.splice(consumers.indexOf(sink), 1);
    // the worker restores no checkpoint: it needs the partition from offset 0, and has it
    const seen: number[] = [];
    const back = await again.consume({ groupId: 'worker', topics: ['events'], retainUntilReleased: true, startOffset: () => 0, eachBatch: async (b) => void seen.push(...b.records.map((r) => r.offset)) });
    consumers.push(back);
    await until(() => seen.length === 600);
    expect(seen[0]).toBe(0);
  });

  it('keeps a compacted topic across a restart with the latest record per key; a rebuildable one lives in memory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memlog-'));
    dirs.push(dir);
    const log = open(dir);
    await log.ensureTopic('table', { compacted: true });
    await log.ensureTopic('snapshots', { compacted: true, rebuildable: true });
    for (let i = 0; i < 3000; i += 100) await log.publish('table', records(i, 100));
    await log.publish('snapshots', records(0, 10));
    // a rebuildable topic never reaches the disk
    expect(segments(dir, 'snapshots')).toEqual([]);
    await log.close();
    const again = open(dir);
    await again.ensureTopic('table', { compacted: true });
    await again.ensureTopic('snapshots', { compacted: true, rebuildable: true });
    const latest = new Map<string, string>();
    let snaps = 0;
    const c = await again.consume({
      groupId: 'ephemeral-table',
      topics: ['table', 'snapshots'],
      startOffset: () => 0,
      eachBatch: async (b) => {
        for (const r of b.records) if (r.topic === 'table') latest.set(r.key, r.value);
        snaps += b.records.filter((r) => r.topic === 'snapshots').length;
      },
    });
    consumers.push(c);
    const expected = new Map(records(0, 3000).map((r) => [r.key, r.value]));
    await until(() => latest.size === 7 && [...expected].every(([k, v]) => latest.get(k) === v));
    expect(snaps).toBe(0);
    // compaction kept the disk small: far fewer lines than were published
    const lines = segments(dir, 'table').reduce((n, f) => n + readFileSync(join(dir, 'log', f), 'utf8').split('\n').filter(Boolean).length, 0);
    expect(lines).toBeLessThan(1100);
  });
});

const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'torn-log-'));
  dirs.push(d);
  return d;
};
/** the tears the logs reported */
const torn: TornTail[] = [];
function openTorn(dataDir: string): Log {
  const log = createMemoryLog({ dataDir, defaultPartitions: 1, idlePollMs: 5, onTornTail: (t) => void torn.push(t) });
  logs.push(log);
  return log;
}
async function closeAll(): Promise<void> {
  for (const c of consumers.splice(0)) await c.stop();
  for (const l of logs.splice(0)) await l.close();
}

const value = (i: number) => `record-${i}`;
const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${from + i}`, value: value(from + i) }));

/** a group that commits what it reads, and what it was handed */
async function group(log: Log, groupId: string): Promise<LogRecord[]> {
  const seen: LogRecord[] = [];
  consumers.push(await log.consume({ groupId, topics: ['usage'], eachBatch: async (b) => void seen.push(...b.records) }));
  return seen;
}
/** every record the log holds, from offset 0 */
async function everything(log: Log, expected: number): Promise<LogRecord[]> {
  const seen: LogRecord[] = [];
  const c = await log.consume({ groupId: `ephemeral-all-${Math.random()}`, topics: ['usage'], startOffset: () => 0, eachBatch: async (b) => void seen.push(...b.records) });
  await waitFor(() => seen.length >= expected, `${expected} records`, 5_000, 5);
  // nothing more arrives
  await new Promise((r) => setTimeout(r, 20));
  await c.stop();
  return seen;
}
const segmentOf = (dir: string) => join(dir, 'log', readdirSync(join(dir, 'log')).find((f) => f.startsWith('usage~0~')) as string);

/**
 * torn tail: a process killed while it appended leaves part of a record at the end of a segment
 * file. Reopened, the log keeps every record before it at its offset, drops the torn one, never
 * writes after it, and gives new records offsets past every committed one, so a group that had
 * committed them reads what comes next instead of skipping it (the loader used to append
 * after the torn bytes, lose everything after them on the next restart, and reuse offsets below the
 * committed ones, so the usage sink never saw those records).
 */
describe('torn tail (embedded log)', () => {
  it('torn at every byte of the last record: earlier records intact, the torn one gone, new records past every committed offset, across two restarts', async () => {
    const N = 8;
    // the pristine run: a sink that read everything, a lagging group that stopped 3 records short
    const pristine = tmp();
    {
      const log = openTorn(pristine);
      await log.ensureTopic('usage');
      await log.publish('usage', batch(0, N - 3));
      const lagging = await group(log, 'lagging');
      await waitFor(() => lagging.length === N - 3, 'the lagging group', 5_000, 5);
      await consumers.splice(0)[0]?.stop();
      await log.publish('usage', batch(N - 3, 2));
      await log.publish('usage', batch(N - 1, 1));
      const sink = await group(log, 'sink');
      await waitFor(() => sink.length === N, 'the sink', 5_000, 5);
      await closeAll();
    }
    const file = readFileSync(segmentOf(pristine));
    const lastStart = file.lastIndexOf('\n', file.length - 2) + 1;
    expect(JSON.parse(file.subarray(lastStart).toString()).offset).toBe(N - 1);

    for (let cut = lastStart; cut < file.length; cut++) {
      const dir = tmp();
      cpSync(pristine, dir, { recursive: true });
      truncateSync(segmentOf(dir), cut);

      // first restart: the records before the tear at their offsets, the torn one gone (and said so)
      torn.length = 0;
      let log = openTorn(dir);
      await log.ensureTopic('usage');
      expect(torn).toEqual(cut > lastStart ? [{ file: segmentOf(dir), kept: lastStart, dropped: cut - lastStart }] : []);
      expect(readFileSync(segmentOf(dir)).length).toBe(lastStart);
      const kept = await everything(log, N - 1);
      expect(kept.map((r) => [r.offset, r.value]), `cut at byte ${cut}`).toEqual(batch(0, N - 1).map((r, i) => [i, r.value]));
      // new records get offsets past the sink's commit (N): the sink reads them all, the lagging group
      // the intact tail of what it had not read, then them
      const sink = await group(log, 'sink');
      const lagging = await group(log, 'lagging');
      await log.publish('usage', batch(100, 3));
      await waitFor(() => sink.length === 3 && lagging.length === 5, `both groups at cut ${cut} (sink ${sink.length}, lagging ${lagging.length})`, 5_000, 5);
      expect(sink.map((r) => r.value)).toEqual(batch(100, 3).map((r) => r.value));
      expect(sink.every((r) => r.offset >= N)).toBe(true);
      expect(lagging.map((r) => r.value)).toEqual([value(N - 3), value(N - 2), ...batch(100, 3).map((r) => r.value)]);
      const offsetsOfNew = sink.map((r) => r.offset);
      await closeAll();

      // second restart: everything from the first is still there, at the same offsets, and more
      // records still reach both groups
      torn.length = 0;
      log = openTorn(dir);
      await log.ensureTopic('usage');
      expect(torn).toEqual([]);
      const all = await everything(log, N + 2);
      expect(all.map((r) => r.value)).toEqual([...batch(0, N - 1), ...batch(100, 3)].map((r) => r.value));
      expect(all.slice(N - 1).map((r) => r.offset)).toEqual(offsetsOfNew);
      const sink2 = await group(log, 'sink');
      const lagging2 = await group(log, 'lagging');
      await log.publish('usage', batch(200, 1));
      await waitFor(() => sink2.length === 1 && lagging2.length === 1, `both groups after the second restart at cut ${cut}`, 5_000, 5);
      expect(sink2[0]?.value).toBe(value(200));
      expect(lagging2[0]?.value).toBe(value(200));
      await closeAll();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a corrupt line in the middle of a segment is a loud error naming the file and the byte offset, not a silent truncation', async () => {
    const dir = tmp();
    const log = openTorn(dir);
    await log.ensureTopic('usage');
    await log.publish('usage', batch(0, 5));
    await closeAll();
    const seg = segmentOf(dir);
    const text = readFileSync(seg, 'utf8');
    const third = text.split('\n').slice(0, 2).join('\n').length + 1;
    // a line damaged in place (as a bad sector or the old loader's writes after a torn line leave it)
    writeFileSync(seg, `${text.slice(0, third)}#${text.slice(third + 1)}`);
    const again = openTorn(dir);
    await expect(again.ensureTopic('usage')).rejects.toThrow(new RegExp(`${seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*byte ${third}`));
  });
});
