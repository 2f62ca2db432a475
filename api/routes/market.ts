import { z } from 'zod';
import { convictionBoard, marketMovers, marketRegime, smartMoneyRadar } from '../views/market.ts';
import {
  ConvictionBoardResponse,
  MarketMoversResponse,
  MarketRegimeResponse,
  NamedChainMoversResponse,
  SmartMoneyRadarResponse,
} from '../../schemas/market.ts';
import type { TokenSnapshot } from '../../schemas/token.ts';
import type { AnyOperation, ServedSource } from '../operations.ts';
import { defineOperation } from '../operations.ts';
import { ChainParam, CursorParam, decodeCursor, encodeCursor, queryInt, refresh } from './common.ts';
import type { RouteDeps } from './context.ts';

const LimitParam = queryInt(1, 100, 20, 'how many items');

/** a board as the cache keeps it: one object per computation, the source of its answers' cached bytes (api/served.ts) */
export interface BoardEntry<V> extends ServedSource {
  /** ms since epoch when it was computed */
  readonly at: number;
  readonly expiresAt: number;
  readonly value: V;
}

/**
 * Cache of board responses (radar, conviction): `refresh=1` recomputes and replaces the entry.
 * One computation per key at a time: the calls that miss while it runs (a board expiring under
 * thousands of calls a second, or a writer that asks a model) wait for it instead of each
 * computing the board and asking the writer again. A computation that fails is not kept.
 * `peek` is the entry a call would be answered from now, if any: what the board operations'
 * answers are cached over, as bytes, until it expires or is replaced.
 */
export function createBoardCache<V>(ttlMs: number) {
  const entries = new Map<string, BoardEntry<V>>();
  const computing = new Map<string, Promise<V>>();
  /** versions only grow, and two computations in one millisecond still differ (ETags) */
  let lastVersion = 0;
  const peek = (key: string, now: number): BoardEntry<V> | undefined => {
    const hit = entries.get(key);
    return hit && now < hit.expiresAt ? hit : undefined;
  };
  return {
    peek,
    async get<T extends V>(key: string, now: number, bypass: boolean, compute: () => Promise<T>): Promise<{ value: T; cached: boolean }> {
      const hit = bypass ? undefined : peek(key, now);
      if (hit) return { value: hit.value as T, cached: true };
      const running = computing.get(key);
      if (running) return { value: (await running) as T, cached: false };
      const done = compute()
        .then((value) => {
          lastVersion = Math.max(now, lastVersion + 1);
          entries.set(key, { at: now, expiresAt: now + ttlMs, version: lastVersion, value });
          return value;
        })
        .finally(() => computing.delete(key));
      computing.set(key, done);
      return { value: await done, cached: false };
    },
  };
}

function fresh(asOfTs: number | null, nowMs: number) {
  return {
    asOf: asOfTs === null ? null : new Date(asOfTs * 1000).toISOString(),
    ageSeconds: asOfTs === null ? null : Math.max(0, Math.round(nowMs / 1000 - asOfTs)),
  };
}

export function createMarketOperations(deps: RouteDeps): AnyOperation[] {
  const { replica, writer, config } = deps;
  const chainOf = (c: string | undefined) => c ?? config.DEFAULT_CHAIN;
  const tokens = (chain: string) => replica.list<TokenSnapshot>('token', chain);
  const cache = createBoardCache<{ asOfTs: number | null }>(config.BOARD_CACHE_SECONDS * 1000);
  /**
   * A board's answers are cached as bytes over the cache's entry (api/served.ts): repeated calls
   * are answered from them, by the served lane too, until the entry expires or `refresh=1`
   * replaces it; a `refresh=1` call itself is always computed.
   */
  const boardServed = <I extends { refresh: boolean }>(keyOf: (i: I) => string) => ({
    snapshot: keyOf,
    source: (key: string, nowMs: number) => cache.peek(key, nowMs),
    ageSeconds: (e: BoardEntry<{ asOfTs: number | null }>, nowMs: number) => fresh(e.value.asOfTs, nowMs).ageSeconds,
    cacheable: (i: I) => !i.refresh,
  });
  const radarServed = boardServed((i: { chain?: string; window: number; limit: number; cursor?: string; refresh: boolean }) => `radar:${chainOf(i.chain)}:${i.window}:${i.limit}:${i.cursor ?? ''}`);
  const boardOfServed = boardServed((i: { chain?: string; limit: number; cursor?: string; refresh: boolean }) => `board:${chainOf(i.chain)}:${i.limit}:${i.cursor ?? ''}`);
  /** the smart-money set of a chain: wallets graded mirror-worthy */
  const setSize = (chain: string) => replica.list<{ grade: string }>('wallet', chain).filter((w) => w.grade === 'mirror-worthy').length;

  return [
    defineOperation({
      id: 'smartMoneyRadar',
      method: 'GET',
      path: '/smart-money-radar',
      cost: 8,
      group: 'market',
      summary: 'Tokens that wallets graded mirror-worthy are accumulating within a window',
      returns: 'headline, accumulating[], setSize',
      request: z.object({ chain: ChainParam, window: queryInt(1, 168, 24, 'window in hours'), refresh: refresh(), limit: LimitParam, cursor: CursorParam }),
      response: SmartMoneyRadarResponse,
      served: radarServed,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const list = `smartMoneyRadar:${chain}:${i.window}`;
        const after = decodeCursor(list, i.cursor);
        const { value, cached } = await cache.get(radarServed.snapshot(i), ctx.now, i.refresh, async () => {
          const r = smartMoneyRadar(tokens(chain), { windowHours: i.window, limit: i.limit, after, setSize: setSize(chain) });
          const headline = await writer.headline({
            operation: 'smart-money-radar',
            subject: chain,
            facts: { accumulating: r.accumulating.map((a) => a.symbol ?? a.token), setSize: r.setSize, windowHours: i.window },
          });
          return { chain, asOfTs: r.asOfTs, windowHours: i.window, headline, accumulating: r.accumulating, next: encodeCursor(list, r.next), setSize: r.setSize };
        });
        const { asOfTs, ...rest } = value;
        return { ...rest, ...fresh(asOfTs, ctx.now), cached };
      },
    }),
    defineOperation({
      id: 'convictionBoard',
      method: 'GET',
      path: '/conviction-board',
      cost: 6,
      group: 'market',
      summary: 'Tokens ranked by conviction with their six pillars',
      returns: 'headline, board[]',
      request: z.object({ chain: ChainParam, limit: LimitParam, refresh: refresh(), cursor: CursorParam }),
      response: ConvictionBoardResponse,
      served: boardOfServed,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const list = `convictionBoard:${chain}`;
        const after = decodeCursor(list, i.cursor);
        const { value, cached } = await cache.get(boardOfServed.snapshot(i), ctx.now, i.refresh, async () => {
          const b = convictionBoard(tokens(chain), { limit: i.limit, after });
          const top = b.board[0];
          const headline = await writer.headline({
            operation: 'conviction-board',
            subject: chain,
            facts: { leader: top ? (top.symbol ?? top.token) : null, leaderSignal: top?.signal ?? null, leaderPillarsLit: top?.pillarsLit ?? 0, tokens: b.board.length },
          });
          return { chain, asOfTs: b.asOfTs, headline, board: b.board, next: encodeCursor(list, b.next) };
        });
        const { asOfTs, ...rest } = value;
        return { ...rest, ...fresh(asOfTs, ctx.now), cached };
      },
    }),
    defineOperation({
      id: 'marketMovers',
      method: 'GET',
      path: '/market-movers',
      cost: 1,
      group: 'market',
      summary: 'Risk-filtered discovery feed: the strongest momentum among tokens that are not high risk',
      returns: 'movers[]',
      request: z.object({ chain: ChainParam, limit: LimitParam, cursor: CursorParam }),
      response: MarketMoversResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const list = `marketMovers:${chain}`;
        const m = marketMovers(tokens(chain), { limit: i.limit, after: decodeCursor(list, i.cursor) });
        return { chain, ...fresh(m.asOfTs, ctx.now), movers: m.movers, next: encodeCursor(list, m.next) };
      },
    }),
    defineOperation({
      id: 'namedChainMovers',
      method: 'GET',
      path: '/named-chain-movers',
      cost: 1,
      group: 'market',
      summary: "Movers of the service's featured chain (the default chain)",
      returns: 'movers[] of {symbol, momentum, risk, signals, verdict}',
      request: z.object({ limit: LimitParam, cursor: CursorParam }),
      response: NamedChainMoversResponse,
      handler: async (i, ctx) => {
        const chain = config.DEFAULT_CHAIN;
        const list = `marketMovers:${chain}`;
        const m = marketMovers(tokens(chain), { limit: i.limit, after: decodeCursor(list, i.cursor) });
        return { chain, ...fresh(m.asOfTs, ctx.now), movers: m.movers, next: encodeCursor(list, m.next) };
      },
    }),
    defineOperation({
      id: 'marketRegime',
      method: 'GET',
      path: '/market-regime',
      cost: 1,
      group: 'market',
      summary: 'Risk-on, neutral or risk-off from breadth, volatility and where volume goes',
      returns: 'regime, score, signals, summary',
      request: z.object({ chain: ChainParam }),
      response: MarketRegimeResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const r = marketRegime(tokens(chain));
        const summary = await writer.summary({
          operation: 'market-regime',
          subject: chain,
          facts: { regime: r.regime, volatility: r.signals.volatility, breadth: r.signals.breadthPct },
        });
        const { asOfTs, ...rest } = r;
        return { chain, ...fresh(asOfTs, ctx.now), ...rest, summary };
      },
    }),
  ];
}
