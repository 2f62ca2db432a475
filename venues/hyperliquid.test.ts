/**
 * The perpetuals adapter against the local venue (test/fixtures/venues/hyperliquid-server.ts),
 * which checks every signature by the venue's rules: the user approves the agent key with the
 * approveAgent action the adapter describes; orders the agent key signs (L1 action, phantom
 * agent) are recovered to that agent and filled at the book on the venue's lot and tick; an
 * unapproved key, a replaced (revoked) agent and an expired one are refused with the venue's
 * reason; an exit is reduce-only and sized by the agent's own position, never the account's whole.
 */
import { createL1ActionHash } from '@nktkas/hyperliquid/signing';
import { parseSignature } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHyperliquidServer } from '../test/fixtures/venues/hyperliquid-server.ts';
import type { HyperliquidServer } from '../test/fixtures/venues/hyperliquid-server.ts';
import { cloidOf, createHyperliquidVenue, hyperliquidApproval, readHyperliquidAgent } from './hyperliquid.ts';
import { sessionKeysFrom } from './session-keys.ts';
import type { Quote, SubmitResult, Venue } from './types.ts';

const user = privateKeyToAccount(generatePrivateKey());
const keys = sessionKeysFrom('hyperliquid-test-secret');
const session = (agentId: string) => ({ agentId, chain: 'hyperliquid', account: user.address.toLowerCase() as `0x${string}` });
const hooks = (executionId: string) => ({ executionId, onSubmitted: async () => undefined });

let venue: Venue;
let server: HyperliquidServer;

/** the user signs an approval the backend describes and posts it to the venue, as the venue's app does */
async function postApproval(url: string, approval: ReturnType<typeof hyperliquidApproval>) {
  const signature = await user.signTypedData(approval.typedData);
  const { r, s, v } = parseSignature(signature);
  const res = await fetch(`${url}/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: approval.action, nonce: approval.action.nonce, signature: { r, s, v: Number(v) } }),
  });
  return (await res.json()) as { status: string; response: unknown };
}
const approve = (agentId: string, expiresAt: number) => postApproval(server.url, hyperliquidApproval({ agentAddress: keys(agentId).address, agentId, expiresAt, nonce: Date.now() }));

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

beforeAll(async () => {
  server = await startHyperliquidServer();
  server.fund(user.address, 10_000);
  server.setBook('ETH', { bids: [{ px: 2999.5, sz: 5 }], asks: [{ px: 3000.5, sz: 0.05 }, { px: 3001, sz: 5 }] });
  venue = createHyperliquidVenue({ apiUrl: server.url, agentKeyFor: keys });
});
afterAll(async () => server?.close());

describe('hyperliquid venue: approved agent keys and L1-signed orders', () => {
  const agentId = 'ag_00000000000000a1';

  it('the approval is recovered to the user and lists the agent with its validity', async () => {
    const expiresAt = inAnHour();
    expect(await approve(agentId, expiresAt)).toEqual({ status: 'ok', response: { type: 'default' } });
    const a = await readHyperliquidAgent(server.url, user.address, keys(agentId).address);
    expect(a).toEqual({ approved: true, validUntil: expiresAt * 1000, name: 'intel 0000000000' });
    expect(server.approvals.at(-1)).toMatchObject({ user: user.address.toLowerCase(), agent: keys(agentId).address.toLowerCase() });
  });

  it("an open is sized by USD on the asset's lot, priced on its tick, signed by the agent key and filled at the book", async () => {
    const q = await venue.quote({ session: session(agentId), token: 'ETH', side: 'buy', direction: 'long', usd: 250, maxSlippageBps: 50 });
    // $250 at the 3000.5 ask: 0.08331... ETH, truncated to szDecimals 4; 3000.5 x 1.005 on five significant figures
    expect(q.order).toEqual({ asset: 1, isBuy: true, size: '0.0833', limitPx: '3015.5', reduceOnly: false });
    const submitted: string[] = [];
    const r = await venue.submit(session(agentId), q, { executionId: 'ex_open', onSubmitted: async (ref) => void submitted.push(ref) });
    expect(r).toMatchObject({ status: 'filled', amountIn: '0.0833' });
    // submitted under the execution's client order id, which the venue keeps with the order
    expect(submitted).toEqual([cloidOf('ex_open')]);
    expect(server.fills.at(-1)?.cloid).toBe(cloidOf('ex_open'));
    const f = server.fills.at(-1)!;
    // the venue recovered the agent key from the signature and booked the fill to the user
    expect(f).toMatchObject({ user: user.address.toLowerCase(), agent: keys(agentId).address.toLowerCase(), coin: 'ETH', side: 'B', sz: 0.0833, reduceOnly: false });
    // two levels walked: 0.05 at 3000.5 and 0.0333 at 3001
    expect(f.px).toBeCloseTo((0.05 * 3000.5 + 0.0333 * 3001) / 0.0833, 6);
    expect((r as Extract<SubmitResult, { status: 'filled' }>).orderId).toBe(String(f.oid));
    expect((r as Extract<SubmitResult, { status: 'filled' }>).fills).toEqual([{ price: String(Number(f.px.toPrecision(6))), size: '0.0833' }]);
    expect(server.position(user.address, 'ETH')).toBeCloseTo(0.0833, 10);
  });

  it("the venue's refusals become failed results with its reason: below the $10 minimum, a key it does not know", async () => {
    const small = await venue.quote({ session: session(agentId), token: 'ETH', side: 'buy', direction: 'long', usd: 5, maxSlippageBps: 50 });
    expect(await venue.submit(session(agentId), small, hooks('ex_small'))).toMatchObject({ status: 'failed', reason: 'venue_rejected', detail: expect.stringMatching(/minimum value of \$10/) });
    const stranger = 'ag_00000000000000b2';
    const q = await venue.quote({ session: session(stranger), token: 'ETH', side: 'buy', direction: 'long', usd: 50, maxSlippageBps: 50 });
    const r = await venue.submit(session(stranger), q, hooks('ex_stranger'));
    expect(r).toMatchObject({ status: 'failed', reason: 'agent_refused' });
    expect((r as { detail: string }).detail).toContain(`User or API Wallet ${keys(stranger).address.toLowerCase()} does not exist.`);
  });

  it('a tampered action recovers to another address, which the venue refuses', async () => {
    const wallet = keys(agentId);
    const action = { type: 'order', orders: [{ a: 1, b: true, p: '3015.5', s: '0.01', r: false, t: { limit: { tif: 'Ioc' } } }], grouping: 'na' };
    const nonce = Date.now() + 7;
    const { signL1Action } = await import('@nktkas/hyperliquid/signing');
    const signature = await signL1Action({ wallet, action, nonce });
    const tampered = { ...action, orders: [{ ...action.orders[0], s: '1' }] };
    expect(createL1ActionHash({ action: tampered, nonce })).not.toBe(createL1ActionHash({ action, nonce }));
    const r = await fetch(`${server.url}/exchange`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: tampered, nonce, signature }) });
    const body = (await r.json()) as { status: string; response: string };
    expect(body.status).toBe('err');
    expect(body.response).toMatch(/^User or API Wallet 0x[0-9a-f]{40} does not exist\.$/);
    expect(body.response).not.toContain(wallet.address.toLowerCase());
  });

  it("a leader's exit is reduce-only, sized by the agent's own position (never the account's whole), and cannot open the other way", async () => {
    const held = server.position(user.address, 'ETH');
    const exit = (side: 'buy' | 'sell', fraction: number, amount?: string) => venue.quote({ session: session(agentId), token: 'ETH', side, reduceOnly: true, fraction, ...(amount !== undefined ? { amount } : {}), maxSlippageBps: 50 });
    // without the agent's own size nothing is reduced: the account's position may be the user's
    await expect(exit('sell', 1)).rejects.toMatchObject({ reason: 'no_position' });
    // the agent's own 0.02 of the account's 0.0833: half of it is 0.01, whatever the account holds
    const half = await exit('sell', 0.5, '2000000');
    expect(half.order).toMatchObject({ isBuy: false, reduceOnly: true, size: '0.01' });
    expect(await venue.submit(session(agentId), half, hooks('ex_half'))).toMatchObject({ status: 'filled' });
    expect(server.position(user.address, 'ETH')).toBeCloseTo(held - 0.01, 10);
    // a buy closes an agent's short: the account holds a long, so there is none of the agent's
    await expect(exit('buy', 1, '2000000')).rejects.toMatchObject({ reason: 'no_position' });
    // an own size above the account's position is capped by it
    const rest = await exit('sell', 1, '100000000');
    expect(rest.order?.size).toBe(String(Number((held - 0.01).toFixed(4))));
    expect(await venue.submit(session(agentId), rest, hooks('ex_rest'))).toMatchObject({ status: 'filled' });
    expect(server.position(user.address, 'ETH')).toBe(0);
    expect(server.fills.slice(-2).every((f) => f.reduceOnly && f.side === 'A')).toBe(true);
    await expect(exit('sell', 1, '100000000')).rejects.toMatchObject({ reason: 'no_position' });
  });

  it('an agent replaced under its name (revoked by the user) or past its validity is refused by the venue', async () => {
    const replaced = 'ag_00000000000000c3';
    const successor = 'ag_10000000000000c3';
    expect(await approve(replaced, inAnHour())).toMatchObject({ status: 'ok' });
    const q = await venue.quote({ session: session(replaced), token: 'ETH', side: 'buy', direction: 'long', usd: 50, maxSlippageBps: 50 });
    // approving another key under the first one's name revokes it (the venue keeps one agent per name)
    await postApproval(server.url, hyperliquidApproval({ agentAddress: keys(successor).address, agentId: replaced, expiresAt: inAnHour(), nonce: Date.now() + 1 }));
    expect((await readHyperliquidAgent(server.url, user.address, keys(replaced).address)).approved).toBe(false);
    expect(await venue.submit(session(replaced), q, hooks('ex_revoked'))).toMatchObject({ status: 'failed', reason: 'agent_refused' });

    // an agent whose validity has passed: the venue's clock moves past valid_until
    let clock = Date.now();
    const late = await startHyperliquidServer({ now: () => clock });
    try {
      late.fund(user.address, 1000);
      late.setBook('ETH', { bids: [{ px: 2999.5, sz: 5 }], asks: [{ px: 3000.5, sz: 5 }] });
      const expiring = 'ag_00000000000000d4';
      await postApproval(late.url, hyperliquidApproval({ agentAddress: keys(expiring).address, agentId: expiring, expiresAt: Math.floor(clock / 1000) + 120, nonce: clock }));
      const v = createHyperliquidVenue({ apiUrl: late.url, agentKeyFor: keys, now: () => clock });
      const ok = await v.submit(session(expiring), await v.quote({ session: session(expiring), token: 'ETH', side: 'buy', direction: 'long', usd: 20, maxSlippageBps: 50 }), hooks('ex_e1'));
      expect(ok.status).toBe('filled');
      const q2: Quote = await v.quote({ session: session(expiring), token: 'ETH', side: 'buy', direction: 'long', usd: 20, maxSlippageBps: 50 });
      clock += 180_000;
      expect(await v.submit(session(expiring), { ...q2, deadline: Math.floor(clock / 1000) + 5 }, hooks('ex_e2'))).toMatchObject({ status: 'failed', reason: 'agent_refused' });
    } finally {
      await late.close();
    }
  });
});
