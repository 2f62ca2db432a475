import { randomUUID } from 'node:crypto';
import websocket from '@fastify/websocket';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { ChainSlugs } from '../../schemas/chains.ts';
import { ApiError } from '../../schemas/errors.ts';
import type { ErrorCode } from '../../schemas/errors.ts';
import { limitsOf } from '../../schemas/keys.ts';
import { StreamClientMessage, StreamQuery } from '../../schemas/stream.ts';
import type { ApiKeyRecord, KeyService } from '../../infra/keys.ts';
import { presentedKey } from '../plugins/auth.ts';
import { parseInput } from '../validate.ts';
import { dailyLimitRefusal, refusalText } from '../metering.ts';
import type { DailyLimits, Meter } from '../metering.ts';
import type { HubEvent, StreamHub } from './hub.ts';
import { STREAM_OPERATION, STREAM_UNITS_PER_EVENT } from './endpoint.ts';
import { checkTopics, parseTopic } from './topics.ts';

/** a client that lets this much pile up unsent is closed (it resumes from its last seq) */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface StreamOptions {
  [k: string]: unknown;
  hub: StreamHub;
  keys: KeyService;
  meter: Meter;
  limits: DailyLimits;
  bases: readonly string[];
  /** the chains this deployment ingests (a topic on another is refused) */
  chains?: readonly string[];
  maxTopics: number;
  now?: () => number;
}

/**
 * The subscription a connect query asks for (`?topics=a,b&since=n&stream=id`), or none; throws
 * the API's error for a query it refuses.
 */
export function connectSubscription(query: unknown, chains: readonly string[], maxTopics: number): StreamClientMessage | undefined {
  const q = parseInput(StreamQuery, query, 'query');
  if (q.topics === undefined) {
    if (q.since !== undefined || q.stream !== undefined) throw new ApiError('invalid_param', "'since' and 'stream' resume the topics given in 'topics'");
    return undefined;
  }
  const topics = checkTopics(q.topics.split(','), chains, maxTopics, 'connection');
  return { type: 'subscribe', topics, ...(q.since !== undefined ? { since: q.since } : {}), ...(q.stream !== undefined ? { stream: q.stream } : {}) };
}

function errorText(code: ErrorCode, detail: string): string {
  return JSON.stringify({ type: 'error', error: code, detail });
}

/**
 * `GET /v1/stream` (WebSocket, @fastify/websocket over ws): registered in the operations' context,
 * so the upgrade request is keyed, rate limited (a connection counts as a request) and refused
 * with the API's JSON error before any upgrade. Then each client message counts against the key's
 * rate, and each event delivered is billed `STREAM_UNITS_PER_EVENT` against the key's daily quota
 * and the global budget; a refused key, quota or budget closes the connection with the error.
 */
export const streamRoutes: FastifyPluginAsync<StreamOptions> = async (app, opts) => {
  const clock = opts.now ?? Date.now;
  const chains = opts.chains ?? ChainSlugs;
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  for (const base of opts.bases) {
    app.route({
      method: 'GET',
      url: `${base}/stream`,
      config: { operation: { id: STREAM_OPERATION, cost: 0 } },
      // the connect query is checked before the upgrade: a bad one is the API's 400 JSON error
      preValidation: async (req) => {
        connectSubscription(req.query, chains, opts.maxTopics);
      },
      // a plain GET: the stream speaks WebSocket only
      handler: async () => {
        throw new ApiError('upgrade_required', 'this path is a WebSocket stream: connect with Upgrade: websocket (see the docs for its messages)', { headers: { upgrade: 'websocket' } });
      },
      wsHandler: (socket, req) => serve(socket, req),
    });
  }

  function serve(socket: WebSocket, req: FastifyRequest): void {
    const key = req.apiKey as ApiKeyRecord;
    const conn = randomUUID();
    const plaintext = presentedKey(req) ?? '';
    const topics = new Set<string>();
    /** the last seq sent (what the client resumes from) */
    let sent = 0;
    let closed = false;
    // the hub's listener is added once the connection is served (below): until then no event is for it
    let stopLive = (): void => undefined;
    const send = (text: string) => socket.send(text);
    const close = (code: ErrorCode, detail: string, wsCode: number) => {
      if (closed) return;
      closed = true;
      stopLive();
      send(errorText(code, detail));
      socket.close(wsCode, code);
    };

    /** bills one event, or closes the connection when the key's quota or the budget refuses it */
    function deliver(e: HubEvent): void {
      if (closed || !topics.has(e.topic)) return;
      const now = clock();
      const cached = opts.keys.cached(plaintext, now);
      if (cached === null) return close('invalid_api_key', 'the API key was revoked', 1008);
      const refused = dailyLimitRefusal(opts.meter, key, STREAM_UNITS_PER_EVENT, opts.limits, now);
      if (refused) {
        const { code, detail } = refusalText(refused, key, opts.limits);
        return close(code, `${detail}; resume after the next UTC midnight with since=${sent}`, code === 'capacity' ? 1013 : 1008);
      }
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        return close('rate_limited', `the client reads too slowly; reconnect and resume with since=${sent}`, 1008);
      }
      sent = e.seq;
      send(e.text);
      opts.meter.bill({ keyId: key.id, orgId: key.orgId, operation: STREAM_OPERATION, units: STREAM_UNITS_PER_EVENT, requestId: `${conn}:${e.seq}`, sandbox: key.plan === 'sandbox' }, now);
    }

    function onMessage(raw: string): void {
      const now = clock();
      const limit = limitsOf(key).ratePerMinute;
      if (opts.meter.minuteCount(key.id, now) >= limit) {
        return send(errorText('rate_limited', `rate limit of ${limit} requests per minute for the ${key.plan} plan exceeded; a stream message counts as a request`));
      }
      opts.meter.admit(key.id, now);
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return send(errorText('invalid_param', 'a message must be a JSON object: {"type":"subscribe","topics":[...],"since"?:n,"stream"?:id}'));
      }
      const parsed = StreamClientMessage.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.map(String).join('.') || 'message';
        return send(errorText('invalid_param', `'${field}': ${issue?.message ?? 'invalid'}; send {"type":"subscribe","topics":[...]} or {"type":"unsubscribe","topics":[...]}`));
      }
      handle(parsed.data);
    }

    /** a subscribe or unsubscribe: sent as a message, or the connect query's subscription */
    function handle(msg: StreamClientMessage): void {
      const checked: string[] = [];
      for (const t of msg.topics) {
        const r = parseTopic(t, chains);
        if (r instanceof ApiError) return send(errorText(r.code, r.detail));
        checked.push(r.topic);
      }
      if (msg.type === 'unsubscribe') {
        for (const t of checked) topics.delete(t);
        return send(JSON.stringify({ type: 'unsubscribed', topics: checked }));
      }
      if (new Set([...topics, ...checked]).size > opts.maxTopics) {
        return send(errorText('invalid_param', `'topics': at most ${opts.maxTopics} topics per connection`));
      }
      if (msg.since !== undefined) {
        if (msg.stream !== undefined && msg.stream !== opts.hub.id) {
          return send(errorText('resume_unavailable', `stream '${msg.stream}' is not this process's (${opts.hub.id}): it restarted or you reached another one; read the snapshots again and subscribe without since`));
        }
        if (msg.since > opts.hub.head()) return send(errorText('invalid_param', `'since': ${msg.since} is ahead of this stream (latest ${opts.hub.head()})`));
        // topics already subscribed got their events live: replaying them would repeat them
        const wanted = new Set(checked.filter((t) => !topics.has(t)));
        const replay = opts.hub.replay(msg.since, (t) => wanted.has(t));
        if ('gap' in replay) return send(errorText('resume_unavailable', replay.gap));
        for (const t of checked) topics.add(t);
        send(JSON.stringify({ type: 'subscribed', topics: checked, seq: opts.hub.head() }));
        // in order, before any live event (delivery is synchronous: nothing interleaves)
        for (const e of replay.events) deliver(e);
      } else {
        for (const t of checked) topics.add(t);
        send(JSON.stringify({ type: 'subscribed', topics: checked, seq: opts.hub.head() }));
      }
    }

    stopLive = opts.hub.listen(deliver);
    socket.on('message', (data, isBinary) => {
      if (isBinary) return send(errorText('invalid_param', 'messages are JSON text'));
      onMessage(String(data));
    });
    socket.on('close', () => {
      closed = true;
      stopLive();
    });
    send(JSON.stringify({ type: 'hello', stream: opts.hub.id, seq: opts.hub.head(), retention: opts.hub.retention, unitsPerEvent: STREAM_UNITS_PER_EVENT }));
    // the connect query's topics, as if subscribed by the first message (checked before the upgrade)
    const initial = connectSubscription(req.query, chains, opts.maxTopics);
    if (initial) handle(initial);
  }
};
