/**
 * The RPC edge: a viem transport with a concurrency cap, a requests-per-second cap and retries
 * with exponential backoff and jitter for transient failures. A getLogs range the RPC refuses (too
 * large, or a timeout over more than one block) is not retried here: the backfill splits it.
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
import { doubling, retry, sleep } from '../../infra/retry.ts';
import type { Backoff } from '../../infra/retry.ts';

export interface RpcLimits {
  maxConcurrency: number;
  requestsPerSecond: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** JSON-RPC requests per HTTP batch; 1 or undefined = no batching */
  batchSize?: number;
  /** how long one HTTP request may take (default 10 s) */
  timeoutMs?: number;
  /** the largest HTTP answer read (default viem's 10 MB) */
  maxResponseBytes?: number;
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

/**
 * How providers and clients say a getLogs range is too big: geth/erigon/reth ("exceed maximum
 * block range", "block range too large"), Infura ("query returned more than 10000 results"),
 * Alchemy ("Log response size exceeded"), QuickNode ("is limited to a 10,000 range"), Ankr
 * ("block range is too wide"), Chainstack ("Block range limit exceeded"), BlastAPI/others ("max
 * range", "too many logs"), a gateway's 413, and viem's own refusal of a body over its 10 MB
 * limit ("HTTP response body exceeded the size limit").
 */
const SIZE_ERROR =
  /more than [\d,]+ results|too many (results|logs|blocks)|response size|size exceed|size limit|result window|block range|range (is )?too (large|wide|big)|exceeds? (the )?(max|limit)|exceed(s|ed)? maximum|query returned more|limit exceeded|range limit|is limited to|max(imum)? (block )?range|payload too large|body (is )?too large|10000 results/i;

/** a rate limit or quota (Infura's -32005 says "limit exceeded" for both): wait, do not split */
const RATE_LIMIT = /\brate\b|rate[ -]?limit|per second|capacity|quota|daily|compute units|too many requests/i;

/** eth_getLogs refused the range because of its size: split the range, do not retry it as is. */
export function isSizeError(err: unknown): boolean {
  for (const e of chain(err)) {
    if (e.name === 'ResponseBodyTooLargeError') return true;
    if (e.name === 'HttpRequestError' && e.status === 413) return true;
  }
  const text = messages(err);
  return SIZE_ERROR.test(text) && !RATE_LIMIT.test(text);
}

/** The request ran out of time: the client's timeout, a gateway's 408 or 504. */
export function isTimeout(err: unknown): boolean {
  for (const e of chain(err)) {
    if (e.name === 'TimeoutError') return true;
    if (e.name === 'HttpRequestError' && (e.status === 408 || e.status === 504)) return true;
  }
  return /timed? ?out|timeout/i.test(messages(err));
}

/**
 * A getLogs range the RPC would not answer as it is: too large, or too slow. Either way a
 * smaller range is the answer (a timeout retried as is times out again).
 */
export function isRangeRefusal(err: unknown): boolean {
  return isSizeError(err) || isTimeout(err);
}

/** an eth_getLogs over more than one block: its timeouts go back to the caller, who splits it */
function isRangedGetLogs(method: string, params: unknown): boolean {
  if (method !== 'eth_getLogs' || !Array.isArray(params)) return false;
  const f = params[0] as { fromBlock?: string; toBlock?: string } | undefined;
  return f?.fromBlock !== undefined && f.fromBlock !== f.toBlock;
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

/** the RPC's waits between attempts: doubling from `retryBaseMs` to `retryMaxMs`, drawn in the upper half */
export function rpcBackoff(limits: Pick<RpcLimits, 'retryBaseMs' | 'retryMaxMs'>): Backoff {
  return { cap: doubling(limits.retryBaseMs, limits.retryMaxMs), jitter: 'half' };
}

export function withRetry<T>(
  fn: () => Promise<T>,
  limits: Pick<RpcLimits, 'maxRetries' | 'retryBaseMs' | 'retryMaxMs'>,
  signal?: AbortSignal,
  retryable: (err: unknown) => boolean = isRetryable,
): Promise<T> {
  return retry(fn, { backoff: rpcBackoff(limits), retries: limits.maxRetries, shouldRetry: retryable, signal });
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

function innerTransport(url: string, limits: RpcLimits, batched: boolean): Transport {
  const timeout = limits.timeoutMs ?? 10_000;
  if (url.startsWith('ws')) return webSocket(url, { retryCount: 0, timeout });
  const batchSize = batched ? (limits.batchSize ?? 1) : 1;
  return http(url, { retryCount: 0, timeout, maxResponseBodySize: limits.maxResponseBytes, batch: batchSize > 1 ? { batchSize, wait: 0 } : false });
}

/**
 * A transport whose every request goes through the limiter and the retry policy. Requests share
 * HTTP batches, but a batch's answer is one body under the size limit: eth_getLogs (an answer of
 * megabytes) always goes alone, and a request whose batch came back too large is asked again alone.
 */
function limitedOver(batched: ReturnType<typeof createClient>, single: ReturnType<typeof createClient>, limits: RpcLimits): Transport {
  const limiter = createLimiter(limits.maxConcurrency, limits.requestsPerSecond);
  const send = async (method: string, params: unknown) => {
    if (method === 'eth_getLogs' || batched === single) return single.request({ method, params } as never);
    try {
      return await batched.request({ method, params } as never);
    } catch (err) {
      if (!isSizeError(err)) throw err;
      return single.request({ method, params } as never);
    }
  };
  return custom(
    {
      request: ({ method, params }: { method: string; params?: unknown }) =>
        withRetry(
          () => limiter.run(() => send(method, params)),
          limits,
          undefined,
          isRangedGetLogs(method, params) ? (err) => isRetryable(err) && !isTimeout(err) : isRetryable,
        ),
    },
    { retryCount: 0 },
  );
}

const closers = new WeakMap<PublicClient, () => Promise<void>>();

/** A public client over the limited transport; cacheTime 0 so the block number is never stale. */
export function createRpcClient(url: string, limits: RpcLimits): PublicClient {
  const inner = createClient({ transport: innerTransport(url, limits, true) });
  // a WebSocket has no batches: one client serves both
  const single = url.startsWith('ws') || (limits.batchSize ?? 1) <= 1 ? inner : createClient({ transport: innerTransport(url, limits, false) });
  const client = createPublicClient({ transport: limitedOver(inner, single, limits), cacheTime: 0, pollingInterval: 250 });
  // only viem's webSocket transport has a socket (getRpcClient) to close
  const t = inner.transport as { getRpcClient?: () => Promise<{ close(): void }> };
  closers.set(client, async () => (await t.getRpcClient?.())?.close());
  return client;
}

/** Closes a client's socket (WebSocket URLs), so a finished command can exit; no-op over HTTP. */
export async function closeRpcClient(client: PublicClient): Promise<void> {
  await closers.get(client)?.().catch(() => {});
}
