/**
 * The prediction-market adapter against the local CLOB (test/fixtures/venues/polymarket-server.ts),
 * which checks the L1 signature before it gives API credentials, the HMAC of every L2 request and
 * the EIP-712 signature of every order: a buy for USD fills at the book within the agent's
 * slippage and on the tick, signed by the agent key; a sell sells the shares held; the venue's
 * refusals (no funds, a tampered order, a bad HMAC) are its answers, not ours.
 */
import { createL2Headers } from '@polymarket/clob-client';
import { createWalletClient, custom } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPolymarketServer } from '../test/fixtures/venues/polymarket-server.ts';
import type { PolymarketServer } from '../test/fixtures/venues/polymarket-server.ts';
import { createPolymarketClients, createPolymarketVenue, readPolymarketCollateral } from './polymarket.ts';
import { sessionKeysFrom } from './session-keys.ts';
import type { Venue } from './types.ts';

const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const keys = sessionKeysFrom('polymarket-test-secret');
const agentId = 'ag_00000000000000e5';
const trader = keys(agentId).address.toLowerCase();
const session = (id = agentId) => ({ agentId: id, chain: 'polymarket', account: keys(id).address.toLowerCase() as `0x${string}` });
const hooks = (executionId: string) => ({ executionId, onSubmitted: async () => undefined });

let server: PolymarketServer;
let venue: Venue;

beforeAll(async () => {
  server = await startPolymarketServer();
  server.setBook(TOKEN, { bids: [{ price: 0.6, size: 500 }], asks: [{ price: 0.62, size: 100 }, { price: 0.63, size: 1000 }] });
  venue = createPolymarketVenue({ host: server.url, chainId: 137, agentKeyFor: keys });
});
afterAll(async () => server?.close());

describe('polymarket venue: EIP-712 orders and L2 HMAC headers', () => {
  it('an unfunded trading address is refused by the venue with its reason', async () => {
    const q = await venue.quote({ session: session(), token: TOKEN, side: 'buy', usd: 50, maxSlippageBps: 300 });
    expect(await venue.submit(session(), q, hooks('ex_unfunded'))).toMatchObject({ status: 'failed', reason: 'venue_rejected', detail: expect.stringMatching(/not enough balance/) });
    expect(await readPolymarketCollateral(createPolymarketClients({ host: server.url, chainId: 137, agentKeyFor: keys }), agentId)).toBe(0);
  });

  it('a buy for USD is signed by the agent key, recovered by the venue, and fills at the book within the slippage, on the tick', async () => {
    server.fund(trader, 500);
    const q = await venue.quote({ session: session(), token: TOKEN, side: 'buy', usd: 100, maxSlippageBps: 300 });
    // 0.62 x 1.03 = 0.6386, down to the 0.01 tick
    expect(q.order).toEqual({ asset: TOKEN, isBuy: true, size: '100', limitPx: '0.63', reduceOnly: false });
    const submitted: string[] = [];
    const r = await venue.submit(session(), q, { executionId: 'ex_buy', onSubmitted: async (ref) => void submitted.push(ref) });
    expect(r, JSON.stringify(r)).toMatchObject({ status: 'filled' });
    const f = server.fills.at(-1)!;
    expect(f).toMatchObject({ maker: trader, signer: trader, tokenId: TOKEN, side: 'BUY' });
    // 100 shares at 0.62 ($62), then $38 at 0.63
    expect(f.size).toBeCloseTo(100 + 38 / 0.63, 5);
    expect(r).toMatchObject({ orderId: f.orderId, ref: f.orderId });
    // the order's EIP-712 hash is its id: announced as submitted before it was posted
    expect(submitted).toEqual([f.orderId]);
    expect(f.orderId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(server.shares(trader, TOKEN)).toBeCloseTo(f.size, 5);
  });

  it('a sell sells the shares held, at the bid within the slippage', async () => {
    const q = await venue.quote({ session: session(), token: TOKEN, side: 'sell', fraction: 1, maxSlippageBps: 300 });
    expect(q.order).toMatchObject({ isBuy: false, reduceOnly: true, limitPx: '0.59' });
    const r = await venue.submit(session(), q, hooks('ex_sell'));
    expect(r).toMatchObject({ status: 'filled' });
    expect(server.fills.at(-1)).toMatchObject({ side: 'SELL', price: 0.6, signer: trader });
    expect(server.shares(trader, TOKEN)).toBeLessThan(0.01);
  });

  it("an L2 request whose HMAC is not the key's is refused", async () => {
    // credentials the venue gave the agent key (derived again with its L1 signature)
    const signer = createWalletClient({ account: keys(agentId), transport: custom({ request: async () => null }) });
    const { ClobClient } = await import('@polymarket/clob-client');
    const creds = await new ClobClient(server.url, 137, signer).deriveApiKey();
    expect(creds.key).toMatch(/^[0-9a-f-]{36}$/);
    const good = await createL2Headers(signer, creds, { method: 'GET', requestPath: '/balance-allowance' });
    expect((await fetch(`${server.url}/balance-allowance?asset_type=COLLATERAL`, { headers: good as unknown as Record<string, string> })).status).toBe(200);
    const forged = await createL2Headers(signer, { ...creds, secret: Buffer.from('not the secret of this key').toString('base64url') }, { method: 'GET', requestPath: '/balance-allowance' });
    const r = await fetch(`${server.url}/balance-allowance?asset_type=COLLATERAL`, { headers: forged as unknown as Record<string, string> });
    expect(r.status).toBe(401);
    expect(server.refusals.at(-1)).toMatchObject({ path: '/balance-allowance', error: 'Unauthorized/Invalid api key' });
  });

  it('an order whose fields were changed after signing recovers to another signer and is refused', async () => {
    const signer = createWalletClient({ account: keys(agentId), transport: custom({ request: async () => null }) });
    const { ClobClient, OrderType, Side, SignatureType } = await import('@polymarket/clob-client');
    const creds = await new ClobClient(server.url, 137, signer).deriveApiKey();
    const c = new ClobClient(server.url, 137, signer, creds, SignatureType.EOA);
    const signed = await c.createMarketOrder({ tokenID: TOKEN, side: Side.BUY, amount: 10, price: 0.63, orderType: OrderType.FAK }, { tickSize: '0.01', negRisk: false });
    const r = (await c.postOrder({ ...signed, makerAmount: String(Number(signed.makerAmount) * 10) }, OrderType.FAK)) as { error?: string };
    expect(r.error).toBe('invalid signature');
  });
});
