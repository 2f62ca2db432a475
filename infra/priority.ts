/**
 * Thread priorities within one process (Linux): the thread that answers reads runs at the
 * process's priority, every other thread of the process a few steps of `nice` below it.
 *
 * Why: `intel start` answers reads on a thread of its own (runtime/api-thread.ts), but it shares
 * the process, and the machine's cores, with the engine's thread, the ingest and the helper
 * threads V8 collects both heaps with. A major collection of the engine's heap (hundreds of MB)
 * runs on every helper thread at once and took both cores of a 2-core machine for 100-150 ms:
 * the reads queued behind it (p99 30-100 ms at a quarter of the maximum rate, measured with the
 * bench's even-rate generator). With the other threads at a lower priority the scheduler runs the
 * read thread first whenever both want a core, and the background work takes every cycle the
 * reads leave. Nothing of the process is starved by it: the reads are one thread, which can take
 * at most one core, and a nice-19 thread still gets every idle cycle. At nice 10 the four GC
 * helpers together still outweighed the read thread on a shared core (measured: both cores busy
 * with a collection, the reads at 60 % of one); at 19 (the default) the paced p99 at 11,000/s
 * was 5.0 and 2.6 ms against 6.3 and 3.8 ms at 10, in alternating 40 s runs.
 *
 * Linux's nice value is per thread (setpriority on a thread id moves that thread only), and a
 * thread created later inherits its creator's: `favourThread` applies the priorities again every
 * few seconds, so a thread started since (libuv's pool, a V8 helper) is lowered too. Raising the
 * nice value of one's own threads needs no privilege. On other systems (no /proc/thread-self)
 * nothing is changed.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** the calling thread's id (Linux), undefined where the system does not tell it */
export function currentThreadId(): number | undefined {
  try {
    const m = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** the ids of this process's threads (Linux), empty elsewhere */
export function processThreadIds(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  } catch {
    return [];
  }
}

/** a thread that ended between being listed and being asked (os's SystemError for ESRCH) */
const ended = (err: unknown): boolean => (err as { info?: { code?: string } }).info?.code === 'ESRCH';

/** the nice value of a thread (by id, of any process), undefined once it has ended */
export function threadNice(tid: number): number | undefined {
  try {
    return getPriority(tid);
  } catch (err) {
    if (ended(err)) return undefined;
    throw err;
  }
}

/**
 * Every thread of this process but `favoured` to at least `steps` nice values below it
 * (`favoured`'s own nice plus `steps`, at most 19). Returns the number of threads lowered now;
 * throws when the system refuses (not when a thread ended meanwhile).
 */
export function lowerOtherThreads(favoured: number, steps: number): number {
  const base = threadNice(favoured);
  if (base === undefined) return 0;
  const target = Math.min(19, base + steps);
  let lowered = 0;
  for (const tid of processThreadIds()) {
    if (tid === favoured) continue;
    const nice = threadNice(tid);
    if (nice === undefined || nice >= target) continue;
    try {
      setPriority(tid, target);
      lowered++;
    } catch (err) {
      // a thread that ended meanwhile needs nothing; a refusal (a sandbox's policy) is told
      if (!ended(err)) throw err;
    }
  }
  return lowered;
}

/** how often threads started since are lowered too */
const REAPPLY_MS = 5_000;

/**
 * Keeps `favoured` (a thread id from `currentThreadId`, told by that thread) ahead of this
 * process's other threads by `steps` nice values, now and every few seconds; `stop` ends the
 * re-application (the priorities stay). With `steps` 0 or no thread id, nothing is done.
 */
export function favourThread(
  favoured: number | undefined,
  steps: number,
  onError?: (err: unknown) => void,
  reapplyMs = REAPPLY_MS,
): { lowered: number; stop(): void } {
  if (favoured === undefined || steps <= 0) return { lowered: 0, stop: () => undefined };
  let timer: NodeJS.Timeout | undefined;
  let refused = false;
  const stop = () => clearInterval(timer);
  // a refusal is told once and ends the re-application: it would only be refused again
  const apply = (): number => {
    try {
      return lowerOtherThreads(favoured, steps);
    } catch (err) {
      refused = true;
      stop();
      onError?.(err);
      return 0;
    }
  };
  const lowered = apply();
  if (!refused) {
    timer = setInterval(apply, reapplyMs);
    timer.unref();
  }
  return { lowered, stop };
}
