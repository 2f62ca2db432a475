import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { consoleAppPerTest, forgedCsrf, rawRequest } from '../../test/console-client.ts';

const { boot } = consoleAppPerTest();

/** what a phishing page's server can put in a request to steer where the console points */
const FORGERIES: { name: string; headers: Record<string, string>; target?: (path: string) => string }[] = [
  { name: 'Host: evil.example', headers: { host: 'evil.example' } },
  { name: 'Host with a port', headers: { host: 'evil.example:8443' } },
  { name: 'Host in capitals', headers: { host: 'EVIL.Example' } },
  { name: 'IPv6 literal Host', headers: { host: '[2001:db8::1]:80' } },
  { name: 'X-Forwarded-Host and -Proto', headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } },
  { name: 'RFC 7239 Forwarded', headers: { forwarded: 'for=192.0.2.1;host=evil.example;proto=https' } },
  { name: 'absolute-form request URI', headers: { host: 'evil.example' }, target: (p) => `http://evil.example${p}` },
];

describe('one canonical origin: the Host header never names the SIWE domain or the e-mail link', () => {
  for (const trusted of [false, true]) {
    it(`phished-session: every forged Host, with ${trusted ? 'every proxy trusted' : 'no trusted proxy'}, gets challenges and links of PUBLIC_URL`, async () => {
      const c = await boot({ publicUrl: 'https://console.partner.example', http: { trustProxy: trusted ? 1 : false } });
      const account = privateKeyToAccount(generatePrivateKey());
      for (const f of FORGERIES) {
        const target = f.target ?? ((p: string) => p);
        const headers = await forgedCsrf(c.url, target, f.headers);
        const ch = await rawRequest(c.url, target('/console/api/siwe/challenge'), headers, { address: account.address, chainId: 1 });
        expect(ch.status, f.name).toBe(200);
        const m = parseSiweMessage(ch.json.message as string);
        expect({ domain: m.domain, uri: m.uri }, f.name).toEqual({ domain: 'console.partner.example', uri: 'https://console.partner.example/console' });

        const email = `victim+${FORGERIES.indexOf(f)}${trusted ? 't' : ''}@example.com`;
        expect((await rawRequest(c.url, target('/console/api/email/start'), headers, { email })).status, f.name).toBe(200);
        expect(c.mailbox.last(email), f.name).toMatch(/^https:\/\/console\.partner\.example\/console#email-token=[A-Za-z0-9_-]{43}$/);
      }
    });
  }

  it('phished-session, embedded default: without PUBLIC_URL the origin is the URL the process listens on, not the Host', async () => {
    const c = await boot();
    const account = privateKeyToAccount(generatePrivateKey());
    const headers = await forgedCsrf(c.url, (p) => p, { host: 'evil.example' });
    const ch = await rawRequest(c.url, '/console/api/siwe/challenge', headers, { address: account.address, chainId: 1 });
    const m = parseSiweMessage(ch.json.message as string);
    expect(m.domain).toBe(new URL(c.url).host);
    expect(m.uri).toBe(`${c.url}/console`);
    expect((await rawRequest(c.url, '/console/api/email/start', headers, { email: 'v@example.com' })).status).toBe(200);
    expect(c.mailbox.last('v@example.com').startsWith(`${c.url}/console#email-token=`)).toBe(true);
  });

  it('phished-session: verify refuses a signed message naming another domain or URI, even sent with that Host', async () => {
    const c = await boot({ publicUrl: 'https://console.partner.example' });
    const account = privateKeyToAccount(generatePrivateKey());
    const b = c.browser();
    const variants: { name: string; domain: string; uri: string; host?: string }[] = [
      { name: 'the phishing domain, sent with its Host', domain: 'evil.example', uri: 'https://evil.example/console', host: 'evil.example' },
      { name: 'our domain, the phishing URI', domain: 'console.partner.example', uri: 'https://evil.example/console' },
      { name: 'our domain, http instead of https', domain: 'console.partner.example', uri: 'http://console.partner.example/console' },
      { name: 'our domain with an explicit port', domain: 'console.partner.example:443', uri: 'https://console.partner.example/console' },
      { name: 'a look-alike subdomain', domain: 'console.partner.example.evil.example', uri: 'https://console.partner.example.evil.example/console' },
    ];
    for (const v of variants) {
      const { message: issued } = await b.siweSigned(account);
      const m = parseSiweMessage(issued);
      const forged = createSiweMessage({ ...(m as Parameters<typeof createSiweMessage>[0]), domain: v.domain, uri: v.uri });
      const body = { message: forged, signature: await account.signMessage({ message: forged }) };
      const headers = { ...(await forgedCsrf(c.url, (p) => p, v.host ? { host: v.host } : {})) };
      const r = await rawRequest(c.url, '/console/api/siwe/verify', headers, body);
      expect(r.status, v.name).toBe(401);
      expect(r.json.error, v.name).toBe('signin_failed');
    }
    // the genuine message still signs in; the cookie is Secure, as the origin the browser sees is https
    const genuine = await b.signInWithWallet(account);
    expect(genuine.status).toBe(200);
    expect(genuine.setCookies.find((c) => c.startsWith('console_session='))).toMatch(/; Secure/);
  });
});
