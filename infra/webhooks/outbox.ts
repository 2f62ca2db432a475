import { rowOf } from '../rows.ts';
import type { Row, Store } from '../store/types.ts';
import type { WebhookEventType } from '../../schemas/agents.ts';
import { EndpointRow, OutboxRow, tombstone } from './rows.ts';
import type { OutboxEntry, StoredEndpoint } from './rows.ts';

/** One event raised for an organisation: agent and execution lifecycle, a test, or a stream event pushed. */
export interface WebhookEvent {
  /** the event's identity, sent as `webhook-id`: the same id enqueued again is the same delivery */
  id: string;
  orgId: string;
  type: WebhookEventType;
  /** the payload's `data` (JSON) */
  data: unknown;
  /** when it happened, unix seconds */
  timestamp: number;
}

/** listeners in this process, per store, told when something happened on that store here */
function storeSignal() {
  const listeners = new WeakMap<Store, Set<() => void>>();
  return {
    /** call `fn` whenever it happens on `store` in this process; returns the unsubscribe */
    on(store: Store, fn: () => void): () => void {
      let set = listeners.get(store);
      if (!set) listeners.set(store, (set = new Set()));
      set.add(fn);
      return () => set.delete(fn);
    },
    fire(store: Store): void {
      for (const fn of listeners.get(store) ?? []) fn();
    },
  };
}

/** deliverers in this process, woken when an event is queued on their store (others poll) */
const enqueued = storeSignal();
/** call `wake` whenever an event is queued on `store` in this process; returns the unsubscribe */
export const onWebhookEnqueued = enqueued.on;

/** pushers in this process, told when an endpoint is created, disabled or deleted on their store (others read it again periodically) */
const endpointChanges = storeSignal();
/** call `fn` whenever this process creates, disables or deletes an endpoint on `store`; returns the unsubscribe */
export const onEndpointsChanged = endpointChanges.on;
/** tells this process's listeners that the endpoints of `store` changed (after the write) */
export const endpointsChanged = endpointChanges.fire;

/** every organisation's endpoints, deleted ones excluded */
export async function listAllEndpoints(store: Store): Promise<StoredEndpoint[]> {
  return decodeEndpoints(await store.list(EndpointRow.table));
}

function decodeEndpoints(rows: Row[]): StoredEndpoint[] {
  const out: StoredEndpoint[] = [];
  for (const r of rows) {
    const e = EndpointRow.codec.decode(r.body);
    if (e) out.push(e);
  }
  return out;
}

/** the queue order of the rows enqueued in this process: microseconds, strictly increasing */
let lastQueued = 0;
function nextQueued(): number {
  lastQueued = Math.max(lastQueued + 1, Date.now() * 1000);
  return lastQueued;
}

/** the organisation's endpoints, deleted ones excluded */
export async function listEndpoints(store: Store, orgId: string): Promise<StoredEndpoint[]> {
  return decodeEndpoints(await store.list(EndpointRow.table, { prefix: EndpointRow.orgPrefix(orgId) }));
}

export function subscribes(endpoint: StoredEndpoint, type: WebhookEventType): boolean {
  return endpoint.events === null || endpoint.events.includes(type);
}

/**
 * Queues an event for every enabled endpoint of its organisation subscribed to its type: one
 * outbox row per (endpoint, event id). Idempotent: the same event id again adds nothing for an
 * endpoint that has it queued, and a replay of an event already delivered loses to the delivered
 * row's tombstone (infra/webhooks/rows.ts), so an event is never sent under two ids nor queued
 * twice. Resolves once the rows are in the store (durable); the delivery is the deliverer's.
 */
export async function enqueueWebhookEvent(store: Store, event: WebhookEvent): Promise<void> {
  const endpoints = (await listEndpoints(store, event.orgId)).filter((e) => e.enabled && subscribes(e, event.type));
  await enqueueForEndpoints(store, event, endpoints.map((e) => e.endpointId));
}

/** queues the event for these endpoints of its organisation only (the test event) */
export async function enqueueForEndpoints(store: Store, event: WebhookEvent, endpointIds: string[]): Promise<void> {
  if (!event.id) throw new Error('a webhook event needs an id');
  if (!Number.isFinite(event.timestamp)) throw new Error(`webhook event ${event.id}: timestamp must be unix seconds`);
  const rows: Row[] = [];
  for (const endpointId of endpointIds) {
    const key = OutboxRow.key(event.orgId, endpointId, event.id);
    if (await store.get(OutboxRow.table, key)) continue;
    const entry: OutboxEntry = {
      orgId: event.orgId,
      endpointId,
      eventId: event.id,
      type: event.type,
      timestamp: event.timestamp,
      data: event.data ?? null,
      attempts: 0,
      nextAt: 0,
      firstAttemptAt: null,
      lastError: null,
      queued: nextQueued(),
    };
    rows.push(rowOf(OutboxRow, entry, 1, event.orgId, endpointId, event.id));
  }
  if (rows.length === 0) return;
  await store.upsert(OutboxRow.table, rows);
  enqueued.fire(store);
}

/**
 * Drops every event queued for an endpoint (deleted, or disabled by a 410): tombstones, so a
 * replayed enqueue never queues one again; how many were queued.
 */
export async function dropQueued(store: Store, orgId: string, endpointId: string): Promise<number> {
  const queued = await store.list(OutboxRow.table, { prefix: OutboxRow.endpointPrefix(orgId, endpointId) });
  await store.upsert(OutboxRow.table, queued.map((r) => tombstone(r.key)));
  return queued.length;
}
