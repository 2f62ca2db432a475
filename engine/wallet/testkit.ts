import type { WalletSnapshot } from '../../schemas/wallet.ts';
import type { TokenLookup } from '../../schemas/token.ts';
import { deriveWalletSnapshot } from './derive.ts';
import { foldAll, SwapFactory, T0, tokenAddr, WALLET } from './fixtures.ts';
import { initialWalletState } from './state.ts';
import { finishWalletSnapshot } from './final.ts';
import type { MeasuredWallet } from './final.ts';
import type { Item } from './fixtures.ts';

/** Wallet snapshots made by the real wallet engine from hand-made swaps, for the final values', calculators' and projections' tests. */

export const HOUR = 3600;
export const DAY = 86400;
export { T0, tokenAddr };

/**
 * `n` round trips of $1000 over `tokens` tokens, one every 20 hours, held 6 hours: the price rises
 * by `moveUp` during the hold and falls back after (an edge trader); every `loseEvery`-th ends 5%
 * down. `openLast` leaves the last round trip open.
 */
export function edgeTrader(
  opts: { n?: number; tokens?: number; moveUp?: number; loseEvery?: number; openLast?: boolean; wallet?: string; tokenFacts?: TokenLookup } = {},
): WalletSnapshot {
  const n = opts.n ?? 16;
  const tokens = opts.tokens ?? 4;
  const moveUp = opts.moveUp ?? 0.2;
  const f = new SwapFactory();
  const items: Item[] = [];
  const hold = 6 * HOUR;
  for (let j = 0; j < n; j++) {
    const token = tokenAddr(1 + (j % tokens));
    const start = T0 + j * 20 * HOUR;
    const p = 1 + (j % 3) * 0.1;
    const losing = opts.loseEvery !== undefined && j % opts.loseEvery === opts.loseEvery - 1;
    const end = losing ? p * 0.95 : p * (1 + moveUp);
    const qty = 1000 / p;
    items.push({ kind: 'swap', swap: f.swap({ token, side: 'buy', qty, price: p, ts: start, wallet: opts.wallet }) });
    for (let t = 900; t < hold; t += 900) items.push({ kind: 'mark', mark: { token, timestamp: start + t, priceUsd: p + ((end - p) * t) / hold } });
    if (opts.openLast && j === n - 1) continue;
    items.push({ kind: 'swap', swap: f.swap({ token, side: 'sell', qty, price: end, ts: start + hold, wallet: opts.wallet }) });
    for (let t = 900; t <= hold; t += 900) items.push({ kind: 'mark', mark: { token, timestamp: start + hold + t, priceUsd: end + ((p - end) * t) / hold } });
  }
  return deriveWalletSnapshot(foldAll(items, initialWalletState('sim', opts.wallet ?? WALLET)), { tokens: opts.tokenFacts });
}

/** A snapshot with some fields replaced (for grade-order and gate cases). */
export function withFields(s: WalletSnapshot, patch: Partial<WalletSnapshot>): WalletSnapshot {
  return { ...s, ...patch };
}

/** The snapshot with some measured fields replaced and its final values computed again (for grade, gate and flag cases). */
export function remeasured(s: WalletSnapshot, patch: Partial<MeasuredWallet>, tokens?: TokenLookup): WalletSnapshot {
  return finishWalletSnapshot({ ...s, positions: s.positions ?? [], ...patch }, tokens);
}
