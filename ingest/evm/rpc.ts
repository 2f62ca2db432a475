/**
 * The RPC edge: a viem transport with a concurrency cap, a requests-per-second cap and retries
 * with exponential backoff and jitter for transient failures. getLogs size errors are not retried
 * here: the backfill splits the range instead.
 */
import {
  createClient,
  createPublicClient,
  custom,
  http,
  webSocket,
  type PublicClient,
  type Transport,
} from 'viem';

export interface RpcLimits {
  maxConcurrency: number;
  requestsPerSecond: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** JSON-RPC requests per HTTP batch; 1 or undefined = no batching */
  batchSize?: number;
}

export class RetryableRpcError extends Error {
  override readonly name = 'RetryableRpcError';
}

function messages(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let i = 0; e && i < 8; i++) {
    const o = e as { message?: string; details?: string; shortMessage?: string; cause?: unknown };
    parts.push(o.shortMessage ?? '', o.details ?? '', o.message ?? '');
    e = o.cause;
  }
  return parts.join(' | ');
}

function chain(err: unknown): { name?: string; code?: number; status?: number }[] {
  const out: { name?: string; code?: number; status?: number }[] = [];
  let e: unknown = err;
  for (let i = 0; e && i < 8; i++) {
    out.push(e as { name?: string; code?: number; status?: number });
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

const SIZE_ERROR = /more than \d+ results|too many results|response size|size exceed|result window|block range|range (is )?too (large|wide)|exceeds? (the )?(max|limit)|query returned more|limit exceeded|too many logs|10000 results/i;

/** eth_getLogs refused the range because of its size: split the range, do not retry it as is. */
export function isSizeError(err: unknown): boolean {
  return SIZE_ERROR.test(messages(err));
}

/** Transient failures worth retrying: network, timeouts, rate limits, 5xx. */
export function isRetryable(err: unknown): boolean {
  if (isSizeError(err)) return false;
  for (const e of chain(err)) {
    if (e.name === 'RetryableRpcError') return true;
    if (e.name === 'TimeoutError' || e.name === 'SocketClosedError' || e.name === 'WebSocketRequestError') return true;
    if (e.name === 'HttpRequestError') return e.status === undefined || e.status === 429 || e.status >= 500;
    if (e.code === 429 || e.code === -32005) return true;
  }
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|fetch failed|socket hang up|rate limit/i.test(messages(err));
}

export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** attempt);
  // full jitter in [exp/2, exp]
  return Math.round(exp / 2 + random() * (exp / 2));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function withRetry<T>(fn: () => Promise<T>, limits: Pick<RpcLimits, 'maxRetries' | 'retryBaseMs' | 'retryMaxMs'>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= limits.maxRetries || !isRetryable(err) || signal?.aborted) throw err;
      await sleep(backoffMs(attempt, limits.retryBaseMs, limits.retryMaxMs), signal);
    }
  }
}

/** A concurrency cap and a token bucket of `rps` requests per second (burst = rps). */
export function createLimiter(maxConcurrency: number, rps: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  let tokens = rps;
  let last = Date.now();
  let inFlight = 0;
  let total = 0;

  async function takeToken(): Promise<void> {
    for (;;) {
      const now = Date.now();
      tokens = Math.min(rps, tokens + ((now - last) / 1000) * rps);
      last = now;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await sleep(Math.ceil(((1 - tokens) / rps) * 1000));
    }
  }

  return {
    async run<T>(fn: () => Promise<T>): Promise<T> {
      if (active >= maxConcurrency) await new Promise<void>((r) => waiting.push(r));
      active++;
      inFlight++;
      try {
        await takeToken();
        total++;
        return await fn();
      } finally {
        active--;
        inFlight--;
        waiting.shift()?.();
      }
    },
    stats: () => ({ inFlight, total }),
  };
}
export type Limiter = ReturnType<typeof createLimiter>;

function innerTransport(url: string, batchSize = 1): Transport {
  if (url.startsWith('ws')) return webSocket(url, { retryCount: 0 });
  // requests issued in the same tick (concurrent block reads of a range) share one HTTP round trip
  return http(url, { retryCount: 0, batch: batchSize > 1 ? { batchSize, wait: 0 } : false });
}

/** A transport whose every request to `inner` goes through the limiter and the retry policy. */
function limitedOver(inner: ReturnType<typeof createClient>, limits: RpcLimits): Transport {
  const limiter = createLimiter(limits.maxConcurrency, limits.requestsPerSecond);
  return custom(
    {
      request: ({ method, params }: { method: string; params?: unknown }) =>
        withRetry(() => limiter.run(() => inner.request({ method, params } as never)), limits),
    },
    { retryCount: 0 },
  );
}

const closers = new WeakMap<PublicClient, () => Promise<void>>();

/** A public client over the limited transport; cacheTime 0 so the block number is never stale. */
export function createRpcClient(url: string, limits: RpcLimits): PublicClient {
  const inner = createClient({ transport: innerTransport(url, limits.batchSize) });
  const client = createPublicClient({ transport: limitedOver(inner, limits), cacheTime: 0, pollingInterval: 250 });
  // only viem's webSocket transport has a socket (getRpcClient) to close
  const t = inner.transport as { getRpcClient?: () => Promise<{ close(): void }> };
  closers.set(client, async () => (await t.getRpcClient?.())?.close());
  return client;
}

/** Closes a client's socket (WebSocket URLs), so a finished command can exit; no-op over HTTP. */
export async function closeRpcClient(client: PublicClient): Promise<void> {
  await closers.get(client)?.().catch(() => {});
}
