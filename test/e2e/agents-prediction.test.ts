/**
 * Copy trading on the prediction market (in validation) through the real app and the real copy
 * worker, beside a local CLOB that checks Polymarket's signatures by its rules
 * (test/fixtures/venues/polymarket-server.ts). Live trading on this venue is off (its orders would
 * come from an address whose key the service derives, holding the user's collateral): asking for
 * live answers 403 venue_not_entitled with that reason, entitled or not; agents trade on paper, the
 * leader's order a paper execution that never reaches the venue; a live agent stored before the
 * change is paused at the next check (with its webhook) and never signs an order.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { publishVenueEvents } from '../../ingest/venuesim/pump.ts';
import { startCopyRole } from '../../runtime/copy.ts';
import type { CopyWorker } from '../../runtime/copy.ts';
import type { Agent, Execution } from '../../schemas/agents.ts';
import type { PredictionTrade } from '../../schemas/venues.ts';
import { startPolymarketServer } from '../fixtures/venues/polymarket-server.ts';
import type { PolymarketServer } from '../fixtures/venues/polymarket-server.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';
import { Tables } from '../../infra/store/types.ts';
import { signedCall } from './relay.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

const OUTCOME = '21742633143463906290569050155826241533067272736897614950488156847949938836455';
const MARKET = `0x${'ab'.repeat(32)}`;
const user = privateKeyToAccount(generatePrivateKey());
const leader = privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as `0x${string}`;

let venue: PolymarketServer;
let stack: Stack;
let copy: CopyWorker;
type Key = { plaintext: string; orgId: string };
let unentitled: Key;
let entitled: Key;

// the partner's webhook receiver: every delivery verified with the endpoint's secret
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

let seq = 0;
/** a leader's trade as the prediction ingest publishes it */
async function leaderTrades(side: 'buy' | 'sell', size: number, price: number): Promise<void> {
  seq += 1;
  const txHash = `0x${seq.toString(16).padStart(64, '0')}`;
  const t: PredictionTrade = { type: 'prediction_trade', venue: 'polymarket', account: leader, market: MARKET, asset: OUTCOME, outcome: 'Yes', side, size, price, time: Date.now(), txHash, tradeId: `${txHash}:${OUTCOME}:${side}:${size}:${price}` };
  await publishVenueEvents(stack.services.log, [t]);
  await vi.waitFor(async () => expect((await copy.lag()).every((l) => l.lag === 0)).toBe(true), { timeout: 20_000, interval: 50 });
  await copy.idle();
}

async function executions(k: Key, agentId: string): Promise<Execution[]> {
  const r = await signedCall(stack.url, k, user, '/copy/agent/executions', { agentId, limit: 100 });
  expect(r.status).toBe(200);
  return (r.json as { executions: Execution[] }).executions;
}

const limits = () => ({ maxNotionalUsd: 100, dailyCapUsd: 1000, maxOpenPositions: 5, maxSlippageBps: 300, minLeaderGrade: 'unrated', expiresAt: Math.floor(Date.now() / 1000) + 7 * 86_400 });
const create = (k: Key, extra: Record<string, unknown> = {}) => signedCall(stack.url, k, user, '/copy/agent/create', { venue: 'polymarket', leaderVenue: 'polymarket', leader, limits: limits(), ...extra });

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  venue = await startPolymarketServer();
  venue.setBook(OUTCOME, { bids: [{ price: 0.44, size: 1000 }], asks: [{ price: 0.45, size: 1000 }] });
  stack = await startStack({ seed: 13, days: 1, env: { COPY_POLYMARKET_URL: venue.url, WEBHOOKS_ALLOW_LOCAL: 'true' } });
  copy = await startCopyRole(stack.services, { tickMs: 60_000 });
  unentitled = await stack.livePartner('prediction-unentitled');
  entitled = await stack.livePartner('prediction-entitled', ['polymarket']);
  await receiver.subscribe(stack, entitled.plaintext);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await venue?.close();
  receiver?.close();
});

describe('copy trading on the prediction market (polymarket, in validation)', () => {
  it("a live key not entitled to the venue trades on paper: the leader's order becomes a paper execution that never reaches the venue", async () => {
    const refused = await create(unentitled, { mode: 'live' });
    expect(refused).toMatchObject({ status: 403, json: { error: 'venue_not_entitled' } });
    const created = await create(unentitled);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const agent = (created.json as { agent: Agent }).agent;
    expect(agent).toMatchObject({ mode: 'paper', state: 'active', venue: 'polymarket', chain: 'polymarket', session: null });
    expect(agent.stateReason).toMatch(/in validation/);
    await copy.tick();
    await leaderTrades('buy', 400, 0.45);
    const [e] = await executions(unentitled, agent.agentId);
    expect(e).toMatchObject({ token: OUTCOME, side: 'buy', action: 'open', status: 'skipped', reason: 'paper', leaderUsd: 180, notionalUsd: 100, ref: null, venueOrderId: null, fills: [] });
    expect(venue.fills).toEqual([]);
    expect(venue.refusals).toEqual([]);
  });

  it("an entitled partner asking for live is refused with the documented reason (the venue's collateral would sit at a key we hold); by default its agent trades on paper", async () => {
    const refused = await create(entitled, { mode: 'live' });
    expect(refused).toMatchObject({ status: 403, json: { error: 'venue_not_entitled' } });
    expect((refused.json as { detail: string }).detail).toMatch(/live trading on polymarket is off: .*key this service holds/);
    const created = await create(entitled);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const agent = (created.json as { agent: Agent }).agent;
    expect(agent).toMatchObject({ mode: 'paper', state: 'active', session: null });
    expect(agent.stateReason).toMatch(/in validation: live trading on polymarket is off/);
    await copy.tick();
    await leaderTrades('buy', 400, 0.45);
    const [e] = await executions(entitled, agent.agentId);
    expect(e).toMatchObject({ status: 'skipped', reason: 'paper', notionalUsd: 100 });
    expect(venue.fills).toEqual([]);
  });

  it('a live agent stored before live was turned off never submits: the factory builds it no signer, and the next check pauses it with a webhook', async () => {
    // an agent as a live polymarket agent was stored before: trading from a derived address
    const now = Date.now();
    const agentId = 'ag_00000000000000aa';
    const trading = privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as `0x${string}`;
    const old: Agent & { partner: string } = {
      agentId,
      partner: entitled.orgId,
      wallet: user.address.toLowerCase() as `0x${string}`,
      mode: 'live',
      venue: 'polymarket',
      chain: 'polymarket',
      leader,
      limits: { ...limits(), allow: undefined, deny: undefined } as Agent['limits'],
      state: 'active',
      stateReason: 'the trading address holds collateral on the venue',
      session: { account: trading, sessionKey: trading, setup: {} },
      createdAt: now,
      updatedAt: now,
    };
    await stack.services.store.upsert(Tables.agents, [{ key: `${entitled.orgId}:${old.wallet}:${agentId}`, version: now, body: JSON.stringify(old) }]);
    venue.fund(trading, 250);
    await copy.tick();
    const got = (await signedCall(stack.url, entitled, user, '/copy/agent/get', { agentId })).json as { agent: Agent };
    expect(got.agent.state).toBe('paused');
    expect(got.agent.stateReason).toMatch(/^paused: live trading on polymarket is off/);
    await vi.waitFor(() => expect(receiver.received.some((r) => r.type === 'agent.paused' && (r.data.agent as Agent).agentId === agentId && r.ok)).toBe(true), { timeout: 20_000, interval: 100 });
    // the leader trades: nothing reaches the venue, nothing was signed for the trading address
    await leaderTrades('buy', 400, 0.45);
    const [e] = await executions(entitled, agentId);
    expect(e).toMatchObject({ status: 'skipped', reason: 'agent_inactive' });
    expect(venue.fills).toEqual([]);
    expect(venue.refusals).toEqual([]);
    // resuming is refused with the same reason
    const resumed = await signedCall(stack.url, entitled, user, '/copy/agent/resume', { agentId });
    expect(resumed).toMatchObject({ status: 403, json: { error: 'venue_not_entitled' } });
  });
});
