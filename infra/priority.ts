/**
 * Thread priorities within one process (Linux): the thread that answers reads runs at the
 * process's priority, every other thread of the process a few steps of `nice` below it and, where
 * util-linux's `chrt` is there, in the SCHED_IDLE policy (`favourThread` says why).
 *
 * Why: `intel start` answers reads on a thread of its own (runtime/api-thread.ts), but it shares
 * the process, and the machine's cores, with the engine's thread, the ingest and the helper
 * threads V8 collects both heaps with. A major collection of the engine's heap (hundreds of MB)
 * runs on every helper thread at once and can take both cores of a small machine: the reads queued
 * behind it. With the other threads at a lower priority the scheduler runs the
 * read thread first whenever both want a core, and the background work takes every cycle the
 * reads leave. Nothing of the process is starved by it: the reads are one thread, which can take
 * at most one core, and a nice-19 thread still gets every idle cycle. The default is 19 because
 * at 10 the GC helpers together still outweighed the read thread on a shared core
 * (docs/operations.md "Tuning the process").
 *
 * Linux's nice value is per thread (setpriority on a thread id moves that thread only), and a
 * thread created later inherits its creator's: `favourThread` applies the priorities again every
 * few seconds, so a thread started since (libuv's pool, a V8 helper) is lowered too. Raising the
 * nice value of one's own threads needs no privilege. On other systems (no /proc/thread-self)
 * nothing is changed.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { promisify } from 'node:util';

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

/** Linux's SCHED_IDLE policy number (/proc/<tid>/stat field 41) */
export const SCHED_IDLE = 5;

/** the scheduling policy of a thread (of this process, or of `pid`; Linux), undefined once it has ended or where not told */
export function threadPolicy(tid: number, pid: number | 'self' = 'self'): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // the fields after the command name (which may hold spaces), from field 3 (state) on
    const policy = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[41 - 3]);
    return Number.isInteger(policy) ? policy : undefined;
  } catch {
    return undefined;
  }
}

const execFileAsync = promisify(execFile);

/** whether util-linux's `chrt` runs here (what `idleOtherThreads` needs) */
export function chrtAvailable(): boolean {
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Every thread of this process but `favoured` to SCHED_IDLE (Linux), with util-linux's `chrt`
 * (Node has no sched_setscheduler). Resolves to the number of threads moved now; rejects when
 * `chrt` is missing or the system refuses (not when a thread ended meanwhile). Lowering one's own
 * threads needs no privilege. One shell runs `chrt` for every thread: each spawn forks this
 * process's address space and blocks its event loop meanwhile.
 */
export async function idleOtherThreads(favoured: number): Promise<number> {
  const tids = processThreadIds().filter((tid) => {
    if (tid === favoured) return false;
    const policy = threadPolicy(tid);
    return policy !== undefined && policy !== SCHED_IDLE;
  });
  if (tids.length === 0) return 0;
  // the threads chrt failed on, one a line, and what it said on stderr
  const script = 'for t; do chrt --idle --pid 0 "$t" || echo "$t"; done';
  const { stdout, stderr } = await execFileAsync('sh', ['-c', script, 'sh', ...tids.map(String)], { timeout: 5_000 });
  const failed = stdout.split('\n').filter(Boolean).map(Number);
  // a thread that ended meanwhile is not a refusal
  const refused = failed.filter((tid) => threadPolicy(tid) !== undefined);
  if (refused.length > 0) throw new Error(`chrt --idle failed for thread${refused.length > 1 ? 's' : ''} ${refused.join(', ')}: ${stderr.trim() || 'no reason given'}`);
  return tids.length - failed.length;
}

/** how often threads started since are lowered too */
const REAPPLY_MS = 5_000;

export interface FavourOptions {
  /** nice steps every other thread runs below the favoured one (0: none) */
  steps: number;
  /** every other thread in SCHED_IDLE too (`idleOtherThreads`) */
  idle?: boolean;
  /** told once when the system refuses (the nice values, or the idle policy: then nice alone stays) */
  onError?: (err: unknown) => void;
  reapplyMs?: number;
}

/**
 * Keeps `favoured` (a thread id from `currentThreadId`, told by that thread) ahead of this
 * process's other threads, now and every few seconds: `steps` nice values below it, and with
 * `idle` in SCHED_IDLE as well. `idled` resolves to the number of threads put in SCHED_IDLE at
 * the start (0 when refused or not asked for). `stop` ends the re-application (the priorities
 * stay). With neither, or no thread id, nothing is done.
 *
 * Why SCHED_IDLE where nice 19 was not enough (measured on Linux 6.18, 2 cores, the bench's paced
 * token-intel at 12,000/s with each thread's run and wait time from /proc/<tid>/schedstat every
 * 10 ms): during a major collection of the engine's heap the engine's thread and V8's helpers, all
 * at nice 19, still ran 50-90 % of a core each, and the API thread spent 15-30 % of its time
 * runnable but waiting for a core; answers reached 70-80 ms. The likely cause: on the EEVDF
 * scheduler (Linux 6.6 on) a thread that got a core in a gap between two requests keeps it for its
 * slice, whatever its nice value, when the API thread wakes. A SCHED_IDLE thread gives the core up
 * at once to any other thread that wakes (the kernel preempts it on every such wake-up); it still
 * runs whenever a core is otherwise idle. Measured the same way with it: a collection that kept the
 * engine's threads on three quarters of both cores for 750 ms left the API thread waiting 4-9 % of
 * its time, answers at most 7-10 ms.
 */
export function favourThread(favoured: number | undefined, opts: FavourOptions): { lowered: number; idled: Promise<number>; stop(): void } {
  const { steps, onError } = opts;
  let idle = opts.idle === true;
  if (favoured === undefined || (steps <= 0 && !idle)) return { lowered: 0, idled: Promise.resolve(0), stop: () => undefined };
  // each part runs while asked for and not refused: a refusal is told once and ends that part of
  // the re-application (it would only be refused again)
  let nice = steps > 0;
  const lower = (): number => {
    if (!nice) return 0;
    try {
      return lowerOtherThreads(favoured, steps);
    } catch (err) {
      nice = false;
      onError?.(err);
      return 0;
    }
  };
  let idling: Promise<number> | undefined;
  const toIdle = (): Promise<number> => {
    if (!idle) return Promise.resolve(0);
    // one pass at a time (a pass spawns chrt once per thread not yet idle)
    idling ??= idleOtherThreads(favoured)
      .catch((err: unknown) => {
        idle = false;
        onError?.(err);
        return 0;
      })
      .finally(() => (idling = undefined));
    return idling;
  };
  const lowered = lower();
  const idled = toIdle();
  const stop = () => clearInterval(timer);
  const timer = setInterval(() => {
    lower();
    void toIdle();
    if (!nice && !idle) stop();
  }, opts.reapplyMs ?? REAPPLY_MS);
  timer.unref();
  return { lowered, idled, stop };
}
