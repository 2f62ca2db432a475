/**
 * Unknown keys cost the store nothing once a client address has used up its allowance, and the
 * key cache is a bounded LRU whose valid keys a flood of unknown ones never evicts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../infra/config.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import type { Store } from '../infra/store/types.ts';
import { createKeyService, hashKey } from '../infra/keys.ts';
import { appPerTest } from '../test/api-app.ts';
import type { TestApp } from '../test/api-app.ts';

/** a well-formed sandbox key nobody minted */
const randomKey = () => `key_test_${randomBytes(24).toString('base64').replace(/[^A-Za-z0-9]/g, '').padEnd(32, 'a').slice(0, 32)}`;

/** the store, counting reads of the keys table */
function counting(store: Store): { store: Store; reads: () => number } {
  let reads = 0;
  const wrapped: Store = Object.create(store) as Store;
  wrapped.get = (table, key) => {
    if (table === 'api_keys') reads++;
    return store.get(table, key);
  };
  return { store: wrapped, reads: () => reads };
}

describe('a flood of unknown keys', () => {
  const boot = appPerTest();
  let t: TestApp;

  it('from one address turns into at most the allowance of store reads, then 429 with Retry-After, while a cached valid key from the same address still answers', async () => {
    const c = counting(await createEmbeddedStore({ dataDir: mkdtempSync(join(tmpdir(), 'auth-flood-')) }));
    t = await boot({ store: c.store, authFailuresPerMinute: 10 });
    const key = await t.newKey();
    const call = (k: string, ip = '203.0.113.7') =>
      t.app.inject({ method: 'POST', url: '/v1/probe', remoteAddress: ip, headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' }, payload: '{}' });
    expect((await call(key)).statusCode).toBe(200);
    const before = c.reads();
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 200; i++) {
      const r = await call(randomKey());
      statuses.push(r.statusCode);
      if (r.statusCode === 429) limited ??= r;
    }
    expect(c.reads() - before).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(190);
    expect(limited?.json()).toMatchObject({ error: 'rate_limited' });
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited?.headers['retry-after'])).toBeLessThanOrEqual(60);
    // a key the cache knows is served from the throttled address; another address is not throttled
    expect((await call(key)).statusCode).toBe(200);
    expect((await call(randomKey(), '198.51.100.1')).statusCode).toBe(401);
    // IPv6 addresses of one /64 share an allowance
    const v6 = (i: number) => `2001:db8:1:2::${i.toString(16)}`;
    const v6statuses: number[] = [];
    for (let i = 1; i <= 12; i++) v6statuses.push((await call(randomKey(), v6(i))).statusCode);
    expect(v6statuses.filter((s) => s === 429)).toHaveLength(2);
  });
});

describe('behind a reverse proxy (HTTP_TRUST_PROXY)', () => {
  const boot = appPerTest();
  /** 12 unknown keys from each of two clients, both reaching us through a proxy on 127.0.0.1 */
  async function statusesOf(trustProxy: string): Promise<{ first: number[]; second: number[]; spoofed: number }> {
    const t = await boot({ authFailuresPerMinute: 10, http: { trustProxy: ConfigSchema.parse({ HTTP_TRUST_PROXY: trustProxy }).HTTP_TRUST_PROXY } });
    const call = (forwardedFor: string, remoteAddress = '127.0.0.1') =>
      t.app.inject({ method: 'POST', url: '/v1/probe', remoteAddress, headers: { authorization: `Bearer ${randomKey()}`, 'x-forwarded-for': forwardedFor, 'content-type': 'application/json' }, payload: '{}' });
    const first: number[] = [];
    const second: number[] = [];
    for (let i = 0; i < 12; i++) first.push((await call('203.0.113.7')).statusCode);
    for (let i = 0; i < 12; i++) second.push((await call('198.51.100.1')).statusCode);
    // a client that is not the proxy names another address in X-Forwarded-For: it is not believed
    for (let i = 0; i < 10; i++) await call('192.0.2.1', '192.0.2.200');
    const spoofed = (await call(`192.0.2.${Math.floor(Math.random() * 100)}`, '192.0.2.200')).statusCode;
    return { first, second, spoofed };
  }
  const count = (xs: number[], s: number) => xs.filter((x) => x === s).length;

  it('believes the trusted proxy: each client has its own allowance; an untrusted peer cannot claim another address', async () => {
    const r = await statusesOf('loopback');
    expect({ first401: count(r.first, 401), second401: count(r.second, 401) }).toEqual({ first401: 10, second401: 10 });
    expect(r.spoofed).toBe(429);
  });

  it('by default believes nobody: clients behind one proxy share its address and its allowance', async () => {
    const r = await statusesOf('');
    expect({ first401: count(r.first, 401), second401: count(r.second, 401), second429: count(r.second, 429) }).toEqual({ first401: 10, second401: 0, second429: 12 });
  });

  it('refuses a setting that is not addresses, ranges, a hop count or a keyword', () => {
    expect(() => ConfigSchema.parse({ HTTP_TRUST_PROXY: 'everyone' })).toThrow(/everyone/);
    expect(ConfigSchema.parse({ HTTP_TRUST_PROXY: '2' }).HTTP_TRUST_PROXY).toBe(2);
    expect(ConfigSchema.parse({ HTTP_TRUST_PROXY: '10.0.0.0/8, loopback' }).HTTP_TRUST_PROXY).toEqual(['10.0.0.0/8', 'loopback']);
  });
});

describe('the key cache', () => {
  /** a store that knows no key and counts reads */
  const emptyStore = () => {
    let reads = 0;
    const store = { get: async () => (reads++, undefined) } as unknown as Store;
    return { store, reads: () => reads };
  };

  it('keeps a valid key cached through 150,000 unknown keys (today it was cleared whole at 100,000)', async () => {
    const s = emptyStore();
    const keys = createKeyService({ store: s.store, cacheTtlSeconds: 3600 });
    const now = Date.now();
    const record = { id: 'k1', orgId: 'o', plan: 'sandbox' as const, kind: 'test' as const, displayPrefix: 'key_test_abcd', createdAt: new Date(now).toISOString() };
    const valid = randomKey();
    (s.store as { get: unknown }).get = async (_t: string, id: string) => {
      if (id === hashKey(valid)) return { key: id, version: 1, body: JSON.stringify({ ...record, id: undefined }) };
      return undefined;
    };
    expect(await keys.resolve(valid, now)).toMatchObject({ orgId: 'o' });
    for (let i = 0; i < 150_000; i++) await keys.resolve(`key_test_${i.toString().padStart(32, '0')}`, now);
    expect(keys.cached(valid, now)).toMatchObject({ orgId: 'o' });
  });

  it('a key in use is read again before its TTL ends: no call at the expiry waits on the store; a revocation during the read is kept; misses share one read', async () => {
    const valid = randomKey();
    const body = JSON.stringify({ orgId: 'o', plan: 'sandbox', kind: 'test', displayPrefix: 'key_test_abcd', createdAt: '2026-01-01T00:00:00Z' });
    let reads = 0;
    let hold: Promise<void> | undefined;
    const store = {
      get: async (_t: string, id: string) => {
        reads++;
        if (hold) await hold;
        return id === hashKey(valid) ? { key: id, version: 1, body } : undefined;
      },
    } as unknown as Store;
    const keys = createKeyService({ store, cacheTtlSeconds: 40 });
    const t0 = Date.now();
    // concurrent misses of one key: one read
    const answers = await Promise.all(Array.from({ length: 16 }, () => keys.resolve(valid, t0)));
    expect(answers.every((a) => a?.orgId === 'o')).toBe(true);
    expect(reads).toBe(1);
    // early in the TTL: from the cache, nothing read
    expect(keys.cached(valid, t0 + 20_000)).toMatchObject({ orgId: 'o' });
    expect(reads).toBe(1);
    // in its last quarter: answered from the cache, and read again behind the call
    expect(keys.cached(valid, t0 + 31_000)).toMatchObject({ orgId: 'o' });
    expect(reads).toBe(2);
    await new Promise((r) => setTimeout(r, 0));
    // past the first expiry the renewed entry answers: no call waits on the store
    expect(keys.cached(valid, t0 + 45_000)).toMatchObject({ orgId: 'o' });
    expect(reads).toBe(2);
    // a revocation that lands while the next renewal is being read: the read does not bring the key back
    let release!: () => void;
    hold = new Promise<void>((r) => (release = r));
    expect(keys.cached(valid, t0 + 62_000)).toMatchObject({ orgId: 'o' });
    expect(reads).toBe(3);
    keys.forget(hashKey(valid));
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(keys.cached(valid, t0 + 63_000)).toBeUndefined();
    // past its TTL a key nobody renewed is not served: the call reads the store
    hold = undefined;
    const other = createKeyService({ store, cacheTtlSeconds: 40 });
    await other.resolve(valid, t0);
    expect(other.cached(valid, t0 + 40_000)).toBeUndefined();
  });

  it('a renewal that finds the key revoked elsewhere ends it at once, not at the end of its TTL', async () => {
    const valid = randomKey();
    const record = { orgId: 'o', plan: 'sandbox', kind: 'test', displayPrefix: 'key_test_abcd', createdAt: '2026-01-01T00:00:00Z' };
    // another process revokes the key in the store; this process's cache is not told
    let revokedAt: string | undefined = undefined;
    const store = {
      get: async (_t: string, id: string) => (id === hashKey(valid) ? { key: id, version: 1, body: JSON.stringify({ ...record, ...(revokedAt ? { revokedAt } : {}) }) } : undefined),
    } as unknown as Store;
    const keys = createKeyService({ store, cacheTtlSeconds: 40 });
    const t0 = Date.now();
    expect(await keys.resolve(valid, t0)).toMatchObject({ orgId: 'o' });
    revokedAt = '2026-01-02T00:00:00Z';
    // in the last quarter of the TTL: still the cached key, renewed behind the call
    expect(keys.cached(valid, t0 + 31_000)).toMatchObject({ orgId: 'o' });
    await new Promise((r) => setTimeout(r, 0));
    // the renewal read the revocation: refused now (a known-invalid key), 9 s before the TTL would end
    expect(keys.cached(valid, t0 + 31_001)).toBeNull();
    expect(await keys.resolve(valid, t0 + 31_001)).toBeUndefined();
  });

  it('evicts the least recently used valid key when full, not the one just used', async () => {
    const minted = new Map<string, string>();
    const store = {
      get: async (_t: string, id: string) => {
        const name = minted.get(id);
        return name ? { key: id, version: 1, body: JSON.stringify({ orgId: name, plan: 'sandbox', kind: 'test', displayPrefix: 'key_test_x', createdAt: '2026-01-01T00:00:00Z' }) } : undefined;
      },
    } as unknown as Store;
    const keys = createKeyService({ store, cacheTtlSeconds: 3600, cacheMax: 3 });
    const now = Date.now();
    const [a, b, c, d] = [randomKey(), randomKey(), randomKey(), randomKey()] as [string, string, string, string];
    for (const [k, n] of [[a, 'a'], [b, 'b'], [c, 'c'], [d, 'd']] as const) minted.set(hashKey(k), n);
    for (const k of [a, b, c]) await keys.resolve(k, now);
    // a is used again: b is now the least recently used
    expect(keys.cached(a, now)).toMatchObject({ orgId: 'a' });
    await keys.resolve(d, now);
    expect(keys.cached(b, now)).toBeUndefined();
    expect(keys.cached(a, now)).toMatchObject({ orgId: 'a' });
    expect(keys.cached(c, now)).toMatchObject({ orgId: 'c' });
    expect(keys.cached(d, now)).toMatchObject({ orgId: 'd' });
  });

  it('a hit allocates nothing in the old generation: a million cached lookups of one key neither grow it nor start a major GC', async () => {
    // a Map whose table is old is rehashed into the old generation, so an LRU that re-inserts its
    // entry on every hit (delete + set) grew it at the request rate: under load, a major GC of the
    // whole process's heap every few seconds, each a stall of the reads
    const store = {
      get: async (_t: string, id: string) => ({ key: id, version: 1, body: JSON.stringify({ orgId: 'o', plan: 'sandbox', kind: 'test', displayPrefix: 'key_test_x', createdAt: '2026-01-01T00:00:00Z' }) }),
    } as unknown as Store;
    const keys = createKeyService({ store, cacheTtlSeconds: 3600 });
    const now = Date.now();
    const key = randomKey();
    await keys.resolve(key, now);
    // in a long-running process the cache's structures are old: two full GCs promote them
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    gc();
    const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? NaN;
    const majors: number[] = [];
    const obs = new PerformanceObserver((list) => list.getEntries().forEach((e) => (e as PerformanceEntry & { detail?: { kind: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR && majors.push(e.startTime)));
    obs.observe({ entryTypes: ['gc'] });
    const before = oldSpace();
    let found = 0;
    for (let i = 0; i < 1_000_000; i++) if (keys.cached(key, now)) found++;
    const grown = oldSpace() - before;
    await new Promise((r) => setTimeout(r, 50));
    obs.disconnect();
    expect(found).toBe(1_000_000);
    // (with the Map touched on every hit: 75-107 MB more, or a major GC on the way)
    expect(grown).toBeLessThan(4e6);
    expect(majors).toEqual([]);
  });
});
