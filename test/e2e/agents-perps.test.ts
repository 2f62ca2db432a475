/**
 * Copy trading on perpetuals through the real app, the real copy worker and a local venue that
 * speaks Hyperliquid's API and checks every signature by its rules
 * (test/fixtures/venues/hyperliquid-server.ts): a partner entitled to hyperliquid creates an agent
 * for a user, who approves the agent key on the venue with the action the answer describes; a
 * leader's perpetuals fills, as the perps ingest publishes them, are mirrored within the agent's
 * limits (its per-trade size and daily cap, the venue's lot and tick) as orders the venue
 * recovers to the approved agent key; the leader's exit is a reduce-only order that closes the
 * copy; once the user revokes the key on the venue, the next order is refused by the venue,
 * recorded failed with the venue's reason, and the agent stops. A sandbox key's agent records
 * paper and never reaches the venue.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { publishVenueEvents } from '../../ingest/venuesim/pump.ts';
import { startCopyRole } from '../../runtime/copy.ts';
import type { CopyWorker } from '../../runtime/copy.ts';
import type { Agent, Execution } from '../../schemas/agents.ts';
import type { PerpFill } from '../../schemas/venues.ts';
import { hyperliquidApproval } from '../../venues/hyperliquid.ts';
import { postApproval as approveOnVenue, startHyperliquidServer } from '../fixtures/venues/hyperliquid-server.ts';
import type { HyperliquidServer } from '../fixtures/venues/hyperliquid-server.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';
import { signedCall } from './relay.ts';

const user = privateKeyToAccount(generatePrivateKey());
const leader = privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as `0x${string}`;

let venue: HyperliquidServer;
let stack: Stack;
let copy: CopyWorker;
let key: { plaintext: string; orgId: string };

/** the user signs a typed approval and posts it to the venue, as the venue's own app does */
const postApproval = (approval: { action: { nonce: number }; typedData: unknown }, signer = user) => approveOnVenue(venue.url, approval, signer);

let fillSeq = 0;
/** a leader's fill as the perps ingest publishes it (a userFills fill, normalised) */
async function leaderFill(f: { coin: string; side: 'buy' | 'sell'; size: number; price: number; startPosition: number; dir: string }): Promise<void> {
  fillSeq += 1;
  const fill: PerpFill = { type: 'perp_fill', venue: 'hyperliquid', account: leader, ...f, closedPnl: 0, fee: 0, time: Date.now(), fillId: String(900_000 + fillSeq), hash: `0x${fillSeq.toString(16).padStart(64, '0')}` };
  await publishVenueEvents(stack.services.log, [fill]);
  await vi.waitFor(async () => expect((await copy.lag()).every((l) => l.lag === 0)).toBe(true), { timeout: 20_000, interval: 50 });
  await copy.idle();
}

async function executions(k: { plaintext: string; orgId: string }, agentId: string): Promise<Execution[]> {
  const r = await signedCall(stack.url, k, user, '/copy/agent/executions', { agentId, limit: 100 });
  expect(r.status).toBe(200);
  return (r.json as { executions: Execution[] }).executions;
}

const limits = () => ({ maxNotionalUsd: 500, dailyCapUsd: 800, maxOpenPositions: 3, maxSlippageBps: 50, minLeaderGrade: 'unrated', expiresAt: Math.floor(Date.now() / 1000) + 7 * 86_400 });

beforeAll(async () => {
  venue = await startHyperliquidServer();
  venue.fund(user.address, 5_000);
  venue.setBook('ETH', { bids: [{ px: 2999.5, sz: 50 }], asks: [{ px: 3000.5, sz: 50 }] });
  stack = await startStack({ seed: 11, days: 1, env: { COPY_HYPERLIQUID_URL: venue.url } });
  copy = await startCopyRole(stack.services, { tickMs: 60_000 });
  const org = await stack.keys.createOrg('perps-partner');
  await stack.keys.goLive(org.id, Date.now());
  await stack.keys.entitle(org.id, 'hyperliquid', true, Date.now());
  key = { plaintext: (await stack.keys.createKey(org.id, 'pro')).plaintext, orgId: org.id };
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await venue?.close();
});

describe('copy trading on perpetuals (hyperliquid, an approved agent key)', () => {
  let agent: Agent;

  it('a partner not entitled to hyperliquid is refused; an entitled one gets a pending agent with the approval to sign', async () => {
    const other = await stack.newKey('pro');
    const otherKey = { plaintext: other, orgId: (await stack.keys.resolve(other, Date.now()))!.orgId };
    const refused = await signedCall(stack.url, otherKey, user, '/copy/agent/create', { venue: 'hyperliquid', leaderVenue: 'hyperliquid', leader, limits: limits() });
    expect(refused).toMatchObject({ status: 403, json: { error: 'venue_not_entitled' } });

    const created = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'hyperliquid', leaderVenue: 'hyperliquid', leader, limits: limits() });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    agent = (created.json as { agent: Agent }).agent;
    expect(agent).toMatchObject({ mode: 'live', state: 'pending', venue: 'hyperliquid', chain: 'hyperliquid', leader });
    const setup = agent.session!.setup as { action: { type: string; agentAddress: string; agentName: string; nonce: number }; typedData: unknown };
    expect(setup.action).toMatchObject({ type: 'approveAgent', agentAddress: agent.session!.sessionKey });
    expect(setup.action.agentName).toMatch(new RegExp(` valid_until ${agent.limits.expiresAt * 1000}$`));

    // not approved yet: the agent stays pending
    await copy.tick();
    expect((await signedCall(stack.url, key, user, '/copy/agent/get', { agentId: agent.agentId })).json).toMatchObject({ agent: { state: 'pending' } });
    expect(await postApproval(setup)).toMatchObject({ status: 'ok' });
    await copy.tick();
    expect((await signedCall(stack.url, key, user, '/copy/agent/get', { agentId: agent.agentId })).json).toMatchObject({ agent: { state: 'active' } });
  });

  it("the leader's entry is mirrored within the limits, signed by the agent key and verified by the venue; past the daily cap the next is skipped", async () => {
    await leaderFill({ coin: 'ETH', side: 'buy', size: 2, price: 3000, startPosition: 0, dir: 'Open Long' });
    const [open] = await executions(key, agent.agentId);
    expect(open, JSON.stringify(open)).toMatchObject({ token: 'ETH', side: 'buy', action: 'open', direction: 'long', status: 'filled', reason: null, leaderUsd: 6000, notionalUsd: 500 });
    // $500 at the 3000.5 ask on ETH's lot (4 decimals)
    const vfill = venue.fills.at(-1)!;
    expect(vfill).toMatchObject({ user: user.address.toLowerCase(), agent: agent.session!.sessionKey, coin: 'ETH', side: 'B', sz: 0.1666, px: 3000.5, reduceOnly: false });
    expect(open!.venueOrderId).toBe(String(vfill.oid));
    expect(open!.ref).toBe(String(vfill.oid));
    expect(open!.fills).toEqual([{ price: '3000.5', size: '0.1666' }]);
    expect(venue.position(user.address, 'ETH')).toBeCloseTo(0.1666, 10);

    // another $500 would pass the $800 daily cap
    await leaderFill({ coin: 'ETH', side: 'buy', size: 1, price: 3000, startPosition: 2, dir: 'Open Long' });
    const [capped] = await executions(key, agent.agentId);
    expect(capped).toMatchObject({ status: 'skipped', reason: 'daily_cap', ref: null, fills: [] });
    expect(venue.fills.length).toBe(1);
  });

  it("the leader's exit is a reduce-only order that closes the copy", async () => {
    await leaderFill({ coin: 'ETH', side: 'sell', size: 3, price: 3010, startPosition: 3, dir: 'Close Long' });
    const [close] = await executions(key, agent.agentId);
    expect(close, JSON.stringify(close)).toMatchObject({ token: 'ETH', side: 'sell', action: 'close', fraction: 1, status: 'filled', notionalUsd: 500 });
    expect(venue.fills.at(-1)).toMatchObject({ side: 'A', sz: 0.1666, reduceOnly: true, agent: agent.session!.sessionKey });
    expect(venue.position(user.address, 'ETH')).toBe(0);
  });

  it("after the user revokes the key on the venue, the next order is refused by the venue, recorded failed with its reason, and the agent stops", async () => {
    // the user approves another key under the agent's name: the venue replaces (revokes) the agent's
    await postApproval(hyperliquidApproval({ agentAddress: privateKeyToAccount(generatePrivateKey()).address, agentId: agent.agentId, expiresAt: agent.limits.expiresAt, nonce: Date.now() }));
    const filled = venue.fills.length;
    await leaderFill({ coin: 'ETH', side: 'sell', size: 0.1, price: 3000, startPosition: 0, dir: 'Open Short' });
    const [refused] = await executions(key, agent.agentId);
    expect(refused, JSON.stringify(refused)).toMatchObject({ action: 'open', direction: 'short', status: 'failed', reason: 'agent_refused', venueOrderId: null });
    expect(refused!.detail).toContain(`User or API Wallet ${agent.session!.sessionKey} does not exist.`);
    expect(venue.refusals.at(-1)).toMatchObject({ type: 'order', signer: agent.session!.sessionKey });
    expect(venue.fills.length).toBe(filled);
    const after = (await signedCall(stack.url, key, user, '/copy/agent/get', { agentId: agent.agentId })).json as { agent: Agent };
    expect(after.agent).toMatchObject({ state: 'revoked' });
    expect(after.agent.stateReason).toMatch(/no longer accepts the agent's key/);
    // stopped: the leader's next trade is not decided for it
    const n = (await executions(key, agent.agentId)).length;
    await leaderFill({ coin: 'ETH', side: 'buy', size: 0.2, price: 3000, startPosition: -0.1, dir: 'Close Short' });
    expect((await executions(key, agent.agentId)).length).toBe(n);
  });

  it('a key the user removes on the venue stops its agent at the next lifecycle check, before any order', async () => {
    const other = privateKeyToAccount(generatePrivateKey());
    const created = await signedCall(stack.url, key, other, '/copy/agent/create', { venue: 'hyperliquid', leaderVenue: 'hyperliquid', leader, limits: limits() });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const b = (created.json as { agent: Agent }).agent;
    expect(await postApproval(b.session!.setup as { action: { nonce: number }; typedData: unknown }, other)).toMatchObject({ status: 'ok' });
    await copy.tick();
    const get = async () => ((await signedCall(stack.url, key, other, '/copy/agent/get', { agentId: b.agentId })).json as { agent: Agent }).agent;
    expect(await get()).toMatchObject({ state: 'active', stateReason: 'the agent key is approved on the venue' });
    // the user replaces the key under the agent's name on the venue
    await postApproval(hyperliquidApproval({ agentAddress: privateKeyToAccount(generatePrivateKey()).address, agentId: b.agentId, expiresAt: b.limits.expiresAt, nonce: Date.now() }), other);
    await copy.tick();
    const after = await get();
    expect(after.state).toBe('revoked');
    expect(after.stateReason).toMatch(/no longer lists it/);
  });

  it("a sandbox key's hyperliquid agent records the leader's trades as paper and never reaches the venue", async () => {
    const sandbox = await stack.keys.createOrg('perps-sandbox');
    const paperKey = { plaintext: (await stack.keys.createKey(sandbox.id, 'sandbox')).plaintext, orgId: sandbox.id };
    const created = await signedCall(stack.url, paperKey, user, '/copy/agent/create', { venue: 'hyperliquid', leaderVenue: 'hyperliquid', leader, limits: limits() });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const paper = (created.json as { agent: Agent }).agent;
    expect(paper).toMatchObject({ mode: 'paper', state: 'active', session: null });
    // the copy worker reads agents another service wrote on its lifecycle tick (or within 250 ms of a trade)
    await copy.tick();
    const before = { fills: venue.fills.length, refusals: venue.refusals.length };
    await leaderFill({ coin: 'ETH', side: 'buy', size: 1, price: 3000, startPosition: 0, dir: 'Open Long' });
    const [e] = await executions(paperKey, paper.agentId);
    expect(e).toMatchObject({ status: 'skipped', reason: 'paper', notionalUsd: 500, action: 'open', direction: 'long', ref: null });
    expect({ fills: venue.fills.length, refusals: venue.refusals.length }).toEqual(before);
  });

  it("a sandbox key's agent follows a leader of the venue simulator on paper: real decisions on the simulator's fills, nothing at the venue", async () => {
    const now = Date.now();
    // the simulator's most active perpetuals account over the next three hours
    const counts = new Map<string, number>();
    for (const e of stack.venueSim.eventsBetween(now, now + 3 * 3_600_000)) if (e.type === 'perp_fill') counts.set(e.account, (counts.get(e.account) ?? 0) + 1);
    const simLeader = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const sandbox = await stack.keys.createOrg('perps-sim');
    const paperKey = { plaintext: (await stack.keys.createKey(sandbox.id, 'sandbox')).plaintext, orgId: sandbox.id };
    const created = await signedCall(stack.url, paperKey, user, '/copy/agent/create', { venue: 'hyperliquid', leaderVenue: 'sim', leader: simLeader, limits: { ...limits(), dailyCapUsd: 100_000, maxOpenPositions: 10 } });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const paper = (created.json as { agent: Agent }).agent;
    expect(paper).toMatchObject({ mode: 'paper', chain: 'sim' });
    await copy.tick();
    const before = { fills: venue.fills.length, refusals: venue.refusals.length };
    await stack.advanceTo(Math.floor(now / 1000) + 3 * 3600);
    await vi.waitFor(async () => expect((await copy.lag()).every((l) => l.lag === 0)).toBe(true), { timeout: 30_000, interval: 100 });
    await copy.idle();
    const list = await executions(paperKey, paper.agentId);
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((e) => e.status === 'skipped' && e.reason !== null && e.ref === null && e.tradeAt * 1000 >= now - 1000)).toBe(true);
    const opens = list.filter((e) => e.reason === 'paper' && e.action === 'open');
    expect(opens.length).toBeGreaterThan(0);
    expect(opens.every((e) => e.notionalUsd > 0 && e.notionalUsd <= 500 && (e.direction === 'long' || e.direction === 'short'))).toBe(true);
    expect({ fills: venue.fills.length, refusals: venue.refusals.length }).toEqual(before);
  });

  it('bad input names the field: a chain for a hyperliquid agent, a live agent following the simulator', async () => {
    const chain = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'hyperliquid', chain: 'sim', leader, limits: limits() });
    expect(chain).toMatchObject({ status: 400, json: { error: 'invalid_param' } });
    expect((chain.json as { detail: string }).detail).toMatch(/^chain/);
    const sim = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'hyperliquid', leaderVenue: 'sim', leader, limits: limits() });
    expect(sim).toMatchObject({ status: 400, json: { error: 'invalid_param' } });
    expect((sim.json as { detail: string }).detail).toMatch(/^leaderVenue/);
    const far = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'hyperliquid', leaderVenue: 'hyperliquid', leader, limits: { ...limits(), expiresAt: Math.floor(Date.now() / 1000) + 200 * 86_400 } });
    expect((far.json as { detail: string }).detail).toMatch(/180 days/);
  });

  it("dry run: the leader's recorded fills on the venue through the same decisions, on a fresh book", async () => {
    const r = await signedCall(stack.url, key, user, '/copy/agent/dry-run', { venue: 'hyperliquid', leaderVenue: 'hyperliquid', leader, limits: { ...limits(), dailyCapUsd: 10_000, allow: ['ETH', 'BTC'] }, trades: 50 });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const d = r.json as { chain: string; trades: number; copied: number; items: { action: string; side: string; decision: string; reason: string | null; notionalUsd: number }[] };
    // the leader's fills published above, oldest last: open long, add, close, open short, close short, open long (the last two after the first agent was revoked)
    expect(d.chain).toBe('hyperliquid');
    expect(d.trades).toBe(fillSeq);
    expect(d.items.map((i) => i.action).reverse()).toEqual(['open', 'open', 'close', 'open', 'close', 'open']);
    expect(d.items.at(-1)).toMatchObject({ decision: 'copy', notionalUsd: 500 });
    expect(d.items.at(-3)).toMatchObject({ action: 'close', decision: 'copy', notionalUsd: 1000 });
    // a coin off the allow list is skipped
    const denied = await signedCall(stack.url, key, user, '/copy/agent/dry-run', { venue: 'hyperliquid', leaderVenue: 'hyperliquid', leader, limits: { ...limits(), allow: ['BTC'] } });
    expect((denied.json as { copied: number; byReason: Record<string, number> }).byReason.token_not_allowed).toBeGreaterThan(0);
    const mixed = await signedCall(stack.url, key, user, '/copy/agent/dry-run', { venue: 'hyperliquid', chain: 'sim', leader, limits: limits() });
    expect(mixed).toMatchObject({ status: 400, json: { error: 'invalid_param' } });
  });
});
