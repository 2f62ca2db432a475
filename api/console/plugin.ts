import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyStatic from '@fastify/static';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { isAddress } from 'viem';
import { createSiweMessage, generateSiweNonce } from 'viem/siwe';
import { z } from 'zod';
import type { Store } from '../../infra/store/types.ts';
import { PlanLimits } from '../../schemas/keys.ts';
import type { Plan } from '../../schemas/keys.ts';
import { ApiError } from '../../schemas/errors.ts';
import type { ApiKeyRecord, KeyService, Org } from '../../infra/keys.ts';
import type { DailyLimits, Meter } from '../metering.ts';
import { allowances, utcDay } from '../metering.ts';
import { requestBody } from '../plugins/errors.ts';
import type { createWebhookActions } from '../routes/webhooks.ts';
import { parseInput } from '../validate.ts';
import type { ChainRpcUrls } from '../wallet-auth.ts';
import { createConsoleAccounts } from './accounts.ts';
import { createConsoleLimits } from './limits.ts';
import type { ConsoleRates } from './limits.ts';
import type { Actor, ConsoleAccounts, SignedIn } from './accounts.ts';
import type { SignInMailer } from './mailer.ts';
import { createInvitations } from './invitations.ts';
import { Email, memberRoutes, memberView } from './members.ts';
import type { Member, Session } from './rows.ts';
import { checkSiweMessage, createSiweVerifier } from './siwe.ts';

export interface ConsoleDeps {
  keys: KeyService;
  meter: Meter;
  store: Store;
  webhooks: ReturnType<typeof createWebhookActions>;
  mailer: SignInMailer;
  /**
   * the one canonical origin (PUBLIC_URL, or the process's own URL once it listens): SIWE messages
   * must name its host and URI, e-mail links point there; a request's Host never does
   */
  publicUrl: () => string;
  rpcUrls?: ChainRpcUrls;
  now?: () => number;
  sessionHours: number;
  /** unrevoked keys an organisation may hold (KEYS_PER_ORG_SANDBOX, KEYS_PER_ORG_LIVE) */
  keysPerOrg: { sandbox: number; live: number };
  /** the rate limits of sign-in, sign-up and key creation, per client address and per identity */
  rates: ConsoleRates;
  logger?: FastifyBaseLogger;
}

const SESSION_COOKIE = 'console_session';
const CSRF_COOKIE = 'console_csrf';
const SIWE_NONCE_TTL_MS = 10 * 60_000;
const EMAIL_LINK_TTL_MS = 15 * 60_000;

/** the console's pages: their own scripts and styles, calls to this origin only, no framing */
const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const EvmAddress = z.string().refine((v) => isAddress(v, { strict: false }), 'must be a 0x address of 40 hex digits');

const requests = {
  siweChallenge: z.object({ address: EvmAddress, chainId: z.number().int().min(1).max(2 ** 53 - 1) }),
  siweVerify: z.object({ message: z.string().min(1).max(4000), signature: z.string().regex(/^0x[0-9a-fA-F]+$/, 'must be 0x-prefixed hex').max(20_000) }),
  emailStart: z.object({ email: Email }),
  emailVerify: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the token of a sign-in link') }),
  keyCreate: z.object({ name: z.string().trim().max(60).optional() }),
  keyRevoke: z.object({ keyId: z.string().regex(/^[0-9a-f]{64}$/, 'must be a key id') }),
  sessionRevoke: z.object({ sessionId: z.string().regex(/^ses_[0-9a-f]{24}$/, 'must be a session id') }),
  goLive: z.object({ acceptTerms: z.literal(true, { error: 'the pricing and terms must be accepted (true)' }) }),
  audit: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
};

function keyView(k: ApiKeyRecord, lastUsed: string | null) {
  return {
    keyId: k.id,
    name: k.name ?? null,
    prefix: k.displayPrefix,
    lastFour: k.lastFour ?? null,
    kind: k.kind,
    plan: k.plan,
    createdAt: k.createdAt,
    revokedAt: k.revokedAt ?? null,
    /** the last UTC day the key was billed for a call, within the last 14 days */
    lastUsed,
  };
}

/**
 * The partner console (DESIGN.md "Partner console"): its pages at /console and their JSON calls
 * at /console/api/*. Sign-in by Sign-In with Ethereum or an e-mail link; a session cookie
 * (HttpOnly, SameSite=Lax, Secure behind TLS); every state change carries a CSRF token
 * (@fastify/csrf-protection: a secret in its own HttpOnly cookie, the token in `x-csrf-token`);
 * sign-in, sign-up and key creation are rate limited per client address and per identity
 * (./limits.ts); the one canonical origin names the SIWE domain and the e-mail links; members
 * join by invitation (./members.ts). Not partner API operations: never keyed, limited or
 * metered, and absent from the catalog; their errors have the API's shape.
 */
/** `limits`: the daily limits the usage panel states, the app's own (api/app.ts) */
export async function consolePlugin(app: FastifyInstance, deps: ConsoleDeps & { limits: DailyLimits }): Promise<void> {
  const clock = deps.now ?? Date.now;
  const accounts: ConsoleAccounts = createConsoleAccounts({ store: deps.store, keys: deps.keys, sessionMs: deps.sessionHours * 3_600_000 });
  const verifySiwe = createSiweVerifier(deps.rpcUrls);
  const limits = createConsoleLimits(deps.rates);

  await app.register(fastifyCookie);
  await app.register(fastifyCsrf, {
    cookieKey: CSRF_COOKIE,
    cookieOpts: { path: '/console', httpOnly: true, sameSite: 'lax', secure: 'auto' },
    getToken: (req) => {
      const t = req.headers['x-csrf-token'];
      return typeof t === 'string' ? t : undefined;
    },
  });

  app.addHook('onRequest', (_req, reply, done) => {
    void reply.header('content-security-policy', CONSOLE_CSP);
    done();
  });

  await app.register(fastifyStatic, {
    root: resolve(import.meta.dirname, 'public'),
    prefix: '/console/',
    // the root's no-store stays (api/http.ts): a page never outlives a deployment's scripts
    cacheControl: false,
    index: false,
    wildcard: true,
  });
  app.get('/console', (_req, reply) => reply.type('text/html; charset=utf-8').sendFile('index.html'));

  const canonical = () => {
    const u = new URL(deps.publicUrl());
    return { domain: u.host, origin: u.origin };
  };
  const ipOf = (req: FastifyRequest) => req.ip ?? null;

  /** state changes: the CSRF token of this browser, or 403 csrf_invalid (api/plugins/errors.ts) */
  const csrf: preHandlerHookHandler = (req, reply, done) => app.csrfProtection(req, reply, done);

  async function signedIn(req: FastifyRequest, now: number): Promise<SignedIn> {
    const s = await accounts.session(req.cookies[SESSION_COOKIE], now);
    if (!s) throw new ApiError('signin_required', 'sign in at /console first (the session is missing, expired or revoked)');
    return s;
  }
  const actor = (s: SignedIn, req: FastifyRequest): Actor => ({ member: s.member, ip: ipOf(req) });
  function ownerOnly(s: SignedIn, what: string): void {
    if (s.member.role !== 'owner') throw new ApiError('forbidden', `only the organisation's owner can ${what}`);
  }

  async function startSession(req: FastifyRequest, reply: FastifyReply, identity: string, method: Session['method'], now: number) {
    // a sign-in that would create an organisation is a sign-up, limited per client address
    if (!(await accounts.linked(identity))) limits.signUp(req.ip, now);
    const { member, org, created } = await accounts.signIn(identity, now, ipOf(req));
    return { created, ...(await openSession(req, reply, member, org, method, now)) };
  }

  async function openSession(req: FastifyRequest, reply: FastifyReply, member: Member, org: Org, method: Session['method'], now: number) {
    const { session, cookie } = await accounts.openSession(member, method, now, { ip: ipOf(req), userAgent: req.headers['user-agent'] ?? null });
    await accounts.audit(org.id, { member, ip: ipOf(req) }, 'session.signed_in', session.sessionId, { method }, now);
    void reply.setCookie(SESSION_COOKIE, cookie, {
      path: '/console',
      httpOnly: true,
      sameSite: 'lax',
      // the browser's view: the canonical origin is https behind a TLS proxy this process may not trust
      secure: req.protocol === 'https' || canonical().origin.startsWith('https:'),
      expires: new Date(session.expiresAt),
    });
    return { org: { orgId: org.id, name: org.name, live: org.live }, member: memberView(member) };
  }

  app.get('/console/api/csrf', async (_req, reply) => ({ csrfToken: reply.generateCsrf() }));

  app.post('/console/api/siwe/challenge', { preHandler: csrf }, async (req) => {
    const now = clock();
    limits.signIn(req.ip, now);
    const i = parseInput(requests.siweChallenge, requestBody(req), 'body');
    limits.signInFor(`wallet:${i.address.toLowerCase()}`, now);
    const nonce = generateSiweNonce();
    await accounts.issueChallenge('siwe', nonce, null, now, SIWE_NONCE_TTL_MS);
    const { domain, origin: uri } = canonical();
    const message = createSiweMessage({
      address: i.address as `0x${string}`,
      chainId: i.chainId,
      domain,
      uri: `${uri}/console`,
      nonce,
      version: '1',
      issuedAt: new Date(now),
      expirationTime: new Date(now + SIWE_NONCE_TTL_MS),
      statement: 'Sign in to the partner console.',
    });
    return { nonce, message };
  });

  app.post('/console/api/siwe/verify', { preHandler: csrf }, async (req, reply) => {
    const now = clock();
    limits.signIn(req.ip, now);
    const i = parseInput(requests.siweVerify, requestBody(req), 'body');
    const check = checkSiweMessage(i.message, canonical(), now);
    if (!check.ok) throw new ApiError('signin_failed', check.reason);
    // used before the signature is checked: a nonce is good for one attempt, replays are refused
    if (!(await accounts.useChallenge('siwe', check.message.nonce, now))) {
      throw new ApiError('signin_failed', 'the nonce is unknown, expired or already used; ask for a new one');
    }
    if (!(await verifySiwe(i.message, check.message, i.signature))) {
      throw new ApiError('signin_failed', `the signature is not ${check.message.address.toLowerCase()}'s (an EOA's, or a smart-contract wallet's on a chain this deployment has an RPC for)`);
    }
    return startSession(req, reply, `wallet:${check.message.address.toLowerCase()}`, 'siwe', now);
  });

  app.post('/console/api/email/start', { preHandler: csrf }, async (req) => {
    const now = clock();
    limits.signIn(req.ip, now);
    const i = parseInput(requests.emailStart, requestBody(req), 'body');
    limits.signInFor(`email:${i.email}`, now);
    const token = randomBytes(32).toString('base64url');
    await accounts.issueChallenge('email', accounts.tokenKey(token), i.email, now, EMAIL_LINK_TTL_MS);
    // the token travels in the fragment: never sent to a server, never in an access log
    await deps.mailer.send(i.email, `${canonical().origin}/console#email-token=${token}`);
    return { sent: true, email: i.email, delivery: deps.mailer.kind, expiresInSeconds: EMAIL_LINK_TTL_MS / 1000 };
  });

  app.post('/console/api/email/verify', { preHandler: csrf }, async (req, reply) => {
    const now = clock();
    limits.signIn(req.ip, now);
    const i = parseInput(requests.emailVerify, requestBody(req), 'body');
    const c = await accounts.useChallenge('email', accounts.tokenKey(i.token), now);
    if (!c?.email) throw new ApiError('signin_failed', 'the sign-in link is unknown, expired or already used; ask for a new one');
    return startSession(req, reply, `email:${c.email}`, 'email', now);
  });

  app.post('/console/api/signout', { preHandler: csrf }, async (req, reply) => {
    const now = clock();
    const s = await signedIn(req, now);
    await accounts.revokeSession(s.org.id, s.session.sessionId, now);
    await accounts.audit(s.org.id, actor(s, req), 'session.signed_out', s.session.sessionId, null, now);
    void reply.clearCookie(SESSION_COOKIE, { path: '/console' });
    return { signedOut: true };
  });

  app.get('/console/api/me', async (req) => {
    const s = await signedIn(req, clock());
    const plan: Plan = s.org.live ? 'free' : 'sandbox';
    return {
      org: { orgId: s.org.id, name: s.org.name, live: s.org.live, plan, termsAcceptedAt: s.org.termsAcceptedAt ?? null },
      member: memberView(s.member),
      session: { sessionId: s.session.sessionId, method: s.session.method, expiresAt: new Date(s.session.expiresAt).toISOString() },
    };
  });

  app.get('/console/api/sessions', async (req) => {
    const now = clock();
    const s = await signedIn(req, now);
    const all = await accounts.sessions(s.org.id, now);
    const visible = s.member.role === 'owner' ? all : all.filter((x) => x.memberId === s.member.memberId);
    return {
      sessions: visible.map((x) => ({
        sessionId: x.sessionId,
        identity: x.identity,
        method: x.method,
        createdAt: new Date(x.createdAt).toISOString(),
        expiresAt: new Date(x.expiresAt).toISOString(),
        userAgent: x.userAgent,
        current: x.sessionId === s.session.sessionId,
      })),
    };
  });

  app.post('/console/api/sessions/revoke', { preHandler: csrf }, async (req) => {
    const now = clock();
    const s = await signedIn(req, now);
    const i = parseInput(requests.sessionRevoke, requestBody(req), 'body');
    const target = (await accounts.sessions(s.org.id, now)).find((x) => x.sessionId === i.sessionId);
    if (!target || (s.member.role !== 'owner' && target.memberId !== s.member.memberId)) throw new ApiError('not_found', `no open session ${i.sessionId} you can revoke`);
    await accounts.revokeSession(s.org.id, i.sessionId, now);
    await accounts.audit(s.org.id, actor(s, req), 'session.revoked', i.sessionId, null, now);
    return { sessionId: i.sessionId, revoked: true };
  });

  /** per day of the last 14: the organisation's units and requests (today from the meter, the days before from the store) */
  async function dailyUsage(orgKeys: ApiKeyRecord[], now: number) {
    const ids = new Set(orgKeys.map((k) => k.id));
    const days: { day: string; units: number; requests: number }[] = [];
    for (let d = 13; d >= 0; d--) {
      const day = utcDay(now - d * 86_400_000);
      let units = 0;
      let requestsN = 0;
      if (d === 0) {
        // today from this process's view of every process's usage (the store lags by a sink batch)
        for (const k of orgKeys) {
          const kd = deps.meter.keyDay(k.id, now);
          units += kd.units;
          requestsN += kd.requests;
        }
      } else {
        for (const t of await deps.store.usage(day)) {
          if (!ids.has(t.keyId)) continue;
          units += t.units;
          requestsN += t.requests;
        }
      }
      days.push({ day, units, requests: requestsN });
    }
    return days;
  }

  /**
   * per key: the last UTC day it was billed within 14 days. Today is the meter's; the store's days
   * are read newest first and only while a key not yet seen could have been billed that day (it
   * existed and was not revoked yet), so a listing of keys used today or minted today reads none.
   */
  async function lastUsedOf(orgKeys: ApiKeyRecord[], now: number): Promise<Map<string, string>> {
    const lastUsed = new Map<string, string>();
    const today = utcDay(now);
    for (const k of orgKeys) if (deps.meter.keyDay(k.id, now).requests > 0) lastUsed.set(k.id, today);
    for (let d = 1; d <= 13; d++) {
      const day = utcDay(now - d * 86_400_000);
      const minted = orgKeys.filter((k) => !lastUsed.has(k.id) && k.createdAt.slice(0, 10) <= day);
      // every key not seen yet was minted after this day: no older day can have billed it
      if (minted.length === 0) break;
      const open = new Set(minted.filter((k) => !k.revokedAt || k.revokedAt.slice(0, 10) >= day).map((k) => k.id));
      if (open.size === 0) continue;
      for (const t of await deps.store.usage(day)) if (open.has(t.keyId)) lastUsed.set(t.keyId, day);
    }
    return lastUsed;
  }

  app.get('/console/api/keys', async (req) => {
    const now = clock();
    const s = await signedIn(req, now);
    const orgKeys = await deps.keys.list(s.org.id);
    const lastUsed = await lastUsedOf(orgKeys, now);
    const keys = orgKeys.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((k) => keyView(k, lastUsed.get(k.id) ?? null));
    const cap = { active: orgKeys.filter((k) => !k.revokedAt).length, max: s.org.live ? deps.keysPerOrg.live : deps.keysPerOrg.sandbox };
    return { live: s.org.live, mints: s.org.live ? 'key_live_' : 'key_test_', cap, keys };
  });

  app.post('/console/api/keys/create', { preHandler: csrf }, async (req) => {
    const now = clock();
    const s = await signedIn(req, now);
    limits.keyCreate(req.ip, s.member.identity, now);
    const i = parseInput(requests.keyCreate, requestBody(req), 'body');
    const plan: Plan = s.org.live ? 'free' : 'sandbox';
    const maxActive = s.org.live ? deps.keysPerOrg.live : deps.keysPerOrg.sandbox;
    const { plaintext, record } = await deps.keys.createKey(s.org.id, plan, undefined, { maxActive, ...(i.name ? { name: i.name } : {}) });
    await accounts.audit(s.org.id, actor(s, req), 'key.created', `${record.displayPrefix}…${record.lastFour ?? ''}`, { plan, kind: record.kind, name: i.name ?? null }, now);
    return { plaintext, key: keyView(record, null) };
  });

  app.post('/console/api/keys/revoke', { preHandler: csrf }, async (req) => {
    const now = clock();
    const s = await signedIn(req, now);
    const i = parseInput(requests.keyRevoke, requestBody(req), 'body');
    const k = await deps.keys.get(i.keyId);
    if (!k || k.orgId !== s.org.id) throw new ApiError('not_found', 'no such key in this organisation');
    if (k.revokedAt) throw new ApiError('invalid_state', 'the key is already revoked');
    await deps.keys.revoke(k.id, now);
    await accounts.audit(s.org.id, actor(s, req), 'key.revoked', `${k.displayPrefix}…${k.lastFour ?? ''}`, null, now);
    return { keyId: k.id, revoked: true };
  });

  app.get('/console/api/usage', async (req) => {
    const now = clock();
    const s = await signedIn(req, now);
    const orgKeys = await deps.keys.list(s.org.id);
    const days = await dailyUsage(orgKeys, now);
    const byOperation: Record<string, number> = {};
    for (const k of orgKeys) {
      for (const [op, units] of Object.entries(deps.meter.keyDay(k.id, now).byOperation)) byOperation[op] = (byOperation[op] ?? 0) + units;
    }
    const plan: Plan = s.org.live ? 'free' : 'sandbox';
    const today = days[days.length - 1] ?? { day: utcDay(now), units: 0, requests: 0 };
    return {
      day: today.day,
      unitsToday: today.units,
      requestsToday: today.requests,
      byOperation,
      days,
      plan,
      ratePerMinute: PlanLimits[plan].ratePerMinute,
      dailyUnitsPerKey: PlanLimits[plan].dailyUnits,
      limits: { dailyUnitsPerKey: PlanLimits[plan].dailyUnits, ...allowances(deps.meter, { orgId: s.org.id, plan }, deps.limits, now) },
      activeKeys: orgKeys.filter((k) => !k.revokedAt).length,
    };
  });

  const caller = (s: SignedIn, now: number, req: FastifyRequest) => ({ orgId: s.org.id, now, actor: { memberId: s.member.memberId, identity: s.member.identity }, ip: ipOf(req) });
  app.get('/console/api/webhooks', async (req) => {
    const now = clock();
    return deps.webhooks.list(caller(await signedIn(req, now), now, req));
  });
  app.post('/console/api/webhooks/create', { preHandler: csrf }, async (req) => {
    const now = clock();
    const s = await signedIn(req, now);
    // the webhook actions write the audit log, for the console and the API alike
    return deps.webhooks.create(parseInput(deps.webhooks.requests.create, requestBody(req), 'body'), caller(s, now, req));
  });
  app.post('/console/api/webhooks/delete', { preHandler: csrf }, async (req) => {
    const now = clock();
    const s = await signedIn(req, now);
    return deps.webhooks.remove(parseInput(deps.webhooks.requests.byEndpoint, requestBody(req), 'body'), caller(s, now, req));
  });
  app.post('/console/api/webhooks/test', { preHandler: csrf }, async (req) => {
    const now = clock();
    const s = await signedIn(req, now);
    return deps.webhooks.test(parseInput(deps.webhooks.requests.byEndpoint, requestBody(req), 'body'), caller(s, now, req));
  });
  // a read, but a POST like the API's operation (its body names the endpoint); no CSRF needed for a read
  app.post('/console/api/webhooks/deliveries', async (req) => {
    const now = clock();
    return deps.webhooks.deliveries(parseInput(deps.webhooks.requests.deliveries, requestBody(req), 'body'), caller(await signedIn(req, now), now, req));
  });

  app.post('/console/api/golive', { preHandler: csrf }, async (req) => {
    const now = clock();
    const s = await signedIn(req, now);
    ownerOnly(s, 'accept pricing and terms and go live');
    parseInput(requests.goLive, requestBody(req), 'body');
    if (s.org.live) throw new ApiError('invalid_state', 'the organisation is already live');
    const { revoked } = await deps.keys.goLive(s.org.id, now, { by: s.member.memberId });
    await accounts.audit(s.org.id, actor(s, req), 'org.went_live', s.org.id, { revokedSandboxKeys: revoked, termsAccepted: true }, now);
    return { live: true, revokedSandboxKeys: revoked, mints: 'key_live_' };
  });

  memberRoutes(app, { accounts, keys: deps.keys, invitations: createInvitations(deps.store), clock, csrf, signedIn, actor, ownerOnly, openSession });

  app.get('/console/api/audit', async (req) => {
    const s = await signedIn(req, clock());
    ownerOnly(s, 'read the audit log');
    const { limit } = parseInput(requests.audit, req.query, 'query');
    const entries = await accounts.auditLog(s.org.id, limit);
    return { entries: entries.map((e) => ({ ...e, at: new Date(e.at).toISOString() })) };
  });
}
