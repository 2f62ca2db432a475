import { describe, expect, it } from 'vitest';
import { PermanentWriteError, createBatchWriter } from './batch.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** a sink that records each write, and can be told to fail */
function sink(failures: unknown[] = []) {
  const writes: number[][] = [];
  return {
    writes,
    write: async (items: number[]) => {
      const f = failures.shift();
      if (f) throw f;
      writes.push([...items]);
    },
  };
}

describe('batching writer', () => {
  it('size flush: a full batch is written at once, without waiting for the timer', async () => {
    const s = sink();
    const w = createBatchWriter({ name: 't', write: s.write, maxItems: 3, maxDelayMs: 60_000 });
    w.enqueue(1);
    w.enqueue(2);
    expect(s.writes).toEqual([]);
    w.enqueue(3);
    await sleep(5);
    expect(s.writes).toEqual([[1, 2, 3]]);
    expect(w.pending()).toBe(0);
  });

  it('steady load: items that come in during a write wait for the interval, not for the write to end', async () => {
    const batches: number[] = [];
    const write = async (items: number[]) => {
      batches.push(items.length);
      // each write takes 5 ms, as a round trip to another thread or a broker does
      await sleep(5);
    };
    const w = createBatchWriter<number>({ name: 't', write, maxItems: 10_000, maxDelayMs: 50 });
    const until = Date.now() + 300;
    let n = 0;
    while (Date.now() < until) {
      w.enqueue(n++);
      await sleep(1);
    }
    await w.flush();
    // one batch an interval (about 6 in 300 ms), where writing again as soon as a write ended made one per round trip (about 50)
    expect(batches.length).toBeLessThanOrEqual(10);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(n);
  });

  it('time flush: a partial batch is written maxDelayMs after its first item, not before', async () => {
    const s = sink();
    const w = createBatchWriter({ name: 't', write: s.write, maxItems: 100, maxDelayMs: 40 });
    w.enqueue(1);
    await sleep(10);
    w.enqueue(2);
    expect(s.writes).toEqual([]);
    expect(w.pending()).toBe(2);
    await sleep(60);
    expect(s.writes).toEqual([[1, 2]]);
  });

  it('keeps order and splits a backlog into batches of maxItems', async () => {
    const s = sink();
    const w = createBatchWriter({ name: 't', write: s.write, maxItems: 2, maxDelayMs: 60_000 });
    for (let i = 1; i <= 5; i++) w.enqueue(i);
    await w.flush();
    expect(s.writes.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(s.writes.every((b) => b.length <= 2)).toBe(true);
  });

  it('drain on shutdown writes everything queued, then refuses more', async () => {
    const s = sink();
    const w = createBatchWriter({ name: 't', write: s.write, maxItems: 1000, maxDelayMs: 60_000 });
    for (let i = 0; i < 7; i++) w.enqueue(i);
    expect(s.writes).toEqual([]);
    await w.drain();
    expect(s.writes).toEqual([[0, 1, 2, 3, 4, 5, 6]]);
    expect(() => w.enqueue(8)).toThrow(/drained/);
  });

  it('retries a retryable failure with backoff, in order, and reports each failure', async () => {
    const s = sink([new Error('ECONNRESET'), new Error('timeout')]);
    const errors: { attempt: number; dropped: boolean }[] = [];
    const w = createBatchWriter({
      name: 't',
      write: s.write,
      maxItems: 2,
      maxDelayMs: 1,
      backoffMs: () => 5,
      onError: (_e, i) => errors.push({ attempt: i.attempt, dropped: i.dropped }),
    });
    w.enqueue(1);
    w.enqueue(2);
    w.enqueue(3);
    await w.flush();
    expect(s.writes).toEqual([[1, 2], [3]]);
    expect(errors).toEqual([
      { attempt: 1, dropped: false },
      { attempt: 2, dropped: false },
    ]);
  });

  it('drops a batch whose error is not retryable (by class) and goes on with the next', async () => {
    const s = sink([new PermanentWriteError('bad row')]);
    const dropped: number[] = [];
    const w = createBatchWriter({ name: 't', write: s.write, maxItems: 1, maxDelayMs: 1, onError: (_e, i) => i.dropped && dropped.push(i.items) });
    w.enqueue(1);
    w.enqueue(2);
    await w.flush();
    expect(s.writes).toEqual([[2]]);
    expect(dropped).toEqual([1]);
  });

  it('a custom error classifier decides what is retried', async () => {
    class Busy extends Error {}
    const s = sink([new Busy(), new TypeError('bug')]);
    const w = createBatchWriter({ name: 't', write: s.write, maxItems: 1, maxDelayMs: 1, backoffMs: () => 1, isRetryable: (e) => e instanceof Busy });
    w.enqueue(1);
    w.enqueue(2);
    await w.flush();
    // 1: Busy, retried, then TypeError: dropped; 2 written
    expect(s.writes).toEqual([[2]]);
  });

  it('drain gives up on a sink that keeps failing after drainTimeoutMs, reporting what it dropped', async () => {
    const down = { write: async () => Promise.reject(new Error('down')) };
    let dropped = 0;
    const w = createBatchWriter<number>({
      name: 't',
      write: down.write,
      maxDelayMs: 60_000,
      backoffMs: () => 10,
      drainTimeoutMs: 50,
      onError: (_e, i) => (dropped += i.dropped ? i.items : 0),
    });
    w.enqueue(1);
    w.enqueue(2);
    const t0 = Date.now();
    await w.drain();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(dropped).toBe(2);
  });
});
