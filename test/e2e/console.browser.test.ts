import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logMailbox } from '../console-client.ts';
import type { Mailbox } from '../console-client.ts';
import { launchChromium } from './browser.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/** where the panels' screenshots go (ignored by git) */
const SHOTS = resolve(import.meta.dirname, '../../.tmp/console-screenshots');
const KEY_CACHE_TTL_SECONDS = 5;

/**
 * The partner console in Debian's chromium driven by playwright-core: a wallet (an EIP-1193
 * provider injected into the page, backed by a viem local account) and an e-mail link (read from
 * the log, as the embedded default delivers it) each sign in, create a key, call the API with it
 * from the page, go live, see the sandbox key refused, and mint a live key.
 */
describe('partner console in a browser', () => {
  let stack: Stack;
  let browser: Browser;
  let mailbox: Mailbox;
  beforeAll(async () => {
    browser = await launchChromium();
    mailbox = logMailbox();
    stack = await startStack({
      seed: 5,
      days: 1,
      logger: mailbox.logger,
      env: { KEY_CACHE_TTL_SECONDS: String(KEY_CACHE_TTL_SECONDS), WEBHOOKS_ALLOW_LOCAL: 'true' },
    });
    mkdirSync(SHOTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function newContext(viewport: { width: number; height: number }): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
    return context;
  }

  async function panel(page: Page, name: string): Promise<void> {
    await page.locator(`.tabs button[data-panel=${name}]`).click();
    await page.locator(`body[data-ready=${name}]`).waitFor();
  }

  /** the key in the new-key box, after creating one; and the API called with it from the page */
  async function createAndTryKey(page: Page, name: string): Promise<string> {
    // the box and the result still show the previous key's (a CI run read the old key before the new one came)
    const before = (await page.locator('#newkeytext').textContent())?.trim() ?? '';
    await page.locator('#keyname').fill(name);
    await page.locator('#createkey').click();
    await page.locator('#newkey').waitFor();
    await expect.poll(async () => (await page.locator('#newkeytext').innerText()).trim()).not.toBe(before);
    const key = (await page.locator('#newkeytext').innerText()).trim();
    await page.locator('#tryresult').evaluate((el) => el.removeAttribute('data-status'));
    await page.locator('#trybutton').click();
    await expect.poll(() => page.locator('#tryresult').getAttribute('data-status')).toBe('200');
    await expect.poll(() => page.locator('#keystable tbody tr', { hasText: name }).count()).toBe(1);
    return key;
  }

  /** the page calls the API with the key (as a partner's code would) */
  const statusFromPage = (page: Page, key: string) =>
    page.evaluate(async (k) => (await fetch('/v1/usage', { headers: { authorization: `Bearer ${k}` } })).status, key);

  /** accept terms and go live in Settings; the sandbox key answers 401 within the key cache TTL; a live key is minted */
  async function goLiveAndMint(page: Page, sandboxKey: string, shot?: string): Promise<string> {
    await panel(page, 'settings');
    if (shot) await page.screenshot({ path: `${SHOTS}/${shot}`, fullPage: true });
    await page.locator('#terms').check();
    await page.locator('#goliveButton').click();
    await expect.poll(() => page.locator('#flash').innerText()).toMatch(/live: 1 sandbox key\(s\) revoked/);
    await expect.poll(() => statusFromPage(page, sandboxKey), { timeout: KEY_CACHE_TTL_SECONDS * 1000, interval: 100 }).toBe(401);
    await panel(page, 'keys');
    expect(await page.locator('#keysmode').innerText()).toMatch(/live keys \(key_live_\)/);
    const live = await createAndTryKey(page, 'production');
    expect(live).toMatch(/^key_live_[A-Za-z0-9]{38}$/);
    expect(await statusFromPage(page, live)).toBe(200);
    return live;
  }

  /** a new page signed in by an e-mail link (read from the log), on the keys panel */
  async function signedInByEmail(email: string): Promise<Page> {
    const page = await (await newContext({ width: 1200, height: 900 })).newPage();
    await page.goto(`${stack.url}/console`);
    await page.locator('#email').fill(email);
    await page.locator('#emailform button[type=submit]').click();
    await expect.poll(() => page.locator('#emailsent').innerText()).toMatch(/written to the server log/);
    await page.goto(mailbox.last(email));
    await page.locator('body[data-ready=keys]').waitFor();
    return page;
  }

  it('members: the owner invites, the invitee accepts in Settings, the owner removes them and their page is signed out', async () => {
    const owner = await signedInByEmail('team-owner@example.com');
    await panel(owner, 'settings');
    await owner.locator('#memberid').fill('Team-Dev@Example.com');
    await owner.locator('#memberform button[type=submit]').click();
    await expect.poll(() => owner.locator('#invites').innerText()).toContain('team-dev@example.com (member)');
    expect(await owner.locator('#members').innerText()).not.toContain('team-dev@example.com');

    // the invitee's first sign-in is its own organisation; the invitation waits in its Settings
    const dev = await signedInByEmail('team-dev@example.com');
    expect(await dev.locator('#whoami').innerText()).toContain('owner');
    await expect.poll(() => dev.locator('#flash').innerText()).toMatch(/1 invitation\(s\)/);
    await panel(dev, 'settings');
    await dev.locator('#myinvites button', { hasText: 'Accept' }).click();
    await expect.poll(() => dev.locator('#flash').innerText()).toMatch(/You joined team-owner@example.com as member/);
    expect(await dev.locator('#whoami').innerText()).toContain('team-dev@example.com · member');
    await owner.screenshot({ path: `${SHOTS}/members.png`, fullPage: true });

    await panel(owner, 'settings');
    await expect.poll(() => owner.locator('#members').innerText()).toContain('team-dev@example.com (member)');
    await owner.locator('#members li', { hasText: 'team-dev@example.com' }).locator('button', { hasText: 'Remove' }).click();
    await expect.poll(() => owner.locator('#members').innerText()).not.toContain('team-dev@example.com');

    // the removed member's page: its next call finds the session gone
    await dev.locator('.tabs button[data-panel=keys]').click();
    await dev.locator('#signin').waitFor({ state: 'visible' });
    await panel(owner, 'audit');
    const audit = await owner.locator('#audittable').innerText();
    for (const action of ['member.invited', 'member.joined', 'member.removed']) expect(audit).toContain(action);
    await owner.context().close();
    await dev.context().close();
  });

  it('with a wallet: sign in, create a key, call the API from the page, webhooks, go live, mint a live key, read the audit log', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const context = await newContext({ width: 1200, height: 900 });
    // the test wallet: window.ethereum backed by the viem account, which signs outside the page
    await context.exposeFunction('__testWalletSign', (data: Hex) => account.signMessage({ message: { raw: data } }));
    await context.addInitScript((address) => {
      const w = window as unknown as { ethereum: unknown; __testWalletSign: (d: string) => Promise<string> };
      w.ethereum = {
        isTestWallet: true,
        async request({ method, params }: { method: string; params?: unknown[] }) {
          if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
          if (method === 'eth_chainId') return '0x1';
          if (method === 'personal_sign') return w.__testWalletSign((params as string[])[0] as string);
          throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 });
        },
      };
    }, account.address);
    const page = await context.newPage();
    const res = await page.goto(`${stack.url}/console`);
    expect(res?.status()).toBe(200);
    await page.locator('#signin').waitFor();
    await page.screenshot({ path: `${SHOTS}/signin.png`, fullPage: true });
    await page.locator('#siwe').click();
    await page.locator('body[data-ready=keys]').waitFor();
    expect(await page.locator('#whoami').innerText()).toContain(account.address.toLowerCase());

    const sandboxKey = await createAndTryKey(page, 'sandbox-backend');
    expect(sandboxKey).toMatch(/^key_test_[A-Za-z0-9]{38}$/);
    expect(JSON.parse((await page.locator('#tryresult').innerText()).replace(/^HTTP 200\n/, ''))).toHaveProperty('unitsToday');
    await page.locator('#copykey').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sandboxKey);
    // listed by prefix and last four, never in full
    expect(await page.locator('#keystable').innerText()).toContain(`${sandboxKey.slice(0, 13)}…${sandboxKey.slice(-4)}`);
    expect(await page.locator('#keystable').innerText()).not.toContain(sandboxKey);
    await page.screenshot({ path: `${SHOTS}/keys.png`, fullPage: true });

    // a billed call, seen in the usage panel
    const movers = await page.evaluate(async (k) => (await fetch('/v1/market-movers?chain=sim&limit=3', { headers: { authorization: `Bearer ${k}` } })).status, sandboxKey);
    await panel(page, 'usage');
    expect(await page.locator('#plan').innerText()).toBe('sandbox');
    expect(await page.locator('#rate').innerText()).toBe('60');
    expect(await page.locator('#chart rect').count()).toBe(14);
    expect(movers).toBe(200);
    await expect.poll(() => page.locator('#unitstoday').innerText()).toBe('1');
    expect(await page.locator('#bytable').innerText()).toMatch(/marketMovers\s+1/);
    // every daily limit and what is left: the organisation's, the sandbox share, the service's budget
    await expect.poll(() => page.locator('#limitstable').innerText()).toMatch(/the organisation \(all keys\)\s+10000\s+1\s+9999[\s\S]*all sandbox keys \(20 % of the budget\)[\s\S]*the service \(all partners\)/);
    await page.screenshot({ path: `${SHOTS}/usage.png`, fullPage: true });

    await panel(page, 'webhooks');
    await page.locator('#hookurl').fill('http://127.0.0.1:9/hooks');
    await page.locator('#hookform button[type=submit]').click();
    await page.locator('#newhook').waitFor();
    expect(await page.locator('#newhooksecret').innerText()).toMatch(/^whsec_/);
    await page.locator('#hookstable tbody tr button', { hasText: 'Send test' }).click();
    await page.locator('#deliveries').waitFor();
    await expect.poll(() => page.locator('#flash').innerText()).toMatch(/Test event evt_test_/);
    await page.screenshot({ path: `${SHOTS}/webhooks.png`, fullPage: true });

    await goLiveAndMint(page, sandboxKey, 'settings.png');

    await panel(page, 'audit');
    const audit = await page.locator('#audittable').innerText();
    for (const action of ['org.created', 'session.signed_in', 'key.created', 'webhook.created', 'webhook.test_sent', 'org.went_live']) expect(audit).toContain(action);
    await page.screenshot({ path: `${SHOTS}/audit.png`, fullPage: true });
    await context.close();
  });

  it('with an e-mail link, at phone width and without a wallet: the same journey', async () => {
    const context = await newContext({ width: 390, height: 844 });
    const page = await context.newPage();
    await page.goto(`${stack.url}/console`);
    await page.locator('#signin').waitFor();
    expect(await page.locator('#nowallet').isVisible()).toBe(true);
    await page.locator('#email').fill('partner@example.com');
    await page.locator('#emailform button[type=submit]').click();
    await expect.poll(() => page.locator('#emailsent').innerText()).toMatch(/written to the server log/);
    const link = mailbox.last('partner@example.com');
    expect(link.startsWith(`${stack.url}/console#email-token=`)).toBe(true);
    await page.goto(link);
    await page.locator('body[data-ready=keys]').waitFor();
    // the token is gone from the address bar once used
    expect(page.url()).toBe(`${stack.url}/console`);
    expect(await page.locator('#whoami').innerText()).toContain('partner@example.com');

    const sandboxKey = await createAndTryKey(page, 'phone');
    const noOverflow = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await noOverflow()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/phone-keys.png`, fullPage: true });
    for (const name of ['usage', 'webhooks', 'settings', 'audit']) {
      await panel(page, name);
      expect(await noOverflow()).toBe(true);
      await page.screenshot({ path: `${SHOTS}/phone-${name}.png`, fullPage: true });
    }
    await goLiveAndMint(page, sandboxKey);

    await context.close();

    // the same link again, in another browser: refused, still signed out
    const other = await newContext({ width: 390, height: 844 });
    const again = await other.newPage();
    await again.goto(link);
    await expect.poll(() => again.locator('#flash').innerText()).toMatch(/unknown, expired or already used/);
    // the page asks who is signed in after the refusal, then shows the sign-in (a CI run read it in between)
    await again.locator('#signin').waitFor({ state: 'visible' });
    expect(await again.locator('#app').isVisible()).toBe(false);
    await other.close();
  });
});
