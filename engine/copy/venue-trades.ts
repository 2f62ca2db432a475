import { venueEventId } from '../../schemas/venues.ts';
import type { PerpFill, PredictionTrade } from '../../schemas/venues.ts';
import type { LeaderTrade } from './decide.ts';

/**
 * The venues' fills of a leader (schemas/venues.ts, as the perps and prediction ingest publish
 * them) as trades the copy decisions take: pure, the runtime's copy worker calls them.
 */

/**
 * A leader's perpetuals fill as a trade to copy: a fill that grows the position (or opens one) is
 * an entry in its direction; one that shrinks it is an exit of the share it closed; a flip
 * through zero closes the copy (its new side is a new entry the leader makes next).
 */
export function perpLeaderTrade(f: PerpFill): { trade: LeaderTrade; direction: 'long' | 'short' | null } {
  const start = f.startPosition;
  const end = start + (f.side === 'buy' ? f.size : -f.size);
  const base = { id: venueEventId(f), tx: f.hash, chain: f.venue, token: f.coin, side: f.side, usd: f.size * f.price, timestamp: Math.floor(f.time / 1000), liquidityUsd: null, instrument: 'perp' as const };
  const grows = start === 0 || (Math.sign(end) === Math.sign(start) && Math.abs(end) > Math.abs(start));
  if (grows) return { trade: { ...base, action: 'open' }, direction: end > 0 ? 'long' : 'short' };
  const flips = end !== 0 && Math.sign(end) !== Math.sign(start);
  const fraction = flips ? 1 : Math.min(1, f.size / Math.abs(start));
  return { trade: { ...base, action: 'close', fraction: Math.abs(end) < 1e-12 ? 1 : fraction }, direction: null };
}

/** A leader's prediction-market trade as a trade to copy: a buy of an outcome opens, a sell closes the copy. */
export function predictionLeaderTrade(t: PredictionTrade): { trade: LeaderTrade; direction: null } {
  const trade: LeaderTrade = {
    id: venueEventId(t),
    tx: t.txHash,
    chain: t.venue,
    token: t.asset,
    side: t.side,
    usd: t.size * t.price,
    timestamp: Math.floor(t.time / 1000),
    liquidityUsd: null,
    instrument: 'outcome',
    action: t.side === 'buy' ? 'open' : 'close',
    fraction: 1,
  };
  return { trade, direction: null };
}
