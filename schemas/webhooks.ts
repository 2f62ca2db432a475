import { z } from 'zod';
import { WebhookEventType } from './agents.ts';

/**
 * Webhook endpoints and their delivery log as the webhooks operations answer them
 * (docs/architecture.md "Decisions": webhooks): an endpoint belongs to the API key's organisation; its
 * secret is shown once, when it is created.
 */

export const WebhookEndpointId = z
  .string()
  .regex(/^ep_[A-Za-z0-9]{1,64}$/, 'an endpoint id is ep_ followed by letters and digits')
  .meta({ description: 'the endpoint id (`ep_…`) the create operation answered' });

export const WebhookEndpoint = z.object({
  endpointId: z.string(),
  url: z.string(),
  events: z.array(WebhookEventType).nullable().meta({ description: 'the event types sent to it; null: every type' }),
  topics: z.array(z.string()).meta({
    description: "the live stream's topics whose events (token.changed, board.changed, wallet.grade) are pushed to it, as on the WebSocket stream: token:<chain>:<address>, board:<chain>, wallet:<chain>:<address>; empty: none",
  }),
  keyId: z.string().nullable().meta({ description: 'the API key its pushed stream events are billed to (the key that created it); null: created in the console, no topics' }),
  description: z.string().nullable(),
  /** false once it answered 410 Gone: nothing is sent to it any more */
  enabled: z.boolean().meta({ description: 'false once the endpoint answered 410 Gone: nothing more is sent to it' }),
  disabledAt: z.string().nullable().meta({ description: 'ISO time it was disabled' }),
  disabledReason: z.string().nullable(),
  createdAt: z.string().meta({ description: 'ISO time' }),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointCreated = WebhookEndpoint.extend({
  secret: z.string().meta({
    description: 'the signing secret (`whsec_…`), shown only in this answer: verify deliveries with it (Standard Webhooks)',
  }),
});

export const DeliveryResult = z
  .enum(['delivered', 'retrying', 'failed', 'disabled'])
  .meta({ description: 'delivered: a 2xx answer; retrying: another attempt is scheduled; failed: given up after about three days; disabled: the endpoint answered 410 Gone' });
export type DeliveryResult = z.infer<typeof DeliveryResult>;

export const WebhookDelivery = z.object({
  eventId: z.string().meta({ description: 'the event id, sent as `webhook-id` (the same on every attempt)' }),
  type: WebhookEventType,
  attempt: z.number().int().min(1),
  at: z.string().meta({ description: 'ISO time of the attempt' }),
  statusCode: z.number().int().nullable().meta({ description: "the endpoint's HTTP status; null when no answer came" }),
  error: z.string().nullable().meta({ description: 'why the attempt failed, when it did' }),
  result: DeliveryResult,
  nextRetryAt: z.string().nullable().meta({ description: 'ISO time of the next attempt (result retrying)' }),
  durationMs: z.number().int().nonnegative(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
