/**
 * What every answer says to a browser and what the logs never say: `nosniff`, `no-store` and a
 * request id on every answer, a CSP that lets the docs page render and nothing else run; the
 * key, the wallet signature and secret-like fields redacted from the API's logs.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation } from './operations.ts';
import { appPerTest, probeOperation } from '../test/api-app.ts';
import type { TestApp } from '../test/api-app.ts';

describe('security headers and log redaction', () => {
  const boot = appPerTest();
  let t: TestApp;

  it('every answer carries X-Content-Type-Options: nosniff, Cache-Control: no-store and X-Request-Id; JSON answers a CSP that allows nothing', async () => {
    t = await boot();
    const key = await t.newKey();
    const auth = { authorization: `Bearer ${key}` };
    const answers = {
      op: await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { ...auth, 'content-type': 'application/json' }, payload: '{}' }),
      invalid: await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { ...auth, 'content-type': 'application/json' }, payload: '{"n":"x"}' }),
      noKey: await t.app.inject({ method: 'POST', url: '/v1/probe', payload: {} }),
      catalog: await t.app.inject({ url: '/v1/' }),
      openapi: await t.app.inject({ url: '/v1/openapi.json' }),
      unknown: await t.app.inject({ url: '/nowhere' }),
      docs: await t.app.inject({ url: '/v1/docs' }),
    };
    for (const [name, a] of Object.entries(answers)) {
      expect(a.headers['x-content-type-options'], name).toBe('nosniff');
      expect(a.headers['cache-control'], name).toBe('no-store');
      expect(a.headers['x-request-id'], name).toMatch(/^[0-9a-f-]{36}$/);
      if (name !== 'docs') expect(a.headers['content-security-policy'], name).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it("the docs page's CSP allows exactly the reference's own scripts and stylesheet from 'self', nothing inline, no framing", async () => {
    t = await boot();
    const docs = await t.app.inject({ url: '/v1/docs' });
    expect(docs.statusCode).toBe(200);
    const csp = docs.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    // no inline script or style an injected copy could pass as the page's: every script and sheet is a file of 'self'
    expect(docs.body).not.toMatch(/<script>|<style>|\son[a-z]+=/i);
    const files = [...docs.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(files.length).toBe(3);
    for (const f of files) {
      expect(f).not.toMatch(/^[a-z]+:|^\/\//);
      const asset = await t.app.inject({ url: new URL(f, 'http://x/v1/docs').pathname });
      expect(asset.statusCode, f).toBe(200);
      expect(asset.headers['content-security-policy'], f).toBe(csp);
    }
  });

  it('logs of a failed call never carry the API key, the wallet signature or secret-like fields', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (s: string) => void lines.push(s) });
    const key = 'key_test_' + 'S'.repeat(32);
    const signature = '0x' + 'ab'.repeat(65);
    const leaky = defineOperation({
      id: 'leaky',
      method: 'POST',
      path: '/leaky',
      cost: 1,
      group: 'infra',
      summary: 'fails with the request it made',
      returns: 'nothing',
      request: z.object({}),
      response: z.object({}),
      handler: async () => {
        // an error as an HTTP client makes it: the request it sent, headers and all
        throw Object.assign(new Error('upstream refused'), {
          config: { headers: { authorization: `Bearer ${key}`, 'x-api-key': key, 'x-wallet-signature': signature } },
          secret: 'hunter2-secret',
          apiKey: key,
          sessionKey: '0x' + '11'.repeat(32),
        });
      },
    });
    t = await boot({ operations: [probeOperation(), leaky], logger });
    const real = await t.newKey();
    const r = await t.app.inject({ method: 'POST', url: '/v1/leaky', headers: { authorization: `Bearer ${real}`, 'x-wallet-signature': signature, 'content-type': 'application/json' }, payload: '{}' });
    expect(r.statusCode).toBe(500);
    await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { authorization: `Bearer ${real}`, 'content-type': 'application/json' }, payload: '{}' });
    const text = lines.join('\n');
    expect(text).toContain('upstream refused');
    expect(text).toContain('[redacted]');
    for (const secret of [key, real, signature, 'hunter2-secret', '11'.repeat(32)]) expect(text).not.toContain(secret);
  });
});
