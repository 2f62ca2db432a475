import { describe, expect, it } from 'vitest';
import { ResponseBodyTooLargeError, TimeoutError } from 'viem';
import { TOPICS, type RawLog } from './decode.ts';
import { BlockRefusedError, createRangeSizer, getLogsAdaptive } from './getlogs.ts';

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

  it('splits on a timeout and on a body over the client limit as on a size error', async () => {
    const calls: [number, number][] = [];
    const rpc = async (from: number, to: number) => {
      calls.push([from, to]);
      if (to - from >= 20) throw new TimeoutError({ body: {}, url: 'http://x' });
      if (to - from >= 10) throw new ResponseBodyTooLargeError({ maxSize: 10, size: 11 });
      return fakeLogs(from, to, 1);
    };
    const sizer = createRangeSizer({ initial: 64, min: 1, max: 1000, targetLogs: 30 });
    const logs = await getLogsAdaptive(rpc, 1, 64, sizer);
    expect(logs.map((l) => Number(l.blockNumber))).toEqual(fakeLogs(1, 64, 1).map((l) => Number(l.blockNumber)));
    expect(calls.filter(([a, b]) => b - a < 10).length).toBeGreaterThan(0);
  });

  it('asks a single block it still refuses topic by topic, in log order', async () => {
    const rpc = async (from: number, to: number, topics?: readonly string[]) => {
      if (!topics || topics.length > 1) throw new Error('Log response size exceeded');
      // each topic's logs of the block, interleaved by log index across topics
      const t = TOPICS.indexOf(topics[0] as (typeof TOPICS)[number]);
      return [0, 1].map((k): RawLog => ({ address: '0x00', topics: [topics[0] as `0x${string}`], data: '0x', blockNumber: BigInt(from), blockHash: null, transactionHash: null, logIndex: k * TOPICS.length + t }));
    };
    const sizer = createRangeSizer({ initial: 4, min: 1, max: 100, targetLogs: 10 });
    const logs = await getLogsAdaptive(rpc, 7, 7, sizer);
    expect(logs).toHaveLength(2 * TOPICS.length);
    expect(logs.map((l) => l.logIndex)).toEqual([...logs.map((l) => l.logIndex)].sort((a, b) => (a ?? 0) - (b ?? 0)));
  });

  it('stops at a block it refuses even topic by topic, naming the block', async () => {
    const sizer = createRangeSizer({ initial: 4, min: 1, max: 100, targetLogs: 10 });
    const err = await getLogsAdaptive(async () => { throw new Error('Log response size exceeded'); }, 5, 8, sizer).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockRefusedError);
    expect((err as BlockRefusedError).block).toBe(5);
    expect((err as Error).message).toMatch(/refuses block 5 .*even alone: Log response size exceeded/);
  });
});

describe('createRangeSizer', () => {
  it('sizes the next range to hold about targetLogs, at most 4x either way per answer, within min and max', () => {
    const s = createRangeSizer({ initial: 100, min: 10, max: 800, targetLogs: 1000 });
    s.onResult(100, 0);
    expect(s.get()).toBe(400); // empty: 4x
    s.onResult(400, 400);
    expect(s.get()).toBe(800); // would be 1000 blocks: max
    s.onResult(800, 2000);
    expect(s.get()).toBe(400); // 2x too many logs: half
    s.onResult(400, 40_000);
    expect(s.get()).toBe(100); // 40x too many: 4x smaller per answer
    s.onResult(50, 10); // a short last range does not grow it
    expect(s.get()).toBe(100);
    for (let i = 0; i < 10; i++) s.onTooLarge(s.get());
    expect(s.get()).toBe(10);
  });
});
