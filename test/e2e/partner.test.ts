import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { startStack } from './harness.ts';
import { validateResponse } from './openapi.ts';
import type { OpenApiDoc } from './openapi.ts';
import type { Stack } from './harness.ts';

/**
 * Partner experience against the running app: batch reads and cursors.
 */
const DAYS = 10;

describe('partner experience: batch reads and cursors', () => {
  let stack: Stack;
  let doc: OpenApiDoc;
  /** tokens the engine has snapshots of, and well-formed addresses it never saw */
  let known: string[];
  const unseen = '0x' + '12'.repeat(20);

  beforeAll(async () => {
    stack = await startStack({ seed: 11, days: DAYS });
    await stack.advanceTo(stack.sim.truth.genesisTime + DAYS * 86400);
    doc = (await stack.call('GET', '/v1/openapi.json', undefined)).json as unknown as OpenApiDoc;
    known = [];
    const key = await stack.newKey('enterprise');
    for (const t of stack.sim.truth.tokens) {
      if ((await stack.call('POST', '/v1/token-risk', key, { token: t.address })).status === 200) known.push(t.address);
    }
  }, 300_000);
  afterAll(async () => stack?.stop());

  const unitsToday = async (key: string) => (await stack.call('GET', '/v1/usage', key)).json.unitsToday as number;
  const responsesOf = (path: string) => (doc.paths[path]?.post as { responses: Record<string, unknown> }).responses;

  describe('batch', () => {
    it('answers each token in order with the single operation’s answer, an error object in place of a token it cannot answer, and bills per token answered', async () => {
      expect(known.length).toBeGreaterThanOrEqual(4);
      const key = await stack.newKey('enterprise');
      const [a, b, c] = known as [string, string, string];
      const asked = [a, unseen, 'not-an-address', getAddress(b), c, a];
      const res = await stack.call('POST', '/v1/tokens/intel', key, { tokens: asked, sizeUsd: 5000 });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(validateResponse(doc, responsesOf('/tokens/intel'), res.json)).toBeUndefined();
      const results = res.json.results as Record<string, unknown>[];
      expect(results.map((r) => r.token)).toEqual([a, unseen, 'not-an-address', b, c, a]);
      expect(results[1]).toMatchObject({ error: 'not_a_token' });
      expect(results[2]).toMatchObject({ error: 'invalid_address' });
      expect(res.json).toMatchObject({ chain: 'sim', count: 6, answered: 4 });
      expect(res.headers.get('x-usage-units')).toBe('4');
      // the operators' count of billed units says the same
      expect(await (await fetch(`${stack.opsUrl}/metrics`)).text()).toMatch(/intel_units_billed_total\{operation="batchTokenIntel"\} 4\n/);
      // the same answer as the single operation (the same snapshot; the age may have moved a second)
      const single = await stack.call('POST', '/v1/token-intel', key, { token: c, sizeUsd: 5000 });
      const { ageSeconds: _a, ...one } = single.json;
      const { ageSeconds: _b, ...inBatch } = results[4] as Record<string, unknown>;
      expect(inBatch).toEqual({ ...one, token: c });
      expect(await unitsToday(key)).toBe(4 + 1);
    });

    it('risk and signal: the units of the single operation per token answered', async () => {
      const key = await stack.newKey('enterprise');
      const tokens = known.slice(0, 3);
      const risk = await stack.call('POST', '/v1/tokens/risk', key, { tokens });
      expect(risk.status).toBe(200);
      expect(validateResponse(doc, responsesOf('/tokens/risk'), risk.json)).toBeUndefined();
      expect(risk.headers.get('x-usage-units')).toBe('3');
      const signal = await stack.call('POST', '/v1/tokens/signal', key, { tokens: [...tokens, unseen] });
      expect(signal.status).toBe(200);
      expect(validateResponse(doc, responsesOf('/tokens/signal'), signal.json)).toBeUndefined();
      expect((signal.json.results as { signal?: string }[]).slice(0, 3).every((r) => ['BUY', 'ACCUMULATE', 'HOLD', 'AVOID'].includes(r.signal as string))).toBe(true);
      expect(signal.headers.get('x-usage-units')).toBe('6');
      expect(await unitsToday(key)).toBe(9);
      // nothing answered: 200, nothing billed
      const none = await stack.call('POST', '/v1/tokens/signal', key, { tokens: [unseen] });
      expect(none.status).toBe(200);
      expect(none.headers.get('x-usage-units')).toBe('0');
      expect(await unitsToday(key)).toBe(9);
    });

    it('takes up to 100 tokens of one chain; more, none, or a chain not ingested is a 400, unbilled', async () => {
      const key = await stack.newKey('enterprise');
      const hundred = Array.from({ length: 100 }, (_, i) => known[i % known.length] as string);
      const ok = await stack.call('POST', '/v1/tokens/risk', key, { tokens: hundred });
      expect(ok.status).toBe(200);
      expect((ok.json.results as unknown[]).length).toBe(100);
      expect(ok.headers.get('x-usage-units')).toBe('100');
      const more = await stack.call('POST', '/v1/tokens/risk', key, { tokens: [...hundred, known[0]] });
      expect(more.status).toBe(400);
      expect(more.json).toMatchObject({ error: 'invalid_param' });
      expect((await stack.call('POST', '/v1/tokens/risk', key, { tokens: [] })).status).toBe(400);
      expect((await stack.call('POST', '/v1/tokens/risk', key, { tokens: known.slice(0, 2), chain: 'base' })).json).toMatchObject({ error: 'invalid_chain' });
      expect((await stack.call('POST', '/v1/tokens/risk', key, { tokens: known.slice(0, 2), token: known[0] })).json).toMatchObject({ error: 'unknown_param' });
      expect(await unitsToday(key)).toBe(100);
    });

    it("holds every token's units against the key's daily quota before answering", async () => {
      const org = await stack.keys.createOrg('batch-quota');
      await stack.keys.goLive(org.id, Date.now());
      const key = (await stack.keys.createKey(org.id, 'enterprise', { dailyUnits: 5 })).plaintext;
      const over = await stack.call('POST', '/v1/tokens/risk', key, { tokens: known.slice(0, 4).concat(known.slice(0, 2)) });
      expect(over.status).toBe(429);
      expect(over.json).toMatchObject({ error: 'rate_limited' });
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      const fits = await stack.call('POST', '/v1/tokens/risk', key, { tokens: known.slice(0, 4).concat(known.slice(0, 1)) });
      expect(fits.status).toBe(200);
      expect(await unitsToday(key)).toBe(5);
    });
  });

  describe('cursors', () => {
    /** every page of a GET list, following `next`, with the items under `field` */
    async function pages(key: string, path: string, query: string, field: string, limit: number) {
      const out: Record<string, unknown>[] = [];
      let cursor: string | null = null;
      let calls = 0;
      do {
        const q = `${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await stack.call('GET', `/v1${path}?${q}`, key);
        expect(res.status, `${path}: ${JSON.stringify(res.json)}`).toBe(200);
        const get = doc.paths[path]?.get as { responses: Record<string, unknown> };
        expect(validateResponse(doc, get.responses, res.json), path).toBeUndefined();
        out.push(...(res.json[field] as Record<string, unknown>[]));
        cursor = res.json.next as string | null;
        calls++;
      } while (cursor !== null && calls < 500);
      return { items: out, calls };
    }

    it("reaches every rated trader of the leaderboard, each once, ranks continuing across pages", async () => {
      const key = await stack.newKey('enterprise');
      const first = await stack.call('GET', '/v1/trader-leaderboard?limit=100', key);
      const rated = first.json.rated as number;
      expect(rated).toBeGreaterThan(10);
      const { items, calls } = await pages(key, '/trader-leaderboard', 'chain=sim', 'leaders', 7);
      expect(calls).toBe(Math.ceil(rated / 7));
      expect(items.map((l) => l.rank)).toEqual(Array.from({ length: rated }, (_, i) => i + 1));
      expect(new Set(items.map((l) => l.wallet)).size).toBe(rated);
      expect(items.slice(0, Math.min(100, rated))).toEqual(first.json.leaders);
      expect(first.json.next === null).toBe(rated <= 100);
    });

    it('every list pages to the same items as one long page', async () => {
      const key = await stack.newKey('enterprise');
      const lists: [string, string, string][] = [
        ['/market-movers', 'chain=sim', 'movers'],
        ['/named-chain-movers', '', 'movers'],
        ['/conviction-board', 'chain=sim', 'board'],
        ['/smart-money-radar', 'chain=sim&window=168', 'accumulating'],
        ['/copy/top-traders', 'chain=sim', 'traders'],
        ['/copy/spot-leaders', 'chain=sim', 'leaders'],
        ['/copy/perp-leaders', '', 'leaders'],
        ['/copy/prediction-leaders', '', 'leaders'],
      ];
      for (const [path, query, field] of lists) {
        const whole = await stack.call('GET', `/v1${path}?${query}&limit=100`, key);
        const all = whole.json[field] as unknown[];
        const paged = await pages(key, path, query, field, 3);
        expect(paged.items.slice(0, all.length), path).toEqual(all);
        // a list longer than the longest page (100) is reachable past it
        if (whole.json.next === null) expect(paged.items.length, path).toBe(all.length);
        else expect(paged.items.length, path).toBeGreaterThan(all.length);
        expect(all.length, path).toBeGreaterThan(0);
      }
    });

    it("a wallet's trades page by their cursor in the body", async () => {
      const key = await stack.newKey('enterprise');
      const lb = await stack.call('GET', '/v1/trader-leaderboard?limit=1', key);
      const wallet = (lb.json.leaders as { wallet: string }[])[0]?.wallet as string;
      const whole = await stack.call('POST', '/v1/wallet-trades', key, { wallet, limit: 30 });
      const all = whole.json.trades as unknown[];
      const got: unknown[] = [];
      let cursor: string | null | undefined;
      do {
        const res = await stack.call('POST', '/v1/wallet-trades', key, { wallet, limit: 2, ...(cursor ? { cursor } : {}) });
        expect(res.status).toBe(200);
        got.push(...(res.json.trades as unknown[]));
        cursor = res.json.next as string | null;
      } while (cursor);
      expect(got.slice(0, all.length)).toEqual(all);
    });

    it('a cursor that this list did not hand out is a 400 naming the cursor, unbilled', async () => {
      const key = await stack.newKey('enterprise');
      const movers = await stack.call('GET', '/v1/market-movers?limit=1', key);
      const next = movers.json.next as string;
      expect(typeof next).toBe('string');
      const before = await unitsToday(key);
      for (const bad of ['nonsense', next.slice(0, -2), Buffer.from('[1,2]').toString('base64url')]) {
        const res = await stack.call('GET', `/v1/market-movers?cursor=${encodeURIComponent(bad)}`, key);
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({ error: 'invalid_param' });
        expect(res.json.detail).toMatch(/cursor/);
      }
      // another list's cursor
      const other = await stack.call('GET', `/v1/conviction-board?cursor=${encodeURIComponent(next)}`, key);
      expect(other.status).toBe(400);
      expect(await unitsToday(key)).toBe(before);
    });
  });

  describe('conditional reads, compression and CORS', () => {
    const raw = (path: string, init: RequestInit) => fetch(`${stack.url}${path}`, init);
    const post = (key: string, headers: Record<string, string>, body: unknown) =>
      raw('/v1/token-intel', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    it('a snapshot read carries a weak ETag; If-None-Match with it answers 304 without a body, unbilled, until the snapshot changes', async () => {
      const key = await stack.newKey('enterprise');
      const token = known[0] as string;
      const first = await post(key, {}, { token });
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag') as string;
      expect(etag).toMatch(/^W\/"/);
      await first.text();
      // the repeated call (from the response cache's bytes) has the same validator
      const again = await post(key, {}, { token });
      expect(again.headers.get('etag')).toBe(etag);
      await again.text();
      const held = await post(key, { 'if-none-match': etag }, { token });
      expect(held.status).toBe(304);
      expect(await held.text()).toBe('');
      expect(held.headers.get('x-usage-units')).toBeNull();
      expect(held.headers.get('x-ratelimit-limit')).toBe('2000');
      const listed = await post(key, { 'if-none-match': `W/"other", ${etag}` }, { token });
      expect(listed.status).toBe(304);
      const stale = await post(key, { 'if-none-match': 'W/"other"' }, { token });
      expect(stale.status).toBe(200);
      await stale.text();
      expect(await unitsToday(key)).toBe(3);
      // another request text is another answer
      const sized = await post(key, {}, { token, sizeUsd: 9000 });
      expect(sized.headers.get('etag')).not.toBe(etag);
      await sized.text();
      // the document declares it
      const op = doc.paths['/token-intel']?.post as unknown as { responses: Record<string, { headers?: Record<string, unknown> }>; parameters: { name: string }[] };
      expect(op.responses['304']).toBeDefined();
      expect(op.responses['200']?.headers?.ETag).toBeDefined();
      expect(op.parameters.map((p) => p.name)).toContain('If-None-Match');
    });

    it('answers from 1 KiB up in br or gzip as the client accepts, the same JSON', async () => {
      const key = await stack.newKey('enterprise');
      const token = known[0] as string;
      const plain = await post(key, {}, { token });
      const text = await plain.text();
      expect(Buffer.byteLength(text)).toBeGreaterThan(1024);
      for (const encoding of ['br', 'gzip']) {
        // undici decodes the body and keeps the header
        const res = await post(key, { 'accept-encoding': encoding }, { token });
        expect(res.headers.get('content-encoding')).toBe(encoding);
        const { ageSeconds: _a, ...body } = (await res.json()) as Record<string, unknown>;
        const { ageSeconds: _b, ...expected } = JSON.parse(text) as Record<string, unknown>;
        expect(body).toEqual(expected);
      }
      // lists and the document go through @fastify/compress
      const movers = await raw('/v1/market-movers?limit=50', { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' } });
      expect(movers.headers.get('content-encoding')).toBe('gzip');
      expect(((await movers.json()) as { movers: unknown[] }).movers.length).toBeGreaterThan(0);
      const small = await raw('/v1/usage', { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' } });
      expect(small.headers.get('content-encoding')).toBeNull();
      await small.text();
    });

    it('lets browser apps call: a preflight is answered before the key is asked for, and the limits headers are readable', async () => {
      const key = await stack.newKey('enterprise');
      const pre = await raw('/v1/token-intel', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(pre.headers.get('access-control-allow-headers')).toMatch(/authorization/);
      const res = await post(key, { origin: 'https://app.example' }, { token: known[0] });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toMatch(/x-ratelimit-remaining/);
      await res.text();
      // a server calling (no Origin) sees no CORS headers, and OPTIONS stays the path's 405
      const opt = await raw('/v1/token-intel', { method: 'OPTIONS', headers: { authorization: `Bearer ${key}` } });
      expect(opt.status).toBe(405);
      expect(opt.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('the OpenAPI document', () => {
    it('names its answer shapes as component schemas and refers to them, and declares Retry-After and the limits on 429 and 503', async () => {
      const v = new Validator();
      const res = await v.validate(doc as never);
      expect(res.errors ?? []).toEqual([]);
      const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
      type Response = { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: { $ref?: string } }> };
      type Op = { responses: Record<string, Response> };
      // the error answers are shared: components/responses/Error<status>
      const shared = (doc.components as { responses: Record<string, Response> }).responses;
      const resolved = (r: Response | undefined) => (r?.$ref ? shared[r.$ref.replace('#/components/responses/', '')] : r);
      const op = (path: string, method: 'get' | 'post') => doc.paths[path]?.[method] as unknown as Op;
      expect(op('/token-intel', 'post').responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/TokenIntelResponse' });
      expect(op('/trader-leaderboard', 'get').responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/TraderLeaderboardResponse' });
      // a shared item is one named schema, referred to by each list that carries it
      expect(JSON.stringify(schemas.TraderLeaderboardResponse)).toContain('#/components/schemas/LeaderboardItem');
      expect(JSON.stringify(schemas.CopyTopTradersResponse ?? schemas.TopTradersResponse)).toContain('#/components/schemas/LeaderboardItem');
      for (const [path, methods] of Object.entries(doc.paths)) {
        for (const [method, o] of Object.entries(methods)) {
          const responses = (o as unknown as Op).responses;
          // the live stream answers its upgrade (101), the operations 200
          const success = responses['200'] ?? responses['101'];
          expect(success?.content?.['application/json']?.schema.$ref, `${method} ${path}`).toMatch(/^#\/components\/schemas\//);
          for (const status of ['429', '503']) {
            if (responses[status]) expect(Object.keys(resolved(responses[status])?.headers ?? {}), `${method} ${path} ${status}`).toEqual(expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit']));
          }
        }
      }
    });
  });
});
