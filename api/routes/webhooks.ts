import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { readRow, rowOf } from '../../infra/rows.ts';
import type { Store } from '../../infra/store/types.ts';
import { WebhookEventType } from '../../schemas/agents.ts';
import { ChainSlugs } from '../../schemas/chains.ts';
import { ApiError } from '../../schemas/errors.ts';
import { NextCursor } from '../../schemas/common.ts';
import { WebhookDelivery, WebhookEndpoint, WebhookEndpointCreated, WebhookEndpointId } from '../../schemas/webhooks.ts';
import type { AnyOperation, CallContext } from '../operations.ts';
import { defineOperation } from '../operations.ts';
import { keysetPage } from '../../infra/page.ts';
import { CursorParam, decodeCursor, encodeCursor, queryInt } from './common.ts';
import { dropQueued, endpointsChanged, enqueueForEndpoints, listEndpoints } from '../../infra/webhooks/outbox.ts';
import { PUSH_UNITS_PER_EVENT } from '../webhooks/pusher.ts';
import { checkTopics } from '../stream/topics.ts';
import { DeliveryRow, EndpointRow, OutboxRow, tombstone } from '../../infra/webhooks/rows.ts';
import type { StoredEndpoint } from '../../infra/webhooks/rows.ts';
import { newWebhookSecret } from '../webhooks/signing.ts';
import { resolveDestination, webhookUrlProblem } from '../webhooks/destination.ts';
import type { Resolver } from '../webhooks/destination.ts';
import { apiKeyActor, createAuditWriter } from '../console/audit.ts';
import type { AuditActor, AuditWriter } from '../console/audit.ts';

/** endpoints an organisation may have at once */
export const MAX_ENDPOINTS = 20;
/** topics an endpoint may subscribe to when the deployment's STREAM_MAX_TOPICS is not given */
const DEFAULT_MAX_TOPICS = 100;

export interface WebhookRouteDeps {
  store: Store;
  /**
   * accept loopback and private-network URLs, over http too (WEBHOOKS_ALLOW_LOCAL; development
   * and tests). Off by default: the deliverer would POST from inside the deployment, to its
   * operator port or its store.
   */
  allowLocal: boolean;
  /** resolves an endpoint's name to check where it points (default the system's; tests give their own) */
  resolve?: Resolver;
  /** the chains this deployment ingests: a topic on another is refused (default: every chain) */
  chains?: readonly string[];
  /** topics an endpoint may subscribe to at most (STREAM_MAX_TOPICS, as per stream connection) */
  maxTopics?: number;
  /** the organisations' audit log, where every change to an endpoint is written (default: the store's) */
  audit?: AuditWriter;
}

export { webhookUrlProblem };

function view(e: StoredEndpoint): WebhookEndpoint {
  return {
    endpointId: e.endpointId,
    url: e.url,
    events: e.events,
    topics: e.topics,
    keyId: e.keyId,
    description: e.description,
    enabled: e.enabled,
    disabledAt: e.disabledAt === null ? null : new Date(e.disabledAt).toISOString(),
    disabledReason: e.disabledReason,
    createdAt: new Date(e.createdAt).toISOString(),
  };
}

/** who a webhook action is for: the API key's organisation, or the console session's */
export interface WebhookCaller {
  orgId: string;
  /** the API key calling (absent: the console): an endpoint's pushed stream events are billed to it */
  keyId?: string;
  /** ms since epoch */
  now: number;
  /** who it is, for the audit log: the console's member, or the API key */
  actor: AuditActor;
  /** the client's address, for the audit log (none known: null) */
  ip: string | null;
}

/**
 * What can be done to an organisation's webhook endpoints: the webhooks operations below (keyed
 * by an API key) and the console's webhooks panel (signed in) both call these.
 */
export function createWebhookActions(deps: WebhookRouteDeps) {
  const { store, allowLocal } = deps;
  const audit = deps.audit ?? createAuditWriter(store);
  const chains = deps.chains ?? ChainSlugs;
  const maxTopics = deps.maxTopics ?? DEFAULT_MAX_TOPICS;

  async function owned(endpointId: string, orgId: string): Promise<StoredEndpoint> {
    const e = await readRow(store, EndpointRow, orgId, endpointId);
    if (!e) throw new ApiError('not_found', `no webhook endpoint ${endpointId} in this organisation`);
    return e;
  }

  const Url = z
    .string()
    .max(2048)
    .superRefine((v, c) => {
      const problem = webhookUrlProblem(v, allowLocal);
      if (problem) c.addIssue({ code: 'custom', message: problem });
    })
    .meta({ description: 'where events are POSTed: https on port 443 to a name or address that is public (loopback and private addresses only where the deployment allows them, for development)' });
  const ByEndpoint = z.object({ endpointId: WebhookEndpointId });
  const requests = {
    create: z.object({
      url: Url,
      events: z.array(WebhookEventType).min(1).max(WebhookEventType.options.length).optional().meta({ description: 'event types to send; every type when omitted' }),
      topics: z
        .array(z.string().max(200))
        .min(1)
        .max(maxTopics)
        .optional()
        .meta({
          description: `live stream topics whose events are pushed to it, as the WebSocket stream subscribes to them: token:<chain>:<address> (token.changed), board:<chain> (board.changed), wallet:<chain>:<address> (wallet.grade); at most ${maxTopics}. Each pushed event it answers 2xx to costs ${PUSH_UNITS_PER_EVENT} unit, billed to this key`,
        }),
      description: z.string().max(200).optional(),
    }),
    byEndpoint: ByEndpoint,
    list: z.object({ limit: queryInt(1, 100, MAX_ENDPOINTS, 'how many endpoints'), cursor: CursorParam }),
    deliveries: ByEndpoint.extend({ limit: z.number().int().min(1).max(200).default(50), cursor: CursorParam }),
  };

  return {
    requests,
    async create(i: z.output<typeof requests.create>, caller: WebhookCaller): Promise<z.infer<typeof WebhookEndpointCreated>> {
      const existing = await listEndpoints(store, caller.orgId);
      if (existing.length >= MAX_ENDPOINTS) {
        throw new ApiError('invalid_param', `an organisation has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`);
      }
      // the name resolved now: a name pointing inside the deployment is refused here (and at each delivery)
      const destination = await resolveDestination(i.url, { allowLocal, resolve: deps.resolve });
      if (!destination.ok) throw new ApiError('invalid_param', `'url': ${destination.problem}`);
      let topics: string[] = [];
      if (i.topics) {
        // the pushes are billed per event: to the API key creating the endpoint (the console has none)
        if (caller.keyId === undefined) throw new ApiError('invalid_param', "'topics': stream pushes are billed to an API key: subscribe an endpoint to topics with the API's /webhooks/create");
        topics = checkTopics(i.topics, chains, maxTopics, 'endpoint');
      }
      const e: StoredEndpoint = {
        endpointId: `ep_${randomBytes(12).toString('hex')}`,
        orgId: caller.orgId,
        url: i.url,
        events: i.events ? [...new Set(i.events)] : null,
        topics,
        keyId: caller.keyId ?? null,
        description: i.description ?? null,
        secret: newWebhookSecret(),
        enabled: true,
        disabledAt: null,
        disabledReason: null,
        createdAt: caller.now,
      };
      await store.upsert(EndpointRow.table, [rowOf(EndpointRow, e, 1, e.orgId, e.endpointId)]);
      endpointsChanged(store);
      await audit(e.orgId, caller.actor, caller.ip, 'webhook.created', e.endpointId, { url: e.url, events: e.events, topics: e.topics }, caller.now);
      return { ...view(e), secret: e.secret };
    },
    /** oldest first, by (created, id): neither changes, so a page never shifts when endpoints are added, disabled or deleted */
    async list(caller: WebhookCaller, i: z.output<typeof requests.list> = { limit: MAX_ENDPOINTS }): Promise<{ endpoints: WebhookEndpoint[]; next: string | null }> {
      const list = 'webhookList';
      const page = keysetPage(await listEndpoints(store, caller.orgId), (e) => [e.createdAt, e.endpointId], { limit: i.limit, after: decodeCursor(list, i.cursor) });
      return { endpoints: page.items.map(view), next: encodeCursor(list, page.next) };
    },
    async remove(i: z.output<typeof ByEndpoint>, caller: WebhookCaller) {
      const e = await owned(i.endpointId, caller.orgId);
      await store.upsert(EndpointRow.table, [tombstone(EndpointRow.key(e.orgId, e.endpointId))]);
      endpointsChanged(store);
      await audit(e.orgId, caller.actor, caller.ip, 'webhook.deleted', e.endpointId, { url: e.url }, caller.now);
      // the deliverer also drops rows whose endpoint is gone; this keeps the outbox small at once
      await dropQueued(store, e.orgId, e.endpointId);
      return { endpointId: e.endpointId, deleted: true as const };
    },
    async test(i: z.output<typeof ByEndpoint>, caller: WebhookCaller) {
      const e = await owned(i.endpointId, caller.orgId);
      if (!e.enabled) throw new ApiError('invalid_param', `'endpointId': the endpoint is disabled (${e.disabledReason ?? 'disabled'}); create a new one`);
      const eventId = `evt_test_${randomUUID().replace(/-/g, '')}`;
      const data = { endpointId: e.endpointId, message: 'a test event sent from the webhooks API' };
      await enqueueForEndpoints(store, { id: eventId, orgId: e.orgId, type: 'webhook.test', data, timestamp: Math.floor(caller.now / 1000) }, [e.endpointId]);
      await audit(e.orgId, caller.actor, caller.ip, 'webhook.test_sent', e.endpointId, { eventId }, caller.now);
      return { endpointId: e.endpointId, eventId, type: 'webhook.test' as const };
    },
    /**
     * Newest attempt first, a keyset page of the log's keys (time inverted, event, attempt): an
     * attempt made since the last page is newer than its cursor, so it is never repeated further on.
     */
    async deliveries(i: z.output<typeof requests.deliveries>, caller: WebhookCaller) {
      const e = await owned(i.endpointId, caller.orgId);
      const list = `webhookDeliveries:${e.endpointId}`;
      const prefix = DeliveryRow.endpointPrefix(e.orgId, e.endpointId);
      const after = decodeCursor(list, i.cursor)?.[0];
      if (after !== undefined && typeof after !== 'string') throw new ApiError('invalid_param', "'cursor': is not a cursor of this list");
      // one more than the page: whether there is a next page
      const rows = await store.list(DeliveryRow.table, { prefix, ...(after !== undefined ? { after: prefix + after } : {}), limit: i.limit + 1 });
      const page = rows.slice(0, i.limit);
      const deliveries: WebhookDelivery[] = [];
      for (const r of page) {
        const d = DeliveryRow.codec.decode(r.body);
        if (d) deliveries.push(d);
      }
      const last = page[page.length - 1];
      const next = rows.length > i.limit && last ? encodeCursor(list, [last.key.slice(prefix.length)]) : null;
      const pending = (await store.list(OutboxRow.table, { prefix: OutboxRow.endpointPrefix(e.orgId, e.endpointId) })).length;
      return { endpointId: e.endpointId, pending, deliveries, next };
    },
  };
}

const callerOf = (ctx: CallContext): WebhookCaller => ({ orgId: ctx.key.orgId, keyId: ctx.key.id, now: ctx.now, actor: apiKeyActor(ctx.key), ip: ctx.ip ?? null });

/**
 * The webhooks operations (docs/copy-execution.md, "How it works": webhooks; the console's
 * webhooks panel calls the same actions): create, list and delete an organisation's endpoints,
 * send one a test event, read its delivery log. Endpoints belong to the API key's organisation:
 * another organisation's endpoint id answers 404 not_found. They cost 0 units (configuration, not
 * data, like `usage`) and are rate limited like every operation; the stream events an endpoint
 * subscribed to topics accepts are billed per delivery (api/webhooks/pusher.ts).
 */
export function createWebhookOperations(deps: WebhookRouteDeps): AnyOperation[] {
  const actions = createWebhookActions(deps);
  const { requests } = actions;
  return [
    defineOperation({
      id: 'webhookCreate',
      method: 'POST',
      path: '/webhooks/create',
      cost: 0,
      group: 'infra',
      summary: `Registers a webhook endpoint for the key's organisation: agent and execution events, and with topics the live stream's events pushed (${PUSH_UNITS_PER_EVENT} unit per event delivered, billed to this key); its signing secret is shown only in this answer`,
      returns: `the endpoint with its secret (whsec_…, shown once); the call costs 0, each stream event it accepts (2xx) ${PUSH_UNITS_PER_EVENT} unit under webhook.push`,
      request: requests.create,
      response: WebhookEndpointCreated,
      handler: async (i, ctx) => actions.create(i, callerOf(ctx)),
    }),
    defineOperation({
      id: 'webhookList',
      method: 'GET',
      path: '/webhooks/list',
      cost: 0,
      group: 'infra',
      summary: "The webhook endpoints of the key's organisation, oldest first (secrets are not shown again)",
      returns: 'endpoints[]: endpointId, url, events, enabled; next',
      request: requests.list,
      response: z.object({ endpoints: z.array(WebhookEndpoint), next: NextCursor }),
      handler: async (i, ctx) => actions.list(callerOf(ctx), i),
    }),
    defineOperation({
      id: 'webhookDelete',
      method: 'POST',
      path: '/webhooks/delete',
      cost: 0,
      group: 'infra',
      summary: 'Deletes a webhook endpoint; its queued events are dropped',
      returns: 'endpointId, deleted',
      request: requests.byEndpoint,
      response: z.object({ endpointId: z.string(), deleted: z.literal(true) }),
      handler: async (i, ctx) => actions.remove(i, callerOf(ctx)),
    }),
    defineOperation({
      id: 'webhookTest',
      method: 'POST',
      path: '/webhooks/test',
      cost: 0,
      group: 'infra',
      summary: 'Queues a `webhook.test` event for one endpoint, signed and delivered like every event',
      returns: 'endpointId, eventId, type',
      request: requests.byEndpoint,
      response: z.object({ endpointId: z.string(), eventId: z.string(), type: z.literal('webhook.test') }),
      handler: async (i, ctx) => actions.test(i, callerOf(ctx)),
    }),
    defineOperation({
      id: 'webhookDeliveries',
      method: 'POST',
      path: '/webhooks/deliveries',
      cost: 0,
      group: 'infra',
      summary: "An endpoint's delivery log, newest attempt first (kept 30 days), and how many events are queued for it",
      returns: 'deliveries[]: eventId, type, attempt, statusCode or error, result, nextRetryAt; pending; next',
      request: requests.deliveries,
      response: z.object({
        endpointId: z.string(),
        pending: z.number().int().nonnegative().meta({ description: 'events queued for it, not yet delivered' }),
        deliveries: z.array(WebhookDelivery),
        next: NextCursor,
      }),
      handler: async (i, ctx) => actions.deliveries(i, callerOf(ctx)),
    }),
  ];
}
