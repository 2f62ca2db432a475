/**
 * Waits `ms`, or until `signal` aborts, whichever comes first; never rejects. The abort listener
 * is removed when the time is up, so a loop that pauses on one long-lived signal does not pile
 * listeners onto it.
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * How long background work runs before it yields, in processes that also answer reads (`intel
 * start`): folds, derivations, checkpoints, track-record scoring.
 */
export const SLICE_MS = 2;

/** Lets the event loop run (I/O, timers, other requests) before going on. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The reads this process answers, counted per 100 ms window: the API marks every call it admits
 * (api/plugins/auth.ts). Background work sliced with `slicer` steps back while the reads come in
 * at a rate that could queue behind it (READ_LOAD_PER_WINDOW a window: 500 a second).
 */
const READ_WINDOW_MS = 100;
const READ_LOAD_PER_WINDOW = 50;
let windowStart = -Infinity;
let reads = 0;
let lastWindowReads = 0;
export function markForeground(nowMs: number): void {
  if (nowMs - windowStart >= READ_WINDOW_MS) {
    lastWindowReads = nowMs - windowStart < 2 * READ_WINDOW_MS ? reads : 0;
    windowStart = nowMs;
    reads = 0;
  }
  reads++;
}

/** reads came in at a load's rate in the current or the last window */
export function underReadLoad(nowMs = Date.now()): boolean {
  const age = nowMs - windowStart;
  if (age >= 2 * READ_WINDOW_MS) return false;
  // the window still open counts with the one before; a window that ended counts alone
  return reads >= READ_LOAD_PER_WINDOW || (age < READ_WINDOW_MS && lastWindowReads >= READ_LOAD_PER_WINDOW);
}

/**
 * Under a read load a slice is followed by a pause of this many times its length: background
 * work takes at most a quarter of the CPU and the reads the rest. Handing the CPU back only
 * until the next turn of the event loop (setImmediate) split it half and half, so a block's
 * derivations or a checkpoint halved the read capacity while they ran, and a service at half its
 * maximum rate queued reads behind them for 20-30 ms.
 */
const BACKGROUND_SHARE_PAUSE = 3;

/**
 * Long synchronous work cut into slices of about `ms` of CPU, the event loop served between
 * them, so that a process serving reads never stalls them for longer:
 * `if (slice.due()) await slice.next();` between units of work. With no reads coming in (a
 * backfill, an engine process) a slice yields only for a turn of the event loop; under a read
 * load it pauses for three times as long as it ran.
 */
export interface Slicer {
  /** the current slice has run its time */
  due(): boolean;
  /** yield to the event loop and start a new slice */
  next(): Promise<void>;
}

export function slicer(ms: number): Slicer {
  let start = performance.now();
  return {
    due: () => performance.now() - start > ms,
    async next() {
      const ran = performance.now() - start;
      if (underReadLoad()) await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.round(ran * BACKGROUND_SHARE_PAUSE))));
      else await yieldToEventLoop();
      start = performance.now();
    },
  };
}
