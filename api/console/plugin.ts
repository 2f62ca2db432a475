import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { createConsoleContext } from './context.ts';
import type { ConsolePluginDeps } from './context.ts';
import { keyRoutes } from './key-routes.ts';
import { invitationRoutes, memberRoutes } from './members.ts';
import { orgRoutes } from './org.ts';
import { sessionRoutes } from './sessions.ts';
import { signInRoutes } from './signin.ts';
import { usageRoutes } from './usage.ts';
import { webhookRoutes } from './webhooks.ts';

export type { ConsoleDeps } from './context.ts';

const CSRF_COOKIE = 'console_csrf';

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

/**
 * The partner console (docs/console.md): its pages at /console and their JSON calls
 * at /console/api/*. Sign-in by Sign-In with Ethereum or an e-mail link; a session cookie
 * (HttpOnly, SameSite=Lax, Secure behind TLS); every state change carries a CSRF token
 * (@fastify/csrf-protection: a secret in its own HttpOnly cookie, the token in `x-csrf-token`);
 * sign-in, sign-up and key creation are rate limited per client address and per identity
 * (./limits.ts); the one canonical origin names the SIWE domain and the e-mail links; members
 * join by invitation (./members.ts). Not partner API operations: never keyed, limited or
 * metered, and absent from the catalog; their errors have the API's shape. The calls are route
 * groups over one context (./context.ts: the session, the CSRF check, the rates).
 */
export async function consolePlugin(app: FastifyInstance, deps: ConsolePluginDeps): Promise<void> {
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

  const ctx = createConsoleContext(app, deps);
  for (const routes of [signInRoutes, sessionRoutes, keyRoutes, usageRoutes, webhookRoutes, orgRoutes, memberRoutes, invitationRoutes]) routes(app, ctx);
}
