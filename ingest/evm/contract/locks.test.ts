import { describe, expect, it } from 'vitest';
import { LOCKS_READ, lockedBy, readLocks, type ViewCall } from './locks.ts';
import type { Addr } from '../decode.ts';

const NOW = 1_700_000_000;
const LOCKER = `0x${'1c'.repeat(20)}` as Addr;
const LP = `0x${'1f'.repeat(20)}` as Addr;

describe('LP locks: what a locker really holds locked', () => {
  it('a lock counts until its unlock time; one already due, or due this very second, locks nothing', () => {
    const locks = [
      { amount: 60n, unlockDate: BigInt(NOW + 3600) },
      { amount: 30n, unlockDate: BigInt(NOW) },
      { amount: 10n, unlockDate: BigInt(NOW - 1) },
    ];
    expect(lockedBy(locks, 100n, NOW)).toEqual([{ amount: 60n, until: NOW + 3600 }]);
  });

  it('locks coming due together are one entry; soonest first', () => {
    const locks = [
      { amount: 5n, unlockDate: BigInt(NOW + 86400) },
      { amount: 10n, unlockDate: BigInt(NOW + 60) },
      { amount: 20n, unlockDate: BigInt(NOW + 86400) },
    ];
    expect(lockedBy(locks, 100n, NOW)).toEqual([{ amount: 10n, until: NOW + 60 }, { amount: 25n, until: NOW + 86400 }]);
  });

  it('attacker: a locker whose locks claim more than it holds counts only what it holds, and the latest locks give way first', () => {
    const locks = [
      { amount: 1_000n, unlockDate: BigInt(NOW + 10 * 365 * 86400) },
      { amount: 40n, unlockDate: BigInt(NOW + 3600) },
    ];
    expect(lockedBy(locks, 50n, NOW)).toEqual([{ amount: 40n, until: NOW + 3600 }, { amount: 10n, until: NOW + 10 * 365 * 86400 }]);
    expect(lockedBy(locks, 0n, NOW)).toEqual([]);
  });

  it('reads the newest locks only (bounded calls), and a locker that does not answer the views locks nothing', async () => {
    const calls: string[] = [];
    const n = 20;
    const call: ViewCall = async <T>(_a: Addr, _abi: unknown, fn: string, args: unknown[]) => {
      calls.push(fn);
      if (fn === 'getNumLocksForToken') return BigInt(n) as T;
      const i = Number(args[1]);
      return [0n, BigInt(i + 1), 0n, BigInt(NOW + i), BigInt(i), LOCKER] as T;
    };
    const read = await readLocks(call, LOCKER, LP, 1n);
    expect(read).toHaveLength(LOCKS_READ);
    expect(read[0]).toEqual({ amount: BigInt(n - LOCKS_READ + 1), unlockDate: BigInt(NOW + n - LOCKS_READ) });
    expect(calls).toHaveLength(1 + LOCKS_READ);
    const silent: ViewCall = async () => null;
    expect(await readLocks(silent, LOCKER, LP, 1n)).toEqual([]);
  });
});
