/**
 * The prediction adapter against a local server that plays Polymarket's sockets from recorded
 * frames: the real-time data socket's activity/trades feed (account-attributed trades in the
 * data-API trade shape) and the CLOB market channel (book, price_change, last_trade_price).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deriveVenueAccount, foldPredictionTrade, initialVenueAccountState } from '../../engine/venue/index.ts';
import { createPredictionSource, marketUpdates } from '../../ingest/prediction/index.ts';
import type { MarketUpdate } from '../../ingest/prediction/index.ts';
import { PredictionTrade } from '../../schemas/venues.ts';
import { recording, startReplayServer } from '../fixtures/venues/replay-server.ts';
import type { ReplayServer } from '../fixtures/venues/replay-server.ts';

const W1 = '0x56687bf447db6ffa42ffe2204a05edaa20f55839';
const W2 = '0x1f2a9be1c8d0e3f4a5b6c7d8e9f0a1b2c3d4e5f6';
const YES = '21742633143463906290569050155826241533067272736897614950488156847949938836455';
const NO = '48331043336612883890938759509493159234755048973500640148014422747788308965732';
const COND = '0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function rtds(): Promise<ReplayServer> {
  return startReplayServer({
    sessions: [recording('polymarket-activity-trades.session1.jsonl'), recording('polymarket-activity-trades.session2.jsonl')],
    startsSession: (f) => f.includes('"action":"subscribe"'),
    answer: (f) => (f === 'PING' ? 'PONG' : undefined),
    dropAfter: [0],
  });
}

async function collectTrades(url: string, n: number): Promise<{ trades: PredictionTrade[]; stats: ReturnType<ReturnType<typeof createPredictionSource>['stats']> }> {
  const source = createPredictionSource({ url, wallets: [W1, W2], pingIntervalMs: 40, reconnect: { minMs: 50, maxMs: 200 } });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 10_000);
  const trades: PredictionTrade[] = [];
  const run = (async () => {
    for await (const batch of source.run(abort.signal)) trades.push(...(batch as PredictionTrade[]));
  })();
  // keep the connection open until the trades are in and a keep-alive went out
  while (!abort.signal.aborted && (trades.length < n || !server?.received.flat().includes('PING'))) await new Promise((r) => setTimeout(r, 10));
  clearTimeout(timer);
  abort.abort();
  await run;
  return { trades, stats: source.stats() };
}

describe('prediction adapter (Polymarket activity trades over ws)', () => {
  it('subscribes, decodes trades, keeps followed wallets, dedupes across a reconnect, rejects malformed frames', async () => {
    server = await rtds();
    const { trades, stats } = await collectTrades(server.url, 5);
    expect(trades.map((t) => `${t.account === W1 ? 'W1' : 'W2'}:${t.side}:${t.size}@${t.price}`)).toEqual([
      'W1:buy:1250@0.31',
      'W2:buy:400.5@0.7',
      'W1:sell:600@0.38',
      'W1:sell:650@0.42',
      'W2:sell:400.5@0.64',
    ]);
    for (const t of trades) expect(PredictionTrade.parse(t)).toEqual(t);
    expect(trades[0]).toMatchObject({ type: 'prediction_trade', venue: 'polymarket', market: COND, asset: YES, outcome: 'Yes', time: 1736100000000 });
    expect(trades[1]).toMatchObject({ asset: NO, outcome: 'No' });
    // the counterparty (not followed) is filtered; one repeat in session 1 and one replayed after the reconnect
    expect(stats).toEqual({ connects: 2, trades: 5, duplicates: 2, rejected: 1, filtered: 1 });
    for (const conn of server.received.slice(0, 2)) expect(conn[0]).toBe('{"action":"subscribe","subscriptions":[{"topic":"activity","type":"trades"}]}');
    expect(server.received.flat()).toContain('PING');
  });

  it('what it yields folds into accounts: average-cost round trips on outcome shares', async () => {
    server = await rtds();
    const { trades } = await collectTrades(server.url, 5);
    const fold = (w: string) => {
      let s = initialVenueAccountState('prediction', 'polymarket', w);
      for (const t of trades.filter((x) => x.account === w)) s = foldPredictionTrade(s, t);
      return deriveVenueAccount(s);
    };
    const w1 = fold(W1);
    expect(w1.sample).toMatchObject({ fills: 3, closedTrades: 1, instruments: 1, openPositions: 0 });
    // (600 × 0.07 + 650 × 0.11) / (1250 × 0.31)
    expect(w1.performance.realisedReturnPct).toBeCloseTo((113.5 / 387.5) * 100, 2);
    expect(w1.performance.winRatePct).toBe(100);
    expect(w1.behaviour.entryPriceBand).toBe('balanced');
    const w2 = fold(W2);
    expect(w2.performance.winRatePct).toBe(0);
    expect(w2.performance.realisedReturnPct).toBeCloseTo((-0.06 / 0.7) * 100, 2);
    expect(w2.grade).toBe('unrated');
  });

  it('market channel: subscribes with assets_ids and decodes book, price_change, last_trade_price, tick_size_change', async () => {
    server = await startReplayServer({
      sessions: [recording('polymarket-market.session1.jsonl')],
      startsSession: (f) => f.includes('assets_ids'),
      answer: (f) => (f === 'PING' ? 'PONG' : undefined),
    });
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 10_000);
    const updates: MarketUpdate[] = [];
    for await (const u of marketUpdates({ url: server.url, assets: [YES, NO], pingIntervalMs: 40 }, abort.signal)) {
      updates.push(u);
      if (updates.length >= 5) break;
    }
    clearTimeout(timer);
    abort.abort();
    expect(server.received[0]?.[0]).toBe(`{"assets_ids":["${YES}","${NO}"],"type":"market"}`);
    expect(updates).toEqual([
      { kind: 'book', asset: YES, market: COND, bestBid: 0.31, bestAsk: 0.33, time: 1736100000511 },
      { kind: 'book', asset: NO, market: COND, bestBid: 0.67, bestAsk: 0.69, time: 1736100000511 },
      { kind: 'price_change', market: COND, changes: [{ asset: YES, bestBid: 0.32, bestAsk: 0.33 }, { asset: NO, bestBid: 0.67, bestAsk: 0.68 }], time: 1736100005002 },
      { kind: 'last_trade', asset: YES, market: COND, price: 0.33, side: 'buy', size: 219.217767, time: 1736100007120 },
      { kind: 'tick_size', asset: YES, market: COND, tickSize: 0.001, time: 1736100009000 },
    ]);
  });
});
