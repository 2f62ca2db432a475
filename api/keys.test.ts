import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryLog } from '../infra/log/memory.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import type { Store } from '../infra/store/types.ts';
import { limitsOf } from '../schemas/keys.ts';
import { buildApp } from './app.ts';
import { createKeyService } from '../infra/keys.ts';
import type { KeyService } from '../infra/keys.ts';
import { createMeter } from './metering.ts';
import type { Meter } from './metering.ts';
import { defineOperation } from './operations.ts';

describe('key limits: the plan, with the operator overrides of an enterprise key', () => {
  let dir: string;
  let store: Store;
  let keys: KeyService;
  let meter: Meter;
  let liveOrg: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'keys-test-'));
    store = await createEmbeddedStore({ dataDir: dir });
    await store.migrate();
    keys = createKeyService({ store, cacheTtlSeconds: 30 });
    meter = await createMeter({ log: createMemoryLog(), store, runSink: false });
    const org = await keys.createOrg('live');
    await keys.goLive(org.id, Date.now());
    liveOrg = org.id;
  });
  afterEach(async () => {
    await meter.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores the overrides on the key record and resolves them', async () => {
    const { plaintext, record } = await keys.createKey(liveOrg, 'enterprise', { ratePerMinute: 1_000_000, dailyUnits: 5 });
    expect(record.overrides).toEqual({ ratePerMinute: 1_000_000, dailyUnits: 5 });
    const resolved = await keys.resolve(plaintext, Date.now());
    expect(limitsOf(resolved!)).toEqual({ ratePerMinute: 1_000_000, dailyUnits: 5 });
    // defaults are the plan's
    const plain = await keys.createKey(liveOrg, 'enterprise');
    expect(plain.record.overrides).toBeUndefined();
    expect(limitsOf(plain.record)).toEqual({ ratePerMinute: 2000, dailyUnits: null });
    expect(limitsOf({ plan: 'sandbox' })).toEqual({ ratePerMinute: 60, dailyUnits: 10_000 });
  });

  it('refuses overrides on published plans and invalid values', async () => {
    await expect(keys.createKey(liveOrg, 'pro', { ratePerMinute: 10 })).rejects.toThrow(/enterprise keys only/);
    await expect(keys.createKey(liveOrg, 'enterprise', { ratePerMinute: 0 })).rejects.toThrow();
    await expect(keys.createKey(liveOrg, 'enterprise', { dailyUnits: 1.5 })).rejects.toThrow();
    await expect(keys.createKey(liveOrg, 'enterprise', { other: 1 } as never)).rejects.toThrow();
  });

  it('the limiter uses them: a rate above the plan is admitted, and the daily quota answers 429 naming it', async () => {
    const op = defineOperation({
      id: 'probe',
      method: 'POST',
      path: '/probe',
      cost: 2,
      group: 'infra',
      summary: 'probe',
      returns: 'ok',
      request: z.object({}),
      response: z.object({ ok: z.boolean() }),
      handler: async () => ({ ok: true }),
    });
    const app = await buildApp({ operations: [op], keys, meter, dailyUnitBudget: 1_000_000, publicUrl: () => 'http://x', store });
    const call = (key: string) => app.inject({ method: 'POST', url: '/v1/probe', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: '{}' });

    const fast = (await keys.createKey(liveOrg, 'enterprise', { ratePerMinute: 2500 })).plaintext;
    const statuses = new Set<number>();
    for (let i = 0; i < 2100; i++) statuses.add((await call(fast)).statusCode);
    expect([...statuses]).toEqual([200]);
    const last = await call(fast);
    expect(last.headers['x-ratelimit-limit']).toBe('2500');

    const slow = (await keys.createKey(liveOrg, 'enterprise', { ratePerMinute: 3 })).plaintext;
    expect([(await call(slow)).statusCode, (await call(slow)).statusCode, (await call(slow)).statusCode]).toEqual([200, 200, 200]);
    const limited = await call(slow);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');

    const quota = (await keys.createKey(liveOrg, 'enterprise', { dailyUnits: 5 })).plaintext;
    expect([(await call(quota)).statusCode, (await call(quota)).statusCode]).toEqual([200, 200]);
    const over = await call(quota);
    expect(over.statusCode).toBe(429);
    expect(over.json().detail).toMatch(/daily quota of 5 units/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    await app.close();
  });
});
