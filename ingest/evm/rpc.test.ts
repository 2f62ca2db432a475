import { describe, expect, it } from 'vitest';
import { HttpRequestError, ResponseBodyTooLargeError, TimeoutError } from 'viem';
import { backoffMs } from '../../infra/retry.ts';
import { createLimiter, isRangeRefusal, isRetryable, isSizeError, isTimeout, rpcBackoff, withRetry } from './rpc.ts';

const limits = { maxRetries: 3, retryBaseMs: 1, retryMaxMs: 4 };

describe('error classes', () => {
  it('size errors split, transient errors retry, reverts do neither', () => {
    expect(isSizeError(new Error('query returned more than 10000 results'))).toBe(true);
    expect(isSizeError(new Error('Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range'))).toBe(true);
    expect(isRetryable(new Error('query returned more than 10000 results'))).toBe(false);
    expect(isRetryable(new HttpRequestError({ url: 'http://x', status: 503 }))).toBe(true);
    expect(isRetryable(new HttpRequestError({ url: 'http://x', status: 429 }))).toBe(true);
    expect(isRetryable(new HttpRequestError({ url: 'http://x', status: 400 }))).toBe(false);
    expect(isRetryable(new Error('wrapped', { cause: new Error('fetch failed') }))).toBe(true);
    expect(isRetryable(new Error('execution reverted'))).toBe(false);
  });
});

describe("providers' ways of refusing a getLogs range", () => {
  // the messages as the providers send them (error.message of the JSON-RPC error)
  const refusals = [
    'query returned more than 10000 results. Try with this block range [0x10, 0x20].', // Infura
    'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size', // Alchemy
    'eth_getLogs is limited to a 10,000 range', // QuickNode
    'block range is too wide', // Ankr
    'exceed maximum block range: 5000', // geth
    'Block range limit exceeded.', // Chainstack
    'max range of blocks is 5000', // others
    'query exceeds max results 20000, retry with the range 1-100', // erigon / reth
    'too many logs in the response', // nethermind-style
  ];
  it.each(refusals)('splits on "%s"', (message) => {
    expect(isSizeError(new Error('RPC Request failed.', { cause: new Error(message) }))).toBe(true);
    expect(isRetryable(new Error(message))).toBe(false);
  });

  it("splits on viem's refusal of a body over its limit and on a gateway's 413", () => {
    expect(isSizeError(new ResponseBodyTooLargeError({ maxSize: 10_485_760, size: 12_000_000 }))).toBe(true);
    expect(isSizeError(new Error('Unknown RPC error', { cause: new ResponseBodyTooLargeError({ maxSize: 1, size: 2 }) }))).toBe(true);
    expect(isSizeError(new HttpRequestError({ url: 'http://x', status: 413 }))).toBe(true);
  });

  it('a message that only contains the letters "rate" is still a size refusal', () => {
    expect(isSizeError(new Error('query returned more than 10000 results; separate the range and iterate'))).toBe(true);
  });

  it('a rate limit is waited out, not split, even when it says "limit exceeded"', () => {
    const infura = new Error('project ID request rate exceeded, limit exceeded');
    expect(isSizeError(infura)).toBe(false);
    expect(isSizeError(new HttpRequestError({ url: 'http://x', status: 429, details: 'Too Many Requests' }))).toBe(false);
  });

  it('timeouts are range refusals for a getLogs range, and retried elsewhere', () => {
    const t = new TimeoutError({ body: {}, url: 'http://x' });
    expect(isTimeout(t)).toBe(true);
    expect(isRangeRefusal(t)).toBe(true);
    expect(isRetryable(t)).toBe(true);
    expect(isTimeout(new HttpRequestError({ url: 'http://x', status: 504 }))).toBe(true);
    expect(isRangeRefusal(new Error('execution reverted'))).toBe(false);
  });
});

describe('withRetry', () => {
  it('retries transient failures then succeeds', async () => {
    let n = 0;
    const v = await withRetry(async () => {
      if (++n < 3) throw new HttpRequestError({ url: 'http://x', status: 502 });
      return 'ok';
    }, limits);
    expect(v).toBe('ok');
    expect(n).toBe(3);
  });

  it('gives up after maxRetries and does not retry non-retryable errors', async () => {
    let n = 0;
    await expect(withRetry(async () => { n++; throw new HttpRequestError({ url: 'http://x', status: 500 }); }, limits)).rejects.toThrow();
    expect(n).toBe(4);
    n = 0;
    await expect(withRetry(async () => { n++; throw new Error('execution reverted'); }, limits)).rejects.toThrow('reverted');
    expect(n).toBe(1);
  });

  it('backoff grows exponentially with jitter, capped', () => {
    const rpc = rpcBackoff({ retryBaseMs: 100, retryMaxMs: 10_000 });
    expect(backoffMs(rpc, 0, () => 0)).toBe(50);
    expect(backoffMs(rpc, 0, () => 1)).toBe(100);
    expect(backoffMs(rpc, 3, () => 1)).toBe(800);
    expect(backoffMs(rpc, 20, () => 1)).toBe(10_000);
  });
});

describe('createLimiter', () => {
  it('never runs more than maxConcurrency at once', async () => {
    const lim = createLimiter(3, 1000);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        lim.run(async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, 5));
          active--;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(lim.stats().total).toBe(20);
  });

  it('caps requests per second', async () => {
    const lim = createLimiter(10, 20);
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 30 }, () => lim.run(async () => undefined)));
    // a burst of 20, then 10 more at 20/s: at least ~0.5 s
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
  });
});

describe('batches and the size limit (a local JSON-RPC server)', () => {
  it('a batch whose answer would pass the limit is asked again request by request; eth_getLogs never rides in a batch', async () => {
    const { createServer } = await import('node:http');
    const bodies: unknown[] = [];
    // every block answer is 400 kB: six of them in one batch pass a 2 MB limit, one alone does not
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(text) as { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[];
        bodies.push(body);
        const answer = (r: { id: number; method: string; params: unknown[] }) => ({
          jsonrpc: '2.0', id: r.id, result: r.method === 'eth_getLogs' ? [] : { number: r.params[0], pad: 'x'.repeat(400_000) },
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const { createRpcClient } = await import('./rpc.ts');
    const client = createRpcClient(url, { maxConcurrency: 16, requestsPerSecond: 10_000, maxRetries: 0, retryBaseMs: 1, retryMaxMs: 1, batchSize: 50, maxResponseBytes: 2_000_000 });
    try {
      const blocks = await Promise.all(Array.from({ length: 8 }, (_, i) => client.request({ method: 'eth_getBlockByNumber', params: [`0x${i.toString(16)}`, true] } as never)));
      expect(blocks.map((b) => (b as { number: string }).number)).toEqual(Array.from({ length: 8 }, (_, i) => `0x${i.toString(16)}`));
      expect(bodies.some((b) => Array.isArray(b) && b.length > 1)).toBe(true); // they were batched first
      bodies.length = 0;
      await Promise.all([
        client.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x1', toBlock: '0x2' }] } as never),
        client.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x3', toBlock: '0x4' }] } as never),
      ]);
      expect(bodies.every((b) => !Array.isArray(b))).toBe(true);
    } finally {
      server.close();
    }
  });
});
