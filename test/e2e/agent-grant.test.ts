/**
 * What the user signs to create an agent, through the real app (the relay over the embedded
 * store): EIP-712 typed data a wallet shows field by field (venue, chain, leader, caps, limits,
 * expiry, session key), which `/copy/agent-grant` answers for the body, the wallet and the
 * X-Auth-Timestamp, and whose signature is the creation's X-Wallet-Signature. A signature of
 * another grant (other caps, another leader, another limit, another timestamp), the canonical
 * EIP-191 message of the body, or a replay creates nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashTypedData, recoverTypedDataAddress } from 'viem';
import type { TypedDataDefinition } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootRelayApp, detail, grantOf, refused, relayPartner, sendRelay, signRelay } from './relay.ts';
import type { RelayApp, RelayCall } from './relay.ts';

const user = privateKeyToAccount(generatePrivateKey());
const leader = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
const otherLeader = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();

let dir: string;
let relay: RelayApp;
let partner: { org: string; key: string };
let ts = Math.floor(Date.now() / 1000) - 200;

// one expiry for the file: a limits() taken a second later must describe the same grant
const expiresAt = Math.floor(Date.now() / 1000) + 7 * 86_400;
const limits = () => ({ maxNotionalUsd: 250, dailyCapUsd: 1000, maxOpenPositions: 4, maxSlippageBps: 80, minLeaderGrade: 'unrated', allow: ['0x00000000000000000000000000000000000000a1'], expiresAt });
const body = (over: Record<string, unknown> = {}) => ({ venue: 'evm-spot', chain: 'devnet', leader, spendCapNative: '0.25', limits: limits(), ...over });
/** a creation call of `b`, signed at its own timestamp (each creation of a wallet signs its own) */
const createCall = (b: unknown): RelayCall => ({ partner: partner.org, wallet: user.address, timestamp: (ts += 1), path: '/copy/agent/create', body: JSON.stringify(b) });
const signGrant = async (c: RelayCall) => user.signTypedData((await grantOf(relay.app, partner.key, c)) as Parameters<typeof user.signTypedData>[0]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-grant-'));
  relay = await bootRelayApp(dir);
  partner = await relayPartner(relay.keys, 'grant-partner');
});
afterAll(async () => {
  await relay?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('agent creation is authorized with EIP-712 typed data a wallet shows field by field', () => {
  it("the grant reads back as a wallet shows it, and its signature creates the agent it describes", async () => {
    const c = createCall(body());
    const typed = await grantOf(relay.app, partner.key, c);
    // what eth_signTypedData_v4 shows: the domain, then the message's fields one by one
    expect(typed.domain).toEqual({ name: 'intel-agent-api', version: '1' });
    expect(typed.primaryType).toBe('AgentGrant');
    const fields = (typed.types as unknown as Record<string, { name: string }[]>).AgentGrant!.map((f) => f.name);
    expect(fields).toEqual(expect.arrayContaining(['venue', 'chain', 'leader', 'account', 'sessionKey', 'caps', 'maxNotionalUsd', 'dailyCapUsd', 'expiresAt', 'timestamp']));
    expect(typed.message).toMatchObject({
      partner: partner.org,
      venue: 'evm-spot',
      chain: 'devnet',
      mode: 'paper',
      leader,
      account: user.address.toLowerCase(),
      // a sandbox key's agent is paper: no session key exists, and the grant says so
      sessionKey: '0x0000000000000000000000000000000000000000',
      caps: [{ asset: 'native', amount: '0.25' }],
      maxNotionalUsd: '250',
      dailyCapUsd: '1000',
      maxOpenPositions: 4,
      maxSlippageBps: 80,
      allow: ['0x00000000000000000000000000000000000000a1'],
      deny: [],
      expiresAt: limits().expiresAt,
      timestamp: c.timestamp,
    });
    const signature = await user.signTypedData(typed as Parameters<typeof user.signTypedData>[0]);
    expect(await recoverTypedDataAddress({ ...(typed as TypedDataDefinition), signature })).toBe(user.address);
    const r = await sendRelay(relay.app, partner.key, c, signature);
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json() as { agent: unknown }).agent).toMatchObject({ venue: 'evm-spot', chain: 'devnet', leader, mode: 'paper', limits: { maxNotionalUsd: 250, expiresAt: limits().expiresAt } });
    // accepted once: the same signed creation again is refused
    expect(refused(await sendRelay(relay.app, partner.key, c, signature))).toBe(true);
  });

  it('stablecoin caps are in the grant the wallet shows, one cap per token in its base units', async () => {
    const usdc = '0x00000000000000000000000000000000000000c6';
    const typed = await grantOf(relay.app, partner.key, createCall(body({ stableCaps: [{ token: usdc, cap: '50000000' }] })));
    expect((typed.message as { caps: unknown }).caps).toEqual([{ asset: 'native', amount: '0.25' }, { asset: usdc, amount: '50000000' }]);
    const twice = await relay.app.inject({
      method: 'POST', url: '/v1/copy/agent-grant', headers: { authorization: `Bearer ${partner.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ ...body({ stableCaps: [{ token: usdc, cap: '1' }, { token: usdc, cap: '2' }] }), wallet: user.address, timestamp: ts }),
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ error: 'invalid_param' });
  });

  it('an attacker holding a signed grant who sends other caps, another leader or another limit with it is refused', async () => {
    const stable = [{ token: '0x00000000000000000000000000000000000000c6', cap: '1000000000' }];
    for (const changed of [body({ spendCapNative: '5' }), body({ stableCaps: stable }), body({ leader: otherLeader }), body({ limits: { ...limits(), maxNotionalUsd: 10_000, dailyCapUsd: 10_000 } }), body({ chain: 'sim' })]) {
      const signedFor = createCall(body());
      const signature = await signGrant(signedFor);
      const r = await sendRelay(relay.app, partner.key, { ...signedFor, body: JSON.stringify(changed) }, signature);
      expect(refused(r), r.body).toBe(true);
      expect(detail(r), JSON.stringify(changed)).toMatch(/EIP-712 signature of this agent grant/);
    }
  });

  it('a grant signed for another timestamp, or the canonical EIP-191 message of the body, creates nothing', async () => {
    const c = createCall(body());
    const later = { ...c, timestamp: c.timestamp + 1 };
    expect(refused(await sendRelay(relay.app, partner.key, later, await signGrant(c)))).toBe(true);
    // what a wallet would show as a hash: no longer an agent's authorization
    const personal = await sendRelay(relay.app, partner.key, c, await signRelay(c, user));
    expect(refused(personal)).toBe(true);
    const listed = await sendRelay(relay.app, partner.key, { partner: partner.org, wallet: user.address, timestamp: (ts += 1) }, await signRelay({ partner: partner.org, wallet: user.address, timestamp: ts }, user));
    expect((listed.json() as { agents: unknown[] }).agents).toHaveLength(1);
  });

  it("another wallet's signature of the grant, missing headers and a stale timestamp are refused with the spec's codes", async () => {
    const c = createCall(body());
    const stranger = privateKeyToAccount(generatePrivateKey());
    const typed = await grantOf(relay.app, partner.key, c);
    expect(refused(await sendRelay(relay.app, partner.key, c, await stranger.signTypedData(typed as Parameters<typeof user.signTypedData>[0])))).toBe(true);
    const stale = { ...c, timestamp: c.timestamp - 400 };
    expect(refused(await sendRelay(relay.app, partner.key, stale, await signGrant(c).catch(() => '0x00')), 'wallet_auth_expired')).toBe(true);
    const bare = await relay.app.inject({ method: 'POST', url: '/v1/copy/agent/create', headers: { authorization: `Bearer ${partner.key}`, 'content-type': 'application/json' }, payload: c.body });
    expect(refused(bare)).toBe(true);
    // the grant of a body the API refuses says why, as the create would
    const bad = await relay.app.inject({ method: 'POST', url: '/v1/copy/agent-grant', headers: { authorization: `Bearer ${partner.key}`, 'content-type': 'application/json' }, payload: JSON.stringify({ ...body({ leader: user.address.toLowerCase() }), wallet: user.address, timestamp: c.timestamp }) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'invalid_param' });
    // what the wallet signed is the typed data's EIP-712 hash, not a body's SHA-256
    expect(hashTypedData(typed)).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
