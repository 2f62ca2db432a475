import type { ChainEvent } from '../../schemas/events.ts';

/**
 * Small read-only summaries of raw simulator events (used by the tests, handy for eval and for
 * eyeballing a seed). They look at events only, never at the simulator's internals.
 */

export interface WalletSummary {
  trades: number;
  buys: number;
  sells: number;
  /** sells that closed a position (average-cost accounting per token) */
  roundTrips: number;
  /** realised PnL in WETH, average cost */
  realisedQuote: number;
  /** realised PnL / cost of the closed part */
  realisedReturn: number;
  tokens: string[];
  firstTrade: number;
  lastTrade: number;
  /** blocks in which the wallet both bought and sold the same token */
  sameBlockRoundTrips: number;
}

export function summariseWallets(events: Iterable<ChainEvent>): Record<string, WalletSummary> {
  const out: Record<string, WalletSummary> = {};
  const pos: Record<string, { qty: number; cost: number; maxQty: number; lastBuyBlock: number }> = {};
  const closedCost: Record<string, number> = {};
  for (const e of events) {
    if (e.type !== 'swap') continue;
    const w = (out[e.trader] ??= {
      trades: 0,
      buys: 0,
      sells: 0,
      roundTrips: 0,
      realisedQuote: 0,
      realisedReturn: 0,
      tokens: [],
      firstTrade: e.timestamp,
      lastTrade: e.timestamp,
      sameBlockRoundTrips: 0,
    });
    w.trades++;
    w.lastTrade = e.timestamp;
    if (!w.tokens.includes(e.token)) w.tokens.push(e.token);
    const p = (pos[`${e.trader}:${e.token}`] ??= { qty: 0, cost: 0, maxQty: 0, lastBuyBlock: -1 });
    if (e.side === 'buy') {
      w.buys++;
      p.qty += e.amountToken;
      p.cost += e.amountQuote;
      p.maxQty = Math.max(p.maxQty, p.qty);
      p.lastBuyBlock = e.block;
    } else {
      w.sells++;
      if (p.lastBuyBlock === e.block) w.sameBlockRoundTrips++;
      const sold = Math.min(e.amountToken, p.qty);
      if (p.qty <= 0 || sold <= 0) continue;
      const avg = p.cost / p.qty;
      w.realisedQuote += e.amountQuote * (sold / e.amountToken) - avg * sold;
      closedCost[e.trader] = (closedCost[e.trader] ?? 0) + avg * sold;
      p.cost -= avg * sold;
      p.qty -= sold;
      if (p.qty <= p.maxQty * 1e-9) {
        w.roundTrips++;
        p.qty = 0;
        p.cost = 0;
        p.maxQty = 0;
      }
    }
  }
  for (const [addr, w] of Object.entries(out)) {
    const c = closedCost[addr] ?? 0;
    w.realisedReturn = c > 0 ? w.realisedQuote / c : 0;
  }
  return out;
}

/** Token balances of every holder of `token`, from transfers only. */
export function holderBalances(events: Iterable<ChainEvent>, token: string): Record<string, number> {
  const bal: Record<string, number> = {};
  for (const e of events) {
    if (e.type !== 'transfer' || e.token !== token) continue;
    bal[e.from] = (bal[e.from] ?? 0) - e.amount;
    bal[e.to] = (bal[e.to] ?? 0) + e.amount;
  }
  return bal;
}
