/**
 * The copy-trading agents through the real app and the real copy worker on the simulator's data:
 * a sandbox key's agent in paper mode follows a leader's live trades and records each as skipped
 * (paper, or the gate or limit that stopped it) with no transaction, and signed webhooks of it
 * reach the partner's receiver; the lifecycle, ownership and bad input of the relay routes.
 */
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimulator } from '../../ingest/simulator/index.ts';
import { createAgentService, paperOnlyVenues } from '../../relay/index.ts';
import { startCopyRole } from '../../runtime/copy.ts';
import type { CopyWorker } from '../../runtime/copy.ts';
import { TradesByWalletTopic } from '../../infra/topics.ts';
import { Tables } from '../../infra/store/types.ts';
import type { Agent, Execution } from '../../schemas/agents.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';
import { signedCall } from './relay.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';
import type { Delivery } from './webhook-receiver.ts';

const SEED = 7;
const user = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const other = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

describe('copy agents in paper mode on the simulator', () => {
  let stack: Stack;
  let key: { plaintext: string; orgId: string };
  const t0 = Math.floor(Date.now() / 1000);
  // the simulator's day ends two hours ahead: the trades after t0 happen after the agent exists
  const genesisTime = t0 - 22 * 3600;
  let leader: string;
  let copy: CopyWorker;
  let paperAgent = '';
  // the partner's webhook receiver on 127.0.0.1: every delivery, verified with the endpoint's secret
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let received: Delivery[] = [];

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    received = receiver.received;
    stack = await startStack({ seed: SEED, days: 1, genesisTime, env: { WEBHOOKS_ALLOW_LOCAL: 'true' } });
    copy = await startCopyRole(stack.services, { tickMs: 200 });
    // the most active buyer after t0 that also traded before it
    const sim = createSimulator({ seed: SEED, genesisTime, spanDays: 1 });
    const before = new Set<string>();
    const after = new Map<string, number>();
    for (const b of sim.blocksUntil(t0 + 2 * 3600)) {
      for (const e of b.events) {
        if (e.type !== 'swap') continue;
        if (e.timestamp <= t0) before.add(e.trader);
        else if (e.side === 'buy') after.set(e.trader, (after.get(e.trader) ?? 0) + 1);
      }
    }
    leader = [...after].filter(([w]) => before.has(w)).sort((a, b) => b[1] - a[1])[0]![0];
    await stack.advanceTo(t0 - 5);
    const plaintext = await stack.newKey('sandbox');
    key = { plaintext, orgId: (await stack.keys.resolve(plaintext, Date.now()))!.orgId };
    const endpoint = await stack.call('POST', '/v1/webhooks/create', plaintext, { url: receiver.url });
    expect(endpoint.status).toBe(200);
    receiver.useSecret(endpoint.json.secret as string);
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
    receiver?.close();
  });

  const limits = { maxNotionalUsd: 500, dailyCapUsd: 100_000, maxOpenPositions: 50, maxSlippageBps: 5000, minLeaderGrade: 'unrated', expiresAt: t0 + 7 * 86_400 };

  it("a sandbox key's agent is active at once in paper mode and records the leader's trades as skipped, never submitted", async () => {
    const created = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'evm-spot', leader, limits });
    expect(created.status).toBe(200);
    const agent = (created.json as { agent: Agent }).agent;
    paperAgent = agent.agentId;
    expect(agent).toMatchObject({ mode: 'paper', state: 'active', leader, wallet: user.address.toLowerCase(), session: null });
    expect(agent.agentId).toMatch(/^ag_[0-9a-f]{16}$/);

    await stack.advanceTo(t0 + 2 * 3600);
    let executions: Execution[] = [];
    await vi.waitFor(
      async () => {
        const r = await signedCall(stack.url, key, user, '/copy/agent/executions', { agentId: agent.agentId, limit: 100 });
        expect(r.status).toBe(200);
        executions = (r.json as { executions: Execution[] }).executions;
        expect(executions.length).toBeGreaterThan(0);
      },
      { timeout: 30_000, interval: 500 },
    );
    // every one skipped with a reason; the copies are paper with their notional
    expect(executions.every((e) => e.status === 'skipped' && e.reason !== null && e.ref === null)).toBe(true);
    const paper = executions.filter((e) => e.reason === 'paper');
    expect(paper.length).toBeGreaterThan(0);
    expect(paper.every((e) => e.notionalUsd > 0 && e.notionalUsd <= 500 && e.tradeAt > t0)).toBe(true);
    // newest first, one per leader trade
    expect(executions.map((e) => e.tradeAt)).toEqual([...executions.map((e) => e.tradeAt)].sort((a, b) => b - a));
    expect(new Set(executions.map((e) => e.leaderTrade)).size).toBe(executions.length);
    // filtered by status
    const skipped = await signedCall(stack.url, key, user, '/copy/agent/executions', { agentId: agent.agentId, status: 'filled' });
    expect((skipped.json as { executions: Execution[] }).executions).toEqual([]);

    // the partner's receiver got the agent's creation and every execution, signed, once each
    await vi.waitFor(
      () => {
        const mine = received.filter((r) => r.type === 'execution.skipped' && (r.data.execution as Execution).agentId === agent.agentId);
        expect(mine.length).toBe(executions.length);
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(received.every((r) => r.ok)).toBe(true);
    expect(received.some((r) => r.type === 'agent.created' && (r.data.agent as Agent).agentId === agent.agentId)).toBe(true);
    expect(new Set(received.map((r) => r.id)).size).toBe(received.length);
  });

  it("replay: the leader's trades delivered again decide nothing twice (the same executions, the same book)", async () => {
    const list = async () => (await signedCall(stack.url, key, user, '/copy/agent/executions', { agentId: paperAgent, limit: 100 })).json.executions as Execution[];
    const before = await list();
    const book = await stack.services.store.get(Tables.agentBooks, paperAgent);
    expect(before.length).toBeGreaterThan(0);
    // every record of the leader on trades.by-wallet, read back from the log and published again
    const { log } = stack.services;
    const again: { key: string; value: string }[] = [];
    const reader = await log.consume({
      groupId: `ephemeral-replay-${Date.now()}`,
      topics: [TradesByWalletTopic.name],
      startOffset: () => 0,
      eachBatch: async (b) => {
        for (const r of b.records) if (r.key.endsWith(`:${leader}`)) again.push({ key: r.key, value: r.value });
      },
    });
    await vi.waitFor(async () => expect((await reader.lag()).every((l) => l.lag === 0)).toBe(true), { timeout: 20_000 });
    await reader.stop();
    expect(again.length).toBeGreaterThan(before.length - 1);
    await log.publish(TradesByWalletTopic.name, again);
    await vi.waitFor(async () => expect((await copy.lag()).every((l) => l.lag === 0)).toBe(true), { timeout: 20_000 });
    await copy.idle();
    expect(await list()).toEqual(before);
    expect((await stack.services.store.get(Tables.agentBooks, paperAgent))?.body).toBe(book?.body);
  });

  it('one signed create that passes two API processes\' guards at once (no shared lock) still creates one agent', async () => {
    // two services over the same store, as two API processes would each run one
    const mk = () => createAgentService({ store: stack.services.store, keys: stack.keys, venues: paperOnlyVenues, emit: async () => undefined, now: Date.now, defaultChain: 'sim' });
    // the grant signed at one timestamp, whose signature each process's guard accepted
    const wallet = other.address.toLowerCase();
    const passed = async () => ({ wallet, messageHash: `0x${'ab'.repeat(32)}` });
    const caller = { partner: key.orgId, keyKind: 'test' as const, wallet, now: Date.now(), grant: { timestamp: Math.floor(Date.now() / 1000), authorize: passed } };
    const input = { venue: 'evm-spot' as const, leader: leader as `0x${string}`, limits: { ...limits, minLeaderGrade: 'unrated' as const } };
    const [a, b] = await Promise.all([mk().create(caller, input), mk().create({ ...caller, now: caller.now + 1 }, input)]);
    expect(a.agentId).toBe(b.agentId);
    const listed = (await mk().list(caller, { limit: 100 })).items;
    expect(listed.filter((x) => x.agentId === a.agentId)).toHaveLength(1);
    expect(listed).toHaveLength(1);
    // a grant signed at another timestamp is another agent
    const c = await mk().create({ ...caller, grant: { ...caller.grant, timestamp: caller.grant.timestamp + 1 } }, input);
    expect(c.agentId).not.toBe(a.agentId);
  });

  it('lifecycle: pause, resume, revoke; a revoked agent cannot resume', async () => {
    const created = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'evm-spot', leader, limits: { ...limits, maxNotionalUsd: 10 } });
    const id = (created.json as { agent: Agent }).agent.agentId;
    expect((await signedCall(stack.url, key, user, '/copy/agent/pause', { agentId: id })).json).toMatchObject({ agent: { state: 'paused' } });
    expect((await signedCall(stack.url, key, user, '/copy/agent/resume', { agentId: id })).json).toMatchObject({ agent: { state: 'active' } });
    expect((await signedCall(stack.url, key, user, '/copy/agent/revoke', { agentId: id })).json).toMatchObject({ agent: { state: 'revoked' } });
    const again = await signedCall(stack.url, key, user, '/copy/agent/resume', { agentId: id });
    expect(again).toMatchObject({ status: 409, json: { error: 'invalid_state' } });
    const list = await signedCall(stack.url, key, user, '/copy/agent/list', { state: 'revoked' });
    expect((list.json as { agents: Agent[] }).agents.map((a) => a.agentId)).toContain(id);
  });

  it("another wallet or another partner sees 404 not_found for the user's agent", async () => {
    const created = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'evm-spot', leader, limits });
    const id = (created.json as { agent: Agent }).agent.agentId;
    expect(await signedCall(stack.url, key, other, '/copy/agent/get', { agentId: id })).toMatchObject({ status: 404, json: { error: 'not_found' } });
    const otherPlain = await stack.newKey('sandbox');
    // the e2e stack mints sandbox keys in one organisation: a partner of its own
    const org = await stack.keys.createOrg('other-partner');
    const minted = await stack.keys.createKey(org.id, 'sandbox');
    expect(otherPlain).not.toBe(minted.plaintext);
    const otherKey = { plaintext: minted.plaintext, orgId: org.id };
    expect(await signedCall(stack.url, otherKey, user, '/copy/agent/get', { agentId: id })).toMatchObject({ status: 404, json: { error: 'not_found' } });
    expect(await signedCall(stack.url, key, user, '/copy/agent/get', { agentId: id })).toMatchObject({ status: 200 });
  });

  it('bad input is 400 with the field named; a live key not entitled to the venue is 403', async () => {
    const noLeader = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'evm-spot', limits });
    expect(noLeader).toMatchObject({ status: 400, json: { error: 'invalid_param' } });
    expect((noLeader.json as { detail: string }).detail).toMatch(/leader/);
    const past = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'evm-spot', leader, limits: { ...limits, expiresAt: t0 - 10 } });
    expect(past).toMatchObject({ status: 400, json: { error: 'invalid_param' } });
    expect((past.json as { detail: string }).detail).toMatch(/limits\.expiresAt/);
    const venue = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'moon', leader, limits });
    expect(venue).toMatchObject({ status: 400 });
    expect((venue.json as { detail: string }).detail).toMatch(/venue/);
    const extra = await signedCall(stack.url, key, user, '/copy/agent/create', { venue: 'evm-spot', leader, limits, withdrawTo: user.address });
    expect(extra).toMatchObject({ status: 400, json: { error: 'unknown_param' } });
    const badId = await signedCall(stack.url, key, user, '/copy/agent/get', { agentId: 'ag_nothex' });
    expect(badId).toMatchObject({ status: 400, json: { error: 'invalid_param' } });

    const live = await stack.newKey('pro');
    const liveKey = { plaintext: live, orgId: (await stack.keys.resolve(live, Date.now()))!.orgId };
    const refused = await signedCall(stack.url, liveKey, user, '/copy/agent/create', { venue: 'evm-spot', leader, limits });
    expect(refused).toMatchObject({ status: 403, json: { error: 'venue_not_entitled' } });
    // entitled, but no venue configured on this deployment
    await stack.keys.entitle(liveKey.orgId, 'evm-spot', true, Date.now());
    const unconfigured = await signedCall(stack.url, liveKey, user, '/copy/agent/create', { venue: 'evm-spot', leader, limits });
    expect(unconfigured).toMatchObject({ status: 503, json: { error: 'gateway_unconfigured' } });
  });

  it("dry run: the leader's latest trades through the same decisions, on a fresh book", async () => {
    const r = await signedCall(stack.url, key, user, '/copy/agent/dry-run', { leader, limits, trades: 10 });
    expect(r.status).toBe(200);
    const d = r.json as { trades: number; copied: number; skipped: number; items: { decision: string; reason: string | null; at: string }[] };
    // the leader traded within the week: the per-item checks below have items to check
    expect(d.trades).toBeGreaterThan(0);
    expect(d.copied + d.skipped).toBe(d.trades);
    expect(d.items.length).toBe(d.trades);
    expect(d.trades).toBeLessThanOrEqual(10);
    for (const i of d.items) expect(i.decision === 'copy' ? i.reason === null : typeof i.reason === 'string').toBe(true);
    const missing = await signedCall(stack.url, key, user, '/copy/agent/dry-run', { leader });
    expect(missing).toMatchObject({ status: 400, json: { error: 'invalid_param' } });
  });
});
