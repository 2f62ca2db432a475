import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../infra/metrics.ts';
import type { Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { baseUrlOf } from './http.ts';
import type { Freshness } from './freshness.ts';
import type { Replica } from './replica.ts';

/** a dependency the API needs to answer: resolves when it answers, rejects (or hangs) when it does not */
export type ReadinessCheck = () => Promise<unknown>;

export interface OpsDeps {
  metrics: Metrics;
  /** by name; `/readyz` is ready when every one resolves within `checkTimeoutMs` */
  checks: Record<string, ReadinessCheck>;
  /** default 2,000 ms */
  checkTimeoutMs?: number;
}

/**
 * What the API process needs to answer: the store (keys, usage, the replay guard) and the log
 * (the engine's snapshots its replica follows): a read of the store, and the replica's lag read
 * from the log, which fail or hang while ClickHouse or Kafka is down.
 */
export function readinessChecks(deps: {
  store: Store;
  replica: Pick<Replica, 'lag'>;
  /** the engine caught up: every ingested chain's newest snapshot at most `maxAgeSeconds` old */
  fresh?: { freshness: Freshness; maxAgeSeconds: number; now?: () => number };
}): Record<string, ReadinessCheck> {
  const checks: Record<string, ReadinessCheck> = {
    store: () => deps.store.get(Tables.apiKeys, '~readyz'),
    log: () => deps.replica.lag(),
  };
  const fresh = deps.fresh;
  if (fresh) {
    checks.fresh = async () => {
      const stale = fresh.freshness.stale((fresh.now ?? Date.now)(), fresh.maxAgeSeconds);
      if (stale.length > 0) {
        const what = stale.map((s) => (s.ageSeconds === null ? `${s.chain} has no snapshot yet` : `${s.chain} is ${s.ageSeconds} s behind`)).join(', ');
        throw new Error(`answers older than ${fresh.maxAgeSeconds} s: ${what}`);
      }
    };
  }
  return checks;
}

/** 'ok', or why not */
async function probe(check: ReadinessCheck, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`timed out after ${timeoutMs} ms`), timeoutMs)));
  try {
    return await Promise.race([
      check().then(
        () => 'ok',
        (err: unknown) => `failed: ${err instanceof Error ? err.message : String(err)}`,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The operator endpoints, on their own port (docs/architecture.md "Decisions"), never on the partners':
 * `/metrics` (Prometheus text), `/healthz` (the process answers), `/readyz` (200 when every
 * dependency answers, else 503 naming the ones that do not).
 */
export async function buildOpsApp(deps: OpsDeps): Promise<FastifyInstance> {
  const timeoutMs = deps.checkTimeoutMs ?? 2000;
  const app = Fastify({ logger: false, requestTimeout: 10_000, keepAliveTimeout: 5_000 });
  app.get('/metrics', async (_req, reply) => reply.type('text/plain; version=0.0.4').send(await deps.metrics.render()));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const names = Object.keys(deps.checks);
    const results = await Promise.all(names.map((n) => probe(deps.checks[n] as ReadinessCheck, timeoutMs)));
    const checks = Object.fromEntries(names.map((n, i) => [n, results[i] as string]));
    const ready = results.every((r) => r === 'ok');
    return reply.status(ready ? 200 : 503).send({ ready, checks });
  });
  return app;
}

/** builds the operator app and listens; its base URL */
export async function startOps(deps: OpsDeps & { host: string; port: number }): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildOpsApp(deps);
  await app.listen({ host: deps.host, port: deps.port });
  return { app, url: baseUrlOf(app.server.address() as AddressInfo) };
}
