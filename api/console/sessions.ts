import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../schemas/errors.ts';
import type { Plan } from '../../schemas/keys.ts';
import { requestBody } from '../plugins/errors.ts';
import { parseInput } from '../validate.ts';
import type { ConsoleContext } from './context.ts';
import { memberView } from './members.ts';

const SessionRevoke = z.object({ sessionId: z.string().regex(/^ses_[0-9a-f]{24}$/, 'must be a session id') });

/**
 * The signed-in member's view of itself and the organisation's sessions: an owner sees and revokes
 * every member's, a member its own.
 */
export function sessionRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { accounts, clock, csrf } = ctx;

  app.get('/console/api/me', async function me(req) {
    const s = await ctx.signedIn(req, clock());
    const plan: Plan = s.org.live ? 'free' : 'sandbox';
    return {
      org: { orgId: s.org.id, name: s.org.name, live: s.org.live, plan, termsAcceptedAt: s.org.termsAcceptedAt ?? null },
      member: memberView(s.member),
      session: { sessionId: s.session.sessionId, method: s.session.method, expiresAt: new Date(s.session.expiresAt).toISOString() },
    };
  });

  app.get('/console/api/sessions', async function sessions(req) {
    const now = clock();
    const s = await ctx.signedIn(req, now);
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

  app.post('/console/api/sessions/revoke', { preHandler: csrf }, async function revokeSession(req) {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    const i = parseInput(SessionRevoke, requestBody(req), 'body');
    const target = (await accounts.sessions(s.org.id, now)).find((x) => x.sessionId === i.sessionId);
    if (!target || (s.member.role !== 'owner' && target.memberId !== s.member.memberId)) throw new ApiError('not_found', `no open session ${i.sessionId} you can revoke`);
    await accounts.revokeSession(s.org.id, i.sessionId, now);
    await accounts.audit(s.org.id, ctx.actor(s, req), 'session.revoked', i.sessionId, null, now);
    return { sessionId: i.sessionId, revoked: true };
  });
}
