import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/** The interactive reference (Swagger UI) at /v1/docs, in Debian's chromium driven by playwright-core. */
describe('GET /v1/docs in a browser', () => {
  let stack: Stack;
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    stack = await startStack({ seed: 3, days: 1 });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('the Swagger UI reference lists every operation of the catalog and links the OpenAPI document, all from the API itself', async () => {
    const catalog = (await stack.call('GET', '/v1/', undefined)).json as { docs: string; endpoints: { path: string; method: string; cost: number }[] };
    expect(catalog.docs).toBe(`${stack.url}/v1/docs`);
    const page = await browser.newPage();
    const outside: string[] = [];
    const refused: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(stack.url) && !r.url().startsWith('data:')) outside.push(r.url());
    });
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    const res = await page.goto(`${stack.url}/v1/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(await page.title()).toBe('Intelligence Service API');
    await page.locator('.opblock').first().waitFor();
    for (const e of catalog.endpoints.filter((x) => x.path !== '/v1/stream')) {
      const path = e.path.replace(/^\/v1/, '');
      await expect.poll(() => page.locator(`.opblock-summary-path[data-path="${path}"], .opblock-summary-path[data-path="${e.path}"]`).count(), { message: `${e.method} ${e.path}` }).toBeGreaterThan(0);
    }
    const link = (await page.locator('a', { hasText: 'openapi.json' }).first().getAttribute('href')) as string;
    await page.goto(new URL(link, page.url()).href);
    const body = await page.locator('body').innerText();
    expect(JSON.parse(body).openapi).toBe('3.0.3');
    // nothing from a CDN, nothing the page's policy had to refuse
    expect(outside).toEqual([]);
    expect(refused).toEqual([]);
    await page.close();
  });

  it("a partner authorizes with a key and runs token-intel through try-it: 200, the key sent as the bearer", async () => {
    // a token the engine has read by now: the API's own answer for it is 200
    await stack.advanceTo(Math.floor(Date.now() / 1000));
    const probeKey = await stack.newKey('enterprise');
    let token = '';
    for (const t of stack.sim.truth.tokens.map((x) => x.address)) {
      if ((await stack.call('POST', '/v1/token-intel', probeKey, { token: t })).status !== 200) continue;
      token = t;
      break;
    }
    expect(token).not.toBe('');
    const key = await stack.newKey('enterprise');
    const page = await browser.newPage();
    const sent: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/token-intel')) sent.push(r.headers().authorization);
    });
    await page.goto(`${stack.url}/v1/docs`);
    await page.locator('.opblock').first().waitFor();
    await page.getByRole('button', { name: /Authorize/ }).first().click();
    // the first scheme of the dialog is the document's first, the bearer
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input').first().fill(key);
    await dialog.locator('button.modal-btn.authorize').first().click();
    await dialog.locator('button.btn-done').first().click();
    const op = page.locator('.opblock[id$="-tokenIntel"]');
    await op.locator('.opblock-summary').first().click();
    await op.locator('textarea.body-param__text').fill(JSON.stringify({ token }));
    await op.locator('button.execute').click();
    const status = op.locator('.live-responses-table tr.response .response-col_status').first();
    await expect.poll(() => status.innerText(), { timeout: 20_000 }).toBe('200');
    expect(sent).toEqual([`Bearer ${key}`]);
    await page.close();
  });
});
