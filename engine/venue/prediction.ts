import type { PredictionTrade } from '../../schemas/venues.ts';
import type { VenueAccountState, VenuePosition } from './account.ts';
import { addToPosition, beginEvent, closeTrade, isFlat, openTrade } from './account.ts';

/**
 * Folds one prediction-market trade into an account (in place; returns the state). Positions are
 * long-only share balances per outcome asset, booked at average cost; a sell realises
 * shares × (price − average cost). Sells of shares bought before we tracked the account are
 * ignored. Buying the other outcome of a market while holding one counts as a flip.
 */
export function foldPredictionTrade(s: VenueAccountState, t: PredictionTrade): VenueAccountState {
  if (!beginEvent(s, t.tradeId, t.time, t.market, t.size * t.price)) return s;
  const p: VenuePosition = (s.positions[t.asset] ??= { qty: 0, avgPx: 0, openedAt: t.time, pnl: 0, cost: 0, market: t.market });
  if (t.side === 'buy') {
    s.buys++;
    if (t.price >= 0.5) s.longOpens++;
    const band = t.price < 0.2 ? 0 : t.price > 0.8 ? 2 : 1;
    s.entryHist[band] = (s.entryHist[band] ?? 0) + 1;
    const holdsOther = Object.entries(s.positions).some(([asset, q]) => asset !== t.asset && q.market === t.market && !isFlat(q.qty));
    if (holdsOther) s.flips++;
    // `longOpens` counts buys of the favourite (above), not opened trades
    if (isFlat(p.qty)) openTrade(s, p, t.time, false);
    addToPosition(p, t.size, t.price);
    return s;
  }
  if (isFlat(p.qty)) return s;
  const closing = Math.min(t.size, p.qty);
  p.pnl += closing * (t.price - p.avgPx);
  p.qty -= closing;
  if (isFlat(p.qty)) closeTrade(s, p, t.time);
  return s;
}
