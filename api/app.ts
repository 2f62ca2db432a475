import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ApiError } from '../schemas/errors.ts';
import type { KeyService } from './keys.ts';
import type { Meter } from './metering.ts';
import type { Metrics } from '../infra/metrics.ts';
import type { AnyOperation } from './operations.ts';
import { authenticate, createOperationHandler } from './pipeline.ts';
import { createWalletAuth } from './wallet-auth.ts';
import { buildCatalog, buildDocsHtml, buildOpenApi } from './openapi.ts';

export const BASES = ['/v1', '/api/v1'] as const;
export { API_VERSION } from './version.ts';

export interface AppDeps {
  operations: AnyOperation[];
  keys: KeyService;
  meter: Meter;
  dailyUnitBudget: number;
  /** base URL printed in catalog links, e.g. http://127.0.0.1:8080 */
  publicUrl: () => string;
  logger?: FastifyBaseLogger | boolean;
  now?: () => number;
  metrics?: Metrics;
}

/** Builds the API as a fastify instance; server.ts only boots it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    ...(typeof deps.logger === 'object' ? { loggerInstance: deps.logger } : { logger: deps.logger ?? false }),
    genReqId: () => randomUUID(),
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });

  // an empty body with content-type json counts as {}; anything else must be JSON
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // execution routes verify a signature over the exact bytes
    (_req as { rawBody?: string }).rawBody = text;
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError('invalid_param', 'the request body is not valid JSON'), undefined);
    }
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
      else if (status >= 400 && status < 500) e = new ApiError('invalid_param', 'the request is malformed');
      else {
        req.log.error({ err }, 'unhandled error');
        e = new ApiError('internal', 'an internal error occurred; it has been logged');
      }
    }
    if (e.status >= 500 && !(err instanceof ApiError)) req.log.error({ err }, 'internal error');
    void reply.status(e.status).headers(e.extra.headers ?? {}).send(e.toJSON());
  });

  /** methods served at each path below a base: the operations, and the catalog, document and docs */
  const byPath = new Map<string, string[]>([
    ['/', ['GET']],
    ['/openapi.json', ['GET']],
    ['/docs', ['GET']],
  ]);
  for (const op of deps.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method]);
  const docsUrl = () => `${deps.publicUrl()}/v1/docs`;

  app.setNotFoundHandler((req, reply) => {
    const path = (req.url.split('?')[0] ?? '').replace(/\/+$/, '');
    const base = BASES.find((b) => path === b || path.startsWith(`${b}/`));
    const rel = base ? path.slice(base.length) || '/' : undefined;
    const methods = rel ? byPath.get(rel) : undefined;
    if (methods && methods.length > 0) {
      const allowed = methods.join(', ');
      void reply
        .status(405)
        .header('allow', allowed)
        .send(new ApiError('method_not_allowed', `${req.method} is not allowed on ${rel}; use ${allowed}`).toJSON());
      return;
    }
    void reply.status(404).send(
      new ApiError('not_found', `no operation at ${req.method} ${path || '/'}`, {
        hint: `operations live under ${BASES[0]}/; GET ${BASES[0]}/ lists them all`,
        docs: docsUrl(),
      }).toJSON(),
    );
  });

  if (deps.metrics) {
    const metrics = deps.metrics;
    const opOf = new Map<string, string>();
    for (const base of BASES) for (const op of deps.operations) opOf.set(`${op.method} ${base}${op.path}`, op.id);
    app.addHook('onResponse', async (req, reply) => {
      const id = opOf.get(`${req.method} ${req.routeOptions.url ?? ''}`);
      if (!id) return;
      metrics.inc('intel_http_requests_total', { operation: id, status: String(reply.statusCode) });
      const units = Number(reply.getHeader('x-usage-units') ?? 0);
      if (reply.statusCode === 200 && units > 0) metrics.inc('intel_units_billed_total', { operation: id }, units);
    });
    // operators scrape this; it carries counts and lag, no customer data
    app.get('/metrics', async (_req, reply) => reply.type('text/plain; version=0.0.4').send(await metrics.render()));
  }

  // The copy-trading execution relay: the key and the end user's wallet authorization are checked
  // as SPEC.md says, then it answers 503 execution_unavailable: execution is not built yet.
  const walletAuth = createWalletAuth({ now: deps.now });
  for (const base of BASES) {
    app.route({
      method: ['GET', 'POST'],
      url: `${base}/copy/agent/*`,
      handler: async (req) => {
        const now = (deps.now ?? Date.now)();
        await authenticate(req, deps.keys, now);
        const path = (req.url.split('?')[0] ?? '').slice(base.length);
        await walletAuth({ method: req.method, path, rawBody: (req as { rawBody?: string }).rawBody ?? '', headers: req.headers });
        throw new ApiError('execution_unavailable', 'the copy-trading execution relay is not available on this deployment yet; the read operations under /copy/ work');
      },
    });
  }

  const catalog = () => buildCatalog(deps.operations, deps.publicUrl());
  const openapi = () => buildOpenApi(deps.operations, deps.publicUrl());
  let openapiCache: unknown;
  for (const base of BASES) {
    app.get(base === '/v1' ? '/v1' : base, async () => catalog());
    app.get(`${base}/openapi.json`, async () => (openapiCache ??= openapi()));
    app.get(`${base}/docs`, async (_req, reply) => reply.type('text/html; charset=utf-8').send(buildDocsHtml(deps.operations, deps.publicUrl())));
    for (const op of deps.operations) {
      app.route({ method: op.method, url: `${base}${op.path}`, handler: createOperationHandler(op, deps) });
    }
  }
  return app;
}
