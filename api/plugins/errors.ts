import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { StoreUnavailableError } from '../../infra/store/types.ts';
import { ApiError } from '../../schemas/errors.ts';
import { shared } from './plugin.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** the request body's exact text when it was sent as JSON (signatures, the response cache) */
    rawBody?: string;
  }
}

/** seconds a client is asked to wait before it calls again while the store is unreachable */
export const STORE_RETRY_AFTER_S = 5;

export interface ErrorsOptions {
  [k: string]: unknown;
  /** the bases the API serves under, canonical first */
  bases: readonly string[];
  /** methods served at each path below a base */
  methodsByPath: ReadonlyMap<string, string[]>;
  docsUrl: () => string;
  /** where failed calls (and at debug level every call) are logged, with the request id */
  logger?: FastifyBaseLogger;
}

/**
 * Fields no log line may carry: the key as sent (and headers that hold it), the end user's wallet
 * signature, and anything named like a secret; at the top of a line and up to four objects deep
 * (an HTTP client's error holds `config.headers.authorization`).
 */
const SECRET_FIELDS = ['authorization', 'x-api-key', 'x-wallet-signature', 'cookie', 'apiKey', 'api_key', 'key', 'plaintext', 'secret', 'password', 'privateKey', 'sessionKey', 'signature'];
export const REDACTED_PATHS = Array.from({ length: 5 }, (_, depth) =>
  SECRET_FIELDS.map((f) => {
    const field = /^[A-Za-z_$][\w$]*$/.test(f) ? f : `["${f}"]`;
    const under = '*.'.repeat(depth).slice(0, -1);
    return depth === 0 ? field : field.startsWith('[') ? `${under}${field}` : `${under}.${field}`;
  }),
).flat();

/** the logger with those fields replaced by `[redacted]` (pino's redaction, on a child) */
export function redacting(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger.child({}, { redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}

/** 405 for a method a known path does not serve, with `Allow` */
export function methodNotAllowed(method: string, path: string, allowed: readonly string[]): ApiError {
  const list = allowed.join(', ');
  return new ApiError('method_not_allowed', `${method} is not allowed on ${path}; use ${list}`, { headers: { allow: list } });
}

/** every call is logged (at debug) */
export const debugging = (logger: FastifyBaseLogger) => logger.level === 'debug' || logger.level === 'trace';

/** what a request's log line says of the call */
function callOf(req: FastifyRequest, reply: FastifyReply) {
  return {
    reqId: req.id,
    req: { method: req.method, url: req.url },
    res: { statusCode: reply.statusCode },
    ...(req.at > 0 ? { responseTime: Date.now() - req.at } : {}),
  };
}

/**
 * The request's JSON body: an empty body counts as {}, anything else must be JSON (400
 * invalid_param). Parsed once, on first use.
 */
export function requestBody(req: FastifyRequest): unknown {
  if (req.body !== undefined) return req.body;
  const text = req.rawBody ?? '';
  if (text.trim() === '') return (req.body = {});
  try {
    return (req.body = JSON.parse(text) as unknown);
  } catch {
    throw new ApiError('invalid_param', 'the request body is not valid JSON');
  }
}

/**
 * The only place errors become HTTP: request bodies are JSON (requestBody),
 * ApiErrors answer with their code, anything else is an invalid_param (4xx) or an internal error
 * that is logged and never leaks; unknown paths answer 404 not_found with a hint, known paths
 * with the wrong method 405.
 */
export const errorsPlugin = shared<ErrorsOptions>('errors', async (app, opts) => {
  const { logger } = opts;
  // Request logging: fastify runs without a logger (with one it made a child logger and two
  // response listeners per call, 4% of the read path's CPU); a failed call is logged at info, an
  // unexpected error at error, every call at debug, each line with the request id.
  if (logger) {
    app.addHook('onSend', (req, reply, payload, done) => {
      if (reply.statusCode >= 400) logger.info(callOf(req, reply), 'request completed');
      else if (debugging(logger)) logger.debug(callOf(req, reply), 'request completed');
      done(null, payload);
    });
  }

  // a JSON body is kept as its text and parsed where it is used (requestBody): a repeated call of
  // a served operation is answered by its exact text (api/served.ts) and never parses it
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // execution routes verify a signature over the exact bytes
    req.rawBody = typeof body === 'string' ? body : body.toString('utf8');
    done(null, undefined);
  });

  app.setErrorHandler((err, req, reply) => {
    let e: ApiError;
    if (err instanceof ApiError) e = err;
    else {
      const code = (err as { code?: string }).code;
      const status = (err as { statusCode?: number }).statusCode ?? 500;
      if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') e = new ApiError('payload_too_large', 'the request body is larger than 64 KiB');
      else if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
        e = new ApiError('invalid_param', 'the request body must be JSON with content-type: application/json');
      else if (code === 'FST_CSRF_MISSING_SECRET' || code === 'FST_CSRF_INVALID_TOKEN')
        // @fastify/csrf-protection (the partner console's state changes)
        e = new ApiError('csrf_invalid', 'a state change needs the CSRF token of this browser in x-csrf-token: GET /console/api/csrf');
      else if (err instanceof StoreUnavailableError)
        // the store did not answer (a read a call needs: a key not cached, usage, the relay's rows):
        // a clear 503 to come back to; what the replica serves still answers 200
        e = new ApiError('unavailable', 'the store is unreachable for the moment; retry shortly', { headers: { 'retry-after': String(STORE_RETRY_AFTER_S) } });
      else if (status >= 400 && status < 500) e = new ApiError('invalid_param', 'the request is malformed');
      else {
        logger?.error({ reqId: req.id, err }, 'unhandled error');
        e = new ApiError('internal', 'an internal error occurred; it has been logged');
      }
    }
    void reply.status(e.status).headers(e.extra.headers ?? {}).send(e.toJSON());
  });

  app.setNotFoundHandler((req, reply) => {
    const path = (req.url.split('?')[0] ?? '').replace(/\/+$/, '');
    const base = opts.bases.find((b) => path === b || path.startsWith(`${b}/`));
    const rel = base ? path.slice(base.length) || '/' : undefined;
    const methods = rel ? opts.methodsByPath.get(rel) : undefined;
    if (rel && methods && methods.length > 0) {
      const e = methodNotAllowed(req.method, rel, methods);
      void reply.status(e.status).headers(e.extra.headers ?? {}).send(e.toJSON());
      return;
    }
    void reply.status(404).send(
      new ApiError('not_found', `no operation at ${req.method} ${path || '/'}`, {
        hint: `operations live under ${opts.bases[0]}/; GET ${opts.bases[0]}/ lists them all`,
        docs: opts.docsUrl(),
      }).toJSON(),
    );
  });
});
