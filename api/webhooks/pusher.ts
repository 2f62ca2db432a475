import { createHash } from 'node:crypto';
import type { Metrics } from '../../infra/metrics.ts';
import type { Store } from '../../infra/store/types.ts';
import { StreamEventNames } from '../../schemas/stream.ts';
import type { StreamEventName } from '../../schemas/stream.ts';
import type { WebhookEventType } from '../../schemas/agents.ts';
import type { ApiKeyRecord, KeyService } from '../../infra/keys.ts';
import type { Plan } from '../../schemas/keys.ts';
import { dailyLimitRefusal } from '../metering.ts';
import type { DailyLimits, DailyRefusal, Meter, MeterView } from '../metering.ts';
import type { HubEvent, StreamHub } from '../stream/hub.ts';
import { STREAM_UNITS_PER_EVENT } from '../stream/endpoint.ts';
import { enqueueForEndpoints, listAllEndpoints, onEndpointsChanged, subscribes } from '../../infra/webhooks/outbox.ts';
import type { OutboxEntry, StoredEndpoint } from '../../infra/webhooks/rows.ts';
import type { WebhookLogger } from './deliverer.ts';

/** units one pushed stream event costs when an endpoint accepts it (2xx): as on the WebSocket */
export const PUSH_UNITS_PER_EVENT = STREAM_UNITS_PER_EVENT;
/** the operation pushed stream events are billed under (the key's usage `byOperation`) */
export const PUSH_OPERATION = 'webhook.push';
/** events waiting to be queued at most; past it an event is dropped (counted as `overflow`) */
const MAX_WAITING = 10_000;

export function isStreamEventType(type: WebhookEventType): type is StreamEventName {
  return (StreamEventNames as readonly string[]).includes(type);
}

/** a hub event as a webhook: its deterministic id, its type, its time and its payload's `data` */
export interface PushedEvent {
  id: string;
  type: StreamEventName;
  /** the event's asOf, unix seconds */
  timestamp: number;
  /** the stream event without the process's seq */
  data: Record<string, unknown>;
}

/**
 * A hub event as it is pushed. Its id is a digest of the event without its `seq`: the topic, the
 * event name, the snapshot version and what the snapshot changed, all derived from the snapshot
 * alone. Every API process runs a hub over the same snapshots, so each derives the same id for the
 * same change and the outbox keeps one row (the first process to queue it wins; a replay after
 * delivery loses to the delivered row's tombstone, so a restart does not push again). What the
 * change brought is part of it: a re-derivation at the same version that changes the fields again
 * is another event, not a repeat.
 */
export function pushedEvent(e: Pick<HubEvent, 'text'>, now: number): PushedEvent {
  const { seq: _seq, ...data } = JSON.parse(e.text) as Record<string, unknown> & { event: StreamEventName; asOf?: unknown };
  const id = `evt_${createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 40)}`;
  const asOf = typeof data.asOf === 'string' ? Date.parse(data.asOf) : NaN;
  return { id, type: data.event, timestamp: Math.floor((Number.isFinite(asOf) ? asOf : now) / 1000), data };
}

/**
 * topic → the endpoints pushed its events: enabled ones, with a key to bill, subscribed to the
 * topic; an endpoint subscribed to several topics is under each.
 */
export function indexEndpoints(endpoints: readonly StoredEndpoint[]): Map<string, StoredEndpoint[]> {
  const index = new Map<string, StoredEndpoint[]>();
  for (const e of endpoints) {
    if (!e.enabled || e.keyId === null) continue;
    for (const t of e.topics) {
      const list = index.get(t);
      if (list) list.push(e);
      else index.set(t, [e]);
    }
  }
  return index;
}

export type PushRefusal = 'key_revoked' | DailyRefusal;

/**
 * Whether a push to an endpoint billed to `key` may be queued now: not when the key is gone or
 * revoked (the stream closes then too), its daily quota has no unit left, or the service's daily
 * budget has none. Events already queued are delivered and billed all the same (the quota is
 * overshot by at most what was queued before it ran out).
 */
export function pushRefusal(key: ApiKeyRecord | undefined, meter: MeterView, limits: DailyLimits, now: number): PushRefusal | undefined {
  if (!key || key.revokedAt) return 'key_revoked';
  return dailyLimitRefusal(meter, key, PUSH_UNITS_PER_EVENT, limits, now);
}

/**
 * The deliverer's `onDelivered`: a pushed stream event an endpoint accepted is billed
 * `PUSH_UNITS_PER_EVENT` to the key that created the endpoint, under `webhook.push`; the other
 * events (agents, executions, tests) are not billed.
 */
export function billPushes(meter: Pick<Meter, 'bill'>, planOf: (keyId: string) => Plan | undefined = () => undefined): (endpoint: StoredEndpoint, e: OutboxEntry, at: number) => void {
  return (endpoint, e, at) => {
    if (!isStreamEventType(e.type) || endpoint.keyId === null) return;
    const sandbox = planOf(endpoint.keyId) === 'sandbox';
    meter.bill({ keyId: endpoint.keyId, orgId: endpoint.orgId, operation: PUSH_OPERATION, units: PUSH_UNITS_PER_EVENT, requestId: `${endpoint.endpointId}:${e.eventId}`, sandbox }, at);
  };
}

export interface WebhookPusherOptions {
  store: Store;
  hub: StreamHub;
  keys: Pick<KeyService, 'get'>;
  meter: MeterView;
  limits: DailyLimits;
  logger: WebhookLogger;
  metrics?: Pick<Metrics, 'inc'>;
  /** how often the endpoints (and their keys) are read again, ms: endpoints made in other processes */
  refreshMs?: number;
  now?: () => number;
}

export interface WebhookPusher {
  /** settles once the first read of the endpoints (started by `startWebhookPusher`) is done */
  readonly ready: Promise<void>;
  /** reads the endpoints and their keys again (also done every `refreshMs` and on this process's changes) */
  refresh(): Promise<void>;
  /** resolves once every event heard so far is queued (or refused) */
  idle(): Promise<void>;
  /** the plan of an endpoint's key, as last read (what a delivered push counts against: `billPushes`) */
  planOf(keyId: string): Plan | undefined;
  /** stops listening, then queues what it heard */
  stop(): Promise<void>;
}

/**
 * Pushes the live stream's events to the webhook endpoints subscribed to their topics: each hub
 * event whose topic an endpoint subscribes to is queued in the outbox for it (its `events` filter
 * applies), under the event's deterministic id (`pushedEvent`), so that several API processes
 * each running a pusher queue it once. Which endpoints subscribe to which topic is an index in
 * memory, read from the store every `refreshMs` (endpoints created in another process) and at once
 * when this process creates, disables or deletes one: an event reads no endpoint from the store.
 * Events are queued one at a time in the hub's order, so an endpoint's deliveries keep it.
 *
 * What is pushed is billed on delivery (`billPushes`); an event the endpoint's key may not be
 * billed for (revoked, a quota, the sandbox share, the budget) is not queued, and counted in
 * `intel_webhook_push_total{result}` with the other outcomes. An event heard but not yet queued
 * when the process crashes is lost here; another API process over the same snapshots queues it.
 */
export function startWebhookPusher(opts: WebhookPusherOptions): WebhookPusher {
  const { store, logger } = opts;
  const now = opts.now ?? Date.now;
  let index = new Map<string, StoredEndpoint[]>();
  let keysById = new Map<string, ApiKeyRecord | undefined>();
  const waiting: HubEvent[] = [];
  let pumping: Promise<void> | undefined;
  let refreshing: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const count = (result: string, by = 1) => opts.metrics?.inc('intel_webhook_push_total', { result }, by);

  async function readIndex(): Promise<void> {
    const endpoints = await listAllEndpoints(store);
    const next = indexEndpoints(endpoints);
    const keys = new Map<string, ApiKeyRecord | undefined>();
    for (const list of next.values()) {
      for (const e of list) {
        if (e.keyId !== null && !keys.has(e.keyId)) keys.set(e.keyId, await opts.keys.get(e.keyId));
      }
    }
    index = next;
    keysById = keys;
  }

  /** one read at a time; asked during one, it reads once more after it (a change it may have missed) */
  function refresh(): Promise<void> {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        try {
          await readIndex();
        } catch (err) {
          logger.warn({ err }, 'reading the webhook endpoints for the stream pushes failed; the last index stays');
        }
      } while (again && !stopped);
    })().finally(() => (refreshing = undefined));
    return refreshing;
  }

  async function push(e: HubEvent): Promise<void> {
    const targets = index.get(e.topic);
    if (!targets) return;
    const event = pushedEvent(e, now());
    const at = now();
    const byOrg = new Map<string, string[]>();
    for (const ep of targets) {
      if (!subscribes(ep, event.type)) continue;
      const refused = pushRefusal(keysById.get(ep.keyId as string), opts.meter, opts.limits, at);
      if (refused) {
        count(refused);
        continue;
      }
      const ids = byOrg.get(ep.orgId);
      if (ids) ids.push(ep.endpointId);
      else byOrg.set(ep.orgId, [ep.endpointId]);
    }
    for (const [orgId, endpointIds] of byOrg) {
      try {
        await enqueueForEndpoints(store, { id: event.id, orgId, type: event.type, data: event.data, timestamp: event.timestamp }, endpointIds);
        count('queued', endpointIds.length);
      } catch (err) {
        count('failed', endpointIds.length);
        logger.warn({ err, eventId: event.id, orgId }, 'a stream event could not be queued for its webhook endpoints');
      }
    }
  }

  function pump(): Promise<void> {
    pumping ??= (async () => {
      for (let e = waiting.shift(); e; e = waiting.shift()) await push(e);
    })().finally(() => (pumping = undefined));
    return pumping;
  }

  const unlisten = opts.hub.listen((e) => {
    // most events are on topics no endpoint subscribes to: dropped here, without parsing
    if (stopped || !index.has(e.topic)) return;
    if (waiting.length >= MAX_WAITING) {
      count('overflow');
      return;
    }
    waiting.push(e);
    void pump();
  });
  const unwatch = onEndpointsChanged(store, () => void refresh());
  const timer = setInterval(() => void refresh(), opts.refreshMs ?? 5000);
  timer.unref();
  const ready = refresh();

  return {
    ready,
    refresh,
    planOf: (keyId) => keysById.get(keyId)?.plan,
    async idle() {
      while (pumping) await pumping;
    },
    async stop() {
      stopped = true;
      unlisten();
      unwatch();
      clearInterval(timer);
      while (refreshing) await refreshing;
      while (pumping) await pumping;
    },
  };
}
