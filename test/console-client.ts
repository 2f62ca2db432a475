/**
 * A browser's view of the partner console over plain HTTP, for the console's tests: a cookie jar,
 * the CSRF token, and sign-in with a viem local account (SIWE) or an e-mail link read from the log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger } from 'pino';
import type { LocalAccount } from 'viem';
import { afterEach } from 'vitest';
import { createSignInMailer } from '../api/console/mailer.ts';
import type { ConsoleDeps } from '../api/console/plugin.ts';
import type { HttpLimits } from '../api/http.ts';
import { createKeyService } from '../infra/keys.ts';
import { createMeter } from '../api/metering.ts';
import { createWebhookActions } from '../api/routes/webhooks.ts';
import type { ChainRpcUrls } from '../api/wallet-auth.ts';
import { createMemoryLog } from '../infra/log/memory.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import { bootTestApp } from './api-app.ts';
import type { TestApp } from './api-app.ts';
import { readJsonAnswer } from './http-answer.ts';
import type { JsonAnswer } from './http-answer.ts';

export interface Answer extends JsonAnswer {
  setCookies: string[];
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  csrf = '';
  constructor(readonly url: string) {}

  /** `headers`: more request headers (a proxy's X-Forwarded-For) */
  async call(method: 'GET' | 'POST', path: string, body?: unknown, opts: { csrf?: string | null; rawBody?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const token = opts.csrf === undefined ? this.csrf : opts.csrf;
    if (method === 'POST' && token) headers['x-csrf-token'] = token;
    const text = opts.rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
    if (text !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.url}${path}`, { method, headers, body: text });
    const setCookies = res.headers.getSetCookie();
    for (const c of setCookies) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { ...(await readJsonAnswer(res)), setCookies };
  }

  /** GET /console/api/csrf: the token (and its secret's cookie) of this browser */
  async fetchCsrf(): Promise<string> {
    const r = await this.call('GET', '/console/api/csrf');
    this.csrf = r.json.csrfToken as string;
    return this.csrf;
  }

  /** the message to sign and its signature, without verifying yet */
  async siweSigned(account: LocalAccount, chainId = 1): Promise<{ message: string; signature: string }> {
    if (!this.csrf) await this.fetchCsrf();
    const ch = await this.call('POST', '/console/api/siwe/challenge', { address: account.address, chainId });
    if (ch.status !== 200) throw new Error(`challenge: ${ch.status} ${JSON.stringify(ch.json)}`);
    const message = ch.json.message as string;
    return { message, signature: await account.signMessage({ message }) };
  }

  async signInWithWallet(account: LocalAccount): Promise<Answer> {
    const signed = await this.siweSigned(account);
    return this.call('POST', '/console/api/siwe/verify', signed);
  }

  /** asks for a link, reads it from the log, follows it */
  async signInWithEmail(email: string, mailbox: Mailbox): Promise<Answer> {
    if (!this.csrf) await this.fetchCsrf();
    const start = await this.call('POST', '/console/api/email/start', { email });
    if (start.status !== 200) throw new Error(`email/start: ${start.status} ${JSON.stringify(start.json)}`);
    return this.call('POST', '/console/api/email/verify', { token: tokenOf(mailbox.last(email)) });
  }
}

export function tokenOf(link: string): string {
  const token = /#email-token=([A-Za-z0-9_-]+)$/.exec(link)?.[1];
  if (!token) throw new Error(`not a sign-in link: ${link}`);
  return token;
}

/** the links the console wrote to the log (the embedded default's e-mail delivery), by address */
export interface Mailbox {
  logger: Logger;
  last(email: string): string;
  all(email: string): string[];
}

export function logMailbox(): Mailbox {
  const links: { email: string; link: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.includes('console_link')) continue;
        const o = JSON.parse(line) as { console_email: string; console_link: string };
        links.push({ email: o.console_email, link: o.console_link });
      }
      done();
    },
  });
  return {
    logger: pino({ level: 'info' }, stream),
    all: (email) => links.filter((l) => l.email === email.toLowerCase()).map((l) => l.link),
    last(email) {
      const all = links.filter((l) => l.email === email.toLowerCase());
      const l = all[all.length - 1];
      if (!l) throw new Error(`no sign-in link was logged for ${email}`);
      return l.link;
    },
  };
}

export interface ConsoleApp {
  t: TestApp;
  url: string;
  mailbox: Mailbox;
  dir: string;
  /** a fresh browser */
  browser(): ConsoleClient;
}


/**
 * The real app (test/api-app.ts) with the console, over the embedded store in a directory (its own
 * unless given), links written to a captured log; each is closed after its test.
 */
export function consoleAppPerTest() {
  const open: { t: TestApp; dir: string; keepDir?: boolean }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.t.close();
      if (!o.keepDir) rmSync(o.dir, { recursive: true, force: true });
    }
  });
  /** `publicUrl`: the canonical origin (default the URL it listens on); `settings`: the console's other settings; `http`: the port's (trustProxy) */
  async function boot(
    opts: { dir?: string; signInPerMinute?: number; keepDir?: boolean; rpcUrls?: ChainRpcUrls; publicUrl?: string; settings?: Partial<ConsoleDeps>; http?: Partial<HttpLimits> } = {},
  ): Promise<ConsoleApp> {
    const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'console-test-'));
    const store = await createEmbeddedStore({ dataDir: dir });
    await store.migrate();
    const keys = createKeyService({ store, cacheTtlSeconds: 30 });
    const meter = await createMeter({ log: createMemoryLog(), store, runSink: false });
    const mailbox = logMailbox();
    let listening = '';
    const t = await bootTestApp({
      store,
      keys,
      meter,
      ...(opts.http ? { http: opts.http } : {}),
      console: {
        keys,
        meter,
        store,
        webhooks: createWebhookActions({ store, allowLocal: true }),
        mailer: createSignInMailer({ logger: mailbox.logger }),
        sessionHours: 24,
        // generous unless a test is about them
        rates: { signInPerMinute: opts.signInPerMinute ?? 1000, signInPerIdentityPerHour: 1000, signUpsPerHour: 1000, keyCreatesPerHour: 1000 },
        keysPerOrg: { sandbox: 5, live: 25 },
        rpcUrls: opts.rpcUrls,
        publicUrl: () => opts.publicUrl ?? listening,
        ...opts.settings,
      },
    });
    open.push({ t, dir, keepDir: opts.keepDir });
    const { url } = await t.listen();
    listening = url;
    return { t, url, mailbox, dir, browser: () => new ConsoleClient(url) };
  }
  return { boot, open };
}

/** one raw HTTP request as an attacker writes it: any Host, any request target (absolute-form too) */
export function rawRequest(
  url: string,
  target: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: Record<string, unknown> }> {
  const u = new URL(url);
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: text === undefined ? 'GET' : 'POST', path: target, headers: { ...(text ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (data += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(data) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** the forged headers with a CSRF token and its secret's cookie, fetched with those same headers */
export async function forgedCsrf(url: string, target: (path: string) => string, headers: Record<string, string>): Promise<Record<string, string>> {
  const r = await rawRequest(url, target('/console/api/csrf'), headers);
  const cookie = ([] as string[]).concat(r.headers['set-cookie'] ?? []).map((s) => s.split(';')[0]).join('; ');
  return { ...headers, cookie, 'x-csrf-token': r.json.csrfToken as string };
}
