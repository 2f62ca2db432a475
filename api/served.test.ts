import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { createResponseCache, splitAtAge } from './served.ts';
import { fresh, tokenIntelView } from './views/token.ts';
import { z } from 'zod';

describe('splitAtAge', () => {
  it('splits a response around its top-level ageSeconds and nowhere else', () => {
    const r = { a: 1, ageSeconds: 17, nested: { ageSeconds: 3 }, s: '"ageSeconds":17' };
    const text = JSON.stringify(r);
    const parts = splitAtAge(r, text);
    expect(parts).toBeDefined();
    expect(`${parts?.head}17${parts?.tail}`).toBe(text);
    expect(`${parts?.head}99${parts?.tail}`).toBe(JSON.stringify({ ...r, ageSeconds: 99 }));
  });
  it('declines responses without a numeric top-level ageSeconds', () => {
    expect(splitAtAge({ ageSeconds: null }, '{"ageSeconds":null}')).toBeUndefined();
    expect(splitAtAge([1], '[1]')).toBeUndefined();
    expect(splitAtAge({ x: 1 }, '{"x":1}')).toBeUndefined();
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

  it('answers later calls with the bytes a computed answer would have, at the later age, without running the view', async () => {
    let runs = 0;
    const op = defineOperation({
      id: 'tokenIntel',
      method: 'POST',
      path: '/token-intel',
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
        runs++;
        return tokenIntelView(replica.get<TokenSnapshot>(`token:${i.chain ?? 'sim'}:${i.token}`) as TokenSnapshot, { sizeUsd: i.sizeUsd }, ctx.now / 1000);
      },
    });
    const cache = createResponseCache(replica);
    const ctx = (nowMs: number) => ({ now: nowMs, requestId: 'r', key: {} }) as CallContext;
    const request = JSON.stringify({ chain: snapshot.chain, token: snapshot.token });
    const input = TokenIntelRequest.parse(JSON.parse(request));
    const t0 = snapshot.asOfTs * 1000 + 1_400;
    const view = (s: TokenSnapshot, params: { sizeUsd?: number }, nowMs: number) => JSON.stringify(tokenIntelView(s, params, nowMs / 1000));
    // nothing cached yet: a hit needs a served answer first
    expect(cache.hit(op, request, t0)).toBeUndefined();
    const first = await cache.serve(op, input, ctx(t0), request);
    expect(first.toString()).toBe(view(snapshot, {}, t0));
    for (const later of [t0 + 499, t0 + 500, t0 + 61_000, t0 + 86_400_000]) {
      expect(cache.hit(op, request, later)?.toString()).toBe(view(snapshot, {}, later));
      expect((await cache.serve(op, input, ctx(later), request)).toString()).toBe(view(snapshot, {}, later));
    }
    expect(runs).toBe(1);
    // the bytes of one age are made once and shared by the calls of that second
    expect(cache.hit(op, request, t0 + 100)).toBe(cache.hit(op, request, t0 + 200));
    // other parameters are another entry; other request text is not a hit
    const sized = TokenIntelRequest.parse({ chain: snapshot.chain, token: snapshot.token, sizeUsd: 50_000 });
    expect(cache.hit(op, JSON.stringify({ token: snapshot.token, chain: snapshot.chain }), t0)).toBeUndefined();
    expect((await cache.serve(op, sized, ctx(t0))).toString()).toBe(view(snapshot, { sizeUsd: 50_000 }, t0));
    expect(runs).toBe(2);
    // a new snapshot version is served from the new snapshot: the old entry is no hit
    const next = { ...snapshot, verdict: snapshot.verdict === 'avoid' ? 'watch' : 'avoid', asOfTs: snapshot.asOfTs + 60 } as TokenSnapshot;
    await log.publish('snapshots', [{ key: `token:${snapshot.chain}:${snapshot.token}`, value: `{"version":2,"body":${JSON.stringify(next)}}` }]);
    for (let i = 0; i < 100 && replica.entry(`token:${snapshot.chain}:${snapshot.token}`)?.version !== 2; i++) await new Promise((r) => setTimeout(r, 10));
    const t1 = t0 + 90_000;
    expect(cache.hit(op, request, t1)).toBeUndefined();
    expect((await cache.serve(op, input, ctx(t1), request)).toString()).toBe(view(next, {}, t1));
    expect(runs).toBe(3);
    expect(cache.hit(op, request, t1)?.toString()).toBe(view(next, {}, t1));
  });
});
