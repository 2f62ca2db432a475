/**
 * The one contract every Log adapter passes (in-process and Kafka): run by log.test.ts against
 * each. Topics and groups get unique names, so suites can share a broker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Consumer, Log, LogBatch, LogRecord } from '../../infra/log/types.ts';
import { partitionFor } from '../../infra/log/types.ts';
import { uniqueSuffix, waitFor } from './wait.ts';

type Assignment = { topic: string; partition: number }[];

const sum = (xs: { lag: number }[]) => xs.reduce((a, x) => a + x.lag, 0);

/**
 * `shared`: instances of this adapter see each other's appends while they run (Kafka: separate
 * processes on one cluster); the in-process log is one process's log, so its racers share one.
 */
export function logContract(name: string, create: () => Promise<Log>, o: { shared: boolean }): void {
  describe(`Log contract: ${name}`, () => {
    const run = uniqueSuffix();
    let n = 0;
    const fresh = (what: string) => `contract-${what}-${run}-${++n}`;
    const open: Log[] = [];
    const running: Consumer[] = [];

    async function newLog(): Promise<Log> {
      const log = await create();
      open.push(log);
      return log;
    }

    afterEach(async () => {
      await Promise.all(running.splice(0).map((c) => c.stop()));
      await Promise.all(open.splice(0).map((l) => l.close()));
    });

    async function consume(log: Log, o: Parameters<Log['consume']>[0]): Promise<Consumer> {
      const c = await log.consume(o);
      running.push(c);
      return c;
    }

    async function stop(c: Consumer): Promise<void> {
      await c.stop();
      running.splice(running.indexOf(c), 1);
    }

    it('creates topics idempotently and keeps their partition count', async () => {
      const log = await newLog();
      const t = fresh('topic');
      await log.ensureTopic(t, { partitions: 3 });
      await log.ensureTopic(t, { partitions: 3 });
      expect(await log.partitions(t)).toBe(3);
      await log.ensureTopic(t, { partitions: 5 });
      expect(await log.partitions(t)).toBe(3);
      const c = fresh('compacted');
      await log.ensureTopic(c, { partitions: 2, compacted: true });
      expect(await log.partitions(c)).toBe(2);
    });

    it('processes that race to create a topic can all consume and publish on it at once', async () => {
      // engines of a distributed run start together and each ensures the same topics
      const logs = o.shared ? await Promise.all([newLog(), newLog(), newLog()]) : Array<Log>(3).fill(await newLog());
      const t = fresh('race');
      await Promise.all(logs.map((l) => l.ensureTopic(t, { partitions: 4 })));
      const seen: string[] = [];
      await Promise.all(
        logs.map((l, i) =>
          consume(l, {
            groupId: fresh(`race-group-${i}`),
            topics: [t],
            eachBatch: async (b: LogBatch) => {
              for (const r of b.records) seen.push(`${i}:${r.key}`);
            },
          }),
        ),
      );
      await Promise.all(logs.map((l, i) => l.publish(t, [{ key: `k${i}`, value: String(i) }])));
      await waitFor(() => seen.length === 9, 'every consumer to see every record');
      expect([...seen].sort()).toEqual(['0:k0', '0:k1', '0:k2', '1:k0', '1:k1', '1:k2', '2:k0', '2:k1', '2:k2']);
    });

    it('keeps order per key and puts every key on partitionFor(key, partitions)', async () => {
      const log = await newLog();
      const t = fresh('order');
      await log.ensureTopic(t, { partitions: 4 });
      const keys = Array.from({ length: 10 }, (_, i) => `token:${i}`);
      for (let round = 0; round < 4; round++) {
        const records = [];
        for (let s = round * 5; s < round * 5 + 5; s++) {
          for (const key of keys) records.push({ key, value: JSON.stringify({ key, seq: s }), timestamp: 1_700_000_000_000 + s });
        }
        await log.publish(t, records);
      }
      const seen: LogRecord[] = [];
      const batches: LogBatch[] = [];
      await consume(log, {
        groupId: fresh('group'),
        topics: [t],
        fromBeginning: true,
        eachBatch: async (b) => {
          batches.push(b);
          seen.push(...b.records);
        },
      });
      await waitFor(() => seen.length >= 200, '200 records');
      expect(seen).toHaveLength(200);
      for (const r of seen) {
        expect(r.topic).toBe(t);
        expect(r.partition).toBe(partitionFor(r.key, 4));
        const v = JSON.parse(r.value) as { key: string; seq: number };
        expect(v.key).toBe(r.key);
        expect(r.timestamp).toBe(1_700_000_000_000 + v.seq);
      }
      for (const key of keys) {
        const seqs = seen.filter((r) => r.key === key).map((r) => (JSON.parse(r.value) as { seq: number }).seq);
        expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => i));
      }
      for (const b of batches) {
        expect(b.records.length).toBeGreaterThan(0);
        const offsets = b.records.map((r) => r.offset);
        expect(offsets).toEqual([...offsets].sort((x, y) => x - y));
        expect(b.records.every((r) => r.partition === b.partition && r.topic === b.topic)).toBe(true);
        expect(b.highWatermark).toBeGreaterThanOrEqual(offsets[offsets.length - 1]!);
      }
    });

    it('delivers at most maxBatchSize records per handler call', async () => {
      const log = await newLog();
      const t = fresh('maxbatch');
      await log.ensureTopic(t, { partitions: 1 });
      await log.publish(t, Array.from({ length: 25 }, (_, i) => ({ key: 'k', value: String(i) })));
      const sizes: number[] = [];
      const values: string[] = [];
      await consume(log, {
        groupId: fresh('group'),
        topics: [t],
        maxBatchSize: 10,
        eachBatch: async (b) => {
          sizes.push(b.records.length);
          values.push(...b.records.map((r) => r.value));
        },
      });
      await waitFor(() => values.length >= 25, '25 records');
      expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
      expect(values).toEqual(Array.from({ length: 25 }, (_, i) => String(i)));
    });

    it('redelivers the records of a handler that threw, and commits only after it resolved', async () => {
      const log = await newLog();
      const t = fresh('retry');
      await log.ensureTopic(t, { partitions: 1 });
      await log.publish(t, ['a0', 'a1', 'a2'].map((value) => ({ key: 'k', value })));
      const attempts: number[] = [];
      const done: string[] = [];
      const c = await consume(log, {
        groupId: fresh('group'),
        topics: [t],
        eachBatch: async (b) => {
          attempts.push(b.records[0]!.offset);
          if (attempts.length <= 2) throw new Error('sink unavailable');
          done.push(...b.records.map((r) => r.value));
        },
      });
      await waitFor(() => done.length >= 3, 'records after two failures');
      expect(done).toEqual(['a0', 'a1', 'a2']);
      expect(attempts.slice(0, 3)).toEqual([0, 0, 0]);
      await waitFor(async () => sum(await c.lag()) === 0, 'lag 0 after success');
    });

    it('a restarted consumer resumes after the last commit; failed batches are not committed', async () => {
      const log = await newLog();
      const t = fresh('resume');
      const groupId = fresh('group');
      await log.ensureTopic(t, { partitions: 1 });
      await log.publish(t, ['a0', 'a1', 'a2', 'a3', 'a4'].map((value) => ({ key: 'k', value })));

      const first: string[] = [];
      let failing = false;
      let failedAttempts = 0;
      const c1 = await consume(log, {
        groupId,
        topics: [t],
        eachBatch: async (b) => {
          if (failing) {
            failedAttempts++;
            throw new Error('sink down');
          }
          first.push(...b.records.map((r) => r.value));
        },
      });
      await waitFor(() => first.length >= 5, 'first five');
      await waitFor(async () => sum(await c1.lag()) === 0, 'first five committed');
      failing = true;
      await log.publish(t, ['b0', 'b1', 'b2'].map((value) => ({ key: 'k', value })));
      await waitFor(() => failedAttempts >= 2, 'failed attempts on b*');
      await stop(c1);
      expect(first).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);

      // a second process: new client, same group
      const log2 = await newLog();
      // every process declares the topics it uses at start
      await log2.ensureTopic(t, { partitions: 1 });
      const second: LogRecord[] = [];
      await consume(log2, {
        groupId,
        topics: [t],
        eachBatch: async (b) => {
          second.push(...b.records);
        },
      });
      await waitFor(() => second.length >= 3, 'b* after restart');
      expect(second.map((r) => r.value)).toEqual(['b0', 'b1', 'b2']);
      expect(second.map((r) => r.offset)).toEqual([5, 6, 7]);
    });

    it('a new group that does not start from the beginning reads what is published after it joined', async () => {
      const log = await newLog();
      const t = fresh('latest');
      await log.ensureTopic(t, { partitions: 1 });
      await log.publish(t, [{ key: 'k', value: 'before' }]);
      const seen: string[] = [];
      const c = await consume(log, { groupId: fresh('latest-group'), topics: [t], fromBeginning: false, eachBatch: async (b) => void seen.push(...b.records.map((r) => r.value)) });
      await waitFor(async () => (await c.lag()).length > 0, 'the member to be assigned');
      // Kafka resolves "the end" at the member's first fetch: publish until one arrives
      await waitFor(async () => {
        if (!seen.includes('after')) await log.publish(t, [{ key: 'k', value: 'after' }]);
        return seen.includes('after');
      }, 'a record published after joining');
      expect(seen).not.toContain('before');
    });

    it('startOffset overrides the committed offset on assignment', async () => {
      const log = await newLog();
      const t = fresh('seek');
      const groupId = fresh('group');
      await log.ensureTopic(t, { partitions: 2 });
      await log.publish(t, Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, value: String(i) })));
      const firstRun: string[] = [];
      const c1 = await consume(log, { groupId, topics: [t], eachBatch: async (b) => void firstRun.push(...b.records.map((r) => r.value)) });
      await waitFor(() => firstRun.length >= 6, 'first run');
      await waitFor(async () => sum(await c1.lag()) === 0, 'first run committed');
      await stop(c1);

      const replay: string[] = [];
      await consume(log, {
        groupId,
        topics: [t],
        startOffset: () => 0,
        eachBatch: async (b) => void replay.push(...b.records.map((r) => r.value)),
      });
      await waitFor(() => replay.length >= 6, 'replay from 0');
      expect([...replay].sort()).toEqual(['0', '1', '2', '3', '4', '5']);
    });

    it('two members of one group split the partitions; the survivor takes them all', async () => {
      const log = await newLog();
      const t = fresh('split');
      const groupId = fresh('group');
      await log.ensureTopic(t, { partitions: 4 });
      const seen: Record<'a' | 'b', LogRecord[]> = { a: [], b: [] };
      const assigned: Record<'a' | 'b', Assignment> = { a: [], b: [] };
      const member = (m: 'a' | 'b') =>
        consume(log, {
          groupId,
          topics: [t],
          eachBatch: async (b) => void seen[m].push(...b.records),
          onAssign: (x) => {
            assigned[m] = x;
          },
        });
      const a = await member('a');
      await waitFor(() => assigned.a.length === 4, 'a owns all four partitions');
      await member('b');
      const split = () => {
        const pa = assigned.a.map((x) => x.partition);
        const pb = assigned.b.map((x) => x.partition);
        return pa.length > 0 && pb.length > 0 && pa.length + pb.length === 4 && new Set([...pa, ...pb]).size === 4;
      };
      await waitFor(split, 'a and b split the partitions');

      const keys = Array.from({ length: 40 }, (_, i) => `wallet:${i}`);
      await log.publish(t, keys.map((key) => ({ key, value: 'one' })));
      await waitFor(() => seen.a.length + seen.b.length >= 40, '40 records across both');
      expect(seen.a.length + seen.b.length).toBe(40);
      const owned = (m: 'a' | 'b') => new Set(assigned[m].map((x) => x.partition));
      expect(seen.a.every((r) => owned('a').has(r.partition))).toBe(true);
      expect(seen.b.every((r) => owned('b').has(r.partition))).toBe(true);
      expect(new Set([...seen.a, ...seen.b].map((r) => r.key)).size).toBe(40);

      await stop(a);
      await waitFor(() => assigned.b.length === 4, 'b takes all four partitions');
      const before = seen.b.length;
      await log.publish(t, keys.map((key) => ({ key, value: 'two' })));
      await waitFor(() => seen.b.filter((r) => r.value === 'two').length >= 40, 'b gets every new record');
      expect(seen.b.slice(before).filter((r) => r.value === 'two')).toHaveLength(40);
    });

    it('reports lag per assigned partition until the handler commits', async () => {
      const log = await newLog();
      const t = fresh('lag');
      await log.ensureTopic(t, { partitions: 2 });
      await log.publish(t, Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, value: String(i) })));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const c = await consume(log, {
        groupId: fresh('group'),
        topics: [t],
        fromBeginning: true,
        eachBatch: async () => {
          await gate;
        },
      });
      await waitFor(async () => sum(await c.lag()) === 6, 'lag of 6 before any commit');
      const lag = await c.lag();
      expect(lag.map((l) => l.partition).sort()).toEqual([0, 1]);
      expect(lag.every((l) => l.topic === t)).toBe(true);
      release();
      await waitFor(async () => sum(await c.lag()) === 0, 'lag 0 after commit');
    });
  });
}
