import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { getAddress } from 'viem';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { createKeyService } from '../../infra/keys.ts';
import type { KeyService } from '../../infra/keys.ts';
import { createMeter } from '../../api/metering.ts';
import type { Meter } from '../../api/metering.ts';
import { createWebhookOperations, webhookUrlProblem } from '../../api/routes/webhooks.ts';
import { RETRY_CAPS_MS, startWebhookDeliverer } from '../../api/webhooks/deliverer.ts';
import type { WebhookDeliverer, WebhookDelivererOptions } from '../../api/webhooks/deliverer.ts';
import type { DestinationPolicy, Resolver } from '../../api/webhooks/destination.ts';
import { AuditRow } from '../../api/console/rows.ts';
import { exampleNames } from '../../scripts/live-calls.ts';
import { enqueueWebhookEvent } from '../../infra/webhooks/outbox.ts';
import { verifyWebhook } from '../../api/webhooks/signing.ts';
import { createMemoryLog } from '../../infra/log/memory.ts';
import { createEmbeddedStore } from '../../infra/store/embedded.ts';
import type { Store } from '../../infra/store/types.ts';
import { Tables } from '../../infra/store/types.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../../schemas/webhooks.ts';
import { validateResponse } from '../e2e/openapi.ts';
import type { OpenApiDoc } from '../e2e/openapi.ts';

/**
 * Signed webhooks through the real app (buildApp with the webhooks operations, over the embedded
 * store in a directory) and the real deliverer, to a receiver on 127.0.0.1 (node:http) that
 * verifies every delivery with the secret the create operation showed. Time is a clock the test
 * moves: the deliverer's due times, the backoff and the signatures' timestamps all read it, so
 * days of retries run in milliseconds and nothing depends on the wall clock.
 */

const DAY = 86_400_000;
const quiet = { info: () => {}, warn: () => {}, debug: () => {} };

/** a clock the test moves (ms) */
function clock(start = Date.UTC(2026, 0, 5, 12)) {
  let t = start;
  return { now: () => t, set: (ms: number) => (t = Math.max(t, ms)), advance: (ms: number) => (t += ms) };
}
type Clock = ReturnType<typeof clock>;

interface Received {
  id: string;
  timestamp: number;
  signature: string;
  body: string;
  /** what the receiver answered */
  status: number;
  /** the signature checked with the endpoint's secret at the test clock's time */
  verified: boolean;
}

/**
 * A partner's receiver on 127.0.0.1: answers 200, 503 or 410 as told, or is closed (the port
 * refuses connections) and reopened on the same port.
 */
async function startReceiver(c: Clock) {
  let answer = 200;
  let secret = '';
  const got: Received[] = [];
  let arrived: (() => void) | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (b: Buffer) => chunks.push(b));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const h = req.headers as Record<string, string>;
      let verified = false;
      try {
        verified = verifyWebhook(secret, body, h, { now: Math.floor(c.now() / 1000) }).ok;
      } catch {
        // no secret set yet
      }
      got.push({ id: h['webhook-id'] as string, timestamp: Number(h['webhook-timestamp']), signature: h['webhook-signature'] as string, body, status: answer, verified });
      // no keep-alive: a reopened receiver is a new server, as after a partner's restart
      res.writeHead(answer, { connection: 'close' }).end();
      arrived?.();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    got,
    answer: (status: number) => (answer = status),
    useSecret: (s: string) => (secret = s),
    /** resolves once `n` requests have arrived */
    arrivedCount: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => got.length >= n && resolve();
        arrived = check;
        check();
      }),
    /** every delivery answered 2xx, by webhook-id */
    delivered: () => got.filter((g) => g.status < 300).map((g) => g.id),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
    reopen: () => new Promise<void>((r) => server.listen(port, '127.0.0.1', r)),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

interface Booted {
  app: FastifyInstance;
  store: Store;
  keys: KeyService;
  meter: Meter;
  deliverer: WebhookDeliverer;
  close(): Promise<void>;
}

/**
 * the real app with the webhooks operations and a deliverer over the embedded store in `dir` (again
 * over the same dir: a restart); local receivers allowed (WEBHOOKS_ALLOW_LOCAL) unless `destinations` says otherwise
 */
async function boot(dir: string, c: Clock, deliverer: Partial<WebhookDelivererOptions> = {}, destinations: DestinationPolicy = { allowLocal: true, resolve: exampleNames }): Promise<Booted> {
  const store = await createEmbeddedStore({ dataDir: dir });
  await store.migrate();
  const keys = createKeyService({ store, cacheTtlSeconds: 30 });
  const meter = await createMeter({ log: createMemoryLog(), store, runSink: false, now: c.now });
  const operations = createWebhookOperations({ store, ...destinations });
  const app = await buildApp({ operations, keys, meter, dailyUnitBudget: 1_000_000, publicUrl: () => 'http://x', store, now: c.now });
  // the test drives the passes (runOnce) unless it asks for the loop
  const d = startWebhookDeliverer({ store, destinations, logger: quiet, now: c.now, manual: true, retry: { random: () => 0.5 }, ...deliverer });
  return {
    app,
    store,
    keys,
    meter,
    deliverer: d,
    async close() {
      await d.stop();
      await app.close();
      await meter.stop();
      await store.close();
    },
  };
}

async function partner(keys: KeyService, name: string): Promise<{ org: string; key: string }> {
  const org = await keys.createOrg(name);
  return { org: org.id, key: (await keys.createKey(org.id, 'sandbox')).plaintext };
}

async function call(app: FastifyInstance, key: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await app.inject({
    method,
    url: `/v1${path}`,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, json: res.json() as Record<string, unknown>, headers: res.headers };
}

async function createEndpoint(b: Booted, key: string, r: Receiver, extra: Record<string, unknown> = {}) {
  const res = await call(b.app, key, 'POST', '/webhooks/create', { url: r.url, ...extra });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const created = res.json as WebhookEndpoint & { secret: string };
  r.useSecret(created.secret);
  return created;
}

async function deliveries(b: Booted, key: string, endpointId: string, limit?: number) {
  const res = await call(b.app, key, 'POST', '/webhooks/deliveries', { endpointId, ...(limit ? { limit } : {}) });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json as { pending: number; deliveries: WebhookDelivery[] };
}

/** passes of the deliverer, the clock moved to each next due attempt, until the outbox is empty */
async function drain(b: Booted, c: Clock, maxPasses = 200): Promise<number> {
  let passes = 0;
  for (; passes < maxPasses; passes++) {
    await b.deliverer.runOnce();
    const next = await b.deliverer.nextDueAt();
    if (next === undefined) break;
    c.set(next);
  }
  return passes;
}

const dirs: string[] = [];
const open: { close(): Promise<void> }[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'webhooks-'));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function setup(deliverer: Partial<WebhookDelivererOptions> = {}, destinations?: DestinationPolicy) {
  const c = clock();
  const b = await boot(tempDir(), c, deliverer, destinations);
  const r = await startReceiver(c);
  open.push(r, b);
  const a = await partner(b.keys, 'partner-a');
  return { c, b, r, a };
}

describe('signed webhooks', () => {
  it('a test event sent from the API arrives, verified with the secret shown once at creation', async () => {
    // the deliverer's own loop: the enqueue wakes it (its poll alone would wait a minute)
    const { c, b, r, a } = await setup({ manual: false, pollMs: 60_000 });
    const ep = await createEndpoint(b, a.key, r, { events: ['execution.filled'], description: 'copy fills' });
    expect(ep.secret).toMatch(/^whsec_/);
    expect(ep).toMatchObject({ url: r.url, events: ['execution.filled'], description: 'copy fills', enabled: true });

    const list = await call(b.app, a.key, 'GET', '/webhooks/list');
    expect(list.status).toBe(200);
    const listed = (list.json as { endpoints: Record<string, unknown>[] }).endpoints;
    expect(listed.map((e) => e.endpointId)).toEqual([ep.endpointId]);
    expect(listed[0]).not.toHaveProperty('secret');
    expect(JSON.stringify(list.json)).not.toContain(ep.secret);

    const test = await call(b.app, a.key, 'POST', '/webhooks/test', { endpointId: ep.endpointId });
    expect(test.status).toBe(200);
    expect(test.headers['x-usage-units']).toBe('0');
    const { eventId } = test.json as { eventId: string };
    await r.arrivedCount(1);
    // the attempt's bookkeeping (outbox, delivery log) is done once nothing is in flight
    await b.deliverer.runOnce();

    expect(r.got).toHaveLength(1);
    const got = r.got[0] as Received;
    expect(got.verified).toBe(true);
    expect(got.id).toBe(eventId);
    expect(got.timestamp).toBe(Math.floor(c.now() / 1000));
    const payload = JSON.parse(got.body) as { type: string; timestamp: string; data: { endpointId: string } };
    expect(payload.type).toBe('webhook.test');
    expect(payload.timestamp).toBe(new Date(Math.floor(c.now() / 1000) * 1000).toISOString());
    expect(payload.data.endpointId).toBe(ep.endpointId);
    // the signature is the endpoint's: another secret does not verify it
    const sent = { 'webhook-id': got.id, 'webhook-timestamp': String(got.timestamp), 'webhook-signature': got.signature };
    expect(verifyWebhook(ep.secret, got.body, sent, { now: got.timestamp }).ok).toBe(true);
    expect(verifyWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', got.body, sent, { now: got.timestamp })).toEqual({ ok: false, reason: 'bad_signature' });

    const log = await deliveries(b, a.key, ep.endpointId);
    expect(log.pending).toBe(0);
    expect(log.deliveries).toEqual([
      expect.objectContaining({ eventId, type: 'webhook.test', attempt: 1, statusCode: 200, error: null, result: 'delivered', nextRetryAt: null }),
    ]);
  });

  it('events go only to the enabled endpoints of their organisation subscribed to their type, and a replayed event id is sent once', async () => {
    const { b, r, a } = await setup();
    const fills = await createEndpoint(b, a.key, r, { events: ['execution.filled'] });
    const all = await createEndpoint(b, a.key, r);
    const other = await partner(b.keys, 'partner-b');
    const ev = (id: string, type: 'execution.filled' | 'agent.created', orgId = a.org) => ({ id, orgId, type, data: { n: id }, timestamp: 1_767_614_400 });
    await enqueueWebhookEvent(b.store, ev('evt_fill', 'execution.filled'));
    await enqueueWebhookEvent(b.store, ev('evt_fill', 'execution.filled')); // the same event again
    await enqueueWebhookEvent(b.store, ev('evt_agent', 'agent.created'));
    await enqueueWebhookEvent(b.store, ev('evt_other_org', 'agent.created', other.org));
    expect(await b.deliverer.runOnce()).toBe(3);
    expect(r.delivered().sort()).toEqual(['evt_agent', 'evt_fill', 'evt_fill']);
    expect((await deliveries(b, a.key, fills.endpointId)).deliveries.map((d) => d.eventId)).toEqual(['evt_fill']);
    expect((await deliveries(b, a.key, all.endpointId)).deliveries.map((d) => d.eventId).sort()).toEqual(['evt_agent', 'evt_fill']);
    // a replay after delivery (an executor re-reading its log) sends nothing
    await enqueueWebhookEvent(b.store, ev('evt_fill', 'execution.filled'));
    expect(await b.deliverer.runOnce()).toBe(0);
    expect(r.got).toHaveLength(3);
  });

  it('an endpoint gets its events one at a time in the order they were queued, whatever their ids', async () => {
    const { b, r, a } = await setup();
    await createEndpoint(b, a.key, r);
    // ids that sort the other way round from the order queued (more than one run's 100)
    const ids = Array.from({ length: 130 }, (_, i) => `evt_${String(999 - i).padStart(3, '0')}`);
    for (const id of ids) await enqueueWebhookEvent(b.store, { id, orgId: a.org, type: 'execution.planned', data: { id }, timestamp: 1_767_614_400 });
    expect(await b.deliverer.runOnce()).toBe(130);
    expect(r.got.map((g) => g.id)).toEqual(ids);
  });

  it('while the receiver is down, events wait and are retried with growing waits, then each is delivered once, none lost', async () => {
    const { c, b, r, a } = await setup();
    const ep = await createEndpoint(b, a.key, r);
    const ids = ['evt_1', 'evt_2', 'evt_3'];
    for (const id of ids) await enqueueWebhookEvent(b.store, { id, orgId: a.org, type: 'execution.submitted', data: { id }, timestamp: c.now() / 1000 });

    // down: two attempts answered 503, then two refused (the port closed), then up again
    r.answer(503);
    await b.deliverer.runOnce();
    c.set((await b.deliverer.nextDueAt()) as number);
    await b.deliverer.runOnce();
    await r.close();
    for (let i = 0; i < 2; i++) {
      c.set((await b.deliverer.nextDueAt()) as number);
      expect(await b.deliverer.runOnce()).toBe(3);
    }
    expect((await deliveries(b, a.key, ep.endpointId)).pending).toBe(3);
    await r.reopen();
    r.answer(200);
    await drain(b, c);

    // each event: 2 × 503 received, 2 refused (never received), then one 200
    expect(r.delivered().sort()).toEqual(ids);
    for (const id of ids) expect(r.got.filter((g) => g.id === id).map((g) => g.status)).toEqual([503, 503, 200]);
    expect(r.got.every((g) => g.verified)).toBe(true);

    const log = await deliveries(b, a.key, ep.endpointId, 200);
    expect(log.pending).toBe(0);
    // newest first
    const times = log.deliveries.map((d) => Date.parse(d.at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    for (const id of ids) {
      const attempts = log.deliveries.filter((d) => d.eventId === id).reverse();
      expect(attempts.map((d) => [d.attempt, d.result, d.statusCode])).toEqual([
        [1, 'retrying', 503],
        [2, 'retrying', 503],
        [3, 'retrying', null],
        [4, 'retrying', null],
        [5, 'delivered', 200],
      ]);
      // a coarse class, never the socket's error text (which tells a closed port from an open one)
      expect(attempts[2]?.error).toBe('connection_failed');
      expect(attempts[0]?.error).toBe('http_503');
      // full jitter (the random source fixed at 0.5): each wait is half its cap, the caps growing 5 s, 5 min, 30 min, 2 h
      const waits = attempts.slice(0, 4).map((d) => Date.parse(d.nextRetryAt as string) - Date.parse(d.at));
      expect(waits).toEqual(RETRY_CAPS_MS.slice(0, 4).map((cap) => cap / 2));
      // every attempt went at its due time
      for (let i = 1; i < attempts.length; i++) expect(attempts[i]?.at).toBe(attempts[i - 1]?.nextRetryAt);
    }
  });

  it('an endpoint that never answers 2xx is given up after about three days, logged as failed', async () => {
    const { c, b, r, a } = await setup();
    const ep = await createEndpoint(b, a.key, r);
    r.answer(500);
    const start = c.now();
    await enqueueWebhookEvent(b.store, { id: 'evt_doomed', orgId: a.org, type: 'agent.paused', data: {}, timestamp: start / 1000 });
    await drain(b, c);
    const log = (await deliveries(b, a.key, ep.endpointId, 200)).deliveries;
    expect(log[0]).toMatchObject({ result: 'failed', nextRetryAt: null, statusCode: 500 });
    expect(log.slice(1).every((d) => d.result === 'retrying')).toBe(true);
    const span = Date.parse((log[0] as WebhookDelivery).at) - start;
    expect(span).toBeGreaterThan(2.5 * DAY);
    expect(span).toBeLessThanOrEqual(3 * DAY);
    expect(r.got).toHaveLength(log.length);
    expect(new Set(r.got.map((g) => g.id))).toEqual(new Set(['evt_doomed']));
  });

  it('410 Gone disables the endpoint: its queued events are dropped and nothing more is sent to it', async () => {
    const { c, b, r, a } = await setup({ concurrency: 1 });
    const ep = await createEndpoint(b, a.key, r);
    r.answer(410);
    for (const id of ['evt_a', 'evt_b']) await enqueueWebhookEvent(b.store, { id, orgId: a.org, type: 'execution.failed', data: {}, timestamp: c.now() / 1000 });
    await b.deliverer.runOnce();
    expect(r.got).toHaveLength(1);

    const listed = (await call(b.app, a.key, 'GET', '/webhooks/list')).json as { endpoints: WebhookEndpoint[] };
    expect(listed.endpoints[0]).toMatchObject({ endpointId: ep.endpointId, enabled: false, disabledReason: 'the endpoint answered 410 Gone' });
    expect(listed.endpoints[0]?.disabledAt).toBe(new Date(c.now()).toISOString());
    const log = await deliveries(b, a.key, ep.endpointId);
    expect(log.pending).toBe(0);
    expect(log.deliveries).toEqual([expect.objectContaining({ attempt: 1, statusCode: 410, result: 'disabled' })]);

    r.answer(200);
    await enqueueWebhookEvent(b.store, { id: 'evt_c', orgId: a.org, type: 'execution.failed', data: {}, timestamp: c.now() / 1000 });
    c.advance(DAY);
    expect(await b.deliverer.runOnce()).toBe(0);
    expect(r.got).toHaveLength(1);
    const test = await call(b.app, a.key, 'POST', '/webhooks/test', { endpointId: ep.endpointId });
    expect(test.status).toBe(400);
    expect(test.json).toMatchObject({ error: 'invalid_param' });
    expect(test.json.detail).toContain('endpointId');
  });

  it('a restart (a new app and deliverer over the same store directory) resumes the queued deliveries', async () => {
    const c = clock();
    const dir = tempDir();
    const r = await startReceiver(c);
    open.push(r);
    const first = await boot(dir, c);
    const a = await partner(first.keys, 'partner-a');
    const ep = await createEndpoint(first, a.key, r);
    r.answer(503);
    for (const id of ['evt_x', 'evt_y']) await enqueueWebhookEvent(first.store, { id, orgId: a.org, type: 'agent.activated', data: { id }, timestamp: c.now() / 1000 });
    expect(await first.deliverer.runOnce()).toBe(2);
    const due = (await first.deliverer.nextDueAt()) as number;
    await first.close();

    r.answer(200);
    c.set(due);
    const second = await boot(dir, c);
    open.push(second);
    expect(await second.deliverer.runOnce()).toBe(2);
    expect(r.delivered().sort()).toEqual(['evt_x', 'evt_y']);
    expect(r.got.every((g) => g.verified)).toBe(true);
    const log = await deliveries(second, a.key, ep.endpointId);
    expect(log.pending).toBe(0);
    expect(log.deliveries.filter((d) => d.result === 'delivered').map((d) => d.attempt)).toEqual([2, 2]);
    expect(await second.deliverer.runOnce()).toBe(0);
  });

  it("another organisation can neither see, test, read the log of nor delete an endpoint: 404 not_found; its owner deletes it", async () => {
    const { b, r, a } = await setup();
    const ep = await createEndpoint(b, a.key, r);
    const other = await partner(b.keys, 'partner-b');
    expect(((await call(b.app, other.key, 'GET', '/webhooks/list')).json as { endpoints: unknown[] }).endpoints).toEqual([]);
    for (const path of ['/webhooks/test', '/webhooks/deliveries', '/webhooks/delete']) {
      const res = await call(b.app, other.key, 'POST', path, { endpointId: ep.endpointId });
      expect(res.status, path).toBe(404);
      expect(res.json).toEqual({ error: 'not_found', detail: expect.stringContaining(ep.endpointId) });
    }
    const still = (await call(b.app, a.key, 'GET', '/webhooks/list')).json as { endpoints: WebhookEndpoint[] };
    expect(still.endpoints.map((e) => e.endpointId)).toEqual([ep.endpointId]);

    await call(b.app, a.key, 'POST', '/webhooks/test', { endpointId: ep.endpointId });
    const del = await call(b.app, a.key, 'POST', '/webhooks/delete', { endpointId: ep.endpointId });
    expect(del).toMatchObject({ status: 200, json: { endpointId: ep.endpointId, deleted: true } });
    expect(((await call(b.app, a.key, 'GET', '/webhooks/list')).json as { endpoints: unknown[] }).endpoints).toEqual([]);
    // its queued test event went with it
    expect(await b.deliverer.runOnce()).toBe(0);
    expect(r.got).toHaveLength(0);
    expect((await call(b.app, a.key, 'POST', '/webhooks/delete', { endpointId: ep.endpointId })).status).toBe(404);
    expect(await b.store.list(Tables.webhookOutbox)).toEqual([]);
  });

  it('cursors: the endpoint list and the delivery log page past their first page; what changes between pages is neither skipped nor repeated', async () => {
    const { c, b, r, a } = await setup();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      created.push((await createEndpoint(b, a.key, r, { description: `hook ${i}` })).endpointId);
      c.advance(1000);
    }
    const listPage = async (cursor?: string) => {
      const res = await call(b.app, a.key, 'GET', `/webhooks/list?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      return res.json as { endpoints: WebhookEndpoint[]; next: string | null };
    };
    const p1 = await listPage();
    expect(p1.endpoints.map((e) => e.endpointId)).toEqual(created.slice(0, 2));
    // between pages: the first endpoint is deleted, one is added; the pages go on where they were
    expect((await call(b.app, a.key, 'POST', '/webhooks/delete', { endpointId: created[0] })).status).toBe(200);
    const added = (await createEndpoint(b, a.key, r)).endpointId;
    const p2 = await listPage(p1.next as string);
    expect(p2.endpoints.map((e) => e.endpointId)).toEqual(created.slice(2, 4));
    const p3 = await listPage(p2.next as string);
    expect(p3.endpoints.map((e) => e.endpointId)).toEqual([created[4], added]);
    expect(p3.next).toBeNull();
    // without a limit: every endpoint (at most MAX_ENDPOINTS) on one page
    const whole = (await call(b.app, a.key, 'GET', '/webhooks/list')).json as { endpoints: WebhookEndpoint[]; next: string | null };
    expect(whole.endpoints.map((e) => e.endpointId)).toEqual([...created.slice(1), added]);
    expect(whole.next).toBeNull();

    // the delivery log: five events delivered, a page of two, then a sixth delivered before the next page
    const ep = added;
    r.answer(200);
    for (let i = 0; i < 5; i++) {
      await enqueueWebhookEvent(b.store, { id: `evt_${i}`, orgId: a.org, type: 'execution.filled', data: { i }, timestamp: c.now() / 1000 });
      await drain(b, c);
      c.advance(1000);
    }
    const logPage = async (cursor?: string) => {
      const res = await call(b.app, a.key, 'POST', '/webhooks/deliveries', { endpointId: ep, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      return res.json as { deliveries: WebhookDelivery[]; next: string | null };
    };
    const ids = (p: { deliveries: WebhookDelivery[] }) => p.deliveries.map((d) => d.eventId);
    const l1 = await logPage();
    expect(ids(l1)).toEqual(['evt_4', 'evt_3']);
    await enqueueWebhookEvent(b.store, { id: 'evt_5', orgId: a.org, type: 'execution.filled', data: { i: 5 }, timestamp: c.now() / 1000 });
    await drain(b, c);
    const l2 = await logPage(l1.next as string);
    expect(ids(l2)).toEqual(['evt_2', 'evt_1']);
    const l3 = await logPage(l2.next as string);
    expect(ids(l3)).toEqual(['evt_0']);
    expect(l3.next).toBeNull();
    // the attempt made since is on a new first page
    expect(ids(await logPage())).toEqual(['evt_5', 'evt_4']);

    // a cursor of another list, or one made up: 400 invalid_param
    for (const cursor of [p1.next as string, 'bm90LWEtY3Vyc29y']) {
      const res = await call(b.app, a.key, 'POST', '/webhooks/deliveries', { endpointId: ep, cursor });
      expect(res).toMatchObject({ status: 400, json: { error: 'invalid_param' } });
      expect(String(res.json.detail)).toMatch(/^'cursor'/);
    }
    const other = await call(b.app, a.key, 'POST', '/webhooks/deliveries', { endpointId: created[1], cursor: l1.next });
    expect(other).toMatchObject({ status: 400, json: { error: 'invalid_param' } });
    expect((await call(b.app, a.key, 'GET', '/webhooks/list?cursor=xyz')).status).toBe(400);
  });

  it('bad input answers 400 invalid_param naming the field; unknown fields unknown_param', async () => {
    const { b, a } = await setup();
    const bad = async (body: unknown, code = 'invalid_param') => {
      const res = await call(b.app, a.key, 'POST', '/webhooks/create', body);
      expect(res.status, JSON.stringify(res.json)).toBe(400);
      expect(res.json.error).toBe(code);
      return String(res.json.detail);
    };
    expect(await bad({})).toBe("'url' is required");
    expect(await bad({ url: 'http://example.com/hook' })).toBe("'url': must be an https URL");
    expect(await bad({ url: 'not a url' })).toContain("'url'");
    expect(await bad({ url: 'https://example.com/hook', events: ['execution.exploded'] })).toMatch(/^'events\.0'/);
    expect(await bad({ url: 'https://example.com/hook', events: [] })).toMatch(/^'events'/);
    expect(await bad({ url: 'https://example.com/hook', secret: 'mine' }, 'unknown_param')).toContain('secret');
    // stream topics: the WebSocket stream's grammar and codes
    expect(await bad({ url: 'https://example.com/hook', topics: [] })).toMatch(/^'topics'/);
    expect(await bad({ url: 'https://example.com/hook', topics: ['pools:sim'] })).toMatch(/^'topics': 'pools:sim' is not a topic/);
    expect(await bad({ url: 'https://example.com/hook', topics: ['board:mars'] }, 'invalid_chain')).toMatch(/^'topics'/);
    expect(await bad({ url: 'https://example.com/hook', topics: ['token:sim:0x1234'] }, 'invalid_address')).toMatch(/^'topics'/);
    expect(await bad({ url: 'https://example.com/hook', topics: Array.from({ length: 101 }, (_, i) => `token:sim:0x${i.toString(16).padStart(40, '0')}`) })).toMatch(/^'topics'/);
    const ok = await call(b.app, a.key, 'POST', '/webhooks/create', { url: 'https://example.com/hook', topics: ['board:sim', 'board:sim', `wallet:sim:${getAddress(`0x${'ab'.repeat(20)}`)}`] });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    expect(ok.json).toMatchObject({ topics: ['board:sim', `wallet:sim:0x${'ab'.repeat(20)}`], keyId: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const res = await call(b.app, a.key, 'POST', '/webhooks/deliveries', { endpointId: 'nope' });
    expect(res).toMatchObject({ status: 400, json: { error: 'invalid_param' } });
    expect(String(res.json.detail)).toMatch(/^'endpointId'/);
    const lim = await call(b.app, a.key, 'POST', '/webhooks/deliveries', { endpointId: 'ep_1', limit: 1000 });
    expect(String(lim.json.detail)).toMatch(/^'limit'/);
  });

  it('URLs: https to public hosts; loopback and private addresses only where the deployment allows them', () => {
    expect(webhookUrlProblem('https://hooks.example.com/x', false)).toBeUndefined();
    expect(webhookUrlProblem('http://hooks.example.com/x', false)).toBe('must be an https URL');
    for (const local of ['http://127.0.0.1:9000/x', 'https://localhost/x', 'http://[::1]/x', 'https://10.1.2.3/x', 'https://2130706433/', 'https://192.168.1.1/']) {
      expect(webhookUrlProblem(local, false), local).toMatch(/not accepted/);
      expect(webhookUrlProblem(local, true), local).toBeUndefined();
    }
    // link-local (the cloud metadata address) and IPv4-mapped forms: never, not even where local receivers are allowed
    for (const never of ['https://169.254.169.254/latest', 'https://[::ffff:127.0.0.1]/']) {
      expect(webhookUrlProblem(never, false), never).toMatch(/not accepted/);
      expect(webhookUrlProblem(never, true), never).toMatch(/not accepted/);
    }
    expect(webhookUrlProblem('ftp://127.0.0.1/x', true)).toBe('must be an http or https URL');
    expect(webhookUrlProblem('https://user:pw@example.com/', false)).toMatch(/credentials/);
  });

  it('the operations are in the catalog and the OpenAPI document, which validates, and their answers match it', async () => {
    const { b, r, a } = await setup();
    const catalog = (await b.app.inject({ method: 'GET', url: '/v1/' })).json() as { endpoints: { path: string; method: string; cost: number; group: string }[] };
    expect(catalog.endpoints.map((e) => `${e.method} ${e.path} ${e.cost} ${e.group}`)).toEqual([
      'POST /webhooks/create 0 infra',
      'GET /webhooks/list 0 infra',
      'POST /webhooks/delete 0 infra',
      'POST /webhooks/test 0 infra',
      'POST /webhooks/deliveries 0 infra',
    ]);
    const doc = (await b.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as OpenApiDoc;
    const v = await new Validator().validate(doc as never);
    expect(v.errors ?? []).toEqual([]);
    const check = (path: string, method: 'get' | 'post', body: unknown) =>
      expect(validateResponse(doc, (doc.paths[path]?.[method] as { responses: Record<string, unknown> }).responses, body), path).toBeUndefined();

    const created = await call(b.app, a.key, 'POST', '/webhooks/create', { url: r.url });
    check('/webhooks/create', 'post', created.json);
    const endpointId = created.json.endpointId as string;
    check('/webhooks/list', 'get', (await call(b.app, a.key, 'GET', '/webhooks/list')).json);
    check('/webhooks/test', 'post', (await call(b.app, a.key, 'POST', '/webhooks/test', { endpointId })).json);
    r.answer(503);
    await b.deliverer.runOnce();
    const log = (await call(b.app, a.key, 'POST', '/webhooks/deliveries', { endpointId })).json;
    expect((log as { deliveries: unknown[] }).deliveries).toHaveLength(1);
    check('/webhooks/deliveries', 'post', log);
    check('/webhooks/delete', 'post', (await call(b.app, a.key, 'POST', '/webhooks/delete', { endpointId })).json);
  });
});

/**
 * A resolver the test steers: each name answers what `names` holds now (a list: each call takes the
 * next, the last repeats; an entry `a,b` answers both addresses), and every call is counted, so a
 * test sees when the deliverer resolves.
 */
function steeredResolver(names: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve: Resolver = async (host) => {
    calls.push(host);
    const answers = names[host];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    const entry = (answers.length > 1 ? answers.shift() : answers[0]) as string;
    return entry.split(',').map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls, names };
}

describe('webhook destinations: an attacker pointing the deliverer inside the deployment', () => {
  const createUrl = async (b: Booted, key: string, url: string) => call(b.app, key, 'POST', '/webhooks/create', { url });

  it('a name resolving to loopback, the metadata address or any private or reserved range is refused at create', async () => {
    const names: Record<string, string[]> = {
      'loopback.example.com': ['127.0.0.1'],
      'metadata.example.com': ['169.254.169.254'],
      'mapped.example.com': ['::ffff:127.0.0.1'],
      'nat64.example.com': ['64:ff9b::7f00:1'],
      '6to4.example.com': ['2002:7f00:1::1'],
      'cgnat.example.com': ['100.64.0.1'],
      'bench.example.com': ['198.18.0.1'],
      'multicast.example.com': ['224.0.0.1'],
      'reserved.example.com': ['240.0.0.1'],
      'unspecified.example.com': ['0.0.0.0'],
      'v6loop.example.com': ['::1'],
      'linklocal6.example.com': ['fe80::1'],
      'private.example.com': ['10.0.0.1'],
      'ula.example.com': ['fd00::1'],
      // a public address and a private one: the private one is what a rebinding name would serve
      'mixed.example.com': ['93.184.216.34,127.0.0.1'],
      'public.example.com': ['93.184.216.34'],
    };
    const dns = steeredResolver(names);
    const { b, a } = await setup({}, { allowLocal: false, resolve: dns.resolve });
    for (const host of Object.keys(names).filter((h) => h !== 'public.example.com')) {
      const res = await createUrl(b, a.key, `https://${host}/hook`);
      expect(res.status, host).toBe(400);
      expect(res.json.error, host).toBe('invalid_param');
      expect(String(res.json.detail), host).toMatch(new RegExp(`^'url': ${host.replace(/\./g, '\\.')} resolves to .* not accepted`));
    }
    // the public name on 443 is accepted; another port is not, nor a name that does not resolve
    expect((await createUrl(b, a.key, 'https://public.example.com/hook')).status).toBe(200);
    expect(String((await createUrl(b, a.key, 'https://public.example.com:8443/hook')).json.detail)).toBe("'url': port 8443 is not accepted: webhooks go to port 443");
    expect(String((await createUrl(b, a.key, 'https://public.example.com:80/hook')).json.detail)).toMatch(/port 80 is not accepted/);
    expect(String((await createUrl(b, a.key, 'https://nowhere.example.com/hook')).json.detail)).toBe("'url': nowhere.example.com does not resolve");
    // loopback written as decimal, octal and hex IPv4, and as IPv4-mapped, NAT64 and 6to4 IPv6 literals
    for (const url of ['https://2130706433/', 'https://0177.0.0.1/', 'https://0x7f.1/', 'https://[::ffff:7f00:1]/', 'https://[64:ff9b::7f00:1]/', 'https://[2002:7f00:1::1]/']) {
      const res = await createUrl(b, a.key, url);
      expect([res.status, String(res.json.detail)], url).toEqual([400, expect.stringMatching(/not accepted/)]);
    }
  });

  it('a name that resolves publicly at create and privately at delivery is refused at delivery, and nothing reaches the private address', async () => {
    const dns = steeredResolver({ 'rebind.example.com': ['93.184.216.34'] });
    const { b, r, a } = await setup({}, { allowLocal: false, resolve: dns.resolve });
    const created = await createUrl(b, a.key, 'https://rebind.example.com/hook');
    expect(created.status).toBe(200);
    // the name now points at this machine, where a receiver listens
    dns.names['rebind.example.com'] = ['127.0.0.1'];
    const endpointId = created.json.endpointId as string;
    expect((await call(b.app, a.key, 'POST', '/webhooks/test', { endpointId })).status).toBe(200);
    expect(await b.deliverer.runOnce()).toBe(1);
    const log = await deliveries(b, a.key, endpointId);
    expect(log.deliveries.map((d) => [d.result, d.statusCode, d.error])).toEqual([['retrying', null, 'refused']]);
    expect(r.got).toHaveLength(0);
  });

  it('DNS rebinding between check and connect: the delivery resolves once and connects to the address it checked', async () => {
    const { r } = await setup();
    const port = new URL(r.url).port;
    // create and the first delivery's check see the receiver's loopback address; any later answer is the metadata address
    const dns = steeredResolver({ 'flip.example.com': ['127.0.0.1', '127.0.0.1', '169.254.169.254'] });
    const flip = await setup({}, { allowLocal: true, resolve: dns.resolve });
    const created = await createUrl(flip.b, flip.a.key, `http://flip.example.com:${port}/hook`);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    r.useSecret(created.json.secret as string);
    const endpointId = created.json.endpointId as string;
    await call(flip.b.app, flip.a.key, 'POST', '/webhooks/test', { endpointId });
    await flip.b.deliverer.runOnce();
    // one resolution at create, one per delivery: the connection did not ask again (it would have been the metadata address)
    expect(dns.calls).toEqual(['flip.example.com', 'flip.example.com']);
    expect(r.got.map((g) => g.status)).toEqual([200]);
    // the next delivery's check sees the metadata address: refused, even where local receivers are allowed
    const second = (await call(flip.b.app, flip.a.key, 'POST', '/webhooks/test', { endpointId })).json.eventId;
    await flip.b.deliverer.runOnce();
    expect((await deliveries(flip.b, flip.a.key, endpointId)).deliveries.find((d) => d.eventId === second)).toMatchObject({ result: 'retrying', error: 'refused' });
    expect(r.got).toHaveLength(1);
  });

  it('a redirect to 127.0.0.1 is not followed: the answer is logged as its status', async () => {
    const { b, r, a } = await setup();
    const target = await startReceiver(clock());
    open.push(target);
    const redirector = createServer((_req, res) => res.writeHead(302, { location: target.url, connection: 'close' }).end());
    await new Promise<void>((done) => redirector.listen(0, '127.0.0.1', done));
    open.push({ close: () => new Promise<void>((done) => redirector.close(() => done())) });
    const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hook`;
    const created = await call(b.app, a.key, 'POST', '/webhooks/create', { url });
    const endpointId = created.json.endpointId as string;
    await call(b.app, a.key, 'POST', '/webhooks/test', { endpointId });
    await b.deliverer.runOnce();
    expect((await deliveries(b, a.key, endpointId)).deliveries.map((d) => [d.result, d.statusCode, d.error])).toEqual([['retrying', 302, 'http_302']]);
    expect(target.got).toHaveLength(0);
    expect(r.got).toHaveLength(0);
  });

  it('the delivery log tells no socket error: a closed port, a silent server and a TLS failure are coarse classes', async () => {
    const { b, r, a } = await setup({ timeoutMs: 300 });
    const silent = createServer(() => undefined);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    open.push({
      close: () => {
        silent.closeAllConnections();
        return new Promise<void>((done) => silent.close(() => done()));
      },
    });
    const silentPort = (silent.address() as AddressInfo).port;
    await r.close();
    const urls = {
      connection_failed: r.url,
      timeout: `http://127.0.0.1:${silentPort}/hook`,
      // https to a plain-http server: the handshake fails
      tls: `https://127.0.0.1:${silentPort}/hook`,
    };
    for (const [expected, url] of Object.entries(urls)) {
      const created = await call(b.app, a.key, 'POST', '/webhooks/create', { url });
      const endpointId = created.json.endpointId as string;
      await call(b.app, a.key, 'POST', '/webhooks/test', { endpointId });
      await b.deliverer.runOnce();
      expect((await deliveries(b, a.key, endpointId)).deliveries.map((d) => d.error), url).toEqual([expected]);
    }
  });
});

describe('webhook changes in the audit log', () => {
  it('an endpoint created, tested and deleted through the API leaves an entry each, naming the key, newest first', async () => {
    const { b, r, a } = await setup();
    const ep = await createEndpoint(b, a.key, r);
    await call(b.app, a.key, 'POST', '/webhooks/test', { endpointId: ep.endpointId });
    expect((await call(b.app, a.key, 'POST', '/webhooks/delete', { endpointId: ep.endpointId })).status).toBe(200);
    const rows = await b.store.list(AuditRow.table, { prefix: AuditRow.orgPrefix(a.org) });
    const entries = rows.flatMap((row) => AuditRow.codec.decode(row.body) ?? []);
    const key = await b.keys.resolve(a.key, Date.now());
    expect(entries.map((e) => [e.action, e.target])).toEqual([
      ['webhook.deleted', ep.endpointId],
      ['webhook.test_sent', ep.endpointId],
      ['webhook.created', ep.endpointId],
    ]);
    for (const e of entries) {
      expect(e.actor).toEqual({ memberId: `apikey:${key?.id}`, identity: `apikey:${key?.displayPrefix}…${key?.lastFour}` });
      expect(e.ip).toBe('127.0.0.1');
    }
    expect(entries[2]?.detail).toMatchObject({ url: r.url });
    // another organisation's log has none of it
    const other = await partner(b.keys, 'partner-b');
    expect(await b.store.list(AuditRow.table, { prefix: AuditRow.orgPrefix(other.org) })).toEqual([]);
  });

  it('a refused create and a delete of another organisation’s endpoint change nothing and log nothing', async () => {
    const { b, r, a } = await setup();
    const ep = await createEndpoint(b, a.key, r);
    const intruder = await partner(b.keys, 'intruder');
    expect((await call(b.app, intruder.key, 'POST', '/webhooks/delete', { endpointId: ep.endpointId })).status).toBe(404);
    expect((await call(b.app, intruder.key, 'POST', '/webhooks/create', { url: 'https://169.254.169.254/latest' })).status).toBe(400);
    expect(await b.store.list(AuditRow.table, { prefix: AuditRow.orgPrefix(intruder.org) })).toEqual([]);
    expect((await b.store.list(AuditRow.table, { prefix: AuditRow.orgPrefix(a.org) })).length).toBe(1);
  });
});
