import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Candle } from '../../schemas/events.ts';
import { createCandlePoller } from './poller.ts';

/** GeckoTerminal's OHLCV answer, as the API sends it (newest first), for whichever token is asked */
const fixture = readFileSync(join(import.meta.dirname, '../../test/fixtures/candles/geckoterminal-ohlcv-hour.json'), 'utf8');
const TOKEN = `0x${'ab'.repeat(20)}`;
const POOL = `0x${'cd'.repeat(20)}`;
const NEWEST = 1_795_500_000;

let server: Server;
let base: string;
const requests: URL[] = [];
let throttleNext = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url);
    if (throttleNext) {
      throttleNext = false;
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"status":{"error_code":429,"error_message":"You\'ve exceeded the Rate Limit"}}');
      return;
    }
    const m = /^\/api\/v2\/networks\/([^/]+)\/pools\/([^/]+)\/ohlcv\/hour$/.exec(url.pathname);
    if (!m || req.headers.accept !== 'application/json;version=20230302') {
      res.writeHead(404).end('{"errors":[{"status":"404","title":"Not Found"}]}');
      return;
    }
    const before = Number(url.searchParams.get('before_timestamp'));
    const body = JSON.parse(fixture.replace('{{token}}', url.searchParams.get('token') ?? '')) as { data: { attributes: { ohlcv_list: number[][] } } };
    const limit = Number(url.searchParams.get('limit'));
    body.data.attributes.ohlcv_list = body.data.attributes.ohlcv_list.filter((r) => (r[0] as number) < before).slice(0, limit);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('candle source (GeckoTerminal OHLCV wire format, a local server)', () => {
  it('asks for the hourly candles of each followed token\'s pool, publishes them oldest first, then only what is new; waits out a 429', async () => {
    const published: Candle[][] = [];
    let now = NEWEST + 1800;
    const errors: unknown[] = [];
    const poller = createCandlePoller({
      baseUrl: base,
      targets: () => [{ chain: 'ethereum', token: TOKEN, pool: POOL }],
      publish: async (c) => void published.push(c),
      intervalSec: 60,
      requestsPerMinute: 6000,
      now: () => now,
      onError: (_t, err) => errors.push(err),
    });
    expect(await poller.round()).toBe(12);
    const first = requests[requests.length - 1] as URL;
    expect(first.pathname).toBe(`/api/v2/networks/eth/pools/${POOL}/ohlcv/hour`);
    expect(Object.fromEntries(first.searchParams)).toMatchObject({ aggregate: '1', currency: 'usd', token: TOKEN, before_timestamp: String(now), limit: '169' });
    const candles = published[0] as Candle[];
    expect(candles.map((c) => c.openTime)).toEqual([...candles.map((c) => c.openTime)].sort((a, b) => a - b));
    expect(candles[candles.length - 1]).toMatchObject({ type: 'candle', chain: 'ethereum', token: TOKEN, interval: '1h', openTime: NEWEST, source: 'geckoterminal' });
    expect(candles[candles.length - 1]?.close).toBeCloseTo(0.62);

    // an hour later: from the newest candle held (the open hour again, revised), not 7 days
    now += 3600;
    await poller.round();
    expect((requests[requests.length - 1] as URL).searchParams.get('limit')).toBe('3');

    throttleNext = true;
    const t0 = Date.now();
    expect(await poller.round()).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(String(errors[0])).toMatch(/429/);
  });

  it('a chain without a GeckoTerminal network, or a body not in its format, is an error for that token, not a crash', async () => {
    const errors: unknown[] = [];
    const poller = createCandlePoller({
      baseUrl: `${base}/broken`,
      targets: () => [{ chain: 'nowhere', token: TOKEN, pool: POOL }, { chain: 'base', token: TOKEN, pool: POOL }],
      publish: async () => undefined,
      intervalSec: 60,
      requestsPerMinute: 6000,
      onError: (_t, err) => errors.push(err),
    });
    expect(await poller.round()).toBe(0);
    expect(errors.map(String)).toEqual([expect.stringMatching(/no GeckoTerminal network for chain nowhere/), expect.stringMatching(/answered 404/)]);
  });
});
