import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SignedIn } from './accounts.ts';
import type { ConsoleContext } from './context.ts';
import { requestBody } from '../plugins/errors.ts';
import { parseInput } from '../validate.ts';

/**
 * The organisation's webhook endpoints, through the webhook actions the API's operations use (they
 * write the audit log, for the console and the API alike).
 */
export function webhookRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { clock, csrf } = ctx;
  const { webhooks } = ctx.deps;
  const caller = (s: SignedIn, now: number, req: FastifyRequest) => ({ orgId: s.org.id, now, actor: { memberId: s.member.memberId, identity: s.member.identity }, ip: ctx.ipOf(req) });

  app.get('/console/api/webhooks', async function listWebhooks(req) {
    const now = clock();
    return webhooks.list(caller(await ctx.signedIn(req, now), now, req));
  });
  app.post('/console/api/webhooks/create', { preHandler: csrf }, async function createWebhook(req) {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    return webhooks.create(parseInput(webhooks.requests.create, requestBody(req), 'body'), caller(s, now, req));
  });
  app.post('/console/api/webhooks/delete', { preHandler: csrf }, async function deleteWebhook(req) {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    return webhooks.remove(parseInput(webhooks.requests.byEndpoint, requestBody(req), 'body'), caller(s, now, req));
  });
  app.post('/console/api/webhooks/test', { preHandler: csrf }, async function testWebhook(req) {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    return webhooks.test(parseInput(webhooks.requests.byEndpoint, requestBody(req), 'body'), caller(s, now, req));
  });
  // a read, but a POST like the API's operation (its body names the endpoint); no CSRF needed for a read
  app.post('/console/api/webhooks/deliveries', async function webhookDeliveries(req) {
    const now = clock();
    return webhooks.deliveries(parseInput(webhooks.requests.deliveries, requestBody(req), 'body'), caller(await ctx.signedIn(req, now), now, req));
  });
}
