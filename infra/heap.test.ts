import { describe, expect, it } from 'vitest';
import { createHeapSettler, fullCollection } from './heap.ts';

describe('heap settler', () => {
  it('collects once when a catch-up has nothing left to fold, never on a live stream', async () => {
    let runs = 0;
    const s = createHeapSettler({ catchUpRecords: 1000, collect: async () => void runs++ });
    // live: a few records a look, nothing waiting; the backlog is not even asked
    let asked = 0;
    for (let i = 0; i < 5; i++) expect(await s.observe(50, async () => (asked++, 0))).toBe(false);
    expect(asked).toBe(0);
    // a catch-up: many records a look while a backlog waits
    expect(await s.observe(5000, async () => 20_000)).toBe(false);
    expect(await s.observe(8000, async () => 3000)).toBe(false);
    expect(runs).toBe(0);
    // worked off: one collection, then live again
    expect(await s.observe(3000, async () => 0)).toBe(true);
    expect(runs).toBe(1);
    for (let i = 0; i < 5; i++) expect(await s.observe(50, async () => 0)).toBe(false);
    expect(runs).toBe(1);
  });

  it('a catch-up that ends within one look still collects', async () => {
    let runs = 0;
    const s = createHeapSettler({ catchUpRecords: 1000, collect: async () => void runs++ });
    expect(await s.observe(40_000, async () => 0)).toBe(true);
    expect(runs).toBe(1);
  });

  it('the full collection frees garbage and returns', async () => {
    let garbage: object[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `x${i}` }));
    const before = process.memoryUsage().heapUsed;
    garbage = undefined;
    await fullCollection();
    expect(garbage).toBeUndefined();
    expect(process.memoryUsage().heapUsed).toBeLessThan(before);
  });
});
