import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ApiError } from '../schemas/errors.ts';
import type { KeyService } from './keys.ts';
import type { Meter } from './metering.ts';
import type { Metrics } from '../infra/metrics.ts';
import type { AnyOperation, Group } from './operations.ts';
import type { Replica } from './replica.ts';
import { createWalletAuth } from './wallet-auth.ts';
import { buildCatalog, buildDocsHtml, buildOpenApi } from './openapi.ts';
import { authPlugin, authenticate } from './plugins/auth.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { limitsPlugin } from './plugins/limits.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { meteringPlugin } from './plugins/metering.ts';
import { shared } from './plugins/plugin.ts';
import { operationRoutes } from './routes/plugin.ts';
import { createResponseCache } from './served.ts';

export const BASES = ['/v1', '/api/v1'] as const;
export { API_VERSION } from './version.ts';

export interface AppDeps {
  operations: AnyOperation[];
  keys: KeyService;
  meter: Meter;
  dailyUnitBudget: number;
  /** base URL printed in catalog links, e.g. http://127.0.0.1:8080 */
  publicUrl: () => string;
  /** the snapshot replica the served operations' response cache follows (none: nothing is cached) */
  replica?: Pick<Replica, 'entry'>;
  /** request logging (api/plugins/errors.ts); none: nothing is logged */
  logger?: FastifyBaseLogger;
  now?: () => number;
  metrics?: Metrics;
}

/**
 * The API as a plugin: errors (parsing, error and not-found handlers) at the root; the catalog,
 * document and docs; the copy-trading relay; then, in their own context, the metrics, auth,
 * limits and metering plugins and the operation routes by group.
 */
export const apiPlugin = shared<AppDeps>('intel-api', async (app, deps) => {
  /** methods served at each path below a base: the operations, and the catalog, document and docs */
  const byPath = new Map<string, string[]>([
    ['/', ['GET']],
    ['/openapi.json', ['GET']],
    ['/docs', ['GET']],
  ]);
  for (const op of deps.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method]);
  await app.register(errorsPlugin, { bases: BASES, methodsByPath: byPath, docsUrl: () => `${deps.publicUrl()}/v1/docs`, logger: deps.logger });

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
        await walletAuth({ method: req.method, path, rawBody: req.rawBody ?? '', headers: req.headers });
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
  }

  const responses = createResponseCache(deps.replica ?? { entry: () => undefined });
  await app.register(async (ops) => {
    if (deps.metrics) await ops.register(metricsPlugin, { metrics: deps.metrics });
    await ops.register(authPlugin, { keys: deps.keys, now: deps.now });
    await ops.register(limitsPlugin, { meter: deps.meter, dailyUnitBudget: deps.dailyUnitBudget });
    await ops.register(meteringPlugin, { meter: deps.meter });
    const groups = [...new Set(deps.operations.map((o) => o.group))] as Group[];
    for (const group of groups) {
      await ops.register(operationRoutes, { operations: deps.operations.filter((o) => o.group === group), bases: BASES, responses });
    }
  });
});

/** Builds the API as a fastify instance; server.ts only boots it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    // requests are logged by the errors plugin, with deps.logger
    logger: false,
    genReqId: () => randomUUID(),
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  await app.register(apiPlugin, deps);
  return app;
}
