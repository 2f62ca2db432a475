import type { PerpFill } from '../../schemas/venues.ts';
import type { VenueAccountState, VenuePosition } from './account.ts';
import { addToPosition, beginEvent, closeTrade, isFlat, openTrade } from './account.ts';

/**
 * Folds one perps fill into an account (in place; returns the state). Realised PnL per fill is the
 * venue's `closedPnl` (fees subtracted here); the round trip's entry notional comes from our own
 * book. The venue's `startPosition` re-syncs the book when fills were missed (e.g. before the
 * account was tracked): a position we never saw open is adopted at the fill price.
 */
export function foldPerpFill(s: VenueAccountState, f: PerpFill): VenueAccountState {
  if (!beginEvent(s, f.fillId, f.time, f.coin, f.size * f.price)) return s;
  const p: VenuePosition = (s.positions[f.coin] ??= { qty: 0, avgPx: 0, openedAt: f.time, pnl: 0, cost: 0 });
  if (Math.abs(p.qty - f.startPosition) > 1e-9 * Math.max(1, Math.abs(f.startPosition))) {
    // missed fills: adopt the venue's position as if opened now
    if (isFlat(f.startPosition)) {
      p.qty = 0;
      p.pnl = 0;
      p.cost = 0;
    } else {
      openTrade(s, p, f.time, f.startPosition > 0);
      addToPosition(p, f.startPosition, f.price);
    }
  }
  const delta = f.side === 'buy' ? f.size : -f.size;
  if (isFlat(p.qty) || Math.sign(p.qty) === Math.sign(delta)) {
    if (isFlat(p.qty)) openTrade(s, p, f.time, delta > 0);
    addToPosition(p, delta, f.price);
    p.pnl += f.closedPnl - f.fee; // closedPnl is zero on opening fills
    return s;
  }
  const closing = Math.min(f.size, Math.abs(p.qty));
  const remainder = f.size - closing;
  // the whole fee goes to the trade being closed
  p.pnl += f.closedPnl - f.fee;
  p.qty += Math.sign(delta) * closing;
  if (isFlat(p.qty)) {
    closeTrade(s, p, f.time);
    if (remainder > 1e-12) {
      // a flip: the same fill closes one trade and opens the opposite one
      s.flips++;
      openTrade(s, p, f.time, delta > 0);
      addToPosition(p, Math.sign(delta) * remainder, f.price);
    }
  }
  return s;
}
