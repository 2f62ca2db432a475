import { z } from 'zod';
import { ErrorCodes } from './errors.ts';

/**
 * The live stream (`GET /v1/stream`, WebSocket): what a client sends, what the server sends.
 * Topics are strings: `token:<chain>:<address>` (a token's derived fields changed),
 * `board:<chain>` (a token's conviction or lit pillars changed on that chain's board) and
 * `wallet:<chain>:<address>` (a wallet's grade changed).
 */
export const StreamTopicKinds = ['token', 'board', 'wallet'] as const;

/** the stream's event names (also webhook event types: an endpoint subscribed to topics gets them pushed) */
export const StreamEventNames = ['token.changed', 'board.changed', 'wallet.grade'] as const;
export type StreamEventName = (typeof StreamEventNames)[number];

/** what a client sends: subscribe (optionally resuming after `since` of stream `stream`), unsubscribe */
export const StreamClientMessage = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('subscribe'),
      topics: z.array(z.string()).min(1),
      /** resume: every retained event after this sequence number, then live */
      since: z.number().int().nonnegative().optional(),
      /** the stream id of the hello the client resumes from (another process's or a restarted stream cannot resume) */
      stream: z.string().optional(),
    })
    .strict(),
  z.object({ type: z.literal('unsubscribe'), topics: z.array(z.string()).min(1) }).strict(),
]);
export type StreamClientMessage = z.infer<typeof StreamClientMessage>;

/**
 * The query of the connect request (all optional): topics to subscribe to at once, as a
 * subscribe message would, and where to resume them; checked before the upgrade (a bad one is
 * the API's 400 JSON error), so a client reconnects with one URL.
 */
export const StreamQuery = z
  .object({
    topics: z
      .string({ error: 'must be a string' })
      .min(1, { error: 'must name at least one topic' })
      .optional()
      .meta({ description: 'comma-separated topics subscribed on connect: token:<chain>:<address>, board:<chain>, wallet:<chain>:<address>' }),
    since: z.coerce
      .number({ error: 'must be an integer' })
      .int({ error: 'must be an integer' })
      .nonnegative({ error: 'must be 0 or more' })
      .optional()
      .meta({ description: "with topics: resume after this seq (the last one received): every kept event after it on those topics, then live" }),
    stream: z.string({ error: 'must be a string' }).optional().meta({ description: "with since: the hello's stream id the client resumes from" }),
  })
  .strict();
export type StreamQuery = z.infer<typeof StreamQuery>;

const Change = z.object({ metric: z.string(), from: z.union([z.string(), z.number(), z.null()]), to: z.union([z.string(), z.number(), z.null()]) });

/** the derived fields of a token a stream event carries (the same values token-intel and the board serve) */
export const StreamTokenFields = z.object({
  verdict: z.string(),
  signal: z.string(),
  conviction: z.number(),
  pillarsLit: z.number(),
  smartBuyers: z.number(),
});
export type StreamTokenFields = z.infer<typeof StreamTokenFields>;

const Head = { seq: z.number().int().positive(), topic: z.string(), chain: z.string(), version: z.number(), asOf: z.string() };

export const StreamEvent = z.discriminatedUnion('event', [
  z.object({
    type: z.literal('event'),
    event: z.literal('token.changed'),
    ...Head,
    token: z.string(),
    symbol: z.string().nullable(),
    changes: z.array(Change),
    current: StreamTokenFields,
  }),
  z.object({
    type: z.literal('event'),
    event: z.literal('board.changed'),
    ...Head,
    token: z.string(),
    symbol: z.string().nullable(),
    conviction: z.number(),
    pillarsLit: z.number(),
    signal: z.string(),
    verdict: z.string(),
  }),
  z.object({
    type: z.literal('event'),
    event: z.literal('wallet.grade'),
    ...Head,
    wallet: z.string(),
    from: z.string().nullable(),
    to: z.string(),
  }),
]);
export type StreamEvent = z.infer<typeof StreamEvent>;

/** what the server sends besides events */
export const StreamControl = z.discriminatedUnion('type', [
  /** on connect: the stream's id, its latest sequence number, how many events it keeps, what a message costs */
  z.object({ type: z.literal('hello'), stream: z.string(), seq: z.number().int().nonnegative(), retention: z.number().int(), unitsPerEvent: z.number().int() }),
  z.object({ type: z.literal('subscribed'), topics: z.array(z.string()), seq: z.number().int().nonnegative() }),
  z.object({ type: z.literal('unsubscribed'), topics: z.array(z.string()) }),
  /** the API's error object, as a message: a bad message leaves the connection open; a refused key, quota or budget closes it */
  z.object({ type: z.literal('error'), error: z.enum(ErrorCodes), detail: z.string() }),
]);
export type StreamControl = z.infer<typeof StreamControl>;

/** every message the server sends: a control message or an event */
export const StreamServerMessage = z.union([StreamControl, StreamEvent]).meta({ description: 'a WebSocket text frame the server sends: hello, subscribed, unsubscribed, error, or an event' });
export type StreamServerMessage = z.infer<typeof StreamServerMessage>;
