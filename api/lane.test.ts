import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deriveTokenSnapshot } from '../engine/token/derive.ts';
import { foldTokenEvents, initialTokenState } from '../engine/token/state.ts';
import { organicMarket } from '../engine/token/testkit.ts';
import { createMemoryLog } from '../infra/log/memory.ts';
import { createMetrics } from '../infra/metrics.ts';
import type { Metrics } from '../infra/metrics.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import { Tables } from '../infra/store/types.ts';
import type { TokenSnapshot } from '../schemas/token.ts';
import { bootTestApp } from '../test/api-app.ts';
import type { TestApp } from '../test/api-app.ts';
import type { AppDeps } from './app.ts';
import { defineOperation } from './operations.ts';
import type { AnyOperation } from './operations.ts';
import { createReplica } from './replica.ts';
import type { Replica, SnapshotEntry } from './replica.ts';
import { ChainParam } from './routes/common.ts';
import { TokenIntelRequest } from './routes/token.ts';
import { fresh, tokenIntelView } from './views/token.ts';
import { expectDraftHeaders } from '../test/ratelimit-headers.ts';

/**
 * The served lane (api/lane.ts) answers repeated snapshot reads before fastify: every answer it
 * gives must be the one the app gives without it, header for header, billed and counted the same,
 * and everything it does not answer must reach the app as sent.
 */

let snapshot: TokenSnapshot;
const key = () => `token:${snapshot.chain}:${snapshot.token}`;
beforeAll(() => {
  const m = organicMarket(100);
  snapshot = deriveTokenSnapshot(foldTokenEvents(initialTokenState(m.chain, m.token), m.events));
});

/** token-intel as the routes define it, over the test's replica (POST), and a GET reading the same snapshot */
function operations(replica: Replica): AnyOperation[] {
  const served = {
    snapshot: (i: { chain?: string; token: string }) => `token:${i.chain ?? 'sim'}:${i.token}`,
    ageSeconds: (e: SnapshotEntry, nowMs: number) => fresh(e.value<TokenSnapshot>(), nowMs / 1000).ageSeconds,
  };
  const view = (i: { chain?: string; token: string; sizeUsd?: number }, now: number) =>
    tokenIntelView(replica.get<TokenSnapshot>(served.snapshot(i)) as TokenSnapshot, { sizeUsd: i.sizeUsd }, now / 1000) as never;
  return [
    defineOperation({ id: 'tokenIntel', method: 'POST', path: '/token-intel', cost: 1, group: 'token', summary: 's', returns: 'r', request: TokenIntelRequest, response: z.looseObject({}), served, handler: async (i, ctx) => view(i, ctx.now) }),
    defineOperation({
      id: 'tokenIntelGet',
      method: 'GET',
      path: '/token-intel-get',
      cost: 2,
      group: 'token',
      summary: 's',
      returns: 'r',
      request: z.object({ chain: ChainParam, token: z.string() }),
      response: z.looseObject({}),
      served,
      handler: async (i, ctx) => view(i, ctx.now),
    }),
  ];
}

interface Served {
  app: TestApp;
  url: string;
  metrics: Metrics;
  replica: Replica;
  close(): Promise<void>;
}

const open: Served[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

/** the app over a store holding the snapshot, with the lane or without, at the test's clock */
async function boot(servedLane: boolean, now: () => number, deps: Partial<AppDeps> = {}): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'lane-test-'));
  const store = await createEmbeddedStore({ dataDir: dir });
  await store.migrate();
  await store.upsert(Tables.snapshots, [{ key: key(), version: 1, body: JSON.stringify(snapshot) }]);
  const log = createMemoryLog();
  const replica = await createReplica({ log, store });
  const metrics = createMetrics();
  const app = await bootTestApp({ ...deps, store, operations: operations(replica), replica, now, metrics, servedLane });
  const { url } = await app.listen();
  const s: Served = {
    app,
    url,
    metrics,
    replica,
    async close() {
      await replica.stop();
      await app.close();
      await log.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  open.push(s);
  return s;
}

interface Raw {
  status: number;
  /** header names in the order sent, lowercase, with their values */
  headers: [string, string][];
  body: Buffer;
}

/** one call over a fresh connection, the answer's headers as sent */
function call(url: string, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([(res.rawHeaders[i] as string).toLowerCase(), res.rawHeaders[i + 1] as string]);
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** what is the same in two answers to the same call: everything but the request id and the date */
const comparable = (r: Raw) => ({ status: r.status, headers: r.headers.filter(([k]) => k !== 'x-request-id' && k !== 'date'), body: r.body.toString('base64') });

const json = { 'content-type': 'application/json' };

describe('the served lane', () => {
  it('answers a repeated snapshot read exactly as the app does: status, every header in order, the bytes, in each encoding and by GET', async () => {
    const t = snapshot.asOfTs * 1000 + 5_000;
    const lane = await boot(true, () => t);
    const app = await boot(false, () => t);
    const keyOf = async (s: Served) => s.app.newKey('pro');
    const keys = new Map([
      [lane, await keyOf(lane)],
      [app, await keyOf(app)],
    ]);
    const body = JSON.stringify({ token: snapshot.token, chain: snapshot.chain });
    const calls: { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string }[] = [
      { method: 'POST', path: '/v1/token-intel', headers: json, body },
      { method: 'POST', path: '/api/v1/token-intel', headers: { 'content-type': 'application/json; charset=utf-8' }, body },
      { method: 'POST', path: '/v1/token-intel', headers: { ...json, 'accept-encoding': 'gzip' }, body },
      { method: 'POST', path: '/v1/token-intel', headers: { ...json, 'accept-encoding': 'br;q=1, gzip;q=0.5' }, body },
      { method: 'GET', path: `/v1/token-intel-get?chain=${snapshot.chain}&token=${snapshot.token}`, headers: {} },
      { method: 'GET', path: `/v1/token-intel-get?chain=${snapshot.chain}&token=${snapshot.token}`, headers: { 'accept-encoding': 'gzip, deflate, br' } },
    ];
    for (const c of calls) {
      const answers: Raw[] = [];
      for (const s of [lane, app]) {
        const auth = { authorization: `Bearer ${keys.get(s) as string}` };
        // the first call of a request text is the app's (it builds the cached answer); the later ones the lane's
        await call(s.url, c.method, c.path, { ...c.headers, ...auth }, c.body);
        answers.push(await call(s.url, c.method, c.path, { ...c.headers, ...auth }, c.body));
      }
      const [viaLane, viaApp] = answers as [Raw, Raw];
      expect(viaLane.status).toBe(200);
      expect(comparable(viaLane)).toEqual(comparable(viaApp));
      // the bytes are the view's JSON, in the encoding named
      const encoding = viaLane.headers.find(([k]) => k === 'content-encoding')?.[1];
      const decoded = encoding === 'gzip' ? gunzipSync(viaLane.body) : encoding === 'br' ? brotliDecompressSync(viaLane.body) : viaLane.body;
      expect(encoding).toBe(c.headers['accept-encoding'] === undefined ? undefined : c.headers['accept-encoding'] === 'gzip' ? 'gzip' : 'br');
      expect(decoded.toString()).toBe(JSON.stringify(tokenIntelView(snapshot, {}, t / 1000)));
    }
    // the lane answered every call but the first of each request text (one body, one query)
    expect(lane.app.app.servedLane?.answered).toBe(calls.length * 2 - 2);
    // billed and counted the same: 1 unit per token-intel call, 2 per GET
    const lk = keys.get(lane) as string;
    const ak = keys.get(app) as string;
    const dayOf = async (s: Served, plaintext: string) => s.app.meter.keyDay((await s.app.keys.resolve(plaintext, t))?.id as string, t);
    expect(await dayOf(lane, lk)).toEqual(await dayOf(app, ak));
    expect((await dayOf(lane, lk)).units).toBe(4 * 2 + 2 * 2 * 2);
    const counted = async (s: Served) => (await s.metrics.render()).split('\n').filter((l) => l.startsWith('intel_http_requests_total') || l.startsWith('intel_units_billed_total'));
    expect(await counted(lane)).toEqual(await counted(app));
    expect((await counted(lane)).join('\n')).toContain('operation="tokenIntel",status="200"} 8');
    // the operators see how many the lane answered (the app without it: none)
    const laneAnswered = async (s: Served) => (await s.metrics.render()).split('\n').filter((l) => l.startsWith('intel_http_lane_answered_total'));
    expect(await laneAnswered(lane)).toEqual(['intel_http_lane_answered_total{operation="tokenIntel"} 7', 'intel_http_lane_answered_total{operation="tokenIntelGet"} 3']);
    expect(await laneAnswered(app)).toEqual([]);
  });

  it('hands everything else to the app as sent: CORS, If-None-Match, bad JSON, other request text, unknown and refused keys', async () => {
    const t = snapshot.asOfTs * 1000 + 5_000;
    const s = await boot(true, () => t);
    const plaintext = await s.app.newKey('enterprise', { ratePerMinute: 6 });
    const auth = { authorization: `Bearer ${plaintext}` };
    const body = JSON.stringify({ token: snapshot.token, chain: snapshot.chain });
    const first = await call(s.url, 'POST', '/v1/token-intel', { ...json, ...auth }, body);
    expect(first.status).toBe(200);
    const etag = first.headers.find(([k]) => k === 'etag')?.[1] as string;
    // a browser's call: the CORS headers of the app
    const cors = await call(s.url, 'POST', '/v1/token-intel', { ...json, ...auth, origin: 'https://partner.example' }, body);
    expect(cors.status).toBe(200);
    expect(cors.headers).toContainEqual(['access-control-allow-origin', '*']);
    // the client holds the answer: 304, unbilled
    const held = await call(s.url, 'POST', '/v1/token-intel', { ...json, ...auth, 'if-none-match': etag }, body);
    expect(held.status).toBe(304);
    // the same token asked with other text: the app's answer, the lane read the body first
    const spaced = await call(s.url, 'POST', '/v1/token-intel', { ...json, ...auth }, `{ "token": "${snapshot.token}" }`);
    expect(spaced.status).toBe(200);
    expect(JSON.parse(spaced.body.toString())).toEqual(JSON.parse(first.body.toString()));
    // not JSON: the app's 400
    const bad = await call(s.url, 'POST', '/v1/token-intel', { ...json, ...auth }, '{"token":');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body.toString())).toMatchObject({ error: 'invalid_param' });
    // an unknown key: 401, whatever the cache holds
    const unknown = await call(s.url, 'POST', '/v1/token-intel', { ...json, authorization: 'Bearer key_live_00000000000000000000000000000000000000' }, body);
    expect(unknown.status).toBe(401);
    // past the key's rate (6 a minute, 5 admitted so far with the 400): the app's 429 with its headers
    expect((await call(s.url, 'POST', '/v1/token-intel', { ...json, ...auth }, body)).status).toBe(200);
    const limited = await call(s.url, 'POST', '/v1/token-intel', { ...json, ...auth }, body);
    expect(limited.status).toBe(429);
    expect(limited.headers).toContainEqual(['x-ratelimit-remaining', '0']);
    expect(limited.headers.map(([k]) => k)).toContain('retry-after');
    // the draft's headers on the lane's answer and on the app's 429 alike: r=0 until Retry-After
    for (const [i, r] of [first, cors, spaced, bad].entries()) expectDraftHeaders(Object.fromEntries(r.headers), `answer ${i} (${r.status})`);
    const draft = expectDraftHeaders(Object.fromEntries(limited.headers), 'lane 429');
    expect(draft.minute).toEqual({ r: 0, t: Number(Object.fromEntries(limited.headers)['retry-after']) });
    // the lane answered only the one plain repeated call; 4 calls billed (the 304 and the errors are not)
    expect(s.app.app.servedLane?.answered).toBe(1);
    expect(s.app.meter.keyDay((await s.app.keys.resolve(plaintext, t))?.id as string, t).units).toBe(4);
  });
});

/** what a client learns of an answer: its status, error, limits' and encoding headers and its JSON (decoded) */
function outcome(r: Raw) {
  const header = (name: string) => r.headers.find(([k]) => k === name)?.[1];
  const encoding = header('content-encoding');
  const text = (encoding === 'gzip' ? gunzipSync(r.body) : encoding === 'br' ? brotliDecompressSync(r.body) : r.body).toString();
  const names = ['content-encoding', 'vary', 'content-type', 'retry-after', 'x-ratelimit-limit', 'x-usage-units', 'cache-control', 'content-security-policy', 'x-content-type-options'];
  return { status: r.status, headers: Object.fromEntries(names.map((n) => [n, header(n)])), body: text === '' ? '' : (JSON.parse(text) as unknown) };
}

describe('attacks on the served lane', () => {
  // the day's limits made small: an organisation of pro keys may use 4 units, sandbox keys together 3 of the 100
  const fairUse = { orgDailyUnits: { pro: 4 }, sandboxShare: 0.03 };
  const t = () => snapshot.asOfTs * 1000 + 5_000;
  /** the request text the lane holds an answer for once it has been answered, and a new text each time (answered by the app) */
  const cachedText = () => JSON.stringify({ token: snapshot.token, chain: snapshot.chain });
  let variant = 0;
  const uncachedText = () => `{"token":"${snapshot.token}",${' '.repeat(++variant)}"chain":"${snapshot.chain}"}`;

  /** the same attack on the cached text and on a new one: the same answer; the lane answered none of them */
  async function sameAnswer(s: Served, headers: Record<string, string>) {
    const before = s.app.app.servedLane?.answered;
    const cached = await call(s.url, 'POST', '/v1/token-intel', { ...json, ...headers }, cachedText());
    const uncached = await call(s.url, 'POST', '/v1/token-intel', { ...json, ...headers }, uncachedText());
    expect(outcome(cached)).toEqual(outcome(uncached));
    return { cached, uncached, laneAnswered: (s.app.app.servedLane?.answered ?? 0) - (before ?? 0) };
  }

  /** a key whose calls of the cached text the lane answers (the key cached, the answer cached) */
  async function laneKey(s: Served, plan: 'pro' | 'enterprise' | 'sandbox'): Promise<{ authorization: string }> {
    const auth = { authorization: `Bearer ${await s.app.newKey(plan)}` };
    expect((await call(s.url, 'POST', '/v1/token-intel', { ...json, ...auth }, cachedText())).status).toBe(200);
    return auth;
  }

  it('a revoked key is refused on a cached read as on an uncached one', async () => {
    const s = await boot(true, t, { fairUse, dailyUnitBudget: 100 });
    const auth = await laneKey(s, 'enterprise');
    const answered = s.app.app.servedLane?.answered ?? 0;
    expect((await call(s.url, 'POST', '/v1/token-intel', { ...json, ...auth }, cachedText())).status).toBe(200);
    expect(s.app.app.servedLane?.answered).toBe(answered + 1);
    const record = await s.app.keys.resolve(auth.authorization.slice('Bearer '.length), t());
    // (revoked now: the store keeps the newest version of a key, and the app's clock is the snapshot's)
    expect(await s.app.keys.revoke(record?.id as string, Date.now())).toBe(true);
    const { cached, laneAnswered } = await sameAnswer(s, auth);
    expect(cached.status).toBe(401);
    expect(laneAnswered).toBe(0);
  });

  it('an organisation past its daily quota is refused on a cached read as on an uncached one, with the same headers', async () => {
    const s = await boot(true, t, { fairUse, dailyUnitBudget: 100 });
    const a = await laneKey(s, 'pro');
    const b = await laneKey(s, 'pro');
    // two keys of one organisation: 4 units between them, the last two answered by the lane
    for (const auth of [a, b]) expect((await call(s.url, 'POST', '/v1/token-intel', { ...json, ...auth }, cachedText())).status).toBe(200);
    const { cached, laneAnswered } = await sameAnswer(s, b);
    expect(cached.status).toBe(429);
    expect(outcome(cached).body).toMatchObject({ error: 'rate_limited' });
    expect(outcome(cached).headers['retry-after']).toBeDefined();
    expect(laneAnswered).toBe(0);
  });

  it('a sandbox key past the sandbox share is refused on a cached read as on an uncached one', async () => {
    const s = await boot(true, t, { fairUse, dailyUnitBudget: 100 });
    const auth = await laneKey(s, 'sandbox');
    for (let i = 0; i < 2; i++) expect((await call(s.url, 'POST', '/v1/token-intel', { ...json, ...auth }, cachedText())).status).toBe(200);
    const { cached, laneAnswered } = await sameAnswer(s, auth);
    expect(cached.status).toBe(429);
    expect(JSON.stringify(outcome(cached).body)).toContain('share');
    expect(laneAnswered).toBe(0);
  });

  it('bad and odd Accept-Encoding values get the encoding on a cached read they get on an uncached one', async () => {
    const s = await boot(true, t);
    const auth = await laneKey(s, 'enterprise');
    const values = ['gzip;q=0', 'br;q=0, gzip;q=0', '*', '*;q=0', 'identity', 'identity;q=0', 'deflate', 'x-gzip', 'GZIP', 'br;q=abc, gzip', 'gzip;q=2', ';;,,', 'br, gzip'.repeat(200), 'compress, zstd'];
    for (const value of values) {
      const { cached, uncached } = await sameAnswer(s, { ...auth, 'accept-encoding': value });
      expect([200, 406]).toContain(cached.status);
      expect(cached.status).toBe(uncached.status);
    }
  });

  it('a forged Host or forwarding header changes nothing on a cached read or an uncached one', async () => {
    const s = await boot(true, t);
    const auth = await laneKey(s, 'enterprise');
    const forged: Record<string, string>[] = [{ host: 'evil.example' }, { host: 'evil.example:1' }, { 'x-forwarded-host': 'evil.example', 'x-forwarded-for': '10.0.0.1' }, { host: '127.0.0.1:1@evil.example' }];
    for (const headers of forged) {
      const { cached } = await sameAnswer(s, { ...auth, ...headers });
      expect(cached.status).toBe(200);
    }
  });
});
