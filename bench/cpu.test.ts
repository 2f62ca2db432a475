import { describe, expect, it } from 'vitest';
import { cpuShares, threadCpu } from './lib.ts';

describe('the bench CPU accounting of a server process', () => {
  it('splits the CPU used between two readings into the busiest thread and the rest, as shares of a core', () => {
    const before = new Map([
      ['10', 5],
      ['11', 1],
      ['12', 0.5],
    ]);
    // thread 12 ended (absent after), thread 13 started (absent before: counted from zero)
    const after = new Map([
      ['10', 12],
      ['11', 2.5],
      ['13', 0.5],
    ]);
    const s = cpuShares(before, after, 10);
    expect(s.top).toBeCloseTo(0.7);
    expect(s.rest).toBeCloseTo(0.2);
  });

  it("reads this process's threads from /proc: the thread that spins is the busiest", () => {
    const before = threadCpu(process.pid);
    expect(before.size).toBeGreaterThan(0);
    const start = process.cpuUsage();
    let x = 0;
    while (process.cpuUsage(start).user < 200_000) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    const after = threadCpu(process.pid);
    // /proc counts in hundredths of a second: the thread that spun 0.2 s of user time reads at least 0.1 s
    expect(cpuShares(before, after, 1).top).toBeGreaterThanOrEqual(0.1);
  });

  it('reads nothing of a process that does not exist', () => {
    expect(threadCpu(2 ** 30).size).toBe(0);
  });
});
