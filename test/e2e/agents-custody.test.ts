/**
 * What a live perpetuals agent may touch, through the real app, the real copy worker and a local
 * venue that speaks Hyperliquid's API and checks every signature
 * (test/fixtures/venues/hyperliquid-server.ts), reached through a gateway whose URL carries a
 * provider's key in its path, as paid endpoints do:
 * - the agent's exit closes what its own fills opened, never the position the user held before it;
 * - a venue call that fails during a submit leaves an execution and an `execution.failed` webhook
 *   with our code and sentence, without the gateway's URL or key (the log has the redacted text);
 * - an entitlement taken away stops the org's live agents: the next leader trade submits nothing,
 *   even when it comes before the lifecycle check, the agent is paused, and `agent.paused` arrives.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpTransport } from '@nktkas/hyperliquid';
import { order } from '@nktkas/hyperliquid/api/exchange';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { publishVenueEvents } from '../../ingest/venuesim/pump.ts';
import { startCopyRole } from '../../runtime/copy.ts';
import type { CopyWorker } from '../../runtime/copy.ts';
import { createLogger } from '../../runtime/services.ts';
import type { Agent, Execution } from '../../schemas/agents.ts';
import type { PerpFill } from '../../schemas/venues.ts';
import { hyperliquidApproval } from '../../venues/hyperliquid.ts';
import { postApproval as approveOnVenue, startHyperliquidServer } from '../fixtures/venues/hyperliquid-server.ts';
import type { HyperliquidServer } from '../fixtures/venues/hyperliquid-server.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';
import { signedCall } from './relay.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

/** the provider's key in the gateway's path: it must never leave the server's memory */
const PROVIDER_KEY = 'qn7Hc2Lw9Xb4Rt8Mz3Vy6Kp1';
const user = privateKeyToAccount(generatePrivateKey());
const leader = privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as `0x${string}`;

/** the partner (a live organisation entitled to hyperliquid), its webhook receiver, and the server log's lines */
let key: { plaintext: string; orgId: string };
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const logLines: string[] = [];
let stack: Stack;
let copy: CopyWorker;
let venue: HyperliquidServer;

/**
 * A paid gateway in front of the venue at /gw/<key>/: passes /info and /exchange through, or,
 * failing, answers /exchange 500 with a body that names the URL it was called at (key included)
 */
async function startGateway(target: string) {
  const state = { failing: false };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').replace(`/gw/${PROVIDER_KEY}`, '');
      if (state.failing && path.startsWith('/exchange')) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`upstream failed for http://${req.headers.host}${req.url} (key ${PROVIDER_KEY})`);
        return;
      }
      void fetch(`${target}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) }).then(async (r) => {
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(await r.text());
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/gw/${PROVIDER_KEY}`, state, close: () => server.close() };
}
let gateway: Awaited<ReturnType<typeof startGateway>>;

/** the user signs an approval and posts it to the venue, as the venue's own app does */
const postApproval = (approval: { action: { nonce: number }; typedData: unknown }) => approveOnVenue(venue.url, approval, user);

let fillSeq = 0;
/** a leader's fill as the perps ingest publishes it */
async function leaderFill(f: { side: 'buy' | 'sell'; size: number; startPosition: number; dir: string }): Promise<void> {
  fillSeq += 1;
  const fill: PerpFill = { type: 'perp_fill', venue: 'hyperliquid', account: leader, coin: 'ETH', price: 3000, ...f, closedPnl: 0, fee: 0, time: Date.now(), fillId: String(700_000 + fillSeq), hash: `0x${(0xc000 + fillSeq).toString(16).padStart(64, '0')}` };
  await publishVenueEvents(stack.services.log, [fill]);
  await vi.waitFor(async () => expect((await copy.lag()).every((l) => l.lag === 0)).toBe(true), { timeout: 20_000, interval: 50 });
  await copy.idle();
}

async function latest(agentId: string): Promise<Execution> {
  const r = await signedCall(stack.url, key, user, '/copy/agent/executions', { agentId, limit: 1 });
  expect(r.status).toBe(200);
  return (r.json as { executions: Execution[] }).executions[0]!;
}
const getAgent = async (agentId: string) => ((await signedCall(stack.url, key, user, '/copy/agent/get', { agentId })).json as { agent: Agent }).agent;
const limits = () => ({ maxNotionalUsd: 500, dailyCapUsd: 5000, maxOpenPositions: 3, maxSlippageBps: 50, minLeaderGrade: 'unrated', expiresAt: Math.floor(Date.now() / 1000) + 7 * 86_400 });
const deliveries = (type: string, agentId: string) => receiver.received.filter((r) => r.type === type && ((r.data.agent ?? r.data.execution) as { agentId: string }).agentId === agentId);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  venue = await startHyperliquidServer();
  venue.fund(user.address, 20_000);
  venue.setBook('ETH', { bids: [{ px: 2999.5, sz: 500 }], asks: [{ px: 3000.5, sz: 500 }] });
  gateway = await startGateway(venue.url);
  const logger = createLogger({ LOG_LEVEL: 'warn' }, { write: (line: string) => void logLines.push(line) });
  stack = await startStack({ seed: 17, days: 1, env: { COPY_HYPERLIQUID_URL: gateway.url, WEBHOOKS_ALLOW_LOCAL: 'true' }, logger });
  copy = await startCopyRole(stack.services, { tickMs: 60_000 });
  key = await stack.livePartner('custody-partner', ['hyperliquid']);
  await receiver.subscribe(stack, key.plaintext);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await venue?.close();
  gateway?.close();
  receiver?.close();
});

describe("a live perpetuals agent touches only its own position, says no library's text, and stops when its entitlement goes", () => {
  let agent: Agent;

  it('the user holds 1 ETH long before the agent; the agent opens and closes its copy, and the 1 ETH is untouched', async () => {
    // the user's own trade, with a key of the venue's app: the agent had no part in it
    const app = privateKeyToAccount(generatePrivateKey());
    expect(await postApproval(hyperliquidApproval({ agentAddress: app.address, agentId: 'ag_ffffffffffffffff', expiresAt: limits().expiresAt, nonce: Date.now() }))).toMatchObject({ status: 'ok' });
    await order({ transport: new HttpTransport({ apiUrl: venue.url }), wallet: app }, { orders: [{ a: 1, b: true, p: '3010', s: '1', r: false, t: { limit: { tif: 'Ioc' } } }], grouping: 'na' });
    expect(venue.position(user.address, 'ETH')).toBe(1);

    // what the user signs names the agent key that will trade (Hyperliquid's approveAgent names its agent so too)
    const body = { venue: 'hyperliquid', leaderVenue: 'hyperliquid', leader, limits: limits() };
    const timestamp = Math.floor(Date.now() / 1000);
    const grant = await stack.call('POST', '/v1/copy/agent-grant', key.plaintext, { ...body, wallet: user.address, timestamp });
    expect(grant.status, JSON.stringify(grant.json)).toBe(200);
    const typed = grant.json.typedData as { message: Record<string, unknown> };
    expect(typed.message).toMatchObject({ venue: 'hyperliquid', chain: 'hyperliquid', mode: 'live', leader, caps: [], maxNotionalUsd: '500', expiresAt: body.limits.expiresAt });
    const created = await signedCall(stack.url, key, user, '/copy/agent/create', body, timestamp);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    agent = (created.json as { agent: Agent }).agent;
    expect(agent.session!.sessionKey).toBe(typed.message.sessionKey);
    expect(agent.agentId).toBe(grant.json.agentId);
    expect(await postApproval(agent.session!.setup as { action: { nonce: number }; typedData: unknown })).toMatchObject({ status: 'ok' });
    await copy.tick();
    expect((await getAgent(agent.agentId)).state).toBe('active');

    await leaderFill({ side: 'buy', size: 2, startPosition: 0, dir: 'Open Long' });
    expect(await latest(agent.agentId)).toMatchObject({ action: 'open', status: 'filled' });
    expect(venue.position(user.address, 'ETH')).toBeCloseTo(1.1666, 10);

    // the leader closes all of its long: the agent sells its own 0.1666, not the account's 1.1666
    await leaderFill({ side: 'sell', size: 2, startPosition: 2, dir: 'Close Long' });
    const close = await latest(agent.agentId);
    expect(close, JSON.stringify(close)).toMatchObject({ action: 'close', status: 'filled', fraction: 1, units: '16660000' });
    expect(venue.fills.at(-1)).toMatchObject({ side: 'A', sz: 0.1666, reduceOnly: true, agent: agent.session!.sessionKey });
    expect(venue.position(user.address, 'ETH')).toBeCloseTo(1, 10);
  });

  it("a leader that closes a long the agent never copied (to make it sell the user's) gets nothing sent", async () => {
    const sent = venue.fills.length;
    await leaderFill({ side: 'sell', size: 1, startPosition: 1, dir: 'Close Long' });
    expect(await latest(agent.agentId)).toMatchObject({ action: 'close', status: 'skipped', reason: 'no_position' });
    expect(venue.fills.length).toBe(sent);
    expect(venue.position(user.address, 'ETH')).toBeCloseTo(1, 10);
  });

  it('a venue call that fails during a submit leaves an execution and a webhook with our code and sentence, without the URL or its key', async () => {
    gateway.state.failing = true;
    try {
      await leaderFill({ side: 'buy', size: 2, startPosition: 0, dir: 'Open Long' });
    } finally {
      gateway.state.failing = false;
    }
    const failed = await latest(agent.agentId);
    expect(failed, JSON.stringify(failed)).toMatchObject({ action: 'open', status: 'failed', reason: 'venue_error' });
    expect(failed.detail).toMatch(/^the call to the venue failed/);
    await vi.waitFor(() => expect(deliveries('execution.failed', agent.agentId)).toHaveLength(1), { timeout: 20_000, interval: 100 });
    const hook = deliveries('execution.failed', agent.agentId)[0]!;
    expect(hook.ok).toBe(true);
    for (const text of [JSON.stringify(failed), JSON.stringify(hook.data)]) {
      expect(text).not.toContain(PROVIDER_KEY);
      expect(text).not.toMatch(/https?:\/\/|127\.0\.0\.1|\/gw\//);
    }
    // the server log has what the library said, redacted: the host, never the key or the path
    const logged = logLines.filter((l) => l.includes('the order failed at the venue'));
    expect(logged.length).toBe(1);
    expect(logged[0]).toMatch(/500/);
    expect(logged[0]).toContain('http://127.0.0.1:');
    expect(logged[0]).not.toContain(PROVIDER_KEY);
    expect(logged[0]).toContain('[redacted]');
    expect(logLines.join('\n')).not.toContain(PROVIDER_KEY);
  });

  it('entitlement removed: the next leader trade, before any lifecycle check, submits nothing; the agent is paused and agent.paused arrives', async () => {
    await stack.keys.entitle(key.orgId, 'hyperliquid', false, Date.now());
    const sent = venue.fills.length;
    await leaderFill({ side: 'buy', size: 2, startPosition: 0, dir: 'Open Long' });
    const refused = await latest(agent.agentId);
    expect(refused, JSON.stringify(refused)).toMatchObject({ status: 'failed', reason: 'venue_not_entitled', ref: null });
    expect(refused.detail).toMatch(/no longer entitled to hyperliquid/);
    expect(venue.fills.length).toBe(sent);
    const paused = await getAgent(agent.agentId);
    expect(paused.state).toBe('paused');
    expect(paused.stateReason).toMatch(/^paused: organisation .* is no longer entitled to hyperliquid/);
    await vi.waitFor(() => expect(deliveries('agent.paused', agent.agentId).map((d) => (d.data.agent as Agent).stateReason)).toEqual([paused.stateReason]), { timeout: 20_000, interval: 100 });
    // the next trade is not even planned
    await leaderFill({ side: 'buy', size: 2, startPosition: 0, dir: 'Open Long' });
    expect(await latest(agent.agentId)).toMatchObject({ status: 'skipped', reason: 'agent_inactive' });
    expect(venue.fills.length).toBe(sent);
  });

  it('the partner who read the guard and resumes the agent, or creates another live one, is refused while not entitled', async () => {
    expect(await signedCall(stack.url, key, user, '/copy/agent/resume', { agentId: agent.agentId })).toMatchObject({ status: 403, json: { error: 'venue_not_entitled' } });
    expect((await getAgent(agent.agentId)).state).toBe('paused');
    const again = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'hyperliquid', leaderVenue: 'hyperliquid', leader, limits: limits() });
    expect(again).toMatchObject({ status: 403, json: { error: 'venue_not_entitled' } });
  });

  it('entitled again and resumed, then taken away once more: the lifecycle check pauses the agent, with its webhook, before any trade', async () => {
    await stack.keys.entitle(key.orgId, 'hyperliquid', true, Date.now());
    const resumed = await signedCall(stack.url, key, user, '/copy/agent/resume', { agentId: agent.agentId });
    expect(resumed, JSON.stringify(resumed.json)).toMatchObject({ status: 200, json: { agent: { state: 'active' } } });
    await stack.keys.entitle(key.orgId, 'hyperliquid', false, Date.now());
    await copy.tick();
    expect((await getAgent(agent.agentId)).state).toBe('paused');
    await vi.waitFor(() => expect(deliveries('agent.paused', agent.agentId)).toHaveLength(2), { timeout: 20_000, interval: 100 });
    const sent = venue.fills.length;
    await leaderFill({ side: 'buy', size: 2, startPosition: 0, dir: 'Open Long' });
    expect(await latest(agent.agentId)).toMatchObject({ status: 'skipped', reason: 'agent_inactive' });
    expect(venue.fills.length).toBe(sent);
  });
});
