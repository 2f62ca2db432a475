/**
 * The perps adapter against a local server that plays Hyperliquid's WebSocket API from recorded
 * frames: subscription, snapshot and live userFills, a repeated fill, a spot fill, a malformed
 * fill, a dropped connection, and the resubscription's overlapping snapshot.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveVenueAccount, foldPerpFill, initialVenueAccountState } from '../../engine/venue/index.ts';
import { createMemoryLog } from '../../infra/log/memory.ts';
import { createEmbeddedStore } from '../../infra/store/embedded.ts';
import { createPerpsSource } from '../../ingest/perps/index.ts';
import { pumpVenueSource, readVenueCursor } from '../../ingest/venuesim/pump.ts';
import { PerpFill, VenueTopics } from '../../schemas/venues.ts';
import { recording, startReplayServer } from '../fixtures/venues/replay-server.ts';
import type { ReplayServer } from '../fixtures/venues/replay-server.ts';

const A = '0x8c967e73e6b15087c42a10d344cff4c96d877f1d';
const B = '0x31ca8395cf837de08b24da3f660e77761dfb974b';

function hyperliquid(dropAfter: number[] = [0]): Promise<ReplayServer> {
  let subs = 0;
  return startReplayServer({
    sessions: [recording('hyperliquid-userFills.session1.jsonl'), recording('hyperliquid-userFills.session2.jsonl')],
    // the session starts once both users are subscribed
    startsSession: (f) => {
      const m = JSON.parse(f) as { method: string };
      if (m.method === 'subscribe') subs++;
      return m.method === 'subscribe' && subs % 2 === 0;
    },
    answer: (f) => ((JSON.parse(f) as { method: string }).method === 'ping' ? '{"channel":"pong"}' : undefined),
    dropAfter,
  });
}

async function collect(source: { run(s: AbortSignal): AsyncGenerator<PerpFill[] | unknown[]> }, until: (n: number) => boolean, timeoutMs = 10_000): Promise<PerpFill[]> {
  const abort = new AbortController();
  const out: PerpFill[] = [];
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const run = (async () => {
    for await (const batch of source.run(abort.signal)) out.push(...(batch as PerpFill[]));
  })();
  // keep the connection open until the fills are in and a keep-alive ping went out
  while (!abort.signal.aborted && (!until(out.length) || !server?.received.flat().includes('{"method":"ping"}'))) await new Promise((r) => setTimeout(r, 10));
  clearTimeout(timer);
  abort.abort();
  await run;
  return out;
}

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('perps adapter (Hyperliquid userFills over ws)', () => {
  it('subscribes per user, decodes fills, dedupes by account and tid, skips spot, rejects malformed, reconnects and resubscribes', async () => {
    server = await hyperliquid();
    const source = createPerpsSource({ url: server.url, users: [A, B.toUpperCase().replace('0X', '0x')], pingIntervalMs: 40, reconnect: { minMs: 50, maxMs: 200 } });
    const fills = await collect(source, (n) => n >= 7);
    // exactly the distinct fills, oldest first within each frame, in the recording's order
    expect(fills.map((f) => `${f.account === A ? 'A' : 'B'}:${f.fillId}`)).toEqual([
      'A:848317371100001',
      'A:848317371100002',
      'A:848317371100003',
      'B:848317371100003', // the counterparty's fill carries the same tid: not a duplicate
      'A:848317371100006',
      'A:848317371100007',
      'A:848317371100008',
    ]);
    for (const f of fills) expect(PerpFill.parse(f)).toEqual(f);
    expect(fills[0]).toEqual({
      type: 'perp_fill',
      venue: 'hyperliquid',
      account: A,
      coin: 'BTC',
      side: 'buy',
      size: 0.05,
      price: 97245,
      startPosition: 0,
      dir: 'Open Long',
      closedPnl: 0,
      fee: 1.701787,
      time: 1735689600123,
      fillId: '848317371100001',
      hash: '0x06e5f3c2a9d1b4e7f0a8c6d2e4b1f3a5c7e9d0b2f4a6c8e1d3f5b7a9c0e2d4f7',
      crossed: true,
    });
    expect(fills[6]).toMatchObject({ side: 'buy', dir: 'Short > Long', startPosition: -0.08, size: 0.12, closedPnl: 37.6 });
    const stats = source.stats();
    expect(stats).toMatchObject({ connects: 2, fills: 7, skipped: 1, rejected: 1 });
    // the repeat in session 1, then the resubscription's snapshot (A: 3 fills, B: 1)
    expect(stats.duplicates).toBe(5);
    // both connections subscribed both users, in the venue's exact frame, lowercase
    for (const conn of server.received.slice(0, 2)) {
      const subs = conn.filter((f) => f.includes('"subscribe"'));
      expect(subs).toEqual([
        `{"method":"subscribe","subscription":{"type":"userFills","user":"${A}"}}`,
        `{"method":"subscribe","subscription":{"type":"userFills","user":"${B}"}}`,
      ]);
    }
    expect(server.received.flat()).toContain('{"method":"ping"}');
  });

  it('what it yields folds into a graded account: round trips, the flip, fees', async () => {
    server = await hyperliquid();
    const fills = await collect(createPerpsSource({ url: server.url, users: [A, B], pingIntervalMs: 40, reconnect: { minMs: 50, maxMs: 200 } }), (n) => n >= 7);
    let s = initialVenueAccountState('perp', 'hyperliquid', A);
    for (const f of fills.filter((x) => x.account === A)) s = foldPerpFill(s, f);
    // a replay of everything changes nothing
    const before = JSON.stringify(s);
    for (const f of fills.filter((x) => x.account === A)) s = foldPerpFill(s, f);
    expect(JSON.stringify(s)).toBe(before);
    const snap = deriveVenueAccount(s);
    expect(snap.sample).toEqual({ fills: 6, closedTrades: 3, instruments: 2, daysActive: 0.25, openPositions: 1 });
    expect(snap.grade).toBe('unrated');
    expect(snap.performance.winRatePct).toBe(100);
    expect(snap.behaviour.flipSharePct).toBeCloseTo((1 / 6) * 100, 1);
    // realised net of fees over the closed entry notional: (28.25 + 49.56 + 37.6 - fees) / (BTC 0.05 + ETH 1.2 + BTC 0.08 entries)
    const fees = 1.701787 + 1.711675 + 1.424388 + 1.407042 + 2.74456 + 4.0971;
    const notional = 0.05 * 97245 + 1.2 * 3391.4 + 0.08 * 98020;
    expect(snap.performance.realisedReturnPct).toBeCloseTo(((28.25 + 49.56 + 37.6 - fees) / notional) * 100, 2);
    expect(snap.behaviour.longSharePct).toBeCloseTo(50, 5); // opened: long BTC, short ETH, short BTC, long BTC (flip)
  });

  it('pumps into the venue topic keyed venue:account and records its cursor', async () => {
    server = await hyperliquid([]);
    const dir = mkdtempSync(join(tmpdir(), 'venues-perps-'));
    const log = createMemoryLog();
    const store = await createEmbeddedStore({ dataDir: dir });
    await store.migrate();
    try {
      const abort = new AbortController();
      let published = 0;
      const done = pumpVenueSource(
        { log, store, onProgress: (p) => (published = p.events) },
        createPerpsSource({ url: server.url, users: [A, B], reconnect: { minMs: 50, maxMs: 200 } }),
        'perps',
        abort.signal,
      );
      const deadline = Date.now() + 10_000;
      while (published < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      abort.abort();
      await done;
      expect(published).toBe(4); // session 1 only: f1, f2, f3 for A and f3 for B
      const records: { key: string; value: string }[] = [];
      const consumer = await log.consume({ groupId: 't', topics: [VenueTopics.fills], fromBeginning: true, eachBatch: async (b) => void records.push(...b.records) });
      const until = Date.now() + 5_000;
      while (records.length < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      await consumer.stop();
      expect(records.map((r) => r.key).sort()).toEqual([`hyperliquid:${B}`, `hyperliquid:${A}`, `hyperliquid:${A}`, `hyperliquid:${A}`].sort());
      expect(await readVenueCursor(store, 'perps')).toBe(1735696800789);
    } finally {
      await log.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
