import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../schemas/errors.ts';
import { requestBody } from '../plugins/errors.ts';
import { parseInput } from '../validate.ts';
import type { ConsoleContext } from './context.ts';

const requests = {
  goLive: z.object({ acceptTerms: z.literal(true, { error: 'the pricing and terms must be accepted (true)' }) }),
  audit: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
};

/** The owner's organisation-wide acts: accepting pricing and terms to go live (its sandbox keys revoked), and reading the audit log. */
export function orgRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { accounts, clock, csrf, deps } = ctx;

  app.post('/console/api/golive', { preHandler: csrf }, async function goLive(req) {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    ctx.ownerOnly(s, 'accept pricing and terms and go live');
    parseInput(requests.goLive, requestBody(req), 'body');
    if (s.org.live) throw new ApiError('invalid_state', 'the organisation is already live');
    const { revoked } = await deps.keys.goLive(s.org.id, now, { by: s.member.memberId });
    await accounts.audit(s.org.id, ctx.actor(s, req), 'org.went_live', s.org.id, { revokedSandboxKeys: revoked, termsAccepted: true }, now);
    return { live: true, revokedSandboxKeys: revoked, mints: 'key_live_' };
  });

  app.get('/console/api/audit', async function auditLog(req) {
    const s = await ctx.signedIn(req, clock());
    ctx.ownerOnly(s, 'read the audit log');
    const { limit } = parseInput(requests.audit, req.query, 'query');
    const entries = await accounts.auditLog(s.org.id, limit);
    return { entries: entries.map((e) => ({ ...e, at: new Date(e.at).toISOString() })) };
  });
}
