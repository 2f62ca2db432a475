/**
 * LP locks as they really hold. LP tokens sitting in a configured locker count as locked only for
 * the locks whose unlock date is read from the locker itself (the common lockers' public
 * `tokenLocks` array, UNCX's shape) and is still ahead: a locker that does not answer, a lock
 * already due, or a balance the read locks do not cover locks nothing. Any other contract holding
 * LP tokens is not a lock, whatever views it answers: its owner may take them back at will.
 */
import { parseAbi, type Abi } from 'viem';
import type { Addr } from '../decode.ts';

export const LOCKER_ABI = parseAbi([
  'function getNumLocksForToken(address token) view returns (uint256)',
  'function tokenLocks(address token, uint256 index) view returns (uint256 lockDate, uint256 amount, uint256 initialAmount, uint256 unlockDate, uint256 lockID, address owner)',
]);

/** locks read per locker and LP token, the newest: a locker's history of spent locks costs nothing beyond them, and locks not read count for nothing */
export const LOCKS_READ = 8;

export interface LockRead {
  amount: bigint;
  /** unix seconds */
  unlockDate: bigint;
}

/** a view call at a block: null when it reverts or is not there */
export type ViewCall = <T>(address: Addr, abi: Abi, functionName: string, args: unknown[], blockNumber: bigint) => Promise<T | null>;

/**
 * The locks still ahead at `nowTs`, merged by unlock time and soonest first, their amounts capped
 * so that together they never exceed what the locker holds of the token.
 */
export function lockedBy(locks: readonly LockRead[], balance: bigint, nowTs: number): { amount: bigint; until: number }[] {
  const ahead = new Map<number, bigint>();
  for (const l of locks) {
    if (l.amount <= 0n || l.unlockDate <= BigInt(nowTs)) continue;
    const until = Number(l.unlockDate);
    ahead.set(until, (ahead.get(until) ?? 0n) + l.amount);
  }
  const out: { amount: bigint; until: number }[] = [];
  let left = balance;
  // the soonest locks are taken first: capping takes from the latest, never stretching a lock
  for (const [until, amount] of [...ahead].sort((a, b) => a[0] - b[0])) {
    const take = amount < left ? amount : left;
    if (take <= 0n) break;
    out.push({ amount: take, until });
    left -= take;
  }
  return out;
}

/** the newest locks of `token` in `locker` at the block (none when the locker does not answer the views) */
export async function readLocks(call: ViewCall, locker: Addr, token: Addr, blockNumber: bigint): Promise<LockRead[]> {
  const n = await call<bigint>(locker, LOCKER_ABI, 'getNumLocksForToken', [token], blockNumber);
  if (n === null || n <= 0n) return [];
  const first = n > BigInt(LOCKS_READ) ? n - BigInt(LOCKS_READ) : 0n;
  const indexes = Array.from({ length: Number(n - first) }, (_, i) => first + BigInt(i));
  const rows = await Promise.all(indexes.map((i) => call<readonly [bigint, bigint, bigint, bigint, bigint, Addr]>(locker, LOCKER_ABI, 'tokenLocks', [token, i], blockNumber)));
  return rows.filter((r): r is NonNullable<typeof r> => r !== null).map((r) => ({ amount: r[1], unlockDate: r[3] }));
}
