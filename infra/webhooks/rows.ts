import { z } from 'zod';
import { jsonCodec } from '../codec.ts';
import { newestFirstMs } from '../rows.ts';
import type { RowDef } from '../rows.ts';
import type { Row } from '../store/types.ts';
import { Tables } from '../store/types.ts';
import { WebhookEventType } from '../../schemas/agents.ts';
import { WebhookDelivery } from '../../schemas/webhooks.ts';

/**
 * The webhook rows of the store: endpoints, the outbox and the delivery log.
 *
 * Versions: an endpoint is written at 1 and disabled at 2; an outbox row is enqueued at 1 and
 * rescheduled at its attempt count + 1. Deleting either writes a tombstone at FINAL_VERSION,
 * which no later write outranks: a deleted endpoint is never revived by a late disable, and an
 * event delivered (or given up, or dropped) is never queued again by a replayed enqueue, whose
 * version-1 write loses to the tombstone. Both adapters keep tombstones, so this holds across
 * restarts; the outbox grows by one small tombstone per delivered event and endpoint.
 */
export const FINAL_VERSION = Number.MAX_SAFE_INTEGER;

export const StoredEndpoint = z.object({
  endpointId: z.string(),
  orgId: z.string(),
  url: z.string(),
  events: z.array(WebhookEventType).nullable(),
  /** the stream topics whose events are pushed to it (normalised; rows from before topics: none) */
  topics: z.array(z.string()).default([]),
  /** the API key its pushes are billed to: the key that created it; null when created in the console */
  keyId: z.string().nullable().default(null),
  description: z.string().nullable(),
  /** `whsec_…`: kept to sign, shown once */
  secret: z.string(),
  enabled: z.boolean(),
  /** ms since epoch */
  disabledAt: z.number().nullable(),
  disabledReason: z.string().nullable(),
  /** ms since epoch */
  createdAt: z.number(),
});
export type StoredEndpoint = z.infer<typeof StoredEndpoint>;

export const EndpointRow: RowDef<StoredEndpoint, [orgId: string, endpointId: string]> & { orgPrefix(orgId: string): string } = {
  table: Tables.webhookEndpoints,
  orgPrefix: (orgId) => `${orgId}:`,
  key: (orgId, endpointId) => `${orgId}:${endpointId}`,
  codec: jsonCodec(StoredEndpoint),
};

export const OutboxEntry = z.object({
  orgId: z.string(),
  endpointId: z.string(),
  /** sent as `webhook-id` on every attempt */
  eventId: z.string(),
  type: WebhookEventType,
  /** the event's time, unix seconds (the payload's `timestamp`) */
  timestamp: z.number(),
  data: z.unknown(),
  /** attempts made so far */
  attempts: z.number().int().nonnegative(),
  /** ms since epoch when the next attempt is due (0: at once) */
  nextAt: z.number(),
  /** ms since epoch of the first attempt; null before it */
  firstAttemptAt: z.number().nullable(),
  lastError: z.string().nullable(),
  /**
   * the order it was queued in (microseconds since epoch, increasing within a process): an
   * endpoint's events due together go out in this order (rows from before it: 0)
   */
  queued: z.number().default(0),
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;

export const OutboxRow: RowDef<OutboxEntry, [orgId: string, endpointId: string, eventId: string]> & {
  endpointPrefix(orgId: string, endpointId: string): string;
} = {
  table: Tables.webhookOutbox,
  endpointPrefix: (orgId, endpointId) => `${orgId}:${endpointId}:`,
  key: (orgId, endpointId, eventId) => `${orgId}:${endpointId}:${eventId}`,
  codec: jsonCodec(OutboxEntry),
};

/** how long the delivery log keeps an attempt */
export const DELIVERY_LOG_DAYS = 30;

/**
 * The delivery log: one row per attempt, keyed `orgId:endpointId:<inverted ms>:eventId:attempt`
 * so that an endpoint's attempts list newest first and a limit takes the newest.
 */
export const DeliveryRow: RowDef<WebhookDelivery, [orgId: string, endpointId: string, atMs: number, eventId: string, attempt: number]> & {
  endpointPrefix(orgId: string, endpointId: string): string;
} = {
  table: Tables.webhookDeliveries,
  endpointPrefix: (orgId, endpointId) => `${orgId}:${endpointId}:`,
  key: (orgId, endpointId, atMs, eventId, attempt) => `${orgId}:${endpointId}:${newestFirstMs(atMs)}:${eventId}:${attempt}`,
  codec: jsonCodec(WebhookDelivery),
};

/** the tombstone of a row: nothing written later outranks it */
export function tombstone(key: string): Row {
  return { key, version: FINAL_VERSION, deleted: true, body: '{}' };
}
