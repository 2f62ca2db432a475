/**
 * The real app (buildApp) over the embedded store in a temporary directory and an in-process log,
 * with a few probe operations, for the tests of the HTTP layer (plugins, limits, server options).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../api/app.ts';
import type { AppDeps } from '../api/app.ts';
import { createKeyService } from '../infra/keys.ts';
import type { KeyService } from '../infra/keys.ts';
import { createMeter } from '../api/metering.ts';
import type { Meter } from '../api/metering.ts';
import { defineOperation } from '../api/operations.ts';
import type { AnyOperation } from '../api/operations.ts';
import { ChainParam } from '../api/routes/common.ts';
import { createMemoryLog } from '../infra/log/memory.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import type { Store } from '../infra/store/types.ts';
import { ApiError } from '../schemas/errors.ts';
import type { Plan } from '../schemas/keys.ts';

/** POST /probe: costs `cost` units, echoes the chain, optionally waits `waitMs` first; `n: 404` answers 404 not_a_token */
export function probeOperation(opts: { id?: string; path?: string; method?: 'GET' | 'POST'; cost?: number; waitMs?: number; rateLimited?: boolean } = {}): AnyOperation {
  return defineOperation({
    id: opts.id ?? 'probe',
    method: opts.method ?? 'POST',
    path: opts.path ?? '/probe',
    cost: opts.cost ?? 1,
    group: 'infra',
    summary: 'probe',
    returns: 'ok',
    ...(opts.rateLimited === false ? { rateLimited: false } : {}),
    request: z.object({ chain: ChainParam, n: z.number().int().optional() }),
    response: z.object({ ok: z.boolean(), chain: z.string().optional() }),
    handler: async (i) => {
      if (opts.waitMs) await new Promise((r) => setTimeout(r, opts.waitMs));
      if (i.n === 404) throw new ApiError('not_a_token', 'the probe knows no such token');
      return { ok: true, ...(i.chain ? { chain: i.chain } : {}) };
    },
  });
}

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  keys: KeyService;
  meter: Meter;
  /** a fresh key of a plan (sandbox in a sandbox organisation, the others in a live one) */
  newKey(plan?: Plan, overrides?: { ratePerMinute?: number; dailyUnits?: number }): Promise<string>;
  /** listens on 127.0.0.1 and an ephemeral port; the base URL */
  listen(): Promise<{ url: string; port: number }>;
  close(): Promise<void>;
}

/** `more`: operations built over the app's meter (the usage operation), served beside `operations` */
export async function bootTestApp(deps: Partial<AppDeps> & { store?: Store; more?: (d: { meter: Meter }) => AnyOperation[] } = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'api-app-'));
  const store = deps.store ?? (await createEmbeddedStore({ dataDir: dir }));
  await store.migrate();
  const keys = deps.keys ?? createKeyService({ store, cacheTtlSeconds: 30 });
  const meter = deps.meter ?? (await createMeter({ log: createMemoryLog(), store, runSink: false, now: deps.now }));
  const { more, ...appDeps } = deps;
  const operations = [...(deps.operations ?? [probeOperation()]), ...(more?.({ meter }) ?? [])];
  const app = await buildApp({ dailyUnitBudget: 1_000_000, publicUrl: () => 'http://x', ...appDeps, operations, keys, meter, store });
  const sandbox = await keys.createOrg('sandbox');
  const live = await keys.createOrg('live');
  await keys.goLive(live.id, Date.now());
  return {
    app,
    store,
    keys,
    meter,
    async newKey(plan = 'sandbox', overrides) {
      return (await keys.createKey(plan === 'sandbox' ? sandbox.id : live.id, plan, overrides)).plaintext;
    },
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as AddressInfo).port;
      return { url: `http://127.0.0.1:${port}`, port };
    },
    async close() {
      await app.close();
      await meter.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** boots apps for the tests of a describe block: each is closed after its test */
export function appPerTest(): (deps?: Parameters<typeof bootTestApp>[0]) => Promise<TestApp> {
  const open: TestApp[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });
  return async (deps) => {
    const t = await bootTestApp(deps);
    open.push(t);
    return t;
  };
}
