import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { consoleAppPerTest } from '../../test/console-client.ts';

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
