import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { Tables } from '../../infra/store/types.ts';
import { consoleAppPerTest, tokenOf } from '../../test/console-client.ts';

const { boot, open } = consoleAppPerTest();

describe('partner console: sign-in by SIWE or e-mail link, sessions and CSRF (HTTP)', () => {
  it('a first SIWE sign-in creates a sandbox organisation and its owner; the next one signs in to it', async () => {
    const c = await boot();
    const account = privateKeyToAccount(generatePrivateKey());
    const b = c.browser();
    const first = await b.signInWithWallet(account);
    expect(first.status).toBe(200);
    expect(first.json.created).toBe(true);
    const session = first.setCookies.find((s) => s.startsWith('console_session='));
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).toMatch(/Path=\/console/);
    // plain http here: not Secure
    expect(session).not.toMatch(/Secure/);
    const me = await b.call('GET', '/console/api/me');
    expect(me.status).toBe(200);
    expect(me.json.member).toMatchObject({ role: 'owner', identity: `wallet:${account.address.toLowerCase()}` });
    expect(me.json.org).toMatchObject({ live: false, plan: 'sandbox' });

    const again = await c.browser().signInWithWallet(account);
    expect(again.status).toBe(200);
    expect(again.json.created).toBe(false);
    expect((again.json.org as { orgId: string }).orgId).toBe((me.json.org as { orgId: string }).orgId);
  });

  it('refuses a replayed SIWE nonce, a message for another domain and a signature by another wallet', async () => {
    const c = await boot();
    const account = privateKeyToAccount(generatePrivateKey());
    const b = c.browser();
    const signed = await b.siweSigned(account);
    expect((await b.call('POST', '/console/api/siwe/verify', signed)).status).toBe(200);
    const elsewhere0 = c.browser();
    const replay = await elsewhere0.call('POST', '/console/api/siwe/verify', signed, { csrf: await elsewhere0.fetchCsrf() });
    expect(replay.status).toBe(401);
    expect(replay.json.error).toBe('signin_failed');
    expect(replay.json.detail).toMatch(/nonce/);

    const other = privateKeyToAccount(generatePrivateKey());
    const fresh = await b.siweSigned(account);
    const forgedSig = await other.signMessage({ message: fresh.message });
    const wrong = await b.call('POST', '/console/api/siwe/verify', { message: fresh.message, signature: forgedSig });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('signin_failed');

    const phish = await b.siweSigned(account);
    const elsewhere = phish.message.replace(/^[^ ]+ wants you/, 'evil.example wants you');
    const r = await b.call('POST', '/console/api/siwe/verify', { message: elsewhere, signature: await account.signMessage({ message: elsewhere }) });
    expect(r.status).toBe(401);
    expect(r.json.detail).toMatch(/evil\.example/);
  });

  it('refuses state changes with a forged, missing or another browser\'s CSRF token', async () => {
    const c = await boot();
    const b = c.browser();
    expect((await b.signInWithWallet(privateKeyToAccount(generatePrivateKey()))).status).toBe(200);
    for (const csrf of ['forged-token', null]) {
      const r = await b.call('POST', '/console/api/keys/create', {}, { csrf });
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ error: 'csrf_invalid', detail: expect.any(String) });
    }
    const other = c.browser();
    const foreign = await other.fetchCsrf();
    // the token is bound to its browser's secret cookie: another browser's does not do
    if (foreign !== b.csrf) expect((await b.call('POST', '/console/api/keys/create', {}, { csrf: foreign })).status).toBe(403);
    expect((await b.call('POST', '/console/api/keys/create', {})).status).toBe(200);
    // a sign-in is a state change too
    expect((await c.browser().call('POST', '/console/api/email/start', { email: 'a@b.co' }, { csrf: 'x' })).status).toBe(403);
  });

  it('keys: created once in plaintext, listed by prefix and last four, usable on the API; going live revokes them and live keys are minted', async () => {
    const c = await boot();
    const b = c.browser();
    await b.signInWithWallet(privateKeyToAccount(generatePrivateKey()));
    const made = await b.call('POST', '/console/api/keys/create', { name: 'backend' });
    expect(made.status).toBe(200);
    const plaintext = made.json.plaintext as string;
    expect(plaintext).toMatch(/^key_test_[A-Za-z0-9]{38}$/);
    const list = await b.call('GET', '/console/api/keys');
    const listed = (list.json.keys as { prefix: string; lastFour: string; name: string; lastUsed: string | null }[])[0];
    expect(listed).toMatchObject({ prefix: plaintext.slice(0, 13), lastFour: plaintext.slice(-4), name: 'backend', lastUsed: null });
    expect(JSON.stringify(list.json)).not.toContain(plaintext);

    const call = () => fetch(`${c.url}/v1/probe`, { method: 'POST', headers: { authorization: `Bearer ${plaintext}`, 'content-type': 'application/json' }, body: '{}' });
    expect((await call()).status).toBe(200);
    const usage = await b.call('GET', '/console/api/usage');
    expect(usage.json).toMatchObject({ unitsToday: 1, byOperation: { probe: 1 }, plan: 'sandbox', ratePerMinute: 60, dailyUnitsPerKey: 10_000 });
    expect(usage.json.days).toHaveLength(14);
    expect(((await b.call('GET', '/console/api/keys')).json.keys as { lastUsed: string }[])[0]?.lastUsed).toBe(usage.json.day);

    const live = await b.call('POST', '/console/api/golive', { acceptTerms: true });
    expect(live.status).toBe(200);
    expect(live.json).toMatchObject({ live: true, revokedSandboxKeys: 1 });
    expect((await call()).status).toBe(401);
    const again = await b.call('POST', '/console/api/golive', { acceptTerms: true });
    expect(again.json.error).toBe('invalid_state');
    const liveKey = await b.call('POST', '/console/api/keys/create', {});
    expect(liveKey.json.plaintext).toMatch(/^key_live_[A-Za-z0-9]{38}$/);
    const r = await fetch(`${c.url}/v1/probe`, { method: 'POST', headers: { authorization: `Bearer ${liveKey.json.plaintext as string}`, 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBe('30');
  });

  it('keys: last used is the newest day billed within 14 days, from the store before today (a revoked key too)', async () => {
    const c = await boot();
    const b = c.browser();
    await b.signInWithWallet(privateKeyToAccount(generatePrivateKey()));
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    // keys as minted days ago: written back with an older creation (and a revocation) through the store
    const minted: { keyId: string; orgId: string; createdAt: string; revokedAt?: string }[] = [];
    for (const [created, revoked] of [[5, undefined], [9, 6], [12, undefined]] as const) {
      const made = await b.call('POST', '/console/api/keys/create', {});
      const key = made.json.key as { keyId: string };
      const row = await c.t.store.get(Tables.apiKeys, key.keyId);
      const body = { ...(JSON.parse(row!.body) as { orgId: string }), createdAt: daysAgo(created), ...(revoked ? { revokedAt: daysAgo(revoked) } : {}) };
      await c.t.store.upsert(Tables.apiKeys, [{ key: key.keyId, version: row!.version + 1, body: JSON.stringify(body) }]);
      minted.push({ keyId: key.keyId, ...body });
    }
    const [recent, revoked, idle] = minted as [(typeof minted)[0], (typeof minted)[0], (typeof minted)[0]];
    const bill = (keyId: string, n: number) => ({ day: daysAgo(n).slice(0, 10), keyId, orgId: recent.orgId, operation: 'probe', units: 1, requests: 1, id: `${keyId}-${n}` });
    await c.t.store.addUsage([bill(recent.keyId, 4), bill(recent.keyId, 2), bill(revoked.keyId, 8), bill(revoked.keyId, 7)]);
    const keys = (await b.call('GET', '/console/api/keys')).json.keys as { keyId: string; lastUsed: string | null }[];
    const lastUsed = Object.fromEntries(keys.map((k) => [k.keyId, k.lastUsed]));
    expect(lastUsed).toEqual({ [recent.keyId]: daysAgo(2).slice(0, 10), [revoked.keyId]: daysAgo(7).slice(0, 10), [idle.keyId]: null });
    const usage = (await b.call('GET', '/console/api/usage')).json.days as { day: string; units: number }[];
    expect(usage.filter((d) => d.units > 0).map((d) => d.day)).toEqual([8, 7, 4, 2].map((n) => daysAgo(n).slice(0, 10)));
  });

  it("keys: a revoked key is refused by the API and listed as revoked; another organisation's key is not found", async () => {
    const c = await boot();
    const b = c.browser();
    await b.signInWithWallet(privateKeyToAccount(generatePrivateKey()));
    const made = await b.call('POST', '/console/api/keys/create', {});
    const keyId = (made.json.key as { keyId: string }).keyId;
    const other = c.browser();
    await other.signInWithWallet(privateKeyToAccount(generatePrivateKey()));
    const foreign = await other.call('POST', '/console/api/keys/revoke', { keyId });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error).toBe('not_found');
    expect((await other.call('POST', '/console/api/keys/revoke', { keyId: 'f'.repeat(64) })).json.error).toBe('not_found');

    const revoked = await b.call('POST', '/console/api/keys/revoke', { keyId });
    expect(revoked.json).toEqual({ keyId, revoked: true });
    const call = await fetch(`${c.url}/v1/probe`, { method: 'POST', headers: { authorization: `Bearer ${made.json.plaintext as string}`, 'content-type': 'application/json' }, body: '{}' });
    expect(call.status).toBe(401);
    expect((await b.call('POST', '/console/api/keys/revoke', { keyId })).json.error).toBe('invalid_state');
    const listed = (await b.call('GET', '/console/api/keys')).json.keys as { keyId: string; revokedAt: string | null }[];
    expect(listed).toEqual([expect.objectContaining({ keyId, revokedAt: expect.any(String) })]);
  });

  it('go live needs the terms accepted, and only the owner; a member invited by e-mail accepts, signed in by link, and is refused', async () => {
    const c = await boot();
    const owner = c.browser();
    await owner.signInWithEmail('Owner@Example.com', c.mailbox);
    const noTerms = await owner.call('POST', '/console/api/golive', {});
    expect(noTerms.status).toBe(400);
    expect(noTerms.json).toEqual({ error: 'invalid_param', detail: "'acceptTerms': the pricing and terms must be accepted (true)" });
    const invited = await owner.call('POST', '/console/api/members/invite', { identity: 'dev@example.com' });
    expect(invited.status).toBe(200);

    // an invitation counts once accepted: the first sign-in is the invitee's own organisation
    const member = c.browser();
    const signed = await member.signInWithEmail('dev@example.com', c.mailbox);
    expect(signed.status).toBe(200);
    expect(signed.json).toMatchObject({ created: true, member: { role: 'owner' } });
    const inviteId = ((await member.call('GET', '/console/api/invitations')).json.invitations as { inviteId: string }[])[0]?.inviteId;
    const accepted = await member.call('POST', '/console/api/invitations/accept', { inviteId });
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ member: { role: 'member' }, org: { orgId: ((await owner.call('GET', '/console/api/me')).json.org as { orgId: string }).orgId } });
    const refused = await member.call('POST', '/console/api/golive', { acceptTerms: true });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe('forbidden');
    expect((await member.call('GET', '/console/api/audit')).status).toBe(403);
    expect((await member.call('POST', '/console/api/members/invite', { identity: 'x@example.com' })).status).toBe(403);
    // a member does create keys
    expect((await member.call('POST', '/console/api/keys/create', {})).status).toBe(200);
    expect((await owner.call('GET', '/console/api/me')).json.org).toMatchObject({ live: false });

    const audit = await owner.call('GET', '/console/api/audit');
    const actions = (audit.json.entries as { action: string; actor: { identity: string } }[]).map((e) => `${e.action} ${e.actor.identity}`);
    expect(actions).toEqual([
      'key.created email:dev@example.com',
      'session.signed_in email:dev@example.com',
      'member.joined email:dev@example.com',
      'member.invited email:owner@example.com',
      'session.signed_in email:owner@example.com',
      'org.created email:owner@example.com',
    ]);
  });

  it('an e-mail link works once', async () => {
    const c = await boot();
    const b = c.browser();
    await b.fetchCsrf();
    await b.call('POST', '/console/api/email/start', { email: 'once@example.com' });
    const token = tokenOf(c.mailbox.last('once@example.com'));
    expect((await b.call('POST', '/console/api/email/verify', { token })).status).toBe(200);
    const other = c.browser();
    const again = await other.call('POST', '/console/api/email/verify', { token }, { csrf: await other.fetchCsrf() });
    expect(again.status).toBe(401);
    expect(again.json.error).toBe('signin_failed');
  });

  it('sessions are revocable and kept across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-restart-'));
    try {
      const c = await boot({ dir, keepDir: true });
      const a = c.browser();
      const b = c.browser();
      await a.signInWithEmail('r@example.com', c.mailbox);
      await b.signInWithEmail('r@example.com', c.mailbox);
      const sessions = (await a.call('GET', '/console/api/sessions')).json.sessions as { sessionId: string; current: boolean }[];
      expect(sessions).toHaveLength(2);
      const bs = sessions.find((s) => !s.current)?.sessionId;
      expect((await a.call('POST', '/console/api/sessions/revoke', { sessionId: bs })).status).toBe(200);
      const gone = await b.call('GET', '/console/api/me');
      expect(gone.status).toBe(401);
      expect(gone.json.error).toBe('signin_required');

      const made = await a.call('POST', '/console/api/keys/create', {});
      await open.splice(0)[0]?.t.close();
      const restarted = await boot({ dir, keepDir: true });
      const a2 = restarted.browser();
      for (const [k, v] of a.cookies) a2.cookies.set(k, v);
      a2.csrf = a.csrf;
      const me = await a2.call('GET', '/console/api/me');
      expect(me.status).toBe(200);
      const keys = (await a2.call('GET', '/console/api/keys')).json.keys as { lastFour: string }[];
      expect(keys.map((k) => k.lastFour)).toEqual([(made.json.plaintext as string).slice(-4)]);
      expect((await a2.call('POST', '/console/api/signout', {})).status).toBe(200);
      expect((await a2.call('GET', '/console/api/me')).status).toBe(401);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers bad input with the API error shape, limits sign-in attempts per address, and stays out of the catalog', async () => {
    const c = await boot({ signInPerMinute: 4 });
    const b = c.browser();
    await b.fetchCsrf();
    const bad = await b.call('POST', '/console/api/email/start', undefined, { rawBody: '{nope' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'invalid_param', detail: expect.any(String) });
    const unknown = await b.call('POST', '/console/api/email/start', { email: 'a@b.co', admin: true });
    expect(unknown.json.error).toBe('unknown_param');
    expect((await b.call('POST', '/console/api/email/start', { email: 'a@b.co' })).status).toBe(200);
    const wrongEmail = await b.call('POST', '/console/api/email/start', { email: 'nope' });
    expect(wrongEmail.json).toEqual({ error: 'invalid_param', detail: "'email': must be an e-mail address" });
    const limited = await b.call('POST', '/console/api/email/start', { email: 'a@b.co' });
    expect(limited.status).toBe(429);
    expect(limited.json.error).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    const signedOut = await c.browser().call('GET', '/console/api/keys');
    expect(signedOut.json).toEqual({ error: 'signin_required', detail: expect.any(String) });
    const catalog = (await (await fetch(`${c.url}/v1/`)).json()) as { endpoints: { path: string }[] };
    expect(catalog.endpoints.some((e) => e.path.includes('console'))).toBe(false);
    const page = await fetch(`${c.url}/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const missing = await fetch(`${c.url}/console/api/nothing`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toBe('not_found');
  });
});
