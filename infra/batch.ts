/**
 * The batching writer: callers enqueue without waiting; items are written in batches when
 * `maxItems` are queued or `maxDelayMs` after the first of a batch was queued, one write at a
 * time and in order. A failed write is retried with backoff when its error is retryable (by
 * default every error but a `PermanentWriteError`), and dropped and reported when it is not.
 * `drain()` (on shutdown) writes everything still queued, retrying until `drainTimeoutMs`.
 *
 * What this costs: an item is durable only once its batch is written, so a crash loses at most
 * what was queued in the last `maxDelayMs` (plus what a failing sink held back); a clean shutdown
 * loses nothing.
 */

import { doubling, retry } from './retry.ts';
import type { Backoff } from './retry.ts';

/** A write that can never succeed (a bad row, a schema mismatch): retrying would block the queue. */
export class PermanentWriteError extends Error {
  override readonly name = 'PermanentWriteError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface BatchWriterOptions<T> {
  /** names the writer in error reports */
  name: string;
  write: (items: T[]) => Promise<void>;
  /** flush when this many items are queued; also the most items one write gets (default 1000) */
  maxItems?: number;
  /** flush at most this long after the first queued item (default 100 ms) */
  maxDelayMs?: number;
  /** whether a failed write is worth retrying (default: anything but a PermanentWriteError) */
  isRetryable?: (err: unknown) => boolean;
  /** wait before retry number `attempt` (1-based); default 50 ms doubling to 5 s */
  backoffMs?: (attempt: number) => number;
  /** how long `drain()` keeps retrying a failing sink before it gives up on what is left (default 10 s) */
  drainTimeoutMs?: number;
  /** a failed write: `dropped` when its items are given up */
  onError?: (err: unknown, info: { writer: string; items: number; attempt: number; dropped: boolean }) => void;
}

export interface BatchWriter<T> {
  /** queue an item; never waits (throws once the writer has been drained) */
  enqueue(item: T): void;
  /** write everything queued so far; resolves when it is written (or dropped as not retryable) */
  flush(): Promise<void>;
  /** stop accepting items and write everything queued (for services.onShutdown) */
  drain(): Promise<void>;
  /** items queued or in flight */
  pending(): number;
}

const defaultBackoff = doubling(50, 5000);

export function createBatchWriter<T>(opts: BatchWriterOptions<T>): BatchWriter<T> {
  const maxItems = opts.maxItems ?? 1000;
  const maxDelayMs = opts.maxDelayMs ?? 100;
  const isRetryable = opts.isRetryable ?? ((err: unknown) => !(err instanceof PermanentWriteError));
  const backoffMs = opts.backoffMs;
  const backoff: Backoff = { cap: backoffMs ? (n) => backoffMs(n + 1) : defaultBackoff };
  const drainTimeoutMs = opts.drainTimeoutMs ?? 10_000;

  let queue: T[] = [];
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;
  /** the write loop while it runs; one at a time keeps the items in order */
  let running: Promise<void> | undefined;
  let closed = false;
  /** when set, retries stop after this time and what is left is dropped */
  let giveUpAt = Infinity;

  async function writeBatch(items: T[]): Promise<void> {
    await retry(() => opts.write(items), {
      backoff,
      shouldRetry: (err, f) => isRetryable(err) && Date.now() + f.waitMs < giveUpAt,
      onFailure: (err, f) => opts.onError?.(err, { writer: opts.name, items: items.length, attempt: f.attempt, dropped: !f.retrying }),
      unref: true,
    }).catch(() => undefined); // dropped, and reported through onError
  }

  /**
   * Writes a batch, and goes on at once only while full batches wait: items that came in during
   * the write wait for their own trigger (maxDelayMs or maxItems), so a busy writer still writes
   * one batch an interval, not one batch per write's round trip.
   */
  async function run(): Promise<void> {
    if (queue.length === 0) return;
    do {
      const items = queue.length <= maxItems ? queue : queue.slice(0, maxItems);
      queue = queue.length <= maxItems ? [] : queue.slice(maxItems);
      inFlight = items.length;
      try {
        await writeBatch(items);
      } finally {
        inFlight = 0;
      }
    } while (queue.length >= maxItems);
  }

  function start(): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    running ??= run().finally(() => {
      running = undefined;
      // items queued while the last write was in flight wait for their own trigger
      if (queue.length > 0) schedule();
    });
    return running;
  }

  function schedule(): void {
    if (running) return; // what is queued during a write is scheduled when the write ends
    if (queue.length >= maxItems) void start();
    else if (!timer) {
      timer = setTimeout(() => void start(), maxDelayMs);
      timer.unref();
    }
  }

  async function flush(): Promise<void> {
    // a write in flight may leave items behind it: loop until nothing is queued
    while (queue.length > 0 || running) await (running ?? start());
  }

  return {
    enqueue(item) {
      if (closed) throw new Error(`batch writer ${opts.name} is drained: nothing more is accepted`);
      queue.push(item);
      schedule();
    },
    flush,
    async drain() {
      closed = true;
      giveUpAt = Date.now() + drainTimeoutMs;
      await flush();
    },
    pending: () => queue.length + inFlight,
  };
}
