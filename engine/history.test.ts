import { describe, expect, it } from 'vitest';
import { createSimulator } from '../ingest/simulator/index.ts';
import { deriveTokenSnapshot } from './token/derive.ts';
import { foldTokenEvent, initialTokenState } from './token/state.ts';
import type { TokenState } from './token/state.ts';
import { deriveWalletSnapshot } from './wallet/derive.ts';
import { initialWalletState } from './wallet/state.ts';
import { foldWalletMessage, walletMessagesOf } from './rekey.ts';
import type { WalletState } from './wallet/state.ts';

/**
 * The token and wallet folds over the simulator's history, as a worker runs them: the state a
 * checkpoint writes (JSON) restores to an equal state with equal snapshots (no Map, Set, class,
 * undefined that matters, NaN or Infinity anywhere in it).
 */

const DAY = 86_400;
const GENESIS = 1_700_000_000;

interface History {
  tokens: Map<string, TokenState>;
  wallets: Map<string, WalletState>;
}

/** Fold the simulator's blocks into `h`; swaps and hourly price marks reach the wallets as the token worker fans them out. */
function foldUntil(h: History, blocks: ReturnType<ReturnType<typeof createSimulator>['blocksUntil']>): void {
  const wallet = (chain: string, w: string): WalletState => {
    let s = h.wallets.get(w);
    if (!s) h.wallets.set(w, (s = initialWalletState(chain, w)));
    return s;
  };
  for (const b of blocks) {
    for (const e of b.events) {
      let s = h.tokens.get(e.token);
      if (!s) h.tokens.set(e.token, (s = initialTokenState(e.chain, e.token)));
      foldTokenEvent(s, e);
      // swaps and hourly price marks reach the wallets as the token worker re-keys them
      for (const m of walletMessagesOf(s, e)) {
        const w = m.kind === 'swap' ? m.swap.trader : m.wallet;
        h.wallets.set(w, foldWalletMessage(wallet(e.chain, w), m));
      }
    }
  }
}

describe('token and wallet state over the simulator history', () => {
  it('a JSON checkpoint after the 10-day history restores equal states and equal snapshots', () => {
    const sim = createSimulator({ seed: 42, genesisTime: GENESIS, spanDays: 10 });
    const h: History = { tokens: new Map(), wallets: new Map() };
    foldUntil(h, sim.blocksUntil(GENESIS + 10 * DAY));
    expect(h.tokens.size).toBeGreaterThan(30);
    expect(h.wallets.size).toBeGreaterThan(400);
    for (const s of h.tokens.values()) {
      const restored = JSON.parse(JSON.stringify(s)) as TokenState;
      expect(restored).toEqual(s);
      if (s.meta.pool !== null) expect(deriveTokenSnapshot(restored)).toEqual(deriveTokenSnapshot(s));
    }
    for (const s of h.wallets.values()) {
      const restored = JSON.parse(JSON.stringify(s)) as WalletState;
      expect(restored).toEqual(s);
      expect(deriveWalletSnapshot(restored)).toEqual(deriveWalletSnapshot(s));
    }
  }, 120_000);
});
