import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { backoffMs, schedule } from '../../infra/retry.ts';
import type { Backoff } from '../../infra/retry.ts';
import { readRow, rowOf } from '../../infra/rows.ts';
import type { Store } from '../../infra/store/types.ts';
import type { DeliveryResult, WebhookDelivery } from '../../schemas/webhooks.ts';
import { dropQueued, endpointsChanged, onWebhookEnqueued } from '../../infra/webhooks/outbox.ts';
import { DELIVERY_LOG_DAYS, DeliveryRow, EndpointRow, OutboxRow, tombstone } from '../../infra/webhooks/rows.ts';
import type { OutboxEntry, StoredEndpoint } from '../../infra/webhooks/rows.ts';
import { webhookHeaders } from './signing.ts';
import { pinnedLookup, resolveDestination } from './destination.ts';
import type { DestinationPolicy } from './destination.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The caps of the waits after each failed attempt (the Standard Webhooks / Svix schedule: 5 s,
 * 5 min, 30 min, 2 h, 5 h, then 10 h); each wait is drawn uniformly below its cap (full jitter).
 */
export const RETRY_CAPS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
/** an event not delivered this long after its first attempt is given up */
export const GIVE_UP_AFTER_MS = 3 * DAY;

export interface WebhookLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface WebhookDelivererOptions {
  store: Store;
  logger: WebhookLogger;
  /** ms since epoch; every due time and the delivery log read this clock */
  now?: () => number;
  /** where deliveries may go (WEBHOOKS_ALLOW_LOCAL, and the resolver: tests give their own) */
  destinations: DestinationPolicy;
  /** stops the deliverer, as `stop()` does */
  signal?: AbortSignal;
  /** how often the outbox is read for due rows, ms (an enqueue in this process wakes it at once) */
  pollMs?: number;
  /** no loop: only `runOnce` delivers (tests that count each pass) */
  manual?: boolean;
  /** endpoints delivered to at once at most (each gets one delivery at a time) */
  concurrency?: number;
  /** a delivery's request timeout, ms */
  timeoutMs?: number;
  /**
   * called once an attempt is answered 2xx, after the outbox row is deleted (the pushed stream
   * events are billed there: api/webhooks/pusher.ts); a throw is logged, the delivery stands
   */
  onDelivered?: (endpoint: StoredEndpoint, e: OutboxEntry, at: number) => void;
  retry?: {
    /** multiplies every wait and the give-up window (tests: small) */
    scale?: number;
    /** the jitter's random source, [0, 1) */
    random?: () => number;
  };
}

export interface WebhookDeliverer {
  /**
   * one pass: starts every due delivery (up to the concurrency) and resolves when every delivery
   * in flight is done; returns how many attempts the pass made
   */
  runOnce(): Promise<number>;
  /** ms since epoch of the earliest queued attempt, undefined when the outbox is empty */
  nextDueAt(): Promise<number | undefined>;
  /** stops polling and waits for the deliveries in flight (an aborted one is retried on the next start) */
  stop(): Promise<void>;
}

/** an endpoint's due events taken in one run at most (the rest on the next fill) */
const MAX_PER_RUN = 100;

/**
 * POSTs to `url` connecting to the checked address (the name is not resolved again: `pinnedLookup`;
 * TLS still verifies the certificate for the name); resolves with the answer's status. A redirect
 * is an answer like any other, never followed.
 */
function send(url: URL, to: { address: string; family: 4 | 6 }, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<number> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pinnedLookup(to.address, to.family), agent: false, signal }, (res) => {
      res.resume();
      res.on('error', () => undefined);
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * a failed connection's coarse class: a TLS failure (a certificate not valid for the name, a
 * handshake OpenSSL refused: EPROTO), or `connection_failed` (refused, reset, unreachable alike)
 */
function failureClass(err: unknown): 'tls' | 'connection_failed' {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  return /^ERR_TLS|^ERR_SSL|^EPROTO$|CERT|SSL|^DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code) ? 'tls' : 'connection_failed';
}

/** due first, then in the order queued */
function byDue(a: OutboxEntry, b: OutboxEntry): number {
  return a.nextAt - b.nextAt || a.queued - b.queued;
}

type Outcome = { kind: 'delivered' | 'gone' | 'retry'; statusCode: number | null; error: string | null };

/**
 * The webhook deliverer: a loop that reads the outbox (infra store, so a restart resumes where
 * it was) and POSTs each due event, signed, to its endpoint as `{type, timestamp, data}`.
 * A 2xx answer delivers it (the outbox row is deleted); 410 Gone disables the endpoint and drops
 * its queued events; anything else (another status, a refused connection, a timeout) schedules
 * another attempt with exponential backoff and full jitter, for about three days, then gives up.
 * One delivery per endpoint is in flight at a time, its due events one after another, the oldest
 * queued first: an endpoint answering 2xx gets its events in the order they were queued (a retried
 * one arrives after newer ones); `concurrency` endpoints are served at once.
 * Every attempt is written to the delivery log. At least once: a crash between the answer and
 * the row's deletion sends the event again, with the same `webhook-id`, so receivers dedupe.
 * Never throws out of its loop: a failed store read or write is logged and retried on the next
 * poll.
 *
 * One deliverer per deployment is enough (runtime/api.ts runs it in the API process). Several
 * processes each running one over a shared store would each send a due row (duplicates under the
 * same `webhook-id`, still at least once); to share the work they would need a claim in the
 * store (a lease row per deliverer, or rows partitioned by endpoint between them).
 */
export function startWebhookDeliverer(opts: WebhookDelivererOptions): WebhookDeliverer {
  const { store, logger } = opts;
  const now = opts.now ?? Date.now;
  const pollMs = opts.pollMs ?? SECOND;
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const timeoutMs = opts.timeoutMs ?? 10 * SECOND;
  const scale = opts.retry?.scale ?? 1;
  const random = opts.retry?.random ?? Math.random;

  const stopping = new AbortController();
  /** per endpoint (its outbox prefix), the run through its due events in flight */
  const inFlight = new Map<string, Promise<void>>();
  let attempts = 0;
  let filling: Promise<number> | undefined;
  let stopped: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const unsubscribe = opts.manual ? () => undefined : onWebhookEnqueued(store, () => wake?.());
  const onAbort = () => void stop();
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  /** the waits after failed attempts: full jitter below each cap, at least a second */
  const waits: Backoff = { cap: schedule(RETRY_CAPS_MS.map((cap) => cap * scale)), jitter: 'full', minMs: SECOND * scale };

  /**
   * Starts, for the endpoints with due events and none in flight (up to the concurrency, the one
   * whose oldest due event is oldest first), a run through that endpoint's due events one after
   * another in the order queued (at most MAX_PER_RUN; the rest on the next fill); returns how
   * many events the runs it started hold.
   */
  async function fill(): Promise<number> {
    const at = now();
    if (inFlight.size >= concurrency) return 0;
    const due = new Map<string, OutboxEntry[]>();
    for (const r of await store.list(OutboxRow.table)) {
      const e = OutboxRow.codec.decode(r.body);
      if (!e) {
        logger.warn({ key: r.key }, 'unreadable webhook outbox row dropped');
        await store.upsert(OutboxRow.table, [tombstone(r.key)]);
        continue;
      }
      const endpoint = OutboxRow.endpointPrefix(e.orgId, e.endpointId);
      if (e.nextAt > at || inFlight.has(endpoint)) continue;
      const list = due.get(endpoint);
      if (list) list.push(e);
      else due.set(endpoint, [e]);
    }
    const runs = [...due].map(([endpoint, list]) => ({ endpoint, list: list.sort(byDue) }));
    runs.sort((a, b) => byDue(a.list[0] as OutboxEntry, b.list[0] as OutboxEntry));
    let started = 0;
    for (const { endpoint, list } of runs) {
      if (stopping.signal.aborted || inFlight.size >= concurrency) break;
      const events = list.slice(0, MAX_PER_RUN);
      const p = (async () => {
        for (const e of events) {
          if (stopping.signal.aborted) return;
          try {
            await deliver(e);
          } catch (err) {
            // the store failed: the rest of the run waits for the next poll, in order
            logger.warn({ err, eventId: e.eventId, endpointId: e.endpointId }, 'webhook delivery bookkeeping failed; retried on the next poll');
            return;
          }
        }
      })().finally(() => {
        inFlight.delete(endpoint);
        wake?.();
      });
      inFlight.set(endpoint, p);
      started += events.length;
    }
    return started;
  }

  /** one fill at a time; a caller arriving during one waits for it, then fills again */
  async function fillOnce(): Promise<number> {
    while (filling) await filling;
    filling = fill().finally(() => (filling = undefined));
    return filling;
  }

  /**
   * One attempt: the URL's name resolved and checked again (it may point elsewhere than at create),
   * then the POST to the checked address. The log says `refused` (the destination is not accepted),
   * `http_<status>`, or a coarse class (`timeout`, `connection_failed`, `tls`): never a socket
   * error's text, which would tell an open port from a closed one.
   */
  async function post(endpoint: StoredEndpoint, e: OutboxEntry, at: number): Promise<Outcome> {
    const body = JSON.stringify({ type: e.type, timestamp: new Date(e.timestamp * 1000).toISOString(), data: e.data });
    const headers = webhookHeaders(endpoint.secret, e.eventId, Math.floor(at / 1000), body);
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const to = await resolveDestination(endpoint.url, opts.destinations);
      if (!to.ok) return { kind: 'retry', statusCode: null, error: to.refused ? 'refused' : 'connection_failed' };
      const status = await send(new URL(endpoint.url), to, { ...headers, 'content-type': 'application/json', 'user-agent': 'intel-webhooks/1' }, body, AbortSignal.any([stopping.signal, timeout]));
      if (status >= 200 && status < 300) return { kind: 'delivered', statusCode: status, error: null };
      if (status === 410) return { kind: 'gone', statusCode: 410, error: 'http_410' };
      return { kind: 'retry', statusCode: status, error: `http_${status}` };
    } catch (err) {
      if (stopping.signal.aborted) throw err;
      return { kind: 'retry', statusCode: null, error: timeout.aborted ? 'timeout' : failureClass(err) };
    }
  }

  async function logAttempt(e: OutboxEntry, attempt: number, at: number, o: Outcome, result: DeliveryResult, nextAt: number | null): Promise<void> {
    const row: WebhookDelivery = {
      eventId: e.eventId,
      type: e.type,
      attempt,
      at: new Date(at).toISOString(),
      statusCode: o.statusCode,
      error: o.error,
      result,
      nextRetryAt: nextAt === null ? null : new Date(nextAt).toISOString(),
      durationMs: Math.max(0, Math.round(now() - at)),
    };
    await store.upsert(DeliveryRow.table, [{ ...rowOf(DeliveryRow, row, 1, e.orgId, e.endpointId, at, e.eventId, attempt), expiresAt: at + DELIVERY_LOG_DAYS * DAY }]);
  }

  async function disable(endpoint: StoredEndpoint, at: number): Promise<void> {
    const disabled: StoredEndpoint = { ...endpoint, enabled: false, disabledAt: at, disabledReason: 'the endpoint answered 410 Gone' };
    await store.upsert(EndpointRow.table, [rowOf(EndpointRow, disabled, 2, endpoint.orgId, endpoint.endpointId)]);
    endpointsChanged(store);
    const dropped = await dropQueued(store, endpoint.orgId, endpoint.endpointId);
    logger.info({ endpointId: endpoint.endpointId, orgId: endpoint.orgId, dropped }, 'webhook endpoint answered 410 Gone: disabled');
  }

  async function deliver(e: OutboxEntry): Promise<void> {
    const key = OutboxRow.key(e.orgId, e.endpointId, e.eventId);
    const endpoint = await readRow(store, EndpointRow, e.orgId, e.endpointId);
    if (!endpoint || !endpoint.enabled) {
      // deleted or disabled since it was queued: nothing to send it to
      await store.upsert(OutboxRow.table, [tombstone(key)]);
      logger.debug({ eventId: e.eventId, endpointId: e.endpointId }, 'webhook dropped: the endpoint is deleted or disabled');
      return;
    }
    const at = now();
    const attempt = e.attempts + 1;
    let o: Outcome;
    try {
      o = await post(endpoint, e, at);
    } catch {
      return; // stopping: this attempt does not count; the row stays due for the next start
    }
    attempts++;
    if (o.kind === 'delivered') {
      await store.upsert(OutboxRow.table, [tombstone(key)]);
      try {
        opts.onDelivered?.(endpoint, e, at);
      } catch (err) {
        logger.warn({ err, eventId: e.eventId, endpointId: e.endpointId }, 'webhook delivered; its onDelivered hook failed');
      }
      await logAttempt(e, attempt, at, o, 'delivered', null);
      return;
    }
    if (o.kind === 'gone') {
      await logAttempt(e, attempt, at, o, 'disabled', null);
      await disable(endpoint, at);
      return;
    }
    const first = e.firstAttemptAt ?? at;
    const nextAt = at + backoffMs(waits, attempt - 1, random);
    if (nextAt - first > GIVE_UP_AFTER_MS * scale) {
      await store.upsert(OutboxRow.table, [tombstone(key)]);
      await logAttempt(e, attempt, at, o, 'failed', null);
      logger.warn({ eventId: e.eventId, endpointId: e.endpointId, attempts: attempt, error: o.error }, 'webhook given up after about three days of retries');
      return;
    }
    const next: OutboxEntry = { ...e, attempts: attempt, nextAt, firstAttemptAt: first, lastError: o.error };
    await store.upsert(OutboxRow.table, [rowOf(OutboxRow, next, attempt + 1, e.orgId, e.endpointId, e.eventId)]);
    await logAttempt(e, attempt, at, o, 'retrying', nextAt);
  }

  async function loop(): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        await fillOnce();
      } catch (err) {
        logger.warn({ err }, 'reading the webhook outbox failed; retrying');
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, pollMs);
        function done() {
          clearTimeout(t);
          wake = undefined;
          stopping.signal.removeEventListener('abort', done);
          resolve();
        }
        wake = done;
        stopping.signal.addEventListener('abort', done, { once: true });
      });
    }
  }
  const running = opts.manual ? Promise.resolve() : loop();
  if (opts.signal?.aborted) void stop();

  function stop(): Promise<void> {
    stopped ??= (async () => {
      stopping.abort();
      unsubscribe();
      opts.signal?.removeEventListener('abort', onAbort);
      await running;
      while (filling) await filling.catch(() => undefined);
      await Promise.all(inFlight.values());
    })();
    return stopped;
  }

  return {
    async runOnce() {
      const before = attempts;
      // more due rows than the concurrency take several rounds; bounded, should a store write keep failing
      for (let round = 0; round < 1000 && !stopping.signal.aborted; round++) {
        const started = await fillOnce();
        await Promise.all(inFlight.values());
        if (started === 0) break;
      }
      return attempts - before;
    },
    async nextDueAt() {
      let min: number | undefined;
      for (const r of await store.list(OutboxRow.table)) {
        const e = OutboxRow.codec.decode(r.body);
        if (e && (min === undefined || e.nextAt < min)) min = e.nextAt;
      }
      return min;
    },
    stop,
  };
}
