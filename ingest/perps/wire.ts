import { z } from 'zod';
import type { PerpFill } from '../../schemas/venues.ts';

/**
 * Hyperliquid's public WebSocket API (wss://api.hyperliquid.xyz/ws), the parts the perps adapter
 * speaks: the `userFills` subscription, its acknowledgement, and the application ping.
 * Numbers that carry decimals arrive as strings (px, sz, closedPnl, fee, startPosition).
 */

export function subscribeUserFills(user: string): string {
  return JSON.stringify({ method: 'subscribe', subscription: { type: 'userFills', user } });
}
export const PING_FRAME = JSON.stringify({ method: 'ping' });

const Decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'decimal string');

export const WsFill = z.object({
  coin: z.string(),
  px: Decimal,
  sz: Decimal,
  side: z.enum(['B', 'A']),
  time: z.number().int().nonnegative(),
  startPosition: Decimal,
  dir: z.string(),
  closedPnl: Decimal,
  hash: z.string(),
  oid: z.number().int(),
  crossed: z.boolean(),
  fee: Decimal,
  tid: z.number().int(),
  feeToken: z.string(),
  builderFee: Decimal.optional(),
  liquidation: z.unknown().optional(),
});
export type WsFill = z.infer<typeof WsFill>;

export const WsServerMessage = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('userFills'), data: z.object({ isSnapshot: z.boolean().optional(), user: z.string(), fills: z.array(z.unknown()) }) }),
  z.object({ channel: z.literal('subscriptionResponse'), data: z.unknown() }),
  z.object({ channel: z.literal('pong') }),
  z.object({ channel: z.literal('error'), data: z.unknown() }),
]);

export type DecodedFrame =
  | { kind: 'fills'; user: string; isSnapshot: boolean; fills: PerpFill[]; rejected: number; skipped: number }
  | { kind: 'ack' }
  | { kind: 'pong' }
  | { kind: 'error'; detail: string }
  | { kind: 'other'; channel: string };

/** Perps only: spot pairs appear in userFills as `@<index>` or `BASE/QUOTE`. */
export function isSpotCoin(coin: string): boolean {
  return coin.startsWith('@') || coin.includes('/');
}

export function toPerpFill(venue: string, user: string, f: WsFill): PerpFill {
  return {
    type: 'perp_fill',
    venue,
    account: user.toLowerCase(),
    coin: f.coin,
    side: f.side === 'B' ? 'buy' : 'sell',
    size: Number(f.sz),
    price: Number(f.px),
    startPosition: Number(f.startPosition),
    dir: f.dir,
    closedPnl: Number(f.closedPnl),
    fee: Number(f.fee),
    time: f.time,
    fillId: String(f.tid),
    hash: f.hash,
    crossed: f.crossed,
  };
}

/** Decodes one text frame. Malformed fills are counted in `rejected`, spot fills in `skipped`. */
export function decodeFrame(venue: string, text: string): DecodedFrame {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'error', detail: 'frame is not JSON' };
  }
  const channel = (json as { channel?: unknown } | null)?.channel;
  const m = WsServerMessage.safeParse(json);
  if (!m.success) return typeof channel === 'string' ? { kind: 'other', channel } : { kind: 'error', detail: 'unrecognised frame' };
  const msg = m.data;
  switch (msg.channel) {
    case 'subscriptionResponse':
      return { kind: 'ack' };
    case 'pong':
      return { kind: 'pong' };
    case 'error':
      return { kind: 'error', detail: typeof msg.data === 'string' ? msg.data : JSON.stringify(msg.data) };
    case 'userFills': {
      const fills: PerpFill[] = [];
      let rejected = 0;
      let skipped = 0;
      for (const raw of msg.data.fills) {
        const f = WsFill.safeParse(raw);
        if (!f.success || !/^0x[0-9a-fA-F]{40}$/.test(msg.data.user)) rejected++;
        else if (isSpotCoin(f.data.coin)) skipped++;
        else fills.push(toPerpFill(venue, msg.data.user, f.data));
      }
      return { kind: 'fills', user: msg.data.user.toLowerCase(), isSnapshot: msg.data.isSnapshot === true, fills, rejected, skipped };
    }
  }
}
