import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Services } from './services.ts';
import { Topics } from '../schemas/events.ts';
import { buildApp } from '../api/app.ts';
import { createKeyService } from '../infra/keys.ts';
import type { KeyService } from '../infra/keys.ts';
import { createMeter, dailyLimitsOf } from '../api/metering.ts';
import { createReplica } from '../api/replica.ts';
import type { Replica } from '../api/replica.ts';
import { createStreamHub } from '../api/stream/hub.ts';
import { createFreshness } from '../api/freshness.ts';
import type { Freshness } from '../api/freshness.ts';
import { createOperations, webhookDepsOf } from '../api/routes/index.ts';
import { createTrackRecords } from './trackrecord.ts';
import { startJobs } from './jobs.ts';
import type { JobRunner } from '../infra/jobs.ts';
import { createAgentService } from '../relay/index.ts';
import { venueGatewayFromConfig } from './execution.ts';
import type { VenueGateway, WebhookEventIn } from '../relay/index.ts';
import { createWriterFromConfig } from '../engine/writer/index.ts';
import { consoleOriginProblem, evmRpcUrls, ingestedChains, opsPort } from '../infra/config.ts';
import { baseUrlOf, httpLimitsOf } from '../api/http.ts';
import { readinessChecks, startOps } from '../api/ops.ts';
import { startWebhookDeliverer } from '../api/webhooks/deliverer.ts';
import { enqueueWebhookEvent } from '../infra/webhooks/outbox.ts';
import { billPushes, startWebhookPusher } from '../api/webhooks/pusher.ts';
import { createWebhookActions } from '../api/routes/webhooks.ts';
import { createSignInMailer } from '../api/console/mailer.ts';
import type { ConsoleDeps } from '../api/console/plugin.ts';
import type { Resolver } from '../api/webhooks/destination.ts';

export interface ApiHandle {
  app: FastifyInstance;
  url: string;
  /** the operator endpoints (`/metrics`, `/healthz`, `/readyz`), never on the partners' port */
  opsUrl: string;
  keys: KeyService;
  replica: Replica;
  /** how fresh the answers are, per chain (the banner, /readyz, intel_snapshot_age_seconds) */
  freshness: Freshness;
  /** the scheduled jobs (runtime/jobs.ts): scoring, retention, the budget's day roll-over */
  jobs: JobRunner;
}

/** Boots the API role: keys, metering, the snapshot replica, the routes; listens. */
export async function startApi(
  services: Services,
  opts: {
    port?: number;
    host?: string;
    now?: () => number;
    venues?: VenueGateway;
    emit?: (e: WebhookEventIn) => Promise<void>;
    /** resolves webhook endpoints' names, at create and at each delivery (default the system's) */
    webhookResolver?: Resolver;
  } = {},
): Promise<ApiHandle> {
  const { config, log, store, logger } = services;
  const originProblem = consoleOriginProblem({ ...config, HOST: opts.host ?? config.HOST });
  if (originProblem) throw new Error(originProblem);
  const keys = createKeyService({ store, log, cacheTtlSeconds: config.KEY_CACHE_TTL_SECONDS });
  await log.ensureTopic(Topics.keys);
  // revocations made through another process drop out of this cache at once
  const keyEvents = await log.consume({
    groupId: `ephemeral-keys-${process.pid}-${Date.now()}`,
    topics: [Topics.keys],
    fromBeginning: false,
    eachBatch: async (b) => {
      for (const r of b.records) keys.forget(r.key);
    },
  });
  const meter = await createMeter({ log, store, runSink: true, onError: (err, what) => logger.warn({ err, what }, 'usage write failed') });
  const replica = await createReplica({ log, store });
  // the live stream's events follow the snapshots the replica applies (api/stream/hub.ts)
  const hub = createStreamHub({ retention: config.STREAM_RETENTION, onError: (err) => logger.warn({ err }, 'stream event not derived') });
  const stopHub = replica.onChange(hub.ingest);
  const freshness = createFreshness(replica, ingestedChains(config));
  services.metrics.gauge('intel_budget_daily_units', 'the global daily data budget in units', [], () => [{ labels: {}, value: config.DAILY_UNIT_BUDGET }]);
  services.metrics.gauge('intel_budget_used_units', 'units billed today (UTC) across all keys', [], () => [{ labels: {}, value: meter.budgetUsed(Date.now()) }]);
  services.metrics.gauge('intel_snapshot_age_seconds', 'seconds between now and the newest event folded into a token snapshot, per chain (the engine\'s distance from live)', ['chain'], () =>
    Object.entries(freshness.ageSeconds(Date.now()))
      .filter((e): e is [string, number] => e[1] !== null)
      .map(([chain, value]) => ({ labels: { chain }, value })),
  );
  const writer = createWriterFromConfig(config);
  let url = config.PUBLIC_URL ?? '';
  const trackRecords = createTrackRecords({ store, replica, onError: (err) => logger.warn({ err }, 'track-record write or scoring failed') });
  const agents = createAgentService({
    store,
    keys,
    venues: opts.venues ?? venueGatewayFromConfig(config, (msg) => logger.info({ role: 'copy' }, msg)),
    emit: opts.emit ?? ((e) => enqueueWebhookEvent(store, e)),
    now: opts.now ?? Date.now,
    defaultChain: config.DEFAULT_CHAIN,
    feeds: { perp: config.PERPS_WS_URL ? 'hyperliquid' : 'sim', prediction: config.PREDICTION_WS_URL ? 'polymarket' : 'sim' },
    logger: logger.child({ role: 'copy' }),
  });
  const { webhookResolver } = opts;
  const operations = createOperations({ replica, store, writer, config, meter, keys, webhookResolver }, { trackRecords, agents });
  const jobs = startJobs({ store, metrics: services.metrics, logger: logger.child({ role: 'jobs' }), trackRecords, meter });
  const consoleDeps: ConsoleDeps | undefined = config.CONSOLE_ENABLED
    ? {
        keys,
        meter,
        store,
        webhooks: createWebhookActions(webhookDepsOf({ store, config, webhookResolver })),
        mailer: createSignInMailer({ smtpUrl: config.CONSOLE_SMTP_URL, from: config.CONSOLE_MAIL_FROM, logger: logger.child({ role: 'console' }) }),
        // PUBLIC_URL, else this process's own loopback URL once it listens (never a request's Host)
        publicUrl: () => url,
        rpcUrls: evmRpcUrls(config),
        now: opts.now,
        sessionHours: config.CONSOLE_SESSION_HOURS,
        keysPerOrg: { sandbox: config.KEYS_PER_ORG_SANDBOX, live: config.KEYS_PER_ORG_LIVE },
        rates: {
          signInPerMinute: config.CONSOLE_SIGNIN_PER_MINUTE,
          signInPerIdentityPerHour: config.CONSOLE_SIGNIN_PER_IDENTITY_PER_HOUR,
          signUpsPerHour: config.CONSOLE_SIGNUPS_PER_HOUR,
          keyCreatesPerHour: config.CONSOLE_KEY_CREATES_PER_HOUR,
        },
        logger: logger.child({ role: 'console' }),
      }
    : undefined;
  const limits = dailyLimitsOf(config);
  const app = await buildApp({
    operations,
    keys,
    meter,
    replica,
    dailyUnitBudget: limits.budget,
    fairUse: limits,
    publicUrl: () => url,
    logger: logger.child({ role: 'api' }),
    now: opts.now,
    metrics: services.metrics,
    store,
    rpcUrls: evmRpcUrls(config),
    chains: ingestedChains(config),
    http: httpLimitsOf(config),
    authFailuresPerMinute: config.AUTH_FAILURES_PER_MINUTE,
    examples: examplesOf(replica, config.DEFAULT_CHAIN),
    console: consoleDeps,
    stream: { hub, maxTopics: config.STREAM_MAX_TOPICS },
  });
  await app.listen({ port: opts.port ?? config.PORT, host: opts.host ?? config.HOST });
  const addr = app.server.address() as AddressInfo;
  url ||= baseUrlOf(addr);
  const ops = await startOps({ metrics: services.metrics, checks: readinessChecks({ store, replica, fresh: { freshness, maxAgeSeconds: config.READY_MAX_AGE_SECONDS } }), host: config.OPS_HOST, port: opsPort(config) });
  // the webhook deliverer runs beside the API: one per API process reads the store's outbox, which
  // every role writes to (api/webhooks/deliverer.ts says what several API processes would need);
  // the pusher queues the hub's events for the endpoints subscribed to their topics, billed on delivery
  const pusher = startWebhookPusher({ store, hub, keys, meter, limits, logger: logger.child({ role: 'webhooks' }), metrics: services.metrics });
  const destinations = { allowLocal: config.WEBHOOKS_ALLOW_LOCAL, resolve: webhookResolver };
  // a sandbox key's delivered pushes count against the sandbox share, as its calls do
  const webhooks = startWebhookDeliverer({ store, destinations, logger: logger.child({ role: 'webhooks' }), onDelivered: billPushes(meter, pusher.planOf) });
  // its first read of the endpoints (a second refresh() here would read them all again)
  await pusher.ready;
  services.onShutdown(async () => {
    await app.close();
    await jobs.stop();
    await ops.app.close();
    // what the pusher heard is queued before the deliverer stops and the store closes
    await pusher.stop();
    await webhooks.stop();
    await trackRecords.stop();
    await keyEvents.stop();
    stopHub();
    freshness.stop();
    await replica.stop();
    await meter.stop();
  });
  return { app, url, opsUrl: ops.url, keys, replica, freshness, jobs };
}

/**
 * A rated token and a graded wallet of the default chain, for the OpenAPI document's examples:
 * looked up at most once a minute until both are found, then kept (the replica lists every snapshot).
 */
function examplesOf(replica: Replica, chain: string): () => { chain: string; token?: string; wallet?: string } {
  let last: { at: number; ex: { chain: string; token?: string; wallet?: string } } | undefined;
  return () => {
    if (last && (Date.now() - last.at < 60_000 || (last.ex.token && last.ex.wallet))) return last.ex;
    const token = replica.list<{ token: string; verdict?: string }>('token', chain).find((t) => t.verdict && t.verdict !== 'unrated')?.token;
    const wallet = replica.list<{ wallet: string; grade?: string }>('wallet', chain).find((w) => w.grade === 'mirror-worthy' || w.grade === 'watch')?.wallet;
    last = { at: Date.now(), ex: { chain, ...(token ? { token } : {}), ...(wallet ? { wallet } : {}) } };
    return last.ex;
  };
}
