/**
 * Retrying with backoff, one policy type for every caller that waits between attempts: the RPC
 * edge, the batching writer, the Kafka consumer's restarts, the WebSocket feeds' reconnects, the
 * webhook schedule, the ingest loops. A caller names its waits (their growth, cap and jitter);
 * `retry` runs a call until it answers, or until the caller's rule, its attempts or its signal
 * says stop.
 *
 * Why not p-retry or exponential-backoff: their jitter is a factor or a draw below the wait, not
 * the upper half the RPC edge draws from, and several callers need only the wait (a persisted
 * webhook schedule, a reconnect loop inside a generator, a restart from a consumer's crash event).
 */

/** the waits between attempts */
export interface Backoff {
  /** the longest wait after failure `n` (0 for the first): see `doubling` and `schedule` */
  cap: (n: number) => number;
  /**
   * how the wait is drawn below its cap: 'none' the cap itself, 'half' uniformly in its upper half
   * (rounded), 'full' uniformly below it (floored, at least `minMs`) (default 'none')
   */
  jitter?: 'none' | 'half' | 'full';
  /** with 'full' jitter, the shortest wait (no longer than the cap) */
  minMs?: number;
}

/** caps that start at `firstMs` and double after each failure, up to `maxMs` */
export function doubling(firstMs: number, maxMs: number): (n: number) => number {
  // past 2^30 every wait is at its cap (and a zero first wait stays zero rather than NaN)
  return (n) => Math.min(maxMs, firstMs * 2 ** Math.min(n, 30));
}

/** caps read from a list, its last repeated for every later failure */
export function schedule(capsMs: readonly number[]): (n: number) => number {
  if (capsMs.length === 0) throw new Error('a backoff schedule needs at least one wait');
  return (n) => capsMs[Math.min(n, capsMs.length - 1)] as number;
}

/** the wait after failure `n` (0 for the first) */
export function backoffMs(b: Backoff, n: number, random: () => number = Math.random): number {
  const cap = b.cap(n);
  switch (b.jitter ?? 'none') {
    case 'none':
      return cap;
    case 'half':
      return Math.round(cap / 2 + random() * (cap / 2));
    case 'full':
      return Math.max(Math.min(b.minMs ?? 0, cap), Math.floor(random() * cap));
  }
}

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal, o: { unref?: boolean } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    // a timer that does not keep the process alive on its own (a background writer's retry)
    if (o.unref) t.unref();
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** one failed attempt: its number (1 for the first), the wait before the next, whether there is one */
export interface Failure {
  attempt: number;
  waitMs: number;
  retrying: boolean;
}

export interface RetryOptions {
  backoff: Backoff;
  /** retries after the first attempt at most (default: no limit) */
  retries?: number;
  /** whether this failure is worth another attempt after `waitMs` (default: every one) */
  shouldRetry?: (err: unknown, f: Omit<Failure, 'retrying'>) => boolean;
  /** told of every failure, the last one (not retried) included */
  onFailure?: (err: unknown, f: Failure) => void;
  /** stops retrying: a failure once it aborted is thrown, and so is its reason during a wait */
  signal?: AbortSignal;
  /** the waits' timers do not keep the process alive */
  unref?: boolean;
  random?: () => number;
}

/** Calls `fn` until it resolves; throws the last failure once the options say stop. */
export async function retry<T>(fn: (attempt: number) => Promise<T>, o: RetryOptions): Promise<T> {
  const retries = o.retries ?? Infinity;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      const waitMs = backoffMs(o.backoff, attempt - 1, o.random);
      const retrying = attempt <= retries && !o.signal?.aborted && (o.shouldRetry?.(err, { attempt, waitMs }) ?? true);
      o.onFailure?.(err, { attempt, waitMs, retrying });
      if (!retrying) throw err;
      await sleep(waitMs, o.signal, { unref: o.unref });
    }
  }
}
