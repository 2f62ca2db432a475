/**
 * Scheduled jobs: the lease rule over one store, and the retention of expiring rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbeddedStore } from './store/embedded.ts';
import type { Row, Store } from './store/types.ts';
import { ExpiringTables, Tables } from './store/types.ts';
import { LEASE_FINISHED, LEASE_STARTED, claimVersion, expireRows, leaseStep } from './jobs.ts';
import type { LeaseBody } from './jobs.ts';

const T0 = Date.UTC(2026, 10, 2, 12, 0, 0);
const claim = (owner: string, version: number): Row => ({ key: 'k', version, body: JSON.stringify({ owner, state: 'claimed', at: 0 } satisfies LeaseBody) });

describe('the lease rule', () => {
  it('a claim version is the same for the same owner and key, differs between owners, and stays below a started run', () => {
    const v = claimVersion('host:1:a', 'retention:2026-11-02T12:00:00.000Z');
    expect(claimVersion('host:1:a', 'retention:2026-11-02T12:00:00.000Z')).toBe(v);
    const others = new Set(Array.from({ length: 200 }, (_, i) => claimVersion(`host:${i}:b`, 'retention:2026-11-02T12:00:00.000Z')));
    expect(others.size).toBe(200);
    for (const x of [v, ...others]) {
      expect(Number.isSafeInteger(x)).toBe(true);
      expect(x).toBeGreaterThanOrEqual(1);
      expect(x).toBeLessThan(LEASE_STARTED);
    }
    expect(LEASE_FINISHED).toBeGreaterThan(LEASE_STARTED);
    expect(Number.isSafeInteger(LEASE_FINISHED)).toBe(true);
  });

  it('claims while the row is free or lower, runs on its own claim, skips a higher claim or a started run', () => {
    const me = { owner: 'a', version: 500 };
    expect(leaseStep(undefined, me)).toBe('claim');
    expect(leaseStep(claim('b', 499), me)).toBe('claim');
    expect(leaseStep(claim('a', 500), me)).toBe('run');
    // the same version by another owner: the store kept theirs
    expect(leaseStep(claim('b', 500), me)).toBe('claim');
    expect(leaseStep(claim('b', 501), me)).toBe('skip');
    expect(leaseStep({ ...claim('a', 0), version: LEASE_STARTED }, me)).toBe('skip');
    expect(leaseStep({ ...claim('b', 0), version: LEASE_FINISHED }, me)).toBe('skip');
  });

  it('contenders writing through their own store handles in any order: every one reads the same winner, the highest claim', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobs-lease-'));
    const stores = await Promise.all(Array.from({ length: 4 }, () => createEmbeddedStore({ dataDir: dir })));
    try {
      const key = 'retention:2026-11-02T12:10:00.000Z';
      const owners = ['p1', 'p2', 'p3', 'p4'];
      for (const i of [2, 0, 3, 1]) {
        const owner = owners[i] as string;
        await (stores[i] as Store).upsert(Tables.jobLeases, [{ ...claim(owner, claimVersion(owner, key)), key, expiresAt: Date.now() + 60_000 }]);
      }
      const steps = await Promise.all(owners.map(async (owner, i) => leaseStep(await (stores[i] as Store).get(Tables.jobLeases, key), { owner, version: claimVersion(owner, key) })));
      expect(steps.filter((s) => s === 'run')).toHaveLength(1);
      const highest = owners.reduce((a, b) => (claimVersion(a, key) > claimVersion(b, key) ? a : b));
      expect(steps[owners.indexOf(highest)]).toBe('run');
    } finally {
      for (const s of stores) await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('retention', () => {
  it('drops the rows past their expiry in every expiring table, and keeps the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobs-retention-'));
    const store = await createEmbeddedStore({ dataDir: dir });
    try {
      for (const t of ExpiringTables) {
        await store.upsert(t, [
          { key: 'old', version: 1, body: '{}', expiresAt: T0 - 1 },
          { key: 'young', version: 1, body: '{}', expiresAt: T0 + 60_000 },
        ]);
      }
      await expireRows(store, T0);
      for (const t of ExpiringTables) expect((await store.list(t)).map((r) => r.key), t).toEqual(['young']);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
