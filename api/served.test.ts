import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { deriveTokenSnapshot } from '../engine/token/derive.ts';
import { foldTokenEvents, initialTokenState } from '../engine/token/state.ts';
import { organicMarket } from '../engine/token/testkit.ts';
import { createMemoryLog } from '../infra/log/memory.ts';
import type { Log } from '../infra/log/types.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import type { Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import type { TokenSnapshot } from '../schemas/token.ts';
import { TokenIntelRequest } from './routes/token.ts';
import { defineOperation } from './operations.ts';
import type { CallContext } from './operations.ts';
import { createReplica } from './replica.ts';
import type { Replica } from './replica.ts';
import { createResponseCache, splitAtAges } from './served.ts';
import { refresh } from './routes/common.ts';
import { createBoardCache } from './routes/market.ts';
import type { BoardEntry } from './routes/market.ts';
import { fresh, tokenIntelView } from './views/token.ts';
import { z } from 'zod';

describe('splitAtAges', () => {
  it('cuts a response at every ageSeconds key with that value, at any depth, and nowhere else', () => {
    const r = { a: 1, ageSeconds: 17, nested: { ageSeconds: 17, other: { ageSeconds: 170 } }, s: '"ageSeconds":17', n: 17 };
    const text = JSON.stringify(r);
    const parts = splitAtAges(text, 17);
    expect(parts).toHaveLength(3);
    expect(parts?.join('17')).toBe(text);
    expect(parts?.join('99')).toBe(JSON.stringify({ ...r, ageSeconds: 99, nested: { ageSeconds: 99, other: { ageSeconds: 170 } } }));
  });
  it('finds nothing in responses without that age', () => {
    expect(splitAtAges('{"ageSeconds":null}', 0)).toBeUndefined();
    expect(splitAtAges('[1]', 1)).toBeUndefined();
    expect(splitAtAges('{"ageSeconds":170}', 17)).toBeUndefined();
  });
});

describe('response cache', () => {
  let dir: string;
  let log: Log;
  let store: Store;
  let replica: Replica;
  let snapshot: TokenSnapshot;
  beforeAll(async () => {
    const m = organicMarket(100);
    snapshot = deriveTokenSnapshot(foldTokenEvents(initialTokenState(m.chain, m.token), m.events));
    dir = mkdtempSync(join(tmpdir(), 'served-test-'));
    log = createMemoryLog();
    store = await createEmbeddedStore({ dataDir: dir });
    await store.migrate();
    await store.upsert(Tables.snapshots, [{ key: `token:${snapshot.chain}:${snapshot.token}`, version: 1, body: JSON.stringify(snapshot) }]);
    replica = await createReplica({ log, store });
  });
  afterAll(async () => {
    await replica.stop();
    await log.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** a served token operation rendering the replica's snapshot of its token, counting its runs */
  const servedOperation = (id: string, counter: { runs: number }, render: (s: TokenSnapshot, nowMs: number, i: { sizeUsd?: number }) => unknown) =>
    defineOperation({
      id,
      method: 'POST',
      path: `/${id}`,
      cost: 1,
      group: 'token',
      summary: 's',
      returns: 'r',
      request: TokenIntelRequest,
      response: z.looseObject({}),
      served: {
        snapshot: (i) => `token:${i.chain ?? 'sim'}:${i.token}`,
        ageSeconds: (e, nowMs) => fresh(e.value<TokenSnapshot>(), nowMs / 1000).ageSeconds,
      },
      handler: async (i, ctx) => {
        counter.runs++;
        return render(replica.get<TokenSnapshot>(`token:${i.chain ?? 'sim'}:${i.token}`) as TokenSnapshot, ctx.now, i) as never;
      },
    });

  it('answers later calls with the bytes a computed answer would have, at the later age, without running the view', async () => {
    const counter = { runs: 0 };
    const op = servedOperation('tokenIntel', counter, (s, nowMs, i) => tokenIntelView(s, { sizeUsd: i.sizeUsd }, nowMs / 1000));
    const cache = createResponseCache(replica);
    const ctx = (nowMs: number) => ({ now: nowMs, requestId: 'r', key: {} }) as CallContext;
    const request = JSON.stringify({ chain: snapshot.chain, token: snapshot.token });
    const input = TokenIntelRequest.parse(JSON.parse(request));
    const t0 = snapshot.asOfTs * 1000 + 1_400;
    const view = (s: TokenSnapshot, params: { sizeUsd?: number }, nowMs: number) => JSON.stringify(tokenIntelView(s, params, nowMs / 1000));
    // nothing cached yet: a hit needs a served answer first
    expect(cache.hit(op, request, t0)).toBeUndefined();
    const first = await cache.serve(op, input, ctx(t0), request);
    expect(first.bytes.toString()).toBe(view(snapshot, {}, t0));
    for (const later of [t0 + 499, t0 + 500, t0 + 61_000, t0 + 86_400_000]) {
      expect(cache.hit(op, request, later)?.bytes.toString()).toBe(view(snapshot, {}, later));
      expect((await cache.serve(op, input, ctx(later), request)).bytes.toString()).toBe(view(snapshot, {}, later));
    }
    // built once: rendered, and rendered again at the next age to check that only the ages move
    expect(counter.runs).toBe(2);
    // the bytes of one age are made once and shared by the calls of that second
    const sameSecond = cache.hit(op, request, t0 + 100);
    expect(sameSecond?.bytes).toBeInstanceOf(Buffer);
    expect(cache.hit(op, request, t0 + 200)?.bytes).toBe(sameSecond?.bytes);
    // one weak ETag for every age of this snapshot version; the compressed bytes made once per age
    expect(first.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(sameSecond?.etag).toBe(first.etag);
    const gz = sameSecond?.encoded('gzip') as Buffer;
    expect(gunzipSync(gz).equals(sameSecond?.bytes as Buffer)).toBe(true);
    expect(cache.hit(op, request, t0 + 300)?.encoded('gzip')).toBe(gz);
    expect(brotliDecompressSync(cache.hit(op, request, t0 + 300)?.encoded('br') as Buffer).equals(sameSecond?.bytes as Buffer)).toBe(true);
    expect(gunzipSync(cache.hit(op, request, t0 + 61_000)?.encoded('gzip') as Buffer).toString()).toBe(view(snapshot, {}, t0 + 61_000));
    // other parameters are another entry; other request text is not a hit
    const sized = TokenIntelRequest.parse({ chain: snapshot.chain, token: snapshot.token, sizeUsd: 50_000 });
    expect(cache.hit(op, JSON.stringify({ token: snapshot.token, chain: snapshot.chain }), t0)).toBeUndefined();
    expect((await cache.serve(op, sized, ctx(t0))).bytes.toString()).toBe(view(snapshot, { sizeUsd: 50_000 }, t0));
    expect(counter.runs).toBe(4);
    // a new snapshot version is served from the new snapshot: the old entry is no hit
    const next = { ...snapshot, verdict: snapshot.verdict === 'avoid' ? 'watch' : 'avoid', asOfTs: snapshot.asOfTs + 60 } as TokenSnapshot;
    await log.publish('snapshots', [{ key: `token:${snapshot.chain}:${snapshot.token}`, value: `{"version":2,"body":${JSON.stringify(next)}}` }]);
    for (let i = 0; i < 100 && replica.entry(`token:${snapshot.chain}:${snapshot.token}`)?.version !== 2; i++) await new Promise((r) => setTimeout(r, 10));
    const t1 = t0 + 90_000;
    expect(cache.hit(op, request, t1)).toBeUndefined();
    expect((await cache.serve(op, input, ctx(t1), request)).bytes.toString()).toBe(view(next, {}, t1));
    expect(counter.runs).toBe(6);
    expect(cache.hit(op, request, t1)?.bytes.toString()).toBe(view(next, {}, t1));
    // a new version is a new validator
    expect(cache.hit(op, request, t1)?.etag).not.toBe(first.etag);
  });

  it('caches a bundle with an age per slot, and never a response with another time-dependent field', async () => {
    const key = `token:${snapshot.chain}:${snapshot.token}`;
    const bundle = { runs: 0 };
    const clocked = { runs: 0 };
    const slots = (s: TokenSnapshot, nowMs: number) => ({ a: fresh(s, nowMs / 1000), b: { ...fresh(s, nowMs / 1000), x: 1 }, failed: [] });
    const overview = servedOperation('overview', bundle, slots);
    // another field that moves with the clock: never cached
    const minute = servedOperation('minute', clocked, (s, nowMs) => ({ ...fresh(s, nowMs / 1000), clock: Math.floor(nowMs / 1000) }));
    const cache = createResponseCache(replica);
    const ctx = (nowMs: number) => ({ now: nowMs, requestId: 'r', key: {} }) as CallContext;
    const request = JSON.stringify({ token: snapshot.token });
    const input = TokenIntelRequest.parse(JSON.parse(request));
    const t = (replica.get<TokenSnapshot>(key) as TokenSnapshot).asOfTs * 1000 + 5_000;
    expect((await cache.serve(overview, input, ctx(t), request)).bytes.toString()).toBe(JSON.stringify(slots(replica.get<TokenSnapshot>(key) as TokenSnapshot, t)));
    expect(cache.hit(overview, request, t + 7_000)?.bytes.toString()).toBe(JSON.stringify(slots(replica.get<TokenSnapshot>(key) as TokenSnapshot, t + 7_000)));
    expect(bundle.runs).toBe(2);
    await cache.serve(minute, input, ctx(t), request);
    expect(cache.hit(minute, request, t + 7_000)).toBeUndefined();
    await cache.serve(minute, input, ctx(t + 7_000), request);
    expect(clocked.runs).toBe(4);
  });

  it('past maxEntries forgets the answer used least recently, not the one a partner keeps asking for', async () => {
    const counter = { runs: 0 };
    const op = servedOperation('tokenIntelLru', counter, (s, nowMs, i) => tokenIntelView(s, { sizeUsd: i.sizeUsd }, nowMs / 1000));
    const cache = createResponseCache(replica, { maxEntries: 2 });
    const current = replica.get<TokenSnapshot>(`token:${snapshot.chain}:${snapshot.token}`) as TokenSnapshot;
    const t = current.asOfTs * 1000 + 1_400;
    const ctx = { now: t, requestId: 'r', key: {} } as CallContext;
    const texts = [1_000, 2_000, 3_000].map((sizeUsd) => JSON.stringify({ chain: snapshot.chain, token: snapshot.token, sizeUsd }));
    const serve = (text: string) => cache.serve(op, TokenIntelRequest.parse(JSON.parse(text)), ctx, text);
    const [first, second, third] = texts as [string, string, string];
    await serve(first);
    await serve(second);
    // the first answer asked again: the second is now the one used least recently
    expect(cache.hit(op, first, t)).toBeDefined();
    await serve(third);
    expect(cache.size()).toBe(2);
    expect(cache.hit(op, first, t)).toBeDefined();
    expect(cache.hit(op, second, t)).toBeUndefined();
    expect(cache.hit(op, third, t)).toBeDefined();
  });
});

describe('response cache over a source the operation keeps (a board)', () => {
  /** a board's age as the market views give it */
  const ageAt = (asOfTs: number | null, nowMs: number) => (asOfTs === null ? null : Math.max(0, Math.round(nowMs / 1000 - asOfTs)));
  const BoardRequest = z.object({ limit: z.coerce.number().int().default(20), refresh: refresh() });
  /** a board operation as api/routes/market.ts defines one: computed into its own cache with a TTL, its answers cached over the cache's entry */
  function boardOperation(ttlMs: number, asOfTs: number | null = 1_000_000) {
    const boards = createBoardCache<{ asOfTs: number | null }>(ttlMs);
    const runs = { handler: 0, computed: 0 };
    const served = {
      snapshot: (i: { limit: number }) => `board:sim:${i.limit}`,
      source: (key: string, nowMs: number) => boards.peek(key, nowMs),
      ageSeconds: (e: BoardEntry<{ asOfTs: number | null }>, nowMs: number) => ageAt(e.value.asOfTs, nowMs),
      cacheable: (i: { refresh: boolean }) => !i.refresh,
    };
    const op = defineOperation({
      id: 'board',
      method: 'GET',
      path: '/board',
      cost: 6,
      group: 'market',
      summary: 's',
      returns: 'r',
      request: BoardRequest,
      response: z.looseObject({}),
      served,
      handler: async (i, ctx) => {
        runs.handler++;
        const { value, cached } = await boards.get(served.snapshot(i), ctx.now, i.refresh, async () => {
          runs.computed++;
          return { asOfTs, leader: `computation ${runs.computed}`, limit: i.limit };
        });
        return { ...value, ageSeconds: ageAt(value.asOfTs, ctx.now), cached } as never;
      },
    });
    return { op, runs };
  }
  const ctx = (nowMs: number) => ({ now: nowMs, requestId: 'r', key: {} }) as CallContext;
  const answer = (leader: string, nowMs: number, cached: boolean) =>
    JSON.stringify({ asOfTs: 1_000_000, leader, limit: 20, ageSeconds: ageAt(1_000_000, nowMs), cached });
  const t0 = 1_000_000_000 + 30_400;

  it('answers repeated calls from bytes until the board expires, and a refresh is always computed and replaces the board', async () => {
    const { op, runs } = boardOperation(120_000);
    // no replica is read: the board operation names its own source
    const cache = createResponseCache({ entry: () => assert.fail('a board answer read the replica') });
    const input = BoardRequest.parse({});
    // the first call computes the board: answered as computed, nothing cached (there was no board)
    expect((await cache.serve(op, input, ctx(t0), '')).bytes.toString()).toBe(answer('computation 1', t0, false));
    expect(cache.hit(op, '', t0)).toBeUndefined();
    // the second is answered from the board, and its bytes are kept over it
    const second = await cache.serve(op, input, ctx(t0 + 10), '');
    expect(second.bytes.toString()).toBe(answer('computation 1', t0 + 10, true));
    expect(second.etag).toMatch(/^W\/"[\w-]+"$/);
    const handlerRuns = runs.handler;
    for (const later of [t0 + 500, t0 + 61_000, t0 + 119_999]) expect(cache.hit(op, '', later)?.bytes.toString()).toBe(answer('computation 1', later, true));
    expect(runs.handler).toBe(handlerRuns);
    expect(runs.computed).toBe(1);
    // expired with the board: no hit, and the next call computes it again
    expect(cache.hit(op, '', t0 + 120_000)).toBeUndefined();
    expect((await cache.serve(op, input, ctx(t0 + 120_000), '')).bytes.toString()).toBe(answer('computation 2', t0 + 120_000, false));
    expect(runs.computed).toBe(2);
    const kept = await cache.serve(op, input, ctx(t0 + 121_000), '');
    expect(cache.hit(op, '', t0 + 122_000)?.bytes.toString()).toBe(answer('computation 2', t0 + 122_000, true));
    // refresh=1: computed every time, never cached, and the board it makes replaces the one the bytes were kept over
    const refresh = BoardRequest.parse({ refresh: '1' });
    expect((await cache.serve(op, refresh, ctx(t0 + 123_000), 'refresh=1')).bytes.toString()).toBe(answer('computation 3', t0 + 123_000, false));
    expect((await cache.serve(op, refresh, ctx(t0 + 124_000), 'refresh=1')).bytes.toString()).toBe(answer('computation 4', t0 + 124_000, false));
    expect(cache.hit(op, 'refresh=1', t0 + 124_500)).toBeUndefined();
    expect(cache.hit(op, '', t0 + 124_500)).toBeUndefined();
    const after = await cache.serve(op, input, ctx(t0 + 125_000), '');
    expect(after.bytes.toString()).toBe(answer('computation 4', t0 + 125_000, true));
    // a new board is a new validator
    expect(after.etag).not.toBe(kept.etag);
    expect(cache.hit(op, '', t0 + 126_000)?.bytes.toString()).toBe(answer('computation 4', t0 + 126_000, true));
    expect(runs.computed).toBe(4);
  });

  it('does not cache an answer whose next age falls after the board expires, and never renders it past the expiry', async () => {
    // a board that lives 1.2 s: an answer 0.9 s into it would be checked at its next age, after the expiry
    const { op, runs } = boardOperation(1_200);
    const cache = createResponseCache({ entry: () => undefined });
    const input = BoardRequest.parse({});
    await cache.serve(op, input, ctx(t0), '');
    expect((await cache.serve(op, input, ctx(t0 + 900), '')).bytes.toString()).toBe(answer('computation 1', t0 + 900, true));
    expect(cache.hit(op, '', t0 + 1_000)).toBeUndefined();
    // rendering at the next age (t0 + 1,900) would have computed a second board
    expect(runs.computed).toBe(1);
  });

  it('answers a board with no age (no token yet) as computed, and keeps no bytes of it', async () => {
    const { op, runs } = boardOperation(120_000, null);
    const cache = createResponseCache({ entry: () => undefined });
    const input = BoardRequest.parse({});
    await cache.serve(op, input, ctx(t0), '');
    const second = await cache.serve(op, input, ctx(t0 + 10), '');
    expect(JSON.parse(second.bytes.toString())).toMatchObject({ ageSeconds: null, cached: true });
    expect(cache.hit(op, '', t0 + 20)).toBeUndefined();
    // answered from the board each time, never rendered a second time to check cached parts
    await cache.serve(op, input, ctx(t0 + 30), '');
    expect(runs).toEqual({ handler: 3, computed: 1 });
  });
});
