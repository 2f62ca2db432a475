import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLog } from '../../infra/log/memory.ts';
import { createEmbeddedStore } from '../../infra/store/embedded.ts';
import type { Store } from '../../infra/store/types.ts';
import { ApiError } from '../../schemas/errors.ts';
import { createKeyService } from '../../infra/keys.ts';
import type { ApiKeyRecord } from '../../infra/keys.ts';
import { createMeter, dailyLimits } from '../metering.ts';
import type { SnapshotEntry } from '../replica.ts';
import { createWebhookActions } from '../routes/webhooks.ts';
import { createStreamHub } from '../stream/hub.ts';
import type { HubEvent } from '../stream/hub.ts';
import { startWebhookReceiver } from '../../test/e2e/webhook-receiver.ts';
import { startWebhookDeliverer } from './deliverer.ts';
import { OutboxRow } from '../../infra/webhooks/rows.ts';
import type { StoredEndpoint } from '../../infra/webhooks/rows.ts';
import { PUSH_OPERATION, billPushes, indexEndpoints, pushRefusal, pushedEvent, startWebhookPusher } from './pusher.ts';

const T = '0x' + 'ab'.repeat(20);
const U = '0x' + 'ef'.repeat(20);
const quiet = { info: () => {}, warn: () => {}, debug: () => {} };

function token(addr: string, version: number, conviction: number, verdict = 'watch'): SnapshotEntry {
  const text = JSON.stringify({
    chain: 'sim',
    token: addr,
    symbol: 'TKN',
    version,
    asOf: new Date(Date.UTC(2026, 0, 1) + version * 60_000).toISOString(),
    verdict,
    signal: { value: 'HOLD', conviction },
    pillarsLit: 1,
    smartBuyers: 0,
  });
  return { version, text, value: <V>() => JSON.parse(text) as V };
}

function endpoint(over: Partial<StoredEndpoint>): StoredEndpoint {
  return { endpointId: 'ep_1', orgId: 'org', url: 'https://x', events: null, topics: [], keyId: 'k', description: null, secret: 'whsec_x', enabled: true, disabledAt: null, disabledReason: null, createdAt: 0, ...over };
}

describe('a stream event as a webhook (pushedEvent)', () => {
  it('has the same id and data whatever the process’s seq, and another id for another version or another change', () => {
    const hubA = createStreamHub({ retention: 10 });
    const hubB = createStreamHub({ retention: 10 });
    const a: HubEvent[] = [];
    const b: HubEvent[] = [];
    hubA.listen((e) => a.push(e));
    hubB.listen((e) => b.push(e));
    // B has seen another token first: its seqs are not A's
    hubB.ingest(`token:sim:${U}`, undefined, token(U, 1, 5));
    for (const hub of [hubA, hubB]) {
      hub.ingest(`token:sim:${T}`, undefined, token(T, 1, 10));
      hub.ingest(`token:sim:${T}`, token(T, 1, 10), token(T, 2, 20));
      // a re-derivation at the same version that changes the fields again
      hub.ingest(`token:sim:${T}`, token(T, 2, 20), token(T, 2, 30));
    }
    const ofT = (list: HubEvent[]) => list.filter((e) => e.topic === `token:sim:${T}`);
    expect(ofT(a).map((e) => e.seq)).not.toEqual(ofT(b).map((e) => e.seq));
    const pa = ofT(a).map((e) => pushedEvent(e, 0));
    const pb = ofT(b).map((e) => pushedEvent(e, 0));
    expect(pb).toEqual(pa);
    expect(new Set(pa.map((p) => p.id)).size).toBe(3);
    for (const p of pa) {
      expect(p.id).toMatch(/^evt_[0-9a-f]{40}$/);
      expect(p.type).toBe('token.changed');
      expect(p.data).not.toHaveProperty('seq');
    }
    // the data is the stream event without its seq; the time is its asOf
    const first = ofT(a)[0] as HubEvent;
    const { seq: _seq, ...rest } = JSON.parse(first.text) as Record<string, unknown>;
    expect(pa[0]?.data).toEqual(rest);
    expect(pa[0]?.timestamp).toBe((Date.UTC(2026, 0, 1) + 60_000) / 1000);
    // the board event of the same change is another event
    const board = a.find((e) => e.topic === 'board:sim') as HubEvent;
    expect(pushedEvent(board, 0).type).toBe('board.changed');
    expect(pushedEvent(board, 0).id).not.toBe(pa[0]?.id);
  });
});

describe('the topic index (indexEndpoints)', () => {
  it('lists each enabled endpoint with a key to bill under each of its topics', () => {
    const e1 = endpoint({ endpointId: 'ep_1', topics: ['board:sim', `token:sim:${T}`] });
    const e2 = endpoint({ endpointId: 'ep_2', orgId: 'other', topics: ['board:sim'] });
    const off = endpoint({ endpointId: 'ep_3', topics: ['board:sim'], enabled: false });
    const console = endpoint({ endpointId: 'ep_4', topics: ['board:sim'], keyId: null });
    const none = endpoint({ endpointId: 'ep_5' });
    const index = indexEndpoints([e1, e2, off, console, none]);
    expect([...index.keys()].sort()).toEqual(['board:sim', `token:sim:${T}`]);
    expect(index.get('board:sim')?.map((e) => e.endpointId)).toEqual(['ep_1', 'ep_2']);
    expect(index.get(`token:sim:${T}`)?.map((e) => e.endpointId)).toEqual(['ep_1']);
  });
});

/** who the actions' callers are in the audit log */
const auditedAs = { actor: { memberId: 'mem_test', identity: 'email:test@example.com' }, ip: null };

describe('what may be pushed (pushRefusal) and what is billed (billPushes)', () => {
  const key = { id: 'k', orgId: 'org', plan: 'sandbox' } as ApiKeyRecord;
  const meter = (units: number, budget: number, org = units, sandbox = 0) => ({
    keyDay: () => ({ units, requests: 0, byOperation: {} }),
    budgetUsed: () => budget,
    orgUnits: () => org,
    sandboxUsed: () => sandbox,
  });
  const limits = (budget: number) => dailyLimits(budget);

  it('refuses a revoked or unknown key, an exhausted quota, an exhausted budget', () => {
    expect(pushRefusal(key, meter(0, 0), limits(100), 0)).toBeUndefined();
    expect(pushRefusal(undefined, meter(0, 0), limits(100), 0)).toBe('key_revoked');
    expect(pushRefusal({ ...key, revokedAt: '2026-01-01T00:00:00.000Z' }, meter(0, 0), limits(100), 0)).toBe('key_revoked');
    // the sandbox plan: 10,000 units a day
    expect(pushRefusal(key, meter(9_999, 0), limits(100_000), 0)).toBeUndefined();
    expect(pushRefusal(key, meter(10_000, 0), limits(100_000), 0)).toBe('quota');
    expect(pushRefusal(key, meter(0, 100), limits(100), 0)).toBe('budget');
  });

  it("refuses a sandbox key's push once its organisation's keys or all sandbox keys have used their daily share", () => {
    // another key of the organisation spent the organisation's 10,000 units
    expect(pushRefusal(key, meter(0, 10_000, 10_000), limits(1_000_000), 0)).toBe('org_quota');
    // sandbox keys together: 20 % of the budget
    expect(pushRefusal(key, meter(0, 200, 0, 200), limits(1_000), 0)).toBe('sandbox_share');
    expect(pushRefusal({ ...key, plan: 'pro' }, meter(0, 200, 0, 200), limits(1_000), 0)).toBeUndefined();
  });

  it('bills a delivered stream event to the endpoint’s key, and nothing else', () => {
    const bills: { keyId: string; operation: string; units: number; requestId: string; sandbox?: boolean }[] = [];
    const bill = billPushes({ bill: (r) => void bills.push(r) }, (keyId) => (keyId === 'k' ? 'pro' : undefined));
    const entry = { orgId: 'org', endpointId: 'ep_1', eventId: 'evt_1', timestamp: 0, data: {}, attempts: 0, nextAt: 0, firstAttemptAt: null, lastError: null, queued: 0 };
    bill(endpoint({}), { ...entry, type: 'token.changed' }, 0);
    bill(endpoint({}), { ...entry, type: 'execution.filled' }, 0);
    bill(endpoint({}), { ...entry, type: 'webhook.test' }, 0);
    bill(endpoint({ keyId: null }), { ...entry, type: 'board.changed' }, 0);
    expect(bills).toEqual([{ keyId: 'k', orgId: 'org', operation: PUSH_OPERATION, units: 1, requestId: 'ep_1:evt_1', sandbox: false }]);
  });

  it("a sandbox key's delivered push counts against the sandbox share", () => {
    const bills: { sandbox?: boolean }[] = [];
    const bill = billPushes({ bill: (r) => void bills.push(r) }, () => 'sandbox');
    const entry = { orgId: 'org', endpointId: 'ep_1', eventId: 'evt_1', timestamp: 0, data: {}, attempts: 0, nextAt: 0, firstAttemptAt: null, lastError: null, queued: 0 };
    bill(endpoint({}), { ...entry, type: 'token.changed' }, 0);
    expect(bills.map((b) => b.sandbox)).toEqual([true]);
  });
});

describe('webhook endpoints subscribed to stream topics, two pushers over one store', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });

  async function setup() {
    const dir = mkdtempSync(join(tmpdir(), 'pusher-'));
    const store: Store = await createEmbeddedStore({ dataDir: dir });
    await store.migrate();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => store.close());
    const keys = createKeyService({ store, cacheTtlSeconds: 30 });
    const meter = await createMeter({ log: createMemoryLog(), store, runSink: false });
    cleanup.push(() => meter.stop());
    const org = await keys.createOrg('partner');
    const key = (await keys.createKey(org.id, 'sandbox')).record;
    const actions = createWebhookActions({ store, allowLocal: true, chains: ['sim'], maxTopics: 2 });
    const receiver = await startWebhookReceiver();
    cleanup.push(() => receiver.close());
    /** two API processes: each its hub over the same snapshots, its pusher, over one store */
    const procs = [0, 1].map(() => {
      const hub = createStreamHub({ retention: 100 });
      const events: HubEvent[] = [];
      hub.listen((e) => events.push(e));
      const pusher = startWebhookPusher({ store, hub, keys, meter, limits: dailyLimits(1_000_000), logger: quiet });
      cleanup.push(() => pusher.stop());
      return { hub, events, pusher };
    });
    const feed = (key: string, prev: SnapshotEntry | undefined, next: SnapshotEntry) => {
      for (const p of procs) p.hub.ingest(key, prev, next);
    };
    return { store, keys, meter, org, key, actions, receiver, procs, feed };
  }

  it('each event is queued once, delivered in order with the data the stream sent, and billed 1 unit per delivery', async () => {
    const { store, meter, org, key, actions, receiver, procs, feed } = await setup();
    // a checksummed address is taken, and kept lowercase as the stream names the topic
    const created = await actions.create({ url: receiver.url, topics: [`token:sim:${getAddress(T)}`] }, { orgId: org.id, keyId: key.id, now: Date.now(), ...auditedAs });
    receiver.useSecret(created.secret);
    expect(created).toMatchObject({ topics: [`token:sim:${T}`], keyId: key.id, events: null });
    for (const p of procs) await p.pusher.refresh();

    // another process's hub has seen something else first: its seqs differ
    procs[1]?.hub.ingest(`token:sim:${U}`, undefined, token(U, 1, 1));
    let prev: SnapshotEntry | undefined;
    for (let v = 1; v <= 6; v++) {
      const next = token(T, v, v * 10, v > 3 ? 'avoid' : 'watch');
      feed(`token:sim:${T}`, prev, next);
      prev = next;
      // a token elsewhere changes too: no endpoint subscribes to it
      feed(`token:sim:${U}`, undefined, token(U, v + 1, v));
    }
    for (const p of procs) await p.pusher.idle();
    const streamed = (procs[0]?.events ?? []).filter((e) => e.topic === `token:sim:${T}`);
    expect(streamed).toHaveLength(6);
    // one outbox row per event, whichever process queued it first
    const queued = await store.list(OutboxRow.table, { prefix: OutboxRow.endpointPrefix(org.id, created.endpointId) });
    expect(queued).toHaveLength(6);

    const deliverer = startWebhookDeliverer({ store, destinations: { allowLocal: true }, logger: quiet, manual: true, onDelivered: billPushes(meter) });
    cleanup.push(() => deliverer.stop());
    expect(await deliverer.runOnce()).toBe(6);
    expect(receiver.received.every((r) => r.ok && r.type === 'token.changed')).toBe(true);
    // what a WebSocket client of that topic got, in its order, minus seq
    expect(receiver.received.map((r) => r.data)).toEqual(streamed.map((e) => pushedEvent(e, 0).data));
    expect(meter.keyDay(key.id, Date.now()).byOperation[PUSH_OPERATION]).toBe(6);
  });

  it('an exhausted quota queues nothing (the key is billed nothing more); a deleted endpoint is dropped from the index at once', async () => {
    const { store, meter, org, key, actions, receiver, procs, feed } = await setup();
    const created = await actions.create({ url: receiver.url, topics: ['board:sim'] }, { orgId: org.id, keyId: key.id, now: Date.now(), ...auditedAs });
    for (const p of procs) await p.pusher.refresh();
    const list = () => store.list(OutboxRow.table, { prefix: OutboxRow.endpointPrefix(org.id, created.endpointId) });

    feed(`token:sim:${T}`, undefined, token(T, 1, 10));
    for (const p of procs) await p.pusher.idle();
    expect(await list()).toHaveLength(1);

    // the sandbox key's 10,000 units of the day used elsewhere
    meter.bill({ keyId: key.id, orgId: org.id, operation: 'tokenIntel', units: 10_000, requestId: 'r1' }, Date.now());
    feed(`token:sim:${T}`, token(T, 1, 10), token(T, 2, 20));
    for (const p of procs) await p.pusher.idle();
    expect(await list()).toHaveLength(1);

    await actions.remove({ endpointId: created.endpointId }, { orgId: org.id, now: Date.now(), ...auditedAs });
    // a delete refreshes the index at once (here both pushers share the store object: both hear it)
    for (const p of procs) await p.pusher.refresh();
    feed(`token:sim:${T}`, token(T, 2, 20), token(T, 3, 30));
    for (const p of procs) await p.pusher.idle();
    expect(await list()).toHaveLength(0);
  });

  it('create checks the topics with the stream’s grammar and cap, and refuses topics without an API key to bill', async () => {
    const { org, key, actions, receiver } = await setup();
    /** keyId null: the console's caller, no key */
    const refusal = async (topics: string[], keyId: string | null = key.id) => {
      try {
        await actions.create({ url: receiver.url, topics }, { orgId: org.id, ...(keyId ? { keyId } : {}), now: Date.now(), ...auditedAs });
        return 'accepted';
      } catch (e) {
        return e instanceof ApiError ? e.code : String(e);
      }
    };
    expect(await refusal(['nonsense'])).toBe('invalid_param');
    expect(await refusal(['board:mars'])).toBe('invalid_chain');
    expect(await refusal(['board:base'])).toBe('invalid_chain');
    expect(await refusal(['token:sim:0x1234'])).toBe('invalid_address');
    expect(await refusal(['board:sim', `token:sim:${T}`, `wallet:sim:${T}`])).toBe('invalid_param');
    expect(await refusal(['board:sim'], null)).toBe('invalid_param');
    expect(await refusal(['board:sim', 'board:sim', `token:sim:${T}`])).toBe('accepted');
  });
});
