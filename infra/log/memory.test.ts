import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Consumer, Log, LogRecord } from './types.ts';
import { waitFor } from '../../test/contract/wait.ts';
import { createMemoryLog } from './memory.ts';

/**
 * What only the embedded log does (the contract suite covers what both adapters share): segments
 * on disk, dropped once every group reading the topic is past them, and compacted topics that
 * survive a restart with the latest record per key.
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

describe('embedded log retention', () => {
  it('drops the segments a releasing group released and a committing group committed, and no others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memlog-'));
    dirs.push(dir);
    const log = open(dir);
    await log.ensureTopic('events');
    await log.publish('events', records(0, 400));
    expect(segments(dir, 'events').length).toBeGreaterThan(5);
    let read = 0;
    const worker = await log.consume({
      groupId: 'worker',
      topics: ['events'],
      retainUntilReleased: true,
      eachBatch: async (b) => void (read = (b.records[b.records.length - 1] as LogRecord).offset + 1),
    });
    consumers.push(worker);
    await until(() => read === 400);
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
