import SwaggerParser from '@apidevtools/swagger-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createIntelClient } from '../../client/index.ts';
import type { IntelClient } from '../../client/index.ts';
import { boardTokens, followInPaper, tokenVerdict } from '../../client/usage.ts';
import { callEveryOperation, sendThrough } from '../../scripts/live-calls.ts';
import type { LiveDocument } from '../../scripts/live-calls.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';
import { validateResponse } from './openapi.ts';
import type { OpenApiDoc } from './openapi.ts';

/**
 * The OpenAPI document and the TypeScript client generated from it (client/), against the
 * running app on the simulator: the served document validates, the client calls every
 * operation and its typed calls work, and the live stream is documented and answers a plain GET
 * with its JSON error. (That the client compiles and its types are the document's:
 * client/client.test.ts.)
 */
const DAYS = 8;

describe('the OpenAPI document and the typed client against the running app', () => {
  let stack: Stack;
  let doc: OpenApiDoc & LiveDocument;
  /** the organisation of the stack's sandbox keys: the partner the relay's messages name */
  let partner: string;
  const wallet = privateKeyToAccount(generatePrivateKey());
  const clientFor = async (apiKey?: string): Promise<IntelClient> =>
    createIntelClient({ baseUrl: `${stack.url}/v1`, apiKey: apiKey ?? (await stack.newKey()), walletSigner: wallet, partner });

  beforeAll(async () => {
    // the answers are validated in this process, the app's, for seconds without a break: an idle
    // keep-alive connection the server closed meanwhile would race the next request (ECONNRESET)
    stack = await startStack({ seed: 11, days: DAYS, env: { HTTP_KEEP_ALIVE_TIMEOUT_MS: '600000' } });
    await stack.advanceTo(stack.sim.truth.genesisTime + DAYS * 86400);
    doc = (await stack.call('GET', '/v1/openapi.json', undefined)).json as unknown as typeof doc;
    partner = (await stack.keys.resolve(await stack.newKey(), Date.now()))!.orgId;
  }, 300_000);
  afterAll(async () => stack?.stop());

  it('the served document validates as OpenAPI 3.0 (two validators; every $ref resolves)', async () => {
    const seriousme = await new Validator().validate(structuredClone(doc) as never);
    expect(seriousme.errors ?? []).toEqual([]);
    expect(seriousme.valid).toBe(true);
    // swagger-parser checks the schema, then resolves every reference and checks the operations
    const parsed = (await SwaggerParser.validate(structuredClone(doc) as never)) as unknown as { openapi: string; paths: Record<string, unknown> };
    expect(parsed.openapi).toBe('3.0.3');
    expect(Object.keys(parsed.paths)).toContain('/stream');
    // and it is the document a client is generated from, but for this deployment's chains and URL
    const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    broken.paths['/token-intel']!.post!.responses['200'] = { description: 'x', content: { 'application/json': { schema: { $ref: '#/components/schemas/Nothing' } } } };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow(/Nothing/);
  });

  it('the client calls every operation of the document: each answers 200 with a body the document declares', async () => {
    const answering = Object.values(doc.paths).flatMap((methods) => Object.values(methods).filter((op) => op.responses['200'] !== undefined));
    expect(answering.length).toBeGreaterThan(60);
    const { calls } = await callEveryOperation(doc, sendThrough(() => clientFor()));
    expect(calls.map((c) => c.request.operationId).sort()).toEqual(answering.map((op) => op.operationId).sort());
    for (const c of calls) {
      expect(c.status, `${c.request.operationId} ${JSON.stringify(c.request)}: ${JSON.stringify(c.body)}`).toBe(200);
      const op = doc.paths[c.request.path]?.[c.request.method.toLowerCase()] as { responses: Record<string, unknown> };
      expect(validateResponse(doc, op.responses, c.body), `${c.request.operationId}'s answer departs from the document`).toBeUndefined();
    }
    // the relay's calls were signed by the wallet: the agent is the wallet's
    const created = calls.find((c) => c.request.operationId === 'copyAgentCreate')?.body as { agent: { wallet: string } };
    expect(created.agent.wallet).toBe(wallet.address.toLowerCase());
  }, 180_000);

  it('typed calls: a token’s verdict and signal, the board, and a paper agent through the relay', async () => {
    const client = await clientFor();
    const [top] = await boardTokens(client, 3);
    expect(top?.token).toMatch(/^0x[0-9a-f]{40}$/);
    const verdict = await tokenVerdict(client, top!.token);
    expect(['mirror-worthy', 'watch', 'avoid', 'unrated']).toContain(verdict.verdict);
    expect(['BUY', 'ACCUMULATE', 'HOLD', 'AVOID']).toContain(verdict.signal);
    expect(verdict.units).toBe(1 + 2);
    const leaders = await client.GET('/trader-leaderboard', { params: { query: { limit: 1 } } });
    const leader = leaders.data?.leaders[0]?.wallet as string;
    const { created, listed } = await followInPaper(client, leader, Math.floor(Date.now() / 1000) + 86_400);
    expect(created).toMatchObject({ leader, mode: 'paper', state: 'active', wallet: wallet.address.toLowerCase() });
    expect(listed.map((a) => a.agentId)).toContain(created.agentId);
    // a typed error: the API's code and sentence
    const missing = await client.POST('/token-risk', { body: { token: '0x' + '12'.repeat(20) } });
    expect(missing.data).toBeUndefined();
    expect(missing.error).toMatchObject({ error: 'not_a_token' });
    expect(missing.response.status).toBe(404);
    // the relay without a wallet: the client says so before sending
    const keyOnly = createIntelClient({ baseUrl: `${stack.url}/v1`, apiKey: await stack.newKey() });
    await expect(keyOnly.POST('/copy/agent/list', { body: {} })).rejects.toThrow(/walletSigner and partner/);
  });

  describe('the live stream GET /stream', () => {
    const streamUrl = (query = '') => `${stack.url.replace(/^http/, 'ws')}/v1/stream${query}`;

    it('is in the catalog and the docs with its cost per event, beside the operations', async () => {
      const catalog = (await stack.call('GET', '/v1/', undefined)).json as { count: number; endpoints: { path: string; method: string; cost: number; input: Record<string, string>; group: string }[] };
      expect(catalog.endpoints.find((e) => e.path === '/stream')).toMatchObject({ method: 'GET', cost: 1, group: 'infra', input: { topics: 'string', since: 'integer', stream: 'string' } });
      expect(catalog.count).toBe(catalog.endpoints.length);
      // the docs render the OpenAPI document, which documents the stream
      const doc = (await stack.call('GET', '/v1/openapi.json', undefined)).json as { paths: Record<string, { get?: unknown }> };
      expect(doc.paths['/stream']?.get).toBeDefined();
    });

    it('a plain GET answers the 426 JSON error naming the upgrade; no key the 401; a bad query the 400, before any upgrade', async () => {
      const key = await stack.newKey();
      const plain = await fetch(`${stack.url}/v1/stream?topics=board:sim`, { headers: { authorization: `Bearer ${key}` } });
      expect(plain.status).toBe(426);
      expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
      expect(plain.headers.get('upgrade')).toBe('websocket');
      expect(await plain.json()).toMatchObject({ error: 'upgrade_required' });
      const client = await clientFor(key);
      const typed = await client.GET('/stream', { params: { query: { topics: 'board:sim' } } });
      expect(typed.error?.error).toBe('upgrade_required');
      expect((await stack.call('GET', '/v1/stream', undefined)).json.error).toBe('invalid_api_key');
      for (const [query, code] of [['?topics=token:sim:0x12', 'invalid_address'], ['?since=4', 'invalid_param'], ['?topics=board:sim&colour=red', 'unknown_param']] as const) {
        const res = await stack.call('GET', `/v1/stream${query}`, key);
        expect([res.status, res.json.error], query).toEqual([400, code]);
        // a WebSocket client gets the same answer instead of an upgrade
        const refused = await new Promise<number>((done, fail) => {
          const ws = new WebSocket(streamUrl(query), { headers: { authorization: `Bearer ${key}` } });
          ws.on('unexpected-response', (_req, r) => done(r.statusCode ?? 0));
          ws.on('open', () => fail(new Error(`${query} was upgraded`)));
          ws.on('error', fail);
        });
        expect(refused, query).toBe(400);
      }
    });

    it('a WebSocket with ?topics= is subscribed at once: hello, then subscribed, each a StreamServerMessage of the document', async () => {
      const key = await stack.newKey();
      const messages = await new Promise<unknown[]>((done, fail) => {
        const got: unknown[] = [];
        const ws = new WebSocket(streamUrl('?topics=board:sim'), { headers: { authorization: `Bearer ${key}` } });
        ws.on('message', (data) => {
          got.push(JSON.parse(String(data)));
          if (got.length === 2) {
            ws.close();
            done(got);
          }
        });
        ws.on('error', fail);
      });
      expect(messages).toMatchObject([{ type: 'hello', unitsPerEvent: 1 }, { type: 'subscribed', topics: ['board:sim'] }]);
      const asDocumented = { '200': { description: 'a frame', content: { 'application/json': { schema: { $ref: '#/components/schemas/StreamServerMessage' } } } } };
      for (const m of messages) expect(validateResponse(doc, asDocumented, m)).toBeUndefined();
      expect(validateResponse(doc, asDocumented, { type: 'hello' })).toBeDefined();
    });
  });
});
