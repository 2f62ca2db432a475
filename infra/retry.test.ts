/**
 * The retry and backoff module (infra/retry.ts): the waits each policy draws, and when `retry`
 * stops: an answer, a failure its rule refuses, its attempts spent, its signal aborted.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffMs, doubling, retry, schedule, sleep } from './retry.ts';
import type { Failure } from './retry.ts';

describe('backoff waits', () => {
  it('doubling: from the first wait, doubled per failure, never past the cap, however many failures', () => {
    const cap = doubling(50, 5000);
    expect([0, 1, 2, 6, 7, 8].map((n) => backoffMs({ cap }, n))).toEqual([50, 100, 200, 3200, 5000, 5000]);
    expect(backoffMs({ cap }, 10_000)).toBe(5000);
    expect(backoffMs({ cap: doubling(0, 100) }, 5000)).toBe(0);
  });

  it("'half' jitter draws in the upper half of the cap, rounded", () => {
    const b = { cap: doubling(100, 10_000), jitter: 'half' as const };
    expect(backoffMs(b, 2, () => 0)).toBe(200);
    expect(backoffMs(b, 2, () => 0.999)).toBe(400);
    expect(backoffMs(b, 1, () => 0.33)).toBe(133);
  });

  it("'full' jitter draws below the cap, floored, at least the least wait unless the cap is shorter", () => {
    const b = { cap: schedule([4000, 60_000]), jitter: 'full' as const, minMs: 1000 };
    expect(backoffMs(b, 0, () => 0)).toBe(1000);
    expect(backoffMs(b, 0, () => 0.5)).toBe(2000);
    expect(backoffMs(b, 1, () => 0.99999)).toBe(59_999);
    expect(backoffMs({ cap: () => 300, jitter: 'full', minMs: 1000 }, 0, () => 0)).toBe(300);
  });

  it('a schedule repeats its last wait for every later failure, and an empty one is refused', () => {
    const b = { cap: schedule([5, 10, 20]) };
    expect([0, 1, 2, 3, 50].map((n) => backoffMs(b, n))).toEqual([5, 10, 20, 20, 20]);
    expect(() => schedule([])).toThrow(/at least one/);
  });
});

describe('retry', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  /** a call failing `failures` times before it answers 'ok', counting its attempts */
  function flaky(failures: number) {
    const calls: number[] = [];
    const fn = async (attempt: number) => {
      calls.push(attempt);
      if (calls.length <= failures) throw new Error(`failure ${calls.length}`);
      return 'ok';
    };
    return { fn, calls };
  }

  it('waits each drawn backoff between attempts, then answers what the call answered', async () => {
    const { fn, calls } = flaky(3);
    const failures: Failure[] = [];
    const done = retry(fn, { backoff: { cap: doubling(100, 1000) }, onFailure: (_e, f) => failures.push(f) });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual([1]);
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(600);
    await expect(done).resolves.toBe('ok');
    expect(calls).toEqual([1, 2, 3, 4]);
    expect(failures).toEqual([
      { attempt: 1, waitMs: 100, retrying: true },
      { attempt: 2, waitMs: 200, retrying: true },
      { attempt: 3, waitMs: 400, retrying: true },
    ]);
  });

  it('stops after its retries and throws the last failure, reporting it as not retried', async () => {
    const { fn, calls } = flaky(10);
    const failures: Failure[] = [];
    const done = retry(fn, { backoff: { cap: () => 10 }, retries: 2, onFailure: (_e, f) => failures.push(f) });
    const failed = expect(done).rejects.toThrow('failure 3');
    await vi.advanceTimersByTimeAsync(100);
    await failed;
    expect(calls).toEqual([1, 2, 3]);
    expect(failures.at(-1)).toEqual({ attempt: 3, waitMs: 10, retrying: false });
  });

  it('a failure its rule refuses is thrown at once, without a wait', async () => {
    const { fn, calls } = flaky(10);
    const seen: { attempt: number; waitMs: number }[] = [];
    const done = retry(fn, { backoff: { cap: () => 10_000 }, shouldRetry: (_e, f) => (seen.push(f), f.attempt < 2) });
    const failed = expect(done).rejects.toThrow('failure 2');
    await vi.advanceTimersByTimeAsync(10_000);
    await failed;
    expect(calls).toEqual([1, 2]);
    expect(seen).toEqual([{ attempt: 1, waitMs: 10_000 }, { attempt: 2, waitMs: 10_000 }]);
  });

  it('an abort during a wait rejects with its reason, and no attempt follows', async () => {
    const { fn, calls } = flaky(10);
    const ac = new AbortController();
    const done = retry(fn, { backoff: { cap: () => 1000 }, signal: ac.signal });
    const aborted = expect(done).rejects.toThrow('shutting down');
    await vi.advanceTimersByTimeAsync(500);
    ac.abort(new Error('shutting down'));
    await aborted;
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toEqual([1]);
  });

  it('a failure after the signal aborted is thrown as is, not retried', async () => {
    const ac = new AbortController();
    let calls = 0;
    const done = retry(
      async () => {
        calls++;
        ac.abort(new Error('stopped'));
        throw new Error('the call failed');
      },
      { backoff: { cap: () => 1 }, signal: ac.signal },
    );
    await expect(done).rejects.toThrow('the call failed');
    expect(calls).toBe(1);
  });
});

describe('sleep', () => {
  it('resolves after its time, or rejects at once on a signal already aborted', async () => {
    const t0 = Date.now();
    await sleep(20);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(15);
    const ac = new AbortController();
    ac.abort(new Error('gone'));
    await expect(sleep(10_000, ac.signal)).rejects.toThrow('gone');
  });

  it("an unref wait does not keep the process alive; a plain one does", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const background = sleep(30, undefined, { unref: true });
    expect(timers()).toBe(before);
    const plain = sleep(30);
    expect(timers()).toBe(before + 1);
    await Promise.all([background, plain]);
  });
});
