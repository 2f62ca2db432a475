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
 * Long synchronous work cut into slices of about `ms` of CPU, the event loop served between
 * them, so that a process serving reads never stalls them for longer:
 * `if (slice.due()) await slice.next();` between units of work.
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
      await yieldToEventLoop();
      start = performance.now();
    },
  };
}
