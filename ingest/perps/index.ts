import { LRUCache } from 'lru-cache';
import type { PerpFill } from '../../schemas/venues.ts';
import type { VenueSource } from '../venuesim/pump.ts';
import { wsFrames } from '../venuesim/wsfeed.ts';
import type { WsFeedOptions } from '../venuesim/wsfeed.ts';
import { PING_FRAME, decodeFrame, subscribeUserFills } from './wire.ts';

export { decodeFrame, subscribeUserFills, PING_FRAME } from './wire.ts';

export interface PerpsSourceOptions {
  /** wss://api.hyperliquid.xyz/ws or a compatible server */
  url: string;
  /** accounts whose fills to follow */
  users: string[];
  venue?: string;
  /** Hyperliquid closes connections silent for 60 s: ping well inside that */
  pingIntervalMs?: number;
  idleTimeoutMs?: number;
  reconnect?: WsFeedOptions['reconnect'];
  /** fill ids remembered for dedupe */
  dedupeWindow?: number;
  onEvent?: (e: { kind: 'open' | 'close' | 'error' | 'rejected' | 'skipped'; detail?: string; count?: number }) => void;
}

export interface PerpsSource extends VenueSource {
  stats(): { connects: number; fills: number; duplicates: number; rejected: number; skipped: number };
}

/**
 * The perps adapter: follows `userFills` of the configured accounts over Hyperliquid's WebSocket
 * API. On every (re)connect it resubscribes; the venue then replays a snapshot of recent fills,
 * which the adapter drops by trade id (`tid`) together with any other repeat.
 */
export function createPerpsSource(opts: PerpsSourceOptions): PerpsSource {
  const venue = opts.venue ?? 'hyperliquid';
  const window = opts.dedupeWindow ?? 100_000;
  /** `account:tid`: both sides of a trade carry the same tid */
  const seen = new LRUCache<string, true>({ max: window });
  const stats = { connects: 0, fills: 0, duplicates: 0, rejected: 0, skipped: 0 };
  const remember = (id: string): boolean => {
    if (seen.has(id)) return false;
    seen.set(id, true);
    return true;
  };
  return {
    venue,
    stats: () => ({ ...stats }),
    async *run(signal) {
      const frames = wsFrames(
        {
          url: opts.url,
          subscribe: () => opts.users.map((u) => subscribeUserFills(u.toLowerCase())),
          ping: { frame: PING_FRAME, intervalMs: opts.pingIntervalMs ?? 30_000 },
          idleTimeoutMs: opts.idleTimeoutMs ?? 90_000,
          reconnect: opts.reconnect,
          onEvent: (e) => {
            if (e.kind === 'open') stats.connects++;
            opts.onEvent?.(e);
          },
        },
        signal,
      );
      for await (const text of frames) {
        const d = decodeFrame(venue, text);
        if (d.kind === 'error') opts.onEvent?.({ kind: 'error', detail: d.detail });
        if (d.kind !== 'fills') continue;
        if (d.rejected > 0) {
          stats.rejected += d.rejected;
          opts.onEvent?.({ kind: 'rejected', count: d.rejected });
        }
        stats.skipped += d.skipped;
        const fresh: PerpFill[] = [];
        for (const f of d.fills) {
          if (remember(`${f.account}:${f.fillId}`)) fresh.push(f);
          else stats.duplicates++;
        }
        stats.fills += fresh.length;
        // the venue sends a snapshot newest first: fold oldest first
        fresh.sort((a, b) => a.time - b.time || Number(a.fillId) - Number(b.fillId));
        if (fresh.length > 0) yield fresh;
      }
    },
  };
}
