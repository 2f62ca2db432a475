import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isAddress } from 'viem';
import { createSiweMessage, generateSiweNonce } from 'viem/siwe';
import { z } from 'zod';
import { ApiError } from '../../schemas/errors.ts';
import { requestBody } from '../plugins/errors.ts';
import { parseInput } from '../validate.ts';
import { SESSION_COOKIE } from './context.ts';
import type { ConsoleContext } from './context.ts';
import { Email } from './members.ts';
import { checkSiweMessage, createSiweVerifier } from './siwe.ts';

const SIWE_NONCE_TTL_MS = 10 * 60_000;
const EMAIL_LINK_TTL_MS = 15 * 60_000;

const EvmAddress = z.string().refine((v) => isAddress(v, { strict: false }), 'must be a 0x address of 40 hex digits');

const requests = {
  siweChallenge: z.object({ address: EvmAddress, chainId: z.number().int().min(1).max(2 ** 53 - 1) }),
  siweVerify: z.object({ message: z.string().min(1).max(4000), signature: z.string().regex(/^0x[0-9a-fA-F]+$/, 'must be 0x-prefixed hex').max(20_000) }),
  emailStart: z.object({ email: Email }),
  emailVerify: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the token of a sign-in link') }),
};

/**
 * Signing in and out: the CSRF token, Sign-In with Ethereum (a challenge naming the canonical
 * origin, then its signature), an e-mail link (its token in the fragment), and signing out. Every
 * sign-in step is limited per client address, a challenge also per identity (./limits.ts).
 */
export function signInRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { accounts, clock, csrf, rates, deps } = ctx;
  const verifySiwe = createSiweVerifier(deps.rpcUrls);

  app.get('/console/api/csrf', async (_req, reply) => ({ csrfToken: reply.generateCsrf() }));

  app.post('/console/api/siwe/challenge', { preHandler: csrf }, async function siweChallenge(req) {
    const now = clock();
    rates.signIn(req.ip, now);
    const i = parseInput(requests.siweChallenge, requestBody(req), 'body');
    rates.signInFor(`wallet:${i.address.toLowerCase()}`, now);
    const nonce = generateSiweNonce();
    await accounts.issueChallenge('siwe', nonce, null, now, SIWE_NONCE_TTL_MS);
    const { domain, origin: uri } = ctx.canonical();
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

  app.post('/console/api/siwe/verify', { preHandler: csrf }, async function siweVerify(req, reply) {
    const now = clock();
    rates.signIn(req.ip, now);
    const i = parseInput(requests.siweVerify, requestBody(req), 'body');
    const check = checkSiweMessage(i.message, ctx.canonical(), now);
    if (!check.ok) throw new ApiError('signin_failed', check.reason);
    // used before the signature is checked: a nonce is good for one attempt, replays are refused
    if (!(await accounts.useChallenge('siwe', check.message.nonce, now))) {
      throw new ApiError('signin_failed', 'the nonce is unknown, expired or already used; ask for a new one');
    }
    if (!(await verifySiwe(i.message, check.message, i.signature))) {
      throw new ApiError('signin_failed', `the signature is not ${check.message.address.toLowerCase()}'s (an EOA's, or a smart-contract wallet's on a chain this deployment has an RPC for)`);
    }
    return ctx.startSession(req, reply, `wallet:${check.message.address.toLowerCase()}`, 'siwe', now);
  });

  app.post('/console/api/email/start', { preHandler: csrf }, async function emailStart(req) {
    const now = clock();
    rates.signIn(req.ip, now);
    const i = parseInput(requests.emailStart, requestBody(req), 'body');
    rates.signInFor(`email:${i.email}`, now);
    const token = randomBytes(32).toString('base64url');
    await accounts.issueChallenge('email', accounts.tokenKey(token), i.email, now, EMAIL_LINK_TTL_MS);
    // the token travels in the fragment: never sent to a server, never in an access log
    await deps.mailer.send(i.email, `${ctx.canonical().origin}/console#email-token=${token}`);
    return { sent: true, email: i.email, delivery: deps.mailer.kind, expiresInSeconds: EMAIL_LINK_TTL_MS / 1000 };
  });

  app.post('/console/api/email/verify', { preHandler: csrf }, async function emailVerify(req, reply) {
    const now = clock();
    rates.signIn(req.ip, now);
    const i = parseInput(requests.emailVerify, requestBody(req), 'body');
    const c = await accounts.useChallenge('email', accounts.tokenKey(i.token), now);
    if (!c?.email) throw new ApiError('signin_failed', 'the sign-in link is unknown, expired or already used; ask for a new one');
    return ctx.startSession(req, reply, `email:${c.email}`, 'email', now);
  });

  app.post('/console/api/signout', { preHandler: csrf }, async function signOut(req, reply) {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    await accounts.revokeSession(s.org.id, s.session.sessionId, now);
    await accounts.audit(s.org.id, ctx.actor(s, req), 'session.signed_out', s.session.sessionId, null, now);
    void reply.clearCookie(SESSION_COOKIE, { path: '/console' });
    return { signedOut: true };
  });
}
