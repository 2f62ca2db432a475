import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from './harness.ts';
import { validateResponse } from './openapi.ts';
import type { OpenApiDoc } from './openapi.ts';
import type { Stack } from './harness.ts';


const DAYS = 4;
/** the operations of SPEC.md's table "Operations with a known shape" (other groups have their own suites) */
const KNOWN_SHAPE = ['tokenIntel', 'tokenSignal', 'tokenRisk', 'tokenHoldersInsight', 'tokenNarrative', 'tokenCompare', 'tokenInflection', 'tokenValuation', 'exitRisk', 'tokenChanges', 'tokenPriceAction', 'tokenSpark', 'smartMoneyFlow', 'tokenOverview', 'smartMoneyRadar', 'convictionBoard', 'marketMovers', 'namedChainMovers', 'marketRegime', 'usage'];

describe('every token and market operation over the simulator', () => {
  let stack: Stack;
  let doc: OpenApiDoc;
  let catalog: { count: number; endpoints: { path: string; method: string; cost: number; group: string; returns: string; input: Record<string, string> }[] };
  let tokens: { rug: string; honeypot: string; organic: string; any: string[] };

  beforeAll(async () => {
    stack = await startStack({ seed: 11, days: DAYS });
    await stack.advanceTo(stack.sim.truth.genesisTime + DAYS * 86400);
    doc = (await stack.call('GET', '/v1/openapi.json', undefined)).json as unknown as OpenApiDoc;
    catalog = (await stack.call('GET', '/v1/', undefined)).json as unknown as typeof catalog;
    const t = stack.sim.truth;
    const seen = (a: string) => t.tokens.some((x) => x.address === a);
    tokens = {
      rug: t.labels.rug.find(seen) as string,
      honeypot: t.labels.honeypot.find(seen) as string,
      organic: (t.tokens.find((x) => x.story === 'organic') as { address: string }).address,
      any: t.tokens.map((x) => x.address),
    };
  }, 240_000);
  afterAll(async () => stack?.stop());

  it('publishes an OpenAPI 3.0 document that passes validation, with unique operationIds and security schemes', async () => {
    const v = new Validator();
    const res = await v.validate(doc as never);
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ['getCatalog', ...KNOWN_SHAPE]) {
      expect(ids).toContain(id);
    }
    const schemes = (doc.components as { securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }> }).securitySchemes;
    expect(Object.values(schemes)).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'http', scheme: 'bearer' }), expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' })]));
  });

  it('catalog lists every operation with path, method, cost, input, returns and group', () => {
    expect(catalog.count).toBe(catalog.endpoints.length);
    const opCount = Object.values(doc.paths).reduce((a, p) => a + Object.keys(p).length, 0);
    expect(catalog.endpoints.length).toBe(opCount - 1); // the catalog itself is not listed in itself
    for (const e of catalog.endpoints) {
      expect(['GET', 'POST']).toContain(e.method);
      expect(Number.isInteger(e.cost)).toBe(true);
      expect(typeof e.returns).toBe('string');
      expect(typeof e.group).toBe('string');
      for (const v of Object.values(e.input)) expect(typeof v).toBe('string');
    }
  });

  it('every operation answers 200, validates against the document, and bills its documented cost', async () => {
    const key = await stack.newKey();
    const [t1, t2, t3] = tokens.any as [string, string, string];
    const bodies: Record<string, unknown> = {
      '/token-compare': { tokens: [t1, t2, t3] },
      '/smart-money-flow': { token: tokens.organic, sample: 100 },
      '/token-overview': { token: tokens.organic },
      '/token-intel': { token: tokens.organic, sizeUsd: 5000 },
      '/token-price-action': { token: tokens.organic, hours: 48, resolution: '15m' },
      '/token-spark': { token: tokens.organic, hours: 24 },
    };
    const queries: Record<string, string> = {
      '/smart-money-radar': '?window=48&limit=5',
      '/conviction-board': '?limit=5&refresh=1',
      '/market-movers': '?limit=5',
      '/named-chain-movers': '?limit=3',
      '/market-regime': '?chain=sim',
    };
    let calls = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!KNOWN_SHAPE.includes(op.operationId)) continue;
        const m = method.toUpperCase() as 'GET' | 'POST';
        const res =
          m === 'GET'
            ? await stack.call('GET', `/v1${path}${queries[path] ?? ''}`, key)
            : await stack.call('POST', `/v1${path}`, key, bodies[path] ?? { token: tokens.organic });
        calls++;
        expect(res.status, `${op.operationId}: ${JSON.stringify(res.json)}`).toBe(200);
        const errors = validateResponse(doc, op.responses, res.json);
        expect(errors, `${op.operationId} response does not match the document`).toBeUndefined();
        expect(res.headers.get('x-usage-units'), op.operationId).toBe(String(op['x-units']));
        expect(res.headers.get('x-ratelimit-limit')).toBe('60');
        expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      }
    }
    expect(calls).toBe(KNOWN_SHAPE.length);
    // the validator is not vacuous: a body without the required fields is rejected
    const intel = doc.paths['/token-intel']?.post as { responses: Record<string, unknown> };
    expect(validateResponse(doc, intel.responses, { verdict: 'great' })).toBeDefined();
  });

  it("exposes request counts, billed units and engine lag for operators at /metrics on the operator port, never on the partners' port", async () => {
    expect((await fetch(`${stack.url}/metrics`)).status).toBe(404);
    const res = await fetch(`${stack.opsUrl}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/intel_http_requests_total\{operation="tokenIntel",status="200"\} [1-9]/);
    expect(text).toMatch(/intel_units_billed_total\{operation="tokenOverview"\} 19/);
    expect(text).toMatch(/intel_engine_lag_records\{worker="token"\} 0/);
  });

  it('documents the costs of SPEC.md', () => {
    const cost = Object.fromEntries(catalog.endpoints.map((e) => [e.path, e.cost]));
    expect(cost).toMatchObject({
      '/token-intel': 1, '/token-risk': 1, '/token-holders-insight': 1, '/token-inflection': 1, '/token-valuation': 1, '/exit-risk': 1,
      '/token-spark': 1, '/market-movers': 1, '/named-chain-movers': 1, '/market-regime': 1,
      '/token-signal': 2, '/token-narrative': 2, '/token-compare': 2, '/token-changes': 2, '/token-price-action': 2,
      '/smart-money-flow': 6, '/conviction-board': 6, '/smart-money-radar': 8, '/token-overview': 19,
    });
  });

  it('token-spark: closes only, rebased to the first bar, at most 72 points, hours 6..72 default 48', async () => {
    const key = await stack.newKey();
    const def = await stack.call('POST', '/v1/token-spark', key, { token: tokens.organic });
    expect(def.status).toBe(200);
    expect(def.json.hours).toBe(48);
    const series = def.json.series as number[];
    expect(series.length).toBe(def.json.points);
    expect(series.length).toBeLessThanOrEqual(48);
    expect(series[0]).toBe(0);
    expect(series.every((x) => typeof x === 'number')).toBe(true);
    const max = await stack.call('POST', '/v1/token-spark', key, { token: tokens.organic, hours: 72 });
    expect((max.json.series as number[]).length).toBeLessThanOrEqual(72);
    for (const hours of [5, 73, 'x']) {
      const bad = await stack.call('POST', '/v1/token-spark', key, { token: tokens.organic, hours });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toBe('invalid_param');
      expect(bad.json.detail).toContain('hours');
    }
  });

  it('rejects unknown body and query parameters with unknown_param, and bad input with the field named', async () => {
    const key = await stack.newKey();
    const body = await stack.call('POST', '/v1/token-risk', key, { token: tokens.organic, color: 'red' });
    expect(body.status).toBe(400);
    expect(body.json).toMatchObject({ error: 'unknown_param' });
    expect(body.json.detail).toContain('color');
    const query = await stack.call('GET', '/v1/market-movers?limit=5&sort=desc', key);
    expect(query.status).toBe(400);
    expect(query.json.error).toBe('unknown_param');
    const named = await stack.call('GET', '/v1/named-chain-movers?chain=sim', key);
    expect(named.json.error).toBe('unknown_param');
    expect((await stack.call('POST', '/v1/token-risk', key, { token: '0x1234' })).json.error).toBe('invalid_address');
    // mixed case must pass EIP-55
    const bad55 = '0x' + 'aB'.repeat(20);
    expect((await stack.call('POST', '/v1/token-risk', key, { token: bad55 })).json.error).toBe('invalid_address');
    expect((await stack.call('POST', '/v1/token-risk', key, { token: tokens.organic, chain: 'mars' })).json.error).toBe('invalid_chain');
    const never = await stack.call('POST', '/v1/token-risk', key, { token: '0x' + '1'.repeat(40) });
    expect(never.status).toBe(404);
    expect(never.json.error).toBe('not_a_token');
    const missing = await stack.call('POST', '/v1/token-risk', key, {});
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: 'invalid_param' });
    expect(missing.json.detail).toContain('token');
    const limit = await stack.call('GET', '/v1/market-movers?limit=101', key);
    expect(limit.json.error).toBe('invalid_param');
    expect(limit.json.detail).toContain('limit');
    // a served operation (answered from its cached bytes by the exact body text) parses a body it has not seen: twice the same
    for (const path of ['/v1/token-risk', '/v1/token-intel', '/v1/token-intel']) {
      const res = await fetch(`${stack.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"token":' });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_param');
    }
    const wrongMethod = await stack.call('GET', '/v1/token-risk', key);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.json.error).toBe('method_not_allowed');
    const legacy = await stack.call('POST', '/api/v1/token-risk', key, { token: tokens.organic });
    expect(legacy.status).toBe(200);
    const big = await stack.call('POST', '/v1/token-risk', key, { token: tokens.organic, pad: 'x'.repeat(70_000) });
    expect(big.status).toBe(413);
    expect(big.json.error).toBe('payload_too_large');
    // none of the failures was billed
    const usage = await stack.call('GET', '/v1/usage', key);
    expect(usage.json.unitsToday).toBe(1);
  });

  it('a known chain this deployment does not ingest (base) answers 400 invalid_chain saying so, unbilled, in every operation that takes a chain', async () => {
    const key = await stack.newKey('enterprise');
    // the execution relay checks the wallet authorization before it reads the input
    const chained = catalog.endpoints.filter((e) => 'chain' in e.input && !e.path.startsWith('/copy/agent/'));
    expect(chained.map((e) => e.path)).toEqual(expect.arrayContaining(['/market-regime', '/token-intel', '/market-movers']));
    for (const e of chained) {
      const res = e.method === 'GET' ? await stack.call('GET', `/v1${e.path}?chain=base`, key) : await stack.call('POST', `/v1${e.path}`, key, { chain: 'base' });
      expect(res.status, `${e.path}: ${JSON.stringify(res.json)}`).toBe(400);
      expect(res.json.error, e.path).toBe('invalid_chain');
      expect(res.json.detail, e.path).toMatch(/base.*not ingested/);
    }
    expect((await stack.call('GET', '/v1/usage', key)).json.unitsToday).toBe(0);
    expect(catalog).toMatchObject({ chains: [{ slug: 'sim' }] });
  });

  it('serves conviction-board and smart-money-radar from a 120-second cache; refresh=1 bypasses it', async () => {
    const key = await stack.newKey();
    const a = await stack.call('GET', '/v1/conviction-board?limit=7', key);
    expect(a.json.cached).toBe(false);
    const b = await stack.call('GET', '/v1/conviction-board?limit=7', key);
    expect(b.json.cached).toBe(true);
    expect(b.json.board).toEqual(a.json.board);
    // from then on the cached board's answer is kept as bytes: the served lane answers it, with its ETag
    const laneAnswered = async () => {
      const m = /^intel_http_lane_answered_total\{operation="convictionBoard"\} (\d+)$/m.exec(await (await fetch(`${stack.opsUrl}/metrics`)).text());
      return Number(m?.[1] ?? 0);
    };
    const before = await laneAnswered();
    const d = await stack.call('GET', '/v1/conviction-board?limit=7', key);
    expect(d.json).toMatchObject({ cached: true, board: a.json.board });
    expect(await laneAnswered()).toBe(before + 1);
    const etag = d.headers.get('etag') as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(b.headers.get('etag')).toBe(etag);
    const c = await stack.call('GET', '/v1/conviction-board?limit=7&refresh=1', key);
    expect(c.json.cached).toBe(false);
    // the refresh replaced the board: the next call is answered from the new one, another validator
    const e = await stack.call('GET', '/v1/conviction-board?limit=7', key);
    expect(e.json).toMatchObject({ cached: true, board: c.json.board });
    expect(e.headers.get('etag')).not.toBe(etag);
    const r1 = await stack.call('GET', '/v1/smart-money-radar?limit=7', key);
    const r2 = await stack.call('GET', '/v1/smart-money-radar?limit=7', key);
    expect([r1.json.cached, r2.json.cached]).toEqual([false, true]);
    const r3 = await stack.call('GET', '/v1/smart-money-radar?limit=7&refresh=1', key);
    expect(r3.json.cached).toBe(false);
  });

  it("shows the simulator's stories: the rug token flags a rug, the honeypot is flagged honeypot", async () => {
    const key = await stack.newKey();
    const rug = await stack.call('POST', '/v1/token-risk', key, { token: tokens.rug });
    expect(rug.status).toBe(200);
    expect((rug.json.flags as { rug: { flagged: boolean; reason: string } }).rug.flagged).toBe(true);
    const hp = await stack.call('POST', '/v1/token-risk', key, { token: tokens.honeypot });
    expect((hp.json.flags as { honeypot: { flagged: boolean } }).honeypot.flagged).toBe(true);
    const clean = await stack.call('POST', '/v1/token-risk', key, { token: tokens.organic });
    expect((clean.json.flags as { rug: { flagged: boolean } }).rug.flagged).toBe(false);
    expect((clean.json.flags as { honeypot: { flagged: boolean } }).honeypot.flagged).toBe(false);
  });
});

describe('the execution relay /copy/agent/*', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ seed: 2, days: 1 });
  }, 120_000);
  afterAll(async () => stack?.stop());

  it('needs a key and the wallet authorization, accepted once', async () => {
    const key = await stack.newKey();
    expect((await stack.call('POST', '/v1/copy/agent/list', undefined, {})).json.error).toBe('invalid_api_key');
    const noWallet = await stack.call('POST', '/v1/copy/agent/list', key, {});
    expect(noWallet.status).toBe(401);
    expect(noWallet.json.error).toBe('wallet_auth_required');
    const { privateKeyToAccount } = await import('viem/accounts');
    const { canonicalAgentMessage } = await import('../../api/wallet-auth.ts');
    const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
    const rawBody = '{"limit":5}';
    // the partner in the signed message is the organisation of the key
    const partner = (await stack.keys.resolve(key, Date.now()))!.orgId;
    const send = async (timestamp: number) => {
      const message = canonicalAgentMessage({ partner, method: 'POST', path: '/copy/agent/list', query: '', rawBody, wallet: account.address, timestamp });
      const signature = await account.signMessage({ message });
      const res = await fetch(`${stack.url}/v1/copy/agent/list`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-wallet-address': account.address, 'x-wallet-signature': signature, 'x-auth-timestamp': String(timestamp) },
        body: rawBody,
      });
      return { status: res.status, json: (await res.json()) as { error?: string; agents?: unknown[] } };
    };
    const expired = await send(Math.floor(Date.now() / 1000) - 400);
    expect(expired).toMatchObject({ status: 401, json: { error: 'wallet_auth_expired' } });
    const now = Math.floor(Date.now() / 1000);
    const valid = await send(now);
    expect(valid).toMatchObject({ status: 200, json: { agents: [] } });
    // accepted once
    expect(await send(now)).toMatchObject({ status: 401, json: { error: 'wallet_auth_required' } });
  });
});
