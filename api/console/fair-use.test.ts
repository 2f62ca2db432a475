import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { consoleAppPerTest } from '../../test/console-client.ts';
import type { ConsoleRates } from './limits.ts';

const { boot } = consoleAppPerTest();

const signedIn = async (c: Awaited<ReturnType<typeof boot>>) => {
  const b = c.browser();
  expect((await b.signInWithWallet(privateKeyToAccount(generatePrivateKey()))).status).toBe(200);
  return b;
};

describe('fair use: a cap on the keys an organisation holds', () => {
  it('key-flood: keys past the cap answer 409 key_limit; revoked keys do not count; another organisation is not affected', async () => {
    const c = await boot({ settings: { keysPerOrg: { sandbox: 3, live: 4 } } });
    const b = await signedIn(c);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await b.call('POST', '/console/api/keys/create', { name: `k${i}` });
      expect(r.status).toBe(200);
      made.push((r.json.key as { keyId: string }).keyId);
    }
    const refused = await b.call('POST', '/console/api/keys/create', {});
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({ error: 'key_limit', detail: 'the organisation holds 3 active keys and its cap is 3: revoke one to create another' });
    expect((await b.call('GET', '/console/api/keys')).json.cap).toEqual({ active: 3, max: 3 });

    expect((await b.call('POST', '/console/api/keys/revoke', { keyId: made[0] })).status).toBe(200);
    expect((await b.call('POST', '/console/api/keys/create', {})).status).toBe(200);
    expect((await b.call('POST', '/console/api/keys/create', {})).status).toBe(409);

    const other = await signedIn(c);
    expect((await other.call('POST', '/console/api/keys/create', {})).status).toBe(200);

    // going live revokes the sandbox keys: the live cap counts from zero
    expect((await b.call('POST', '/console/api/golive', { acceptTerms: true })).status).toBe(200);
    const live = [];
    for (let i = 0; i < 5; i++) live.push((await b.call('POST', '/console/api/keys/create', {})).status);
    expect(live).toEqual([200, 200, 200, 200, 409]);
  });

  it('key-flood, all at once: twenty creates sent together mint exactly the cap', async () => {
    const c = await boot({ settings: { keysPerOrg: { sandbox: 5, live: 5 } } });
    const b = await signedIn(c);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => b.call('POST', '/console/api/keys/create', {}).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    const keys = (await b.call('GET', '/console/api/keys')).json.keys as unknown[];
    expect(keys).toHaveLength(5);
  });
});

/** every rate generous but the ones a test names */
const rates = (r: Partial<ConsoleRates>): ConsoleRates => ({ signInPerMinute: 1000, signInPerIdentityPerHour: 1000, signUpsPerHour: 1000, keyCreatesPerHour: 1000, ...r });
const from = (xff: string) => ({ headers: { 'x-forwarded-for': xff } });

describe('fair use: rate limits on sign-in, sign-up and key creation, per client address and per identity', () => {
  it('signin-flood, no trusted proxy: a rotating X-Forwarded-For does not reset the address allowance', async () => {
    const c = await boot({ settings: { rates: rates({ signInPerMinute: 3 }) } });
    const b = c.browser();
    await b.fetchCsrf();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await b.call('POST', '/console/api/email/start', { email: `a${i}@example.com` }, from(`198.51.100.${i}`))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await b.call('POST', '/console/api/email/start', { email: 'z@example.com' }, from('203.0.113.99'));
    expect(limited.json).toEqual({ error: 'rate_limited', detail: expect.stringMatching(/^too many sign-in attempts from this address; retry in \d+ s$/) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('signin-flood behind one trusted proxy: the address the proxy appended counts, not what the client wrote before it; an IPv6 /64 is one client', async () => {
    const c = await boot({ http: { trustProxy: 1 }, settings: { rates: rates({ signInPerMinute: 2 }) } });
    const b = c.browser();
    await b.fetchCsrf();
    const ask = async (xff: string, n: number) => (await b.call('POST', '/console/api/email/start', { email: `u${n}@example.com` }, from(xff))).status;
    expect([await ask('1.1.1.1, 203.0.113.7', 1), await ask('2.2.2.2, 203.0.113.7', 2), await ask('3.3.3.3, 203.0.113.7', 3)]).toEqual([200, 200, 429]);
    // another client behind the same proxy has its own allowance
    expect(await ask('198.51.100.9', 4)).toBe(200);
    expect([await ask('2001:db8:1:2::1', 5), await ask('2001:db8:1:2:ffff::9', 6), await ask('2001:db8:1:2::abcd', 7)]).toEqual([200, 200, 429]);
  });

  it('mailbomb and wallet lock-out: challenges and links for one identity are limited whoever asks, whatever the case', async () => {
    const c = await boot({ http: { trustProxy: 1 }, settings: { rates: rates({ signInPerIdentityPerHour: 2 }) } });
    const b = c.browser();
    await b.fetchCsrf();
    const mails = [];
    for (const [i, email] of ['Victim@Example.com', 'victim@example.com', 'VICTIM@EXAMPLE.COM'].entries()) mails.push(await b.call('POST', '/console/api/email/start', { email }, from(`198.51.100.${i}`)));
    expect(mails.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(mails[2]?.json.detail).toMatch(/^too many sign-in attempts for this wallet or e-mail address; retry in \d+ s$/);
    expect(c.mailbox.all('victim@example.com')).toHaveLength(2);

    const wallet = privateKeyToAccount(generatePrivateKey());
    const challenges = [];
    for (const [i, address] of [wallet.address, wallet.address.toLowerCase(), wallet.address].entries()) {
      challenges.push((await b.call('POST', '/console/api/siwe/challenge', { address, chainId: 1 }, from(`203.0.113.${i}`))).status);
    }
    expect(challenges).toEqual([200, 200, 429]);
    // another identity is not affected
    expect((await b.call('POST', '/console/api/email/start', { email: 'other@example.com' }, from('192.0.2.1'))).status).toBe(200);
  });

  it('signup-flood: one address creates a limited number of organisations; signing in to an existing one still works', async () => {
    const c = await boot({ settings: { rates: rates({ signUpsPerHour: 2 }) } });
    const first = privateKeyToAccount(generatePrivateKey());
    expect((await c.browser().signInWithWallet(first)).json.created).toBe(true);
    expect((await c.browser().signInWithWallet(privateKeyToAccount(generatePrivateKey()))).json.created).toBe(true);
    const third = await c.browser().signInWithWallet(privateKeyToAccount(generatePrivateKey()));
    expect(third.status).toBe(429);
    expect(third.json).toEqual({ error: 'rate_limited', detail: expect.stringMatching(/^too many new organisations from this address; retry in \d+ s$/) });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third.setCookies.some((s) => s.startsWith('console_session='))).toBe(false);
    const again = await c.browser().signInWithWallet(first);
    expect(again.status).toBe(200);
    expect(again.json.created).toBe(false);
  });

  it('key-create flood: per client address across organisations, and per member across addresses', async () => {
    const c = await boot({ http: { trustProxy: 1 }, settings: { keysPerOrg: { sandbox: 100, live: 100 }, rates: rates({ keyCreatesPerHour: 2 }) } });
    const a = await signedIn(c);
    const create = async (b: typeof a, xff: string) => (await b.call('POST', '/console/api/keys/create', {}, from(xff))).status;
    expect([await create(a, '203.0.113.1'), await create(a, '203.0.113.1')]).toEqual([200, 200]);
    // the same member from a fresh address: still its own allowance
    const perMember = await a.call('POST', '/console/api/keys/create', {}, from('198.51.100.200'));
    expect(perMember.status).toBe(429);
    expect(perMember.json.detail).toMatch(/^too many keys created by this member; retry in \d+ s$/);
    // another organisation's member from the first address: the address's allowance is spent
    const b = await signedIn(c);
    const perAddress = await b.call('POST', '/console/api/keys/create', {}, from('203.0.113.1'));
    expect(perAddress.status).toBe(429);
    expect(perAddress.json.detail).toMatch(/^too many keys created from this address/);
    // and from its own address it creates
    expect(await create(b, '192.0.2.50')).toBe(200);
  });
});
