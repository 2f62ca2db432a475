import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/** The human docs page, in Debian's chromium driven by playwright-core. */
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

  it('lists every operation of the catalog with its method, path and units, and links the OpenAPI document', async () => {
    const catalog = (await stack.call('GET', '/v1/', undefined)).json as { endpoints: { path: string; method: string; cost: number }[] };
    const page = await browser.newPage();
    const res = await page.goto(`${stack.url}/v1/docs`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('Intelligence Service API');
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(catalog.endpoints.length);
    for (const e of catalog.endpoints.slice(0, 5)) {
      await expect.poll(() => page.locator('code', { hasText: `${e.method} ${e.path}` }).count()).toBeGreaterThan(0);
    }
    const tokenIntel = page.locator('tr#tokenIntel');
    expect(await tokenIntel.locator('td').nth(1).innerText()).toBe('1');
    await page.locator('a', { hasText: 'openapi.json' }).click();
    await page.waitForURL(/openapi\.json$/);
    const body = await page.locator('body').innerText();
    expect(JSON.parse(body).openapi).toBe('3.0.3');
    await page.close();
  });
});
