import { LRUCache } from 'lru-cache';
import type { PredictionTrade } from '../../schemas/venues.ts';
import type { VenueSource } from '../venuesim/pump.ts';
import { wsFrames } from '../venuesim/wsfeed.ts';
import type { WsFeedOptions } from '../venuesim/wsfeed.ts';
import type { MarketUpdate } from './wire.ts';
import { PING_FRAME, decodeMarketFrame, decodeTradesFrame, subscribeMarket, subscribeTrades } from './wire.ts';

export { decodeMarketFrame, decodeTradesFrame, subscribeMarket, subscribeTrades } from './wire.ts';
export type { MarketUpdate } from './wire.ts';

export interface PredictionSourceOptions {
  /** Polymarket real-time data socket (activity/trades) or a compatible server */
  url: string;
  /** keep only these proxy wallets (all when empty or unset) */
  wallets?: string[];
  venue?: string;
  pingIntervalMs?: number;
  idleTimeoutMs?: number;
  reconnect?: WsFeedOptions['reconnect'];
  dedupeWindow?: number;
  onEvent?: (e: { kind: 'open' | 'close' | 'error' | 'rejected'; detail?: string }) => void;
}

export interface PredictionSource extends VenueSource {
  stats(): { connects: number; trades: number; duplicates: number; rejected: number; filtered: number };
}

/**
 * The prediction adapter: account-attributed trades from the real-time data socket's activity
 * feed, filtered to the followed wallets, deduplicated by (tx, asset, side, size, price) across
 * reconnects, batched per frame.
 */
export function createPredictionSource(opts: PredictionSourceOptions): PredictionSource {
  const venue = opts.venue ?? 'polymarket';
  const wallets = new Set((opts.wallets ?? []).map((w) => w.toLowerCase()));
  const window = opts.dedupeWindow ?? 100_000;
  const seen = new LRUCache<string, true>({ max: window });
  const stats = { connects: 0, trades: 0, duplicates: 0, rejected: 0, filtered: 0 };
  return {
    venue,
    stats: () => ({ ...stats }),
    async *run(signal) {
      const frames = wsFrames(
        {
          url: opts.url,
          subscribe: () => [subscribeTrades()],
          ping: { frame: PING_FRAME, intervalMs: opts.pingIntervalMs ?? 5_000 },
          idleTimeoutMs: opts.idleTimeoutMs ?? 60_000,
          reconnect: opts.reconnect,
          onEvent: (e) => {
            if (e.kind === 'open') stats.connects++;
            opts.onEvent?.(e);
          },
        },
        signal,
      );
      for await (const text of frames) {
        const d = decodeTradesFrame(venue, text);
        if (d.kind === 'rejected') {
          stats.rejected++;
          opts.onEvent?.({ kind: 'rejected', detail: d.detail });
        }
        if (d.kind !== 'trade') continue;
        const t: PredictionTrade = d.trade;
        if (wallets.size > 0 && !wallets.has(t.account)) {
          stats.filtered++;
          continue;
        }
        if (seen.has(t.tradeId)) {
          stats.duplicates++;
          continue;
        }
        seen.set(t.tradeId, true);
        stats.trades++;
        yield [t];
      }
    },
  };
}

/**
 * The CLOB market channel for a set of outcome assets: book, price changes and last trades,
 * decoded. Prices of outcomes without an account: for marking positions, not for attribution.
 */
export async function* marketUpdates(opts: { url: string; assets: string[]; pingIntervalMs?: number; reconnect?: WsFeedOptions['reconnect'] }, signal: AbortSignal): AsyncGenerator<MarketUpdate> {
  const frames = wsFrames({ url: opts.url, subscribe: () => [subscribeMarket(opts.assets)], ping: { frame: PING_FRAME, intervalMs: opts.pingIntervalMs ?? 10_000 }, reconnect: opts.reconnect }, signal);
  for await (const text of frames) for (const u of decodeMarketFrame(text).updates) yield u;
}
