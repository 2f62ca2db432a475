/**
 * Copy trading on the prediction market (in validation) through the real app and the real copy
 * worker, against a local CLOB that checks Polymarket's signatures by its rules
 * (test/fixtures/venues/polymarket-server.ts): a live key whose organisation is not entitled to
 * the venue gets a paper agent (and 403 venue_not_entitled when it asks for live); the leader's
 * order becomes a paper execution that never reaches the venue. An entitled organisation's agent
 * trades from its funded trading address: the leader's buy of an outcome becomes an EIP-712 order
 * signed by the agent key, posted with L2 HMAC headers, both verified by the venue, and filled at
 * its book; the leader's sell closes the copy. The executions list and the signed webhooks carry
 * the venue's order id and the fills.
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

async function liveKey(name: string): Promise<Key> {
  const org = await stack.keys.createOrg(name);
  await stack.keys.goLive(org.id, Date.now());
  return { plaintext: (await stack.keys.createKey(org.id, 'pro')).plaintext, orgId: org.id };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  venue = await startPolymarketServer();
  venue.setBook(OUTCOME, { bids: [{ price: 0.44, size: 1000 }], asks: [{ price: 0.45, size: 1000 }] });
  stack = await startStack({ seed: 13, days: 1, env: { COPY_POLYMARKET_URL: venue.url, WEBHOOKS_ALLOW_LOCAL: 'true' } });
  copy = await startCopyRole(stack.services, { tickMs: 60_000 });
  unentitled = await liveKey('prediction-unentitled');
  entitled = await liveKey('prediction-entitled');
  await stack.keys.entitle(entitled.orgId, 'polymarket', true, Date.now());
  const hook = await stack.call('POST', '/v1/webhooks/create', entitled.plaintext, { url: receiver.url });
  expect(hook.status).toBe(200);
  receiver.useSecret(hook.json.secret as string);
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

  it("an entitled partner's agent signs the leader's buy as an EIP-712 order with L2 headers, verified and filled by the venue; the leader's sell closes it", async () => {
    const created = await create(entitled);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const agent = (created.json as { agent: Agent }).agent;
    expect(agent).toMatchObject({ mode: 'live', state: 'pending' });
    const trading = agent.session!.account;
    expect(agent.session!.setup).toMatchObject({ tradingAddress: trading, chainId: 137 });
    // the user funds the agent's trading address on the venue: the agent becomes active
    await copy.tick();
    expect((await signedCall(stack.url, entitled, user, '/copy/agent/get', { agentId: agent.agentId })).json).toMatchObject({ agent: { state: 'pending' } });
    venue.fund(trading, 250);
    await copy.tick();
    expect((await signedCall(stack.url, entitled, user, '/copy/agent/get', { agentId: agent.agentId })).json).toMatchObject({ agent: { state: 'active' } });

    await leaderTrades('buy', 400, 0.45);
    const [open] = await executions(entitled, agent.agentId);
    expect(open, JSON.stringify(open)).toMatchObject({ token: OUTCOME, action: 'open', status: 'filled', reason: null, leaderUsd: 180, notionalUsd: 100 });
    // the venue recovered the order's signer (the agent key, owner of the API key that signed the HMAC) and filled it at its book
    const f = venue.fills.at(-1)!;
    expect(f).toMatchObject({ maker: trading, signer: trading, tokenId: OUTCOME, side: 'BUY', price: 0.45 });
    expect(f.size).toBeCloseTo(100 / 0.45, 4);
    expect(open!.venueOrderId).toBe(f.orderId);
    expect(open!.ref).toBe(f.orderId);
    expect(open!.fills).toEqual([{ price: '0.4500', size: String(f.size) }]);
    expect(venue.shares(trading, OUTCOME)).toBeCloseTo(f.size, 4);

    await leaderTrades('sell', 400, 0.44);
    const [close] = await executions(entitled, agent.agentId);
    expect(close, JSON.stringify(close)).toMatchObject({ action: 'close', side: 'sell', status: 'filled', fraction: 1 });
    expect(venue.fills.at(-1)).toMatchObject({ side: 'SELL', price: 0.44, signer: trading });
    expect(venue.shares(trading, OUTCOME)).toBeLessThan(0.01);

    // the partner's webhooks carry the venue's order id and the fills, signed
    const events = (type: string) => receiver.received.filter((r) => r.type === type).map((r) => r.data.execution as Execution);
    await vi.waitFor(() => expect(events('execution.filled')).toHaveLength(2), { timeout: 20_000, interval: 100 });
    const filled = events('execution.filled');
    expect(filled.map((x) => x.venueOrderId).sort()).toEqual([open!.venueOrderId, close!.venueOrderId].sort());
    expect(filled.find((x) => x.action === 'open')!.fills).toEqual(open!.fills);
    // each was announced as submitted first, under the order's id (its EIP-712 hash)
    const submitted = events('execution.submitted');
    expect(submitted.map((x) => x.ref).sort()).toEqual(filled.map((x) => x.venueOrderId).sort());
    expect(submitted.every((x) => x.status === 'submitted' && x.fills.length === 0)).toBe(true);
    expect(receiver.received.every((r) => r.ok)).toBe(true);
  });
});
