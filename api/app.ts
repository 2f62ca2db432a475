import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { KeyService } from '../infra/keys.ts';
import { dailyLimits } from './metering.ts';
import type { DailyLimits, FairUse, Meter } from './metering.ts';
import type { Metrics } from '../infra/metrics.ts';
import type { AnyOperation, Group } from './operations.ts';
import type { Replica } from './replica.ts';
import type { Store } from '../infra/store/types.ts';
import { createWalletAuth } from './wallet-auth.ts';
import type { ChainRpcUrls, WalletAuth } from './wallet-auth.ts';
import { docsPlugin } from './docs/plugin.ts';
import { buildCatalog, buildOpenApi, recordedExamples } from './openapi.ts';
import type { OpenApiExamples } from './openapi.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorsPlugin, methodNotAllowed, redacting } from './plugins/errors.ts';
import { createHolds, limitsPlugin } from './plugins/limits.ts';
import type { Holds } from './plugins/limits.ts';
import { createCallCounts, metricsPlugin } from './plugins/metrics.ts';
import type { CallCounts } from './plugins/metrics.ts';
import { createServedLane, laneBodyHook } from './lane.ts';
import type { HttpHandler, ServedLane } from './lane.ts';
import { meteringPlugin } from './plugins/metering.ts';
import { shared } from './plugins/plugin.ts';
import { operationRoutes } from './routes/plugin.ts';
import { COMPRESS_MIN_BYTES, answerHeaders, newRequestId } from './pipeline.ts';
import { createResponseCache } from './served.ts';
import type { ResponseCache } from './served.ts';
import { DEFAULT_HTTP_LIMITS, capConnections, serverOptions } from './http.ts';
import type { HttpLimits } from './http.ts';
import { ingestedChainsOnly } from './validate.ts';
import { consolePlugin } from './console/plugin.ts';
import type { StreamHub } from './stream/hub.ts';
import { streamRoutes } from './stream/plugin.ts';
import { STREAM_ENDPOINT } from './stream/endpoint.ts';
import type { ConsoleDeps } from './console/plugin.ts';

export const BASES = ['/v1', '/api/v1'] as const;
export { API_VERSION } from './version.ts';

export interface AppDeps {
  operations: AnyOperation[];
  /** a token and a wallet the engine knows, named as examples in the OpenAPI document */
  examples?: () => OpenApiExamples;
  keys: KeyService;
  meter: Meter;
  dailyUnitBudget: number;
  /** the organisations' daily quotas and the sandbox share of the budget (api/metering.ts); default the plans' */
  fairUse?: FairUse;
  /** base URL printed in catalog links, e.g. http://127.0.0.1:8080 */
  publicUrl: () => string;
  /** the snapshot replica the served operations' response cache follows (none: nothing is cached) */
  replica?: Pick<Replica, 'entry'>;
  /** request logging (api/plugins/errors.ts); none: nothing is logged */
  logger?: FastifyBaseLogger;
  now?: () => number;
  metrics?: Metrics;
  /** the store: the execution relay's wallet-authorization replay guard lives there */
  store: Store;
  /** EVM RPC per chain (RPC_URL_<CHAIN>): smart-contract wallets' signatures verify through them */
  rpcUrls?: ChainRpcUrls;
  /**
   * the chains this deployment ingests (infra/config.ts ingestedChains): an operation's `chain`
   * naming another answers 400 invalid_chain; none: every known chain is served
   */
  chains?: readonly string[];
  /** timeouts and caps of the partners' port (api/http.ts); default the configuration's defaults */
  http?: Partial<HttpLimits>;
  /** unknown or revoked keys one client address may present per minute (api/plugins/auth.ts) */
  authFailuresPerMinute?: number;
  /** the partner console at /console (api/console/plugin.ts); none: not served */
  console?: ConsoleDeps;
  /** the live stream at /v1/stream (api/stream/plugin.ts); none: not served */
  stream?: { hub: StreamHub; maxTopics: number };
  /** answer repeated served calls before fastify (api/lane.ts); default true */
  servedLane?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the served lane of the app's server (api/lane.ts), set by the API plugin */
    servedLane: ServedLane | null;
  }
}

/** methods a route can be called with; a known operation path answers 405 to the others */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** every answer's first headers, and the plugins of HTTP itself: CORS and compression */
async function httpPlugins(app: FastifyInstance): Promise<void> {
  // every answer: the request id, and the security headers (api/http.ts)
  app.addHook('onRequest', (req, reply, done) => {
    void reply.headers(answerHeaders(req.id));
    done();
  });
  // browser apps call with a key from any origin (no cookies: a key, not a session, authorises):
  // preflights are answered in the hook, before auth; the limits' and billing headers are readable
  await app.register(cors, {
    // no Origin (a server calling): no CORS headers, and an OPTIONS is the path's 405 as before
    origin: (origin, cb) => cb(null, origin === undefined ? false : '*'),
    strictPreflight: false,
    methods: ['GET', 'POST'],
    allowedHeaders: ['authorization', 'x-api-key', 'content-type', 'if-none-match', 'x-wallet-address', 'x-wallet-signature', 'x-auth-timestamp'],
    exposedHeaders: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit-policy', 'ratelimit', 'x-usage-units', 'x-request-id', 'retry-after', 'etag'],
    maxAge: 600,
  });
  // gzip or br from 1 KiB up (lists, the document, the catalog); the served operations' answers
  // come compressed from their cache (api/pipeline.ts), which this plugin then leaves as they are
  await app.register(compress, {
    threshold: COMPRESS_MIN_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } },
  });
}

/** the catalog, the OpenAPI document and the docs page under every base */
function documentRoutes(app: FastifyInstance, deps: AppDeps, operations: AnyOperation[]): void {
  const chains = deps.chains?.map((slug) => ({ slug }));
  // the catalog and the docs list the live stream beside the operations
  const listed = deps.stream ? [...operations, STREAM_ENDPOINT] : operations;
  const catalog = () => ({ ...buildCatalog(listed, deps.publicUrl()), ...(chains ? { chains } : {}) });
  // the document names real tokens and wallets as examples once the engine has some: rebuilt when they change
  let openapiCache: { key: string; doc: unknown } | undefined;
  const document = () => {
    const ex = deps.examples?.() ?? {};
    const key = JSON.stringify(ex);
    if (openapiCache?.key !== key) openapiCache = { key, doc: buildOpenApi(operations, deps.publicUrl(), { examples: ex, recorded: recordedExamples(), stream: deps.stream !== undefined }) };
    return openapiCache.doc;
  };
  for (const base of BASES) {
    app.get(base === '/v1' ? '/v1' : base, async () => catalog());
    app.get(`${base}/openapi.json`, async () => document());
  }
}

/**
 * An operation's path called with another method: 405, keyed and limited like the operation (its
 * rate-limit headers), answered before a body is read.
 */
function methodNotAllowedRoutes(ops: FastifyInstance, operations: AnyOperation[], byPath: ReadonlyMap<string, string[]>): void {
  for (const op of operations) {
    const served = byPath.get(op.path) ?? [];
    if (served[0] !== op.method) continue; // once a path
    const others = METHODS.filter((m) => !served.includes(m) && !(m === 'HEAD' && served.includes('GET')));
    for (const base of BASES) {
      ops.route({
        method: others,
        url: `${base}${op.path}`,
        config: { operation: { id: op.id, cost: 0 } },
        preParsing: (req, _reply, _payload, done) => done(methodNotAllowed(req.method, op.path, served)),
        handler: async (req) => {
          throw methodNotAllowed(req.method, op.path, served);
        },
      });
    }
  }
}

/** what the operations' context shares with the rest of the app (and the served lane) */
interface OperationShared {
  operations: AnyOperation[];
  byPath: ReadonlyMap<string, string[]>;
  limits: DailyLimits;
  holds: Holds;
  counts: CallCounts | undefined;
  responses: ResponseCache;
  walletAuth: WalletAuth;
}

/**
 * The operations in their own context: the metrics, auth, limits and metering plugins, the live
 * stream, the operation routes by group (the copy-trading execution relay's too) and their 405s.
 */
function operationContext(deps: AppDeps, shared: OperationShared): FastifyPluginAsync {
  const { operations, limits, holds, counts, responses, walletAuth } = shared;
  return async (ops) => {
    if (deps.metrics) await ops.register(metricsPlugin, { metrics: deps.metrics, counts });
    await ops.register(authPlugin, { keys: deps.keys, now: deps.now, failuresPerMinute: deps.authFailuresPerMinute });
    await ops.register(limitsPlugin, { meter: deps.meter, limits, holds });
    await ops.register(meteringPlugin, { meter: deps.meter });
    if (deps.stream) {
      await ops.register(streamRoutes, { ...deps.stream, keys: deps.keys, meter: deps.meter, limits, bases: BASES, chains: deps.chains, now: deps.now });
    }
    const groups = [...new Set(operations.map((o) => o.group))] as Group[];
    for (const group of groups) {
      // the execution relay's operations (walletAuth) are keyed, limited and metered like the rest, then the wallet authorization
      await ops.register(operationRoutes, { operations: operations.filter((o) => o.group === group), bases: BASES, responses, walletAuth });
    }
    methodNotAllowedRoutes(ops, operations, shared.byPath);
  };
}

/** methods served at each path below a base: the operations, and the catalog, document and docs */
function methodsByPath(operations: AnyOperation[], stream: boolean): Map<string, string[]> {
  const byPath = new Map<string, string[]>([
    ['/', ['GET']],
    ['/openapi.json', ['GET']],
    ['/docs', ['GET']],
  ]);
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method]);
  if (stream) byPath.set('/stream', ['GET']);
  return byPath;
}

/**
 * The API as a plugin: errors (parsing, error and not-found handlers) at the root; the catalog,
 * document and docs; the console; then, in their own context, the operations (operationContext),
 * with the served lane before fastify sharing their response cache, holds and counters.
 */
export const apiPlugin = shared<AppDeps>('intel-api', async (app, deps) => {
  const logger = deps.logger && redacting(deps.logger);
  await httpPlugins(app);
  const operations = deps.chains ? deps.operations.map((op) => ingestedChainsOnly(op, deps.chains as readonly string[])) : deps.operations;
  const byPath = methodsByPath(operations, deps.stream !== undefined);
  await app.register(errorsPlugin, { bases: BASES, methodsByPath: byPath, docsUrl: () => `${deps.publicUrl()}/v1/docs`, logger });

  const walletAuth = createWalletAuth({
    store: deps.store,
    rpcUrls: deps.rpcUrls,
    now: deps.now,
    onError: (err) => logger?.warn({ err }, 'dropping expired wallet authorizations failed'),
  });
  app.addHook('onClose', async () => walletAuth.close());
  documentRoutes(app, deps, operations);
  await docsPlugin(app, BASES);

  // the console in its own context (its cookie, CSRF and static plugins stay there); not an operation:
  // never keyed, limited or metered
  const limits = dailyLimits(deps.dailyUnitBudget, deps.fairUse);
  if (deps.console) await app.register(consolePlugin, { ...deps.console, limits });

  const responses = createResponseCache(deps.replica ?? { entry: () => undefined });
  // the limits' holds and the call counters, shared by the plugins and the served lane
  const holds = createHolds(deps.meter, limits);
  const counts = deps.metrics && createCallCounts(deps.metrics);
  if (deps.servedLane !== false) {
    // (decorated by buildApp, which registers this plugin on the server's own instance)
    app.servedLane = createServedLane({ operations, bases: BASES, responses, keys: deps.keys, meter: deps.meter, holds, counts, logger, now: deps.now });
    app.addHook('preParsing', laneBodyHook);
  }
  await app.register(operationContext(deps, { operations, byPath, limits, holds, counts, responses, walletAuth }));
});

/**
 * The HTTP server fastify would make of these options (fastify applies them only to a server it
 * makes itself: lib/server.js), answering with `handler`.
 */
function laneServer(options: ReturnType<typeof serverOptions>, handler: HttpHandler): Server {
  const server = createServer(options.http ?? {}, handler);
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.maxRequestsPerSocket !== undefined && options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  return server;
}

/** Builds the API as a fastify instance; server.ts only boots it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...deps.http };
  const options = serverOptions(limits);
  let lane: ServedLane | null = null;
  const app: FastifyInstance = Fastify({
    // requests are logged by the errors plugin, with deps.logger
    logger: false,
    genReqId: newRequestId,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    ...options,
    // the served lane first (api/lane.ts), then fastify; the server as fastify makes it
    serverFactory: (handler: HttpHandler) => laneServer(options, (req, res) => (lane ? lane(req, res, handler) : handler(req, res))),
  });
  app.decorate('servedLane', null);
  capConnections(app, limits);
  await app.register(apiPlugin, deps);
  lane = app.servedLane;
  return app;
}
