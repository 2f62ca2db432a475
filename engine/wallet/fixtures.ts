import type { Swap } from '../../schemas/events.ts';
import type { PriceMark, WalletState } from './state.ts';
import { foldPriceMark, foldWalletSwap, initialWalletState } from './state.ts';

/** Hand-made swap events for the wallet engine's tests (deterministic, no randomness). */

export const T0 = 1_700_000_000;
export const BLOCK_TIME_S = 2;
export const WALLET = '0x' + 'a1'.repeat(20);

export function tokenAddr(n: number): string {
  return '0x' + n.toString(16).padStart(40, '0');
}

function hex64(n: number, salt = 0): string {
  return '0x' + salt.toString(16).padStart(8, '0') + n.toString(16).padStart(56, '0');
}

export interface SwapSpec {
  token: string;
  side: 'buy' | 'sell';
  qty: number;
  price: number;
  /** unix seconds; the block is derived from it unless given */
  ts: number;
  block?: number;
  logIndex?: number;
  removed?: boolean;
  /** distinguishes forks: same block number, other hash */
  fork?: number;
  wallet?: string;
}

/** Builds swaps with unique tx hashes in call order. */
export class SwapFactory {
  private n = 0;
  constructor(readonly chain = 'sim') {}

  swap(s: SwapSpec): Swap {
    const block = s.block ?? Math.floor((s.ts - T0) / BLOCK_TIME_S);
    this.n++;
    return {
      type: 'swap',
      chain: this.chain,
      block,
      blockHash: hex64(block, s.fork ?? 0),
      tx: hex64(this.n, 0xfeed),
      logIndex: s.logIndex ?? 0,
      timestamp: s.ts,
      ...(s.removed ? { removed: true } : {}),
      token: s.token,
      pool: '0x' + 'b2'.repeat(20),
      trader: s.wallet ?? WALLET,
      side: s.side,
      amountToken: s.qty,
      amountQuote: s.qty * s.price,
      usd: s.qty * s.price,
      priceUsd: s.price,
    };
  }
}

/** A retraction of an earlier swap (same identity and block hash). */
export function retraction(s: Swap): Swap {
  return { ...s, removed: true };
}

export type Item = { kind: 'swap'; swap: Swap } | { kind: 'mark'; mark: PriceMark };

function itemTs(i: Item): number {
  return i.kind === 'swap' ? i.swap.timestamp : i.mark.timestamp;
}

/** Sort by time (stable: swaps given first stay first), then fold everything. */
export function foldAll(items: Item[], state: WalletState = initialWalletState('sim', WALLET)): WalletState {
  const sorted = items
    .map((it, i) => ({ it, i }))
    .sort((a, b) => itemTs(a.it) - itemTs(b.it) || (a.it.kind === b.it.kind ? a.i - b.i : a.it.kind === 'swap' ? -1 : 1));
  let s = state;
  for (const { it } of sorted) s = it.kind === 'swap' ? foldWalletSwap(s, it.swap) : foldPriceMark(s, it.mark);
  return s;
}
