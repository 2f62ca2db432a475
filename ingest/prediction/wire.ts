import { z } from 'zod';
import type { PredictionTrade } from '../../schemas/venues.ts';

/**
 * Polymarket's public WebSocket formats, the parts the prediction adapter speaks.
 *
 * Account trades: the real-time data socket (wss://ws-live-data.polymarket.com), topic
 * `activity`, type `trades`. Each payload has the public data-API trade shape (proxyWallet,
 * side, asset, conditionId, size, price, timestamp in seconds, outcome, transactionHash, ...).
 *
 * Market data: the CLOB market channel (wss://ws-subscriptions-clob.polymarket.com/ws/market),
 * subscribed with `{"assets_ids":[...],"type":"market"}`; frames carry `event_type` `book`,
 * `price_change`, `last_trade_price` (and `tick_size_change`). They carry no account, so they
 * price outcomes but cannot attribute trades. Both sockets take a text `PING` keep-alive.
 */

export const PING_FRAME = 'PING';

export function subscribeTrades(): string {
  return JSON.stringify({ action: 'subscribe', subscriptions: [{ topic: 'activity', type: 'trades' }] });
}

export function subscribeMarket(assetIds: string[]): string {
  return JSON.stringify({ assets_ids: assetIds, type: 'market' });
}

const Num = z.union([z.number(), z.string().regex(/^-?\d*\.?\d+$/)]).transform(Number);

export const TradePayload = z.object({
  proxyWallet: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  side: z.enum(['BUY', 'SELL']),
  asset: z.string().min(1),
  conditionId: z.string().min(1),
  size: Num,
  price: Num,
  /** unix seconds */
  timestamp: Num,
  outcome: z.string(),
  outcomeIndex: z.number().int().optional(),
  transactionHash: z.string().min(1),
  title: z.string().optional(),
  slug: z.string().optional(),
  eventSlug: z.string().optional(),
});
export type TradePayload = z.infer<typeof TradePayload>;

const Envelope = z.object({ topic: z.string(), type: z.string(), timestamp: z.number().optional(), payload: z.unknown() });

export function toPredictionTrade(venue: string, p: TradePayload): PredictionTrade {
  const side = p.side === 'BUY' ? 'buy' : 'sell';
  return {
    type: 'prediction_trade',
    venue,
    account: p.proxyWallet.toLowerCase(),
    market: p.conditionId,
    asset: p.asset,
    outcome: p.outcome,
    side,
    size: p.size,
    price: p.price,
    time: Math.round(p.timestamp * 1000),
    txHash: p.transactionHash,
    tradeId: `${p.transactionHash}:${p.asset}:${side}:${p.size}:${p.price}`,
  };
}

export type TradesFrame =
  | { kind: 'trade'; trade: PredictionTrade }
  | { kind: 'rejected'; detail: string }
  | { kind: 'pong' }
  | { kind: 'other' };

/** Decodes one frame of the real-time data socket. */
export function decodeTradesFrame(venue: string, text: string): TradesFrame {
  const t = text.trim();
  if (t === '' || t.toUpperCase() === 'PONG') return { kind: 'pong' };
  let json: unknown;
  try {
    json = JSON.parse(t);
  } catch {
    return { kind: 'rejected', detail: 'frame is not JSON' };
  }
  const env = Envelope.safeParse(json);
  if (!env.success || env.data.topic !== 'activity' || (env.data.type !== 'trades' && env.data.type !== 'orders_matched')) return { kind: 'other' };
  const p = TradePayload.safeParse(env.data.payload);
  if (!p.success) return { kind: 'rejected', detail: p.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  if (!(p.data.size > 0) || p.data.price < 0 || p.data.price > 1) return { kind: 'rejected', detail: 'size or price out of range' };
  return { kind: 'trade', trade: toPredictionTrade(venue, p.data) };
}

const Level = z.object({ price: z.string(), size: z.string() });
export const MarketFrameSchema = z.discriminatedUnion('event_type', [
  z.object({ event_type: z.literal('book'), asset_id: z.string(), market: z.string(), bids: z.array(Level), asks: z.array(Level), timestamp: z.string(), hash: z.string().optional() }),
  z.object({
    event_type: z.literal('price_change'),
    market: z.string(),
    timestamp: z.string(),
    price_changes: z.array(z.object({ asset_id: z.string(), price: z.string(), size: z.string(), side: z.enum(['BUY', 'SELL']), hash: z.string().optional(), best_bid: z.string().optional(), best_ask: z.string().optional() })),
  }),
  z.object({
    event_type: z.literal('last_trade_price'),
    asset_id: z.string(),
    market: z.string(),
    price: z.string(),
    side: z.enum(['BUY', 'SELL']),
    size: z.string(),
    fee_rate_bps: z.string().optional(),
    timestamp: z.string(),
  }),
  z.object({ event_type: z.literal('tick_size_change'), asset_id: z.string(), market: z.string(), old_tick_size: z.string(), new_tick_size: z.string(), timestamp: z.string() }),
]);

/** What the market channel tells: outcome prices (mid of the best levels, or the last trade). */
export type MarketUpdate =
  | { kind: 'book'; asset: string; market: string; bestBid: number | null; bestAsk: number | null; time: number }
  | { kind: 'price_change'; market: string; changes: { asset: string; bestBid: number | null; bestAsk: number | null }[]; time: number }
  | { kind: 'last_trade'; asset: string; market: string; price: number; side: 'buy' | 'sell'; size: number; time: number }
  | { kind: 'tick_size'; asset: string; market: string; tickSize: number; time: number };

const best = (levels: { price: string }[], pick: (a: number, b: number) => number): number | null =>
  levels.length === 0 ? null : levels.map((l) => Number(l.price)).reduce((a, b) => pick(a, b));
const num = (s: string | undefined): number | null => (s === undefined || s === '' ? null : Number(s));

/** Decodes one frame of the market channel; the server may batch several events in an array. */
export function decodeMarketFrame(text: string): { updates: MarketUpdate[]; rejected: number } {
  const t = text.trim();
  if (t.toUpperCase() === 'PONG') return { updates: [], rejected: 0 };
  let json: unknown;
  try {
    json = JSON.parse(t);
  } catch {
    return { updates: [], rejected: 1 };
  }
  const updates: MarketUpdate[] = [];
  let rejected = 0;
  for (const item of Array.isArray(json) ? json : [json]) {
    const m = MarketFrameSchema.safeParse(item);
    if (!m.success) {
      rejected++;
      continue;
    }
    const e = m.data;
    const time = Number(e.timestamp);
    if (e.event_type === 'book') updates.push({ kind: 'book', asset: e.asset_id, market: e.market, bestBid: best(e.bids, Math.max), bestAsk: best(e.asks, Math.min), time });
    else if (e.event_type === 'price_change')
      updates.push({ kind: 'price_change', market: e.market, changes: e.price_changes.map((c) => ({ asset: c.asset_id, bestBid: num(c.best_bid), bestAsk: num(c.best_ask) })), time });
    else if (e.event_type === 'last_trade_price')
      updates.push({ kind: 'last_trade', asset: e.asset_id, market: e.market, price: Number(e.price), side: e.side === 'BUY' ? 'buy' : 'sell', size: Number(e.size), time });
    else updates.push({ kind: 'tick_size', asset: e.asset_id, market: e.market, tickSize: Number(e.new_tick_size), time });
  }
  return { updates, rejected };
}
