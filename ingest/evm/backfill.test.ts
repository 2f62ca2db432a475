import { describe, expect, it } from 'vitest';
import type { RawLog } from './decode.ts';
import { createRangeSizer, getLogsAdaptive } from './backfill.ts';

function fakeLogs(from: number, to: number, perBlock: number): RawLog[] {
  const out: RawLog[] = [];
  for (let b = from; b <= to; b++)
    for (let i = 0; i < perBlock; i++)
      out.push({ address: '0x00', topics: [], data: '0x', blockNumber: BigInt(b), blockHash: null, transactionHash: null, logIndex: i });
  return out;
}

describe('getLogsAdaptive', () => {
  it('halves the range on "too many results" until the RPC accepts, and returns every log once, in order', async () => {
    const calls: [number, number][] = [];
    const rpc = async (from: number, to: number) => {
      calls.push([from, to]);
      const logs = fakeLogs(from, to, 3);
      if (logs.length > 40) throw new Error('query returned more than 10000 results. Try with this block range [0x1, 0x2]');
      return logs;
    };
    const sizer = createRangeSizer({ initial: 100, min: 1, max: 1000, targetLogs: 30 });
    const logs = await getLogsAdaptive(rpc, 1, 100, sizer);
    expect(logs.map((l) => Number(l.blockNumber))).toEqual(fakeLogs(1, 100, 3).map((l) => Number(l.blockNumber)));
    expect(calls[0]).toEqual([1, 100]);
    expect(calls.every(([a, b]) => b - a + 1 <= 100)).toBe(true);
    expect(sizer.get()).toBeLessThan(100);
  });

  it('does not split on other errors', async () => {
    const sizer = createRangeSizer({ initial: 10, min: 1, max: 100, targetLogs: 10 });
    await expect(getLogsAdaptive(async () => { throw new Error('execution reverted'); }, 1, 10, sizer)).rejects.toThrow('execution reverted');
  });

  it('gives up on a single block that is still too large', async () => {
    const sizer = createRangeSizer({ initial: 4, min: 1, max: 100, targetLogs: 10 });
    await expect(getLogsAdaptive(async () => { throw new Error('Log response size exceeded'); }, 5, 8, sizer)).rejects.toThrow('size exceeded');
  });
});

describe('createRangeSizer', () => {
  it('grows while sparse up to max, shrinks when dense, never below min', () => {
    const s = createRangeSizer({ initial: 100, min: 10, max: 800, targetLogs: 1000 });
    s.onResult(100, 0);
    expect(s.get()).toBe(200);
    for (let i = 0; i < 10; i++) s.onResult(s.get(), 5);
    expect(s.get()).toBe(800);
    s.onResult(800, 5000);
    expect(s.get()).toBe(400);
    for (let i = 0; i < 10; i++) s.onTooLarge(s.get());
    expect(s.get()).toBe(10);
  });
});
