import { markForeground } from '../../infra/pause.ts';
import type { FastifyRequest, RouteOptions, preHandlerHookHandler } from 'fastify';
import { ApiError } from '../../schemas/errors.ts';
import type { ApiKeyRecord, KeyService } from '../keys.ts';
import type { MeteredRoute } from '../operations.ts';
import { shared } from './plugin.ts';

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
function presentedKey(req: FastifyRequest): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  const x = req.headers['x-api-key'];
  return typeof x === 'string' ? x.trim() : undefined;
}

const missingKey = () => new ApiError('invalid_api_key', 'an API key is required: send Authorization: Bearer <key> or x-api-key: <key>');
const unknownKey = () => new ApiError('invalid_api_key', 'the API key is unknown or revoked');

export interface AuthOptions {
  [k: string]: unknown;
  keys: KeyService;
  now?: () => number;
}

/** Adds a preHandler to every operation route registered after it: the call's key, or 401. */
export function addPreHandler(route: RouteOptions, hook: preHandlerHookHandler): void {
  const existing = route.preHandler;
  route.preHandler = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
}

export const authPlugin = shared<AuthOptions>('auth', async (app, opts) => {
  const clock = opts.now ?? Date.now;
  app.decorateRequest('apiKey', null);
  app.decorateRequest('at', 0);
  app.addHook('onRoute', (route) => {
    if (!route.config?.operation) return;
    // a callback hook: a key the cache knows is answered without a promise (most calls)
    addPreHandler(route, (req, _reply, done) => {
      const now = (req.at = clock());
      // background work in this process steps back while reads come in (infra/pause.ts)
      markForeground(now);
      const plaintext = presentedKey(req);
      if (!plaintext) return done(missingKey());
      const cached = opts.keys.cached(plaintext, now);
      if (cached === null) return done(unknownKey());
      if (cached) {
        req.apiKey = cached;
        return done();
      }
      opts.keys.resolve(plaintext, now).then(
        (key) => {
          if (!key) return done(unknownKey());
          req.apiKey = key;
          done();
        },
        (err: unknown) => done(err as Error),
      );
    });
  });
});
