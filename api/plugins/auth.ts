import { markForeground } from '../../infra/pause.ts';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../schemas/errors.ts';
import type { ApiKeyRecord, KeyService } from '../../infra/keys.ts';
import type { MeteredRoute } from '../operations.ts';
import { addRouteHook, shared } from './plugin.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** the caller's key, set by the auth plugin on operation routes */
    apiKey: ApiKeyRecord | null;
    /** ms since epoch when the request was authenticated: the one clock reading of a call */
    at: number;
  }
  interface FastifyContextConfig {
    /** the operation a route serves: the auth, limits and metering plugins act on these routes */
    operation?: MeteredRoute;
  }
}

/** The API key of a request: `Authorization: Bearer <key>` or `x-api-key: <key>`. */
export function presentedKey(req: Pick<FastifyRequest, 'headers'>): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  const x = req.headers['x-api-key'];
  return typeof x === 'string' ? x.trim() : undefined;
}

/**
 * A keyed call's first step, in the auth plugin and the served lane (api/lane.ts) alike: the call
 * counts as a read (background work in this process steps back, infra/pause.ts) and its key is
 * looked up in the key cache: the record, null when the cache knows it unknown or revoked,
 * undefined when only the store can say.
 */
export function cachedKeyOf(keys: Pick<KeyService, 'cached'>, plaintext: string, now: number): ApiKeyRecord | null | undefined {
  markForeground(now);
  return keys.cached(plaintext, now);
}

const missingKey = () => new ApiError('invalid_api_key', 'an API key is required: send Authorization: Bearer <key> or x-api-key: <key>');
const unknownKey = () => new ApiError('invalid_api_key', 'the API key is unknown or revoked');

/**
 * The client a failed key counts against: its address, or for IPv6 its /64 (one host holds a
 * whole /64). Behind a proxy, fastify's trustProxy decides what `req.ip` is.
 */
export function clientOf(ip: string): string {
  if (!ip.includes(':')) return ip;
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return ip.slice(7);
  const [head = '', tail] = ip.toLowerCase().split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * Calls with an unknown or revoked key, per client: a token bucket of `perMinute`, refilled
 * evenly over a minute (or over `windowMs`, then `perMinute` is the allowance of that window).
 * At most `maxClients` are remembered (the oldest forgotten first), so memory stays bounded
 * whatever the addresses.
 */
export function createFailureThrottle(perMinute: number, maxClients = 10_000, windowMs = 60_000) {
  // lru-cache: a Map re-inserted into on every failed call grew the old generation at that rate (see the key cache, api/keys.ts)
  const buckets = new LRUCache<string, { tokens: number; at: number }>({ max: maxClients });
  const perMs = perMinute / windowMs;
  const level = (b: { tokens: number; at: number }, now: number) => Math.min(perMinute, b.tokens + (now - b.at) * perMs);
  return {
    /** ms until the client may present an unknown key again (0: now) */
    waitMs(client: string, now: number): number {
      const b = buckets.peek(client);
      if (!b) return 0;
      const tokens = level(b, now);
      return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / perMs);
    },
    failed(client: string, now: number): void {
      // (get: the client becomes the most recently seen)
      const b = buckets.get(client);
      if (b) {
        b.tokens = Math.max(0, level(b, now) - 1);
        b.at = now;
      } else buckets.set(client, { tokens: Math.max(0, perMinute - 1), at: now });
    },
  };
}

export interface AuthOptions {
  [k: string]: unknown;
  keys: KeyService;
  now?: () => number;
  /** unknown or revoked keys a client address may present per minute before it is answered 429 without a store read */
  failuresPerMinute?: number;
}

/**
 * Keys every operation route registered after it: the call's key, or 401. It runs as the request
 * arrives, before the body is read: a call without a valid key is answered at once. A client that
 * keeps presenting unknown keys is answered 429 once it has used up `failuresPerMinute`, for any
 * key the cache does not know, without reading the store.
 */
export const authPlugin = shared<AuthOptions>('auth', async (app, opts) => {
  const clock = opts.now ?? Date.now;
  const throttle = createFailureThrottle(opts.failuresPerMinute ?? 30);
  app.decorateRequest('apiKey', null);
  app.decorateRequest('at', 0);
  app.addHook('onRoute', (route) => {
    if (!route.config?.operation) return;
    // a callback hook: a key the cache knows is answered without a promise (most calls)
    // onRequest: operation routes are keyed (and limited) before their body is read
    addRouteHook(route, 'onRequest', (req, _reply, done) => {
      const now = (req.at = clock());
      const plaintext = presentedKey(req);
      if (!plaintext) return done(missingKey());
      const cached = cachedKeyOf(opts.keys, plaintext, now);
      if (cached) {
        req.apiKey = cached;
        return done();
      }
      const client = clientOf(req.ip);
      const wait = throttle.waitMs(client, now);
      if (wait > 0) {
        const s = Math.max(1, Math.ceil(wait / 1000));
        return done(
          new ApiError('rate_limited', `too many calls with unknown or revoked API keys from this address; retry in ${s} s`, {
            headers: { 'retry-after': String(s) },
          }),
        );
      }
      if (cached === null) {
        throttle.failed(client, now);
        return done(unknownKey());
      }
      opts.keys.resolve(plaintext, now).then(
        (key) => {
          if (!key) {
            throttle.failed(client, now);
            return done(unknownKey());
          }
          req.apiKey = key;
          done();
        },
        (err: unknown) => done(err as Error),
      );
    });
  });
});
