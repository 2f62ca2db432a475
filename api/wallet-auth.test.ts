/**
 * The wallet authorization of the execution relay `/copy/agent/*`, through the real app (fastify
 * inject) over the embedded store: the canonical message, the time window, and the replay guard
 * against every re-encoding of an accepted authorization, concurrent copies and a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashMessage, numberToHex, parseSignature, serializeCompactSignature, serializeSignature, signatureToCompactSignature } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Tables } from '../infra/store/types.ts';
import { accepted, bootRelayApp, detail, refused, relayPartner, relayParts, sendRelay, signRelay } from '../test/e2e/relay.ts';
import type { RelayApp, RelayCall } from '../test/e2e/relay.ts';
import { canonicalAgentMessage, WALLET_AUTH_GUARD_S } from './wallet-auth.ts';
import type { ChainRpcUrls } from './wallet-auth.ts';

const user = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const attacker = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const START = Date.UTC(2026, 10, 22, 12, 0, 0);

let clock = START;
const nowS = () => Math.floor(clock / 1000);

type Call = Omit<RelayCall, 'wallet' | 'timestamp'> & Partial<Pick<RelayCall, 'wallet' | 'timestamp'>>;
/** the user's wallet and the clock's time unless the call says otherwise */
const full = (c: Call): RelayCall => ({ wallet: user.address, timestamp: nowS(), ...c });
const parts = (c: Call) => relayParts(full(c));
const sign = (c: Call, by: PrivateKeyAccount = user) => signRelay(full(c), by);
const send = (app: FastifyInstance, key: string, c: Call, signature: string, url?: string) => sendRelay(app, key, full(c), signature, url);
const boot = (dir: string, rpcUrls?: ChainRpcUrls) => bootRelayApp(dir, { now: () => clock, rpcUrls });
const partner = relayPartner;

/** the same signature with v as 00/01 instead of 1b/1c */
function vReencoded(sig: Hex): Hex {
  const v = sig.slice(-2);
  return `${sig.slice(0, -2)}${v === '1b' ? '00' : v === '1c' ? '01' : v}` as Hex;
}

/** the high-s twin: s' = n - s and the other y parity; recovers the same signer */
function highSTwin(sig: Hex): Hex {
  const { r, s, yParity } = parseSignature(sig);
  return serializeSignature({ r, s: numberToHex(N - BigInt(s), { size: 32 }), yParity: yParity === 0 ? 1 : 0 });
}

describe('wallet authorization of the execution relay', () => {
  let dir: string;
  let booted: RelayApp;
  let a: { org: string; key: string };

  beforeEach(async () => {
    clock = START;
    dir = mkdtempSync(join(tmpdir(), 'wallet-auth-'));
    booted = await boot(dir);
    a = await partner(booted.keys, 'partner-a');
  });
  afterEach(async () => {
    await booted.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('same signature re-sent: accepted once, then refused as a replay', async () => {
    const c = { partner: a.org };
    const sig = await sign(c);
    const first = await send(booted.app, a.key, c, sig);
    expect(accepted(first)).toBe(true);
    const again = await send(booted.app, a.key, c, sig);
    expect(refused(again)).toBe(true);
    expect(detail(again)).toMatch(/accepted already/);
    // the guard is in the store, keyed on the message's EIP-191 hash
    const row = await booted.store.get(Tables.walletAuthGuard, hashMessage(canonicalAgentMessage(parts(c))));
    expect(JSON.parse(row!.body)).toMatchObject({ state: 'accepted', wallet: user.address.toLowerCase(), partner: a.org });
    expect(row!.expiresAt).toBe((nowS() + WALLET_AUTH_GUARD_S) * 1000);
  });

  it('v byte re-encoded 1b -> 00: the same message hash, refused as a replay', async () => {
    // a body whose signature has v = 1b (signing is deterministic, so look for one)
    let c: Call = { partner: a.org };
    let sig = await sign(c);
    for (let i = 0; !sig.endsWith('1b'); i++) {
      c = { partner: a.org, body: JSON.stringify({ limit: 1 + (i % 100), ...(i >= 100 ? { state: 'active' } : {}) }) };
      sig = await sign(c);
    }
    expect(accepted(await send(booted.app, a.key, c, sig))).toBe(true);
    const replay = await send(booted.app, a.key, c, vReencoded(sig));
    expect(refused(replay)).toBe(true);
    expect(detail(replay)).toMatch(/accepted already/);
    // the 00 form is a valid encoding: sent first for another message, it is the one accepted
    const other = { partner: a.org, body: '{"state":"paused","limit":2}' };
    const otherSig = await sign(other);
    expect(accepted(await send(booted.app, a.key, other, vReencoded(otherSig)))).toBe(true);
    expect(refused(await send(booted.app, a.key, other, otherSig))).toBe(true);
  });

  it('the compact (EIP-2098) form of an accepted signature is refused as a replay', async () => {
    const c = { partner: a.org };
    const sig = await sign(c);
    expect(accepted(await send(booted.app, a.key, c, sig))).toBe(true);
    const compact = serializeCompactSignature(signatureToCompactSignature(parseSignature(sig)));
    expect(compact.length).toBe(2 + 128);
    const replay = await send(booted.app, a.key, c, compact);
    expect(refused(replay)).toBe(true);
    expect(detail(replay)).toMatch(/accepted already/);
  });

  it('the high-s twin of a valid signature is refused, before and after the original, and locks nothing', async () => {
    const c = { partner: a.org };
    const sig = await sign(c);
    const twin = highSTwin(sig);
    const first = await send(booted.app, a.key, c, twin);
    expect(refused(first)).toBe(true);
    expect(detail(first)).toMatch(/high s/);
    // the refused twin reserved nothing: the low-s original is accepted
    expect(accepted(await send(booted.app, a.key, c, sig))).toBe(true);
    const after = await send(booted.app, a.key, c, twin);
    expect(refused(after)).toBe(true);
    // its v re-encoded too
    expect(refused(await send(booted.app, a.key, c, vReencoded(twin)))).toBe(true);
  });

  it('30 identical requests at once: exactly one accepted', async () => {
    const c = { partner: a.org };
    const sig = await sign(c);
    const answers = await Promise.all(Array.from({ length: 30 }, () => send(booted.app, a.key, c, sig)));
    expect(answers.filter(accepted)).toHaveLength(1);
    expect(answers.filter((r) => refused(r))).toHaveLength(29);
  });

  it('30 copies at once in mixed encodings (1b, 00, compact): exactly one accepted', async () => {
    const c = { partner: a.org, body: '{"state":"paused","limit":3}' };
    const sig = await sign(c);
    const forms = [sig, vReencoded(sig), serializeCompactSignature(signatureToCompactSignature(parseSignature(sig)))];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => send(booted.app, a.key, c, forms[i % 3]!)));
    expect(answers.filter(accepted)).toHaveLength(1);
    expect(answers.filter((r) => refused(r))).toHaveLength(29);
  });

  it('a replay after a restart of the app over the same data dir is refused (the guard is in the store)', async () => {
    const c = { partner: a.org };
    const sig = await sign(c);
    expect(accepted(await send(booted.app, a.key, c, sig))).toBe(true);
    await booted.close();
    booted = await boot(dir);
    const replay = await send(booted.app, a.key, c, sig);
    expect(refused(replay)).toBe(true);
    expect(detail(replay)).toMatch(/accepted already/);
    expect(refused(await send(booted.app, a.key, c, vReencoded(sig)))).toBe(true);
    // a new authorization of the same wallet still works after the restart
    clock += 1000;
    const fresh = { partner: a.org };
    expect(accepted(await send(booted.app, a.key, fresh, await sign(fresh)))).toBe(true);
  });

  it('the signed request with an unsigned query string added is refused; a signed query is accepted', async () => {
    const c = { partner: a.org };
    const sig = await sign(c);
    const added = await send(booted.app, a.key, c, sig, '/v1/copy/agent/list?dryRun=0');
    expect(refused(added)).toBe(true);
    expect(detail(added)).toMatch(/not the wallet’s signature/);
    // the failed attempt released its reservation: the request as signed is accepted
    expect(accepted(await send(booted.app, a.key, c, sig))).toBe(true);
    const withQuery = { partner: a.org, path: '/copy/agent/list', query: 'agent=ag_1&verbose=1' };
    const qsig = await sign(withQuery);
    expect(refused(await send(booted.app, a.key, withQuery, qsig, '/v1/copy/agent/list?agent=ag_1&verbose=1&extra=1'))).toBe(true);
    expect(refused(await send(booted.app, a.key, withQuery, qsig, '/v1/copy/agent/list'))).toBe(true);
    expect(accepted(await send(booted.app, a.key, withQuery, qsig))).toBe(true);
    // the legacy base signs the same path: it is the same authorization
    expect(refused(await send(booted.app, a.key, withQuery, qsig, '/api/v1/copy/agent/list?agent=ag_1&verbose=1'))).toBe(true);
  });

  it('a timestamp 301 s old and one 31 s ahead: 401 wallet_auth_expired; 300 s old and 30 s ahead pass', async () => {
    for (const timestamp of [nowS() - 301, nowS() + 31]) {
      const c = { partner: a.org, timestamp };
      const r = await send(booted.app, a.key, c, await sign(c));
      expect(refused(r, 'wallet_auth_expired')).toBe(true);
    }
    for (const timestamp of [nowS() - 300, nowS() + 30]) {
      const c = { partner: a.org, timestamp };
      expect(accepted(await send(booted.app, a.key, c, await sign(c)))).toBe(true);
    }
  });

  it("another partner's key with the same signature is refused (the partner is in the message)", async () => {
    const b = await partner(booted.keys, 'partner-b');
    const c = { partner: a.org };
    const sig = await sign(c);
    const other = await send(booted.app, b.key, c, sig);
    expect(refused(other)).toBe(true);
    expect(detail(other)).toMatch(/not the wallet’s signature/);
    // partner A's request, sent after, is accepted once
    expect(accepted(await send(booted.app, a.key, c, sig))).toBe(true);
    expect(refused(await send(booted.app, b.key, c, sig))).toBe(true);
  });

  it('a forged signature of the same message, sent before or with the real one, does not lock the user out', async () => {
    const c = { partner: a.org };
    const forged = await sign(c, attacker);
    const real = await sign(c);
    expect(refused(await send(booted.app, a.key, c, forged))).toBe(true);
    const [f, r] = await Promise.all([send(booted.app, a.key, { ...c }, forged), send(booted.app, a.key, c, real)]);
    expect(refused(f)).toBe(true);
    expect(accepted(r)).toBe(true);
    // and once the real one is accepted, nothing is accepted again for that message
    expect(refused(await send(booted.app, a.key, c, forged))).toBe(true);
    expect(refused(await send(booted.app, a.key, c, real))).toBe(true);
  });

  it('missing or malformed headers answer wallet_auth_required; no key answers invalid_api_key', async () => {
    const none = await booted.app.inject({ method: 'POST', url: '/v1/copy/agent/list', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: 'invalid_api_key' });
    const bare = await booted.app.inject({ method: 'POST', url: '/v1/copy/agent/list', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, payload: '{}' });
    expect(refused(bare)).toBe(true);
    const c = { partner: a.org };
    const sig = await sign(c);
    expect(refused(await send(booted.app, a.key, c, sig.slice(0, -1)))).toBe(true);
    expect(refused(await send(booted.app, a.key, { ...c, wallet: user.address.replace(/[a-f]/, (x) => x.toUpperCase()) as Hex }, sig))).toBe(true);
  });

  it('a contract wallet without its chain RPC gets a clear 401; with the RPC down it is a 503 and the EOA path never calls it', async () => {
    const contractWallet = '0x00000000000000000000000000000000deadbeef' as Hex;
    const c = { partner: a.org, wallet: contractWallet };
    const sig = await sign(c);
    const r = await send(booted.app, a.key, c, sig);
    expect(refused(r)).toBe(true);
    expect(detail(r)).toMatch(/smart-contract wallet.*RPC_URL_<CHAIN>/);
    const onDevnet = { ...c, body: '{"chain":"devnet"}' };
    expect(detail(await send(booted.app, a.key, onDevnet, await sign(onDevnet)))).toMatch(/RPC_URL_DEVNET/);

    // an RPC that does not answer: EOAs verify without it, a contract wallet's check is a 503
    await booted.close();
    booted = await boot(dir, { devnet: 'http://127.0.0.1:9' });
    const eoa = { partner: a.org, body: '{"state":"paused","limit":4}' };
    expect(accepted(await send(booted.app, a.key, eoa, await sign(eoa)))).toBe(true);
    const down = await send(booted.app, a.key, c, sig);
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ error: 'execution_unavailable' });
  });

  it('the relay is keyed and rate limited like the operations: rate headers on its answers, 429 past the plan', async () => {
    const c = { partner: a.org };
    const r = await send(booted.app, a.key, c, await sign(c));
    expect(accepted(r)).toBe(true);
    expect(r.headers['x-ratelimit-limit']).toBe('60');
    expect(r.headers['x-ratelimit-remaining']).toBe('59');
    const answers = [];
    for (let i = 0; i < 60; i++) {
      answers.push(await booted.app.inject({ method: 'POST', url: '/v1/copy/agent/list', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, payload: '{}' }));
    }
    expect(answers.slice(0, 59).every((x) => refused(x))).toBe(true);
    expect(answers[59]!.statusCode).toBe(429);
    expect(answers[59]!.json()).toMatchObject({ error: 'rate_limited' });
  });

  it('guard entries expire after the acceptance window and are dropped from the store', async () => {
    const c = { partner: a.org, timestamp: nowS() };
    const hash = hashMessage(canonicalAgentMessage(parts(c)));
    const sig = await sign(c);
    expect(accepted(await send(booted.app, a.key, c, sig))).toBe(true);
    expect(await booted.store.get(Tables.walletAuthGuard, hash)).toBeDefined();
    // past the window (and the sweep interval) a later request sweeps the table
    clock += (WALLET_AUTH_GUARD_S + 61) * 1000;
    const later = { partner: a.org, body: '{"state":"paused","limit":5}' };
    expect(accepted(await send(booted.app, a.key, later, await sign(later)))).toBe(true);
    await vi.waitFor(async () => expect(await booted.store.get(Tables.walletAuthGuard, hash)).toBeUndefined());
    expect(await booted.store.get(Tables.walletAuthGuard, hashMessage(canonicalAgentMessage(parts(later))))).toBeDefined();
    // the old message can never validate again: its timestamp is out of the window
    const stale = await send(booted.app, a.key, c, sig);
    expect(refused(stale, 'wallet_auth_expired')).toBe(true);
  });
});
