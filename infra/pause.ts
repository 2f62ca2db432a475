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
