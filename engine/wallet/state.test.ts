import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { Swap } from '../../schemas/events.ts';
import {
  initialWalletState,
  foldWalletSwap,
  foldWalletSwapInPlace,
  foldPriceMark,
  foldPriceMarkInPlace,
  foldPoolCreated,
  compactWalletState,
  EDGE_HORIZON_S,
  REORG_HORIZON_BLOCKS,
  TOKENS_KEPT,
  type WalletState,
} from './state.ts';
import { deriveWalletSnapshot } from './derive.ts';
import { SwapFactory, T0, WALLET, tokenAddr, retraction } from './fixtures.ts';

const A = tokenAddr(1);
const B = tokenAddr(2);

function fold(events: Swap[], s: WalletState = initialWalletState('sim', WALLET)): WalletState {
  return events.reduce(foldWalletSwap, s);
}

/** The parts of the state that are a function of the set of (non-retracted) trades. */
function books(s: WalletState): unknown {
  return Object.fromEntries(Object.entries(s.tokens).map(([k, t]) => [k, t.book]));
}

describe('average-cost accounting', () => {
  it('realises PnL per closed round trip on a hand-worked example', () => {
    const f = new SwapFactory();
    const s = fold([
      f.swap({ token: A, side: 'buy', qty: 100, price: 1, ts: T0 + 0 }), // cost 100
      f.swap({ token: A, side: 'buy', qty: 100, price: 2, ts: T0 + 600 }), // cost 300, avg 1.5
      f.swap({ token: A, side: 'sell', qty: 50, price: 3, ts: T0 + 1200 }), // 150 - 75 = +75
      f.swap({ token: A, side: 'sell', qty: 150, price: 2, ts: T0 + 3600 }), // 300 - 225 = +75, closes
      f.swap({ token: A, side: 'buy', qty: 10, price: 10, ts: T0 + 7200 }), // cost 100
      f.swap({ token: A, side: 'sell', qty: 10, price: 6, ts: T0 + 9000 }), // 60 - 100 = -40, closes
    ]);
    const b = s.tokens[A]!.book;
    expect(b.closed).toBe(2);
    expect(b.wins).toBe(1);
    expect(b.losses).toBe(1);
    expect(b.realisedUsd).toBeCloseTo(110, 9);
    expect(b.grossWinUsd).toBeCloseTo(150, 9);
    expect(b.grossLossUsd).toBeCloseTo(40, 9);
    expect(b.costSoldUsd).toBeCloseTo(400, 9);
    expect(b.winPctSum).toBeCloseTo(0.5, 9); // +150 on 300
    expect(b.lossPctSum).toBeCloseTo(-0.4, 9); // -40 on 100
    expect(b.bestPnlUsd).toBeCloseTo(150, 9);
    expect(b.rtHoldSum).toBe(3600 + 1800);
    expect(b.qty).toBe(0);
    expect(b.costUsd).toBe(0);

    const snap = deriveWalletSnapshot(s);
    expect(snap.pnlQuality.winRatePct).toBe(50);
    expect(snap.pnlQuality.profitFactor).toBe(3.75);
    expect(snap.pnlQuality.realisedReturnPct).toBe(27.5);
    expect(snap.pnlQuality.avgWinPct).toBe(50);
    expect(snap.pnlQuality.avgLossPct).toBe(-40);
    expect(snap.sample.closedRoundTrips).toBe(2);
    expect(snap.asOf).toBe(new Date((T0 + 9000) * 1000).toISOString());
  });

  it('marks open positions at the last seen price', () => {
    const f = new SwapFactory();
    let s = fold([
      f.swap({ token: B, side: 'buy', qty: 100, price: 1, ts: T0 }),
      f.swap({ token: B, side: 'sell', qty: 50, price: 2, ts: T0 + 60 }), // +50 realised, 50 left at avg 1
    ]);
    expect(s.tokens[B]!.book.realisedUsd).toBeCloseTo(50, 9);
    expect(s.tokens[B]!.book.closed).toBe(0);
    s = foldPriceMark(s, { token: B, timestamp: T0 + 120, priceUsd: 1.5 });
    const snap = deriveWalletSnapshot(s);
    expect(snap.pnlQuality.unrealisedReturnPct).toBe(50);
    expect(snap.sample.openPositions).toBe(1);
  });

  it('does not realise sells of tokens it never bought', () => {
    const f = new SwapFactory();
    const s = fold([f.swap({ token: A, side: 'sell', qty: 10, price: 1, ts: T0 })]);
    expect(s.tokens[A]!.book.unmatchedSellUsd).toBe(10);
    expect(s.tokens[A]!.book.realisedUsd).toBe(0);
    expect(s.tokens[A]!.book.closed).toBe(0);
  });

  it('closes a round trip when only dust is left', () => {
    const f = new SwapFactory();
    const s = fold([
      f.swap({ token: A, side: 'buy', qty: 1000, price: 1, ts: T0 }),
      f.swap({ token: A, side: 'sell', qty: 999.9, price: 2, ts: T0 + 60 }),
    ]);
    const b = s.tokens[A]!.book;
    expect(b.closed).toBe(1);
    expect(b.qty).toBe(0);
    expect(b.realisedUsd).toBeCloseTo(1000, 6);
  });
});

describe('idempotence', () => {
  it('a swap delivered twice changes nothing', () => {
    const f = new SwapFactory();
    const evs = [
      f.swap({ token: A, side: 'buy', qty: 100, price: 1, ts: T0 }),
      f.swap({ token: A, side: 'sell', qty: 100, price: 2, ts: T0 + 60 }),
    ];
    const once = fold(evs);
    const twice = fold([evs[0]!, evs[0]!, evs[1]!, evs[0]!, evs[1]!]);
    expect(books(twice)).toEqual(books(once));
    expect(twice.version).toBe(once.version);
    expect(twice.counters.duplicates).toBe(3);
    expect(deriveWalletSnapshot(twice)).toEqual(deriveWalletSnapshot(once));
  });

  it('a redelivery older than the reorg horizon is dropped, not double counted', () => {
    const f = new SwapFactory();
    const first = f.swap({ token: A, side: 'buy', qty: 100, price: 1, ts: T0 });
    const later = f.swap({ token: A, side: 'buy', qty: 1, price: 1, ts: T0 + (REORG_HORIZON_BLOCKS + 10) * 2 * 3 });
    const once = fold([first, later]);
    expect(once.tokens[A]!.tail).toHaveLength(1); // `first` was compacted into the base
    const again = foldWalletSwap(once, first);
    expect(books(again)).toEqual(books(once));
    expect(again.counters.stale).toBe(1);
  });

  it('holds for any order of redeliveries (property)', () => {
    const f = new SwapFactory();
    const evs: Swap[] = [];
    for (let i = 0; i < 30; i++) {
      const token = tokenAddr(1 + (i % 3));
      evs.push(f.swap({ token, side: i % 2 === 0 ? 'buy' : 'sell', qty: 10 + i, price: 1 + (i % 5) / 10, ts: T0 + i * 30, logIndex: i % 4 }));
    }
    const once = deriveWalletSnapshot(fold(evs));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(29), fc.nat(3)), { maxLength: 40 }), (dups) => {
        // Redeliver event `i` again `lag` events after its first delivery (at-least-once replay).
        const seq: Swap[] = [];
        for (let i = 0; i < evs.length; i++) {
          seq.push(evs[i]!);
          for (const [d, lag] of dups) if (d + lag === i && d <= i) seq.push(evs[d]!);
        }
        expect(deriveWalletSnapshot(fold(seq))).toEqual(once);
      }),
      { numRuns: 60 },
    );
  });
});

describe('retraction', () => {
  it('folds a removed swap out, as if it never happened', () => {
    const f = new SwapFactory();
    const a = f.swap({ token: A, side: 'buy', qty: 100, price: 1, ts: T0 });
    const b = f.swap({ token: A, side: 'buy', qty: 100, price: 3, ts: T0 + 20 });
    const c = f.swap({ token: A, side: 'sell', qty: 100, price: 2, ts: T0 + 40 });
    const withB = fold([a, b, c]);
    expect(withB.tokens[A]!.book.realisedUsd).toBeCloseTo(0, 9); // avg 2, sold at 2
    const retracted = foldWalletSwap(withB, retraction(b));
    const without = fold([a, c]);
    expect(books(retracted)).toEqual(books(without));
    expect(retracted.tokens[A]!.book.realisedUsd).toBeCloseTo(100, 9); // avg 1, sold at 2
    expect(retracted.tokens[A]!.book.closed).toBe(1);
    expect(retracted.counters.retracted).toBe(1);
    expect(retracted.tokens[A]!.edge.pending.map((p) => p.id)).toEqual(without.tokens[A]!.edge.pending.map((p) => p.id));
  });

  it('handles a reorg that re-includes the same tx in a new block hash', () => {
    const f = new SwapFactory();
    const a = f.swap({ token: A, side: 'buy', qty: 100, price: 1, ts: T0 });
    const b = f.swap({ token: A, side: 'sell', qty: 100, price: 2, ts: T0 + 20 });
    const bNew = { ...b, blockHash: '0x' + 'cd'.repeat(32) };
    // The new inclusion arrives before the retraction of the old one.
    const s = fold([a, b, bNew, retraction(b)]);
    expect(books(s)).toEqual(books(fold([a, bNew])));
    expect(s.tokens[A]!.book.closed).toBe(1);
  });

  it('retracting any recent subset equals never folding it (property)', () => {
    const f = new SwapFactory();
    const evs: Swap[] = [];
    for (let i = 0; i < 40; i++) {
      const token = tokenAddr(1 + (i % 3));
      evs.push(f.swap({ token, side: i % 3 === 2 ? 'sell' : 'buy', qty: 5 + (i % 4), price: 1 + (i % 6) / 5, ts: T0 + i * 2 }));
    }
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 10, max: 39 }), { maxLength: 8 }), fc.boolean(), (gone, reverse) => {
        const retractions = gone.map((i) => retraction(evs[i]!));
        if (reverse) retractions.reverse();
        const s = fold([...evs, ...retractions]);
        const keep = evs.filter((_, i) => !gone.includes(i));
        expect(books(s)).toEqual(books(fold(keep)));
      }),
      { numRuns: 80 },
    );
  });

  it('ignores a retraction of a swap it never folded', () => {
    const f = new SwapFactory();
    const a = f.swap({ token: A, side: 'buy', qty: 100, price: 1, ts: T0 });
    const ghost = f.swap({ token: A, side: 'buy', qty: 5, price: 1, ts: T0 + 2 });
    const s = fold([a, retraction(ghost)]);
    expect(books(s)).toEqual(books(fold([a])));
    expect(s.counters.retractionsUnmatched).toBe(1);
  });

  it('undoes a forward return that had already resolved', () => {
    const f = new SwapFactory();
    const a = f.swap({ token: A, side: 'buy', qty: 100, price: 1, ts: T0 });
    let s = fold([a]);
    s = foldPriceMark(s, { token: A, timestamp: T0 + EDGE_HORIZON_S, priceUsd: 1.1 });
    expect(s.tokens[A]!.edge.nBuy).toBe(1);
    s = foldWalletSwap(s, retraction(a));
    expect(s.tokens[A]!.edge.nBuy).toBe(0);
    expect(s.tokens[A]!.edge.sumBuyR).toBe(0);
    expect(s.tokens[A]!.book.buys).toBe(0);
  });
});

describe('replay determinism and purity', () => {
  function script(): Swap[] {
    const f = new SwapFactory();
    const out: Swap[] = [];
    for (let i = 0; i < 200; i++) {
      const token = tokenAddr(1 + ((i * 7) % 5));
      out.push(f.swap({ token, side: (i * 3) % 4 === 0 ? 'sell' : 'buy', qty: 1 + (i % 13), price: 1 + ((i * 11) % 17) / 10, ts: T0 + i * 45 }));
    }
    return out;
  }

  it('same events give the same state and snapshot', () => {
    const a = fold(script());
    const b = fold(script());
    expect(a).toEqual(b);
    expect(deriveWalletSnapshot(a)).toEqual(deriveWalletSnapshot(b));
  });

  it('a JSON checkpoint mid-stream resumes to the same state', () => {
    const evs = script();
    const straight = fold(evs);
    const half = fold(evs.slice(0, 97));
    const restored = JSON.parse(JSON.stringify(half)) as WalletState;
    expect(fold(evs.slice(97), restored)).toEqual(straight);
  });

  it('foldWalletSwap leaves its input unchanged and agrees with the in-place fold', () => {
    const evs = script();
    let pure = initialWalletState('sim', WALLET);
    const inPlace = initialWalletState('sim', WALLET);
    for (const e of evs) {
      const before = JSON.stringify(pure);
      const next = foldWalletSwap(pure, e);
      expect(JSON.stringify(pure)).toBe(before);
      pure = next;
      foldWalletSwapInPlace(inPlace, e);
    }
    expect(pure).toEqual(inPlace);
    const mark = { token: tokenAddr(1), timestamp: T0 + 1e6, priceUsd: 3 };
    expect(foldPriceMark(pure, mark)).toEqual(foldPriceMarkInPlace(inPlace, mark));
  });

  it('an out-of-order swap within the tail gives the same books as in-order', () => {
    const evs = script().slice(0, 20);
    const shuffled = [...evs.slice(0, 10), evs[12]!, evs[10]!, evs[11]!, ...evs.slice(13)];
    expect(books(fold(shuffled))).toEqual(books(fold(evs)));
  });

  it('compactWalletState shrinks tails without changing books or later folds', () => {
    const evs = script();
    const head = fold(evs.slice(0, 150));
    const compacted = compactWalletState(head);
    const tailLen = (s: WalletState) => Object.values(s.tokens).reduce((n, t) => n + t.tail.length, 0);
    expect(tailLen(compacted)).toBeLessThan(tailLen(head));
    expect(books(compacted)).toEqual(books(head));
    expect(books(fold(evs.slice(150), compacted))).toEqual(books(fold(evs)));
    expect(deriveWalletSnapshot(fold(evs.slice(150), compacted))).toEqual(deriveWalletSnapshot(fold(evs)));
  });

  it('ignores swaps of another trader', () => {
    const f = new SwapFactory();
    const s = fold([f.swap({ token: A, side: 'buy', qty: 1, price: 1, ts: T0, wallet: '0x' + '99'.repeat(20) })]);
    expect(s.tokens).toEqual({});
    expect(s.counters.foreign).toBe(1);
  });

  it('a token the wallet stopped trading keeps no tail once its blocks cross the reorg horizon', () => {
    const f = new SwapFactory();
    const evs = [
      f.swap({ token: A, side: 'buy', qty: 10, price: 1, ts: T0 }),
      f.swap({ token: A, side: 'sell', qty: 4, price: 1.2, ts: T0 + 60 }),
    ];
    // B trades on, block after block, well past A's last block plus the horizon
    for (let i = 1; i <= 3 * REORG_HORIZON_BLOCKS; i++) evs.push(f.swap({ token: B, side: i % 2 ? 'buy' : 'sell', qty: 1, price: 1 + (i % 7) / 10, ts: T0 + 60 + 120 * i }));
    const s = fold(evs);
    expect(s.tokens[A]!.tail).toEqual([]);
    expect(s.tokens[A]!.book).toEqual(fold(evs.slice(0, 2)).tokens[A]!.book);
    expect(s.tokens[A]!.base).toEqual(s.tokens[A]!.book);
    // resolved observations are kept only for trades still in a tail (only those can be retracted)
    for (const t of Object.values(s.tokens)) {
      for (const r of t.edge.resolved) expect(t.tail.some((x) => x.id === r.id && x.blockHash === r.blockHash)).toBe(true);
    }
    expect(s.tokens[B]!.edge.nBuy + s.tokens[B]!.edge.nSell).toBeGreaterThan(0);
  });

  it('a long history keeps at most TOKENS_KEPT tokens; retired ones still count as derive reads them', () => {
    const f = new SwapFactory();
    const perToken: Swap[][] = [];
    for (let i = 0; i < TOKENS_KEPT + 30; i++) {
      const token = tokenAddr(100 + i);
      const t = T0 + i * 6 * 3600;
      const p = 1 + (i % 5) / 10;
      const swaps = [f.swap({ token, side: 'buy', qty: 100, price: p, ts: t }), f.swap({ token, side: 'buy', qty: 50, price: p * 1.01, ts: t + 1800 })];
      // the first token stays open: an open position is never retired
      if (i > 0) swaps.push(f.swap({ token, side: 'sell', qty: 150, price: p * (i % 3 === 0 ? 0.9 : 1.2), ts: t + 2 * 3600 }));
      perToken.push(swaps);
    }
    let s = initialWalletState('sim', WALLET);
    const inPlace = initialWalletState('sim', WALLET);
    for (const e of perToken.flat()) {
      const before = JSON.stringify(s);
      const next = foldWalletSwap(s, e);
      expect(JSON.stringify(s)).toBe(before); // the pure fold copies what retiring changes
      s = next;
      foldWalletSwapInPlace(inPlace, e);
    }
    expect(inPlace).toEqual(s);
    expect(Object.keys(s.tokens).length).toBeLessThanOrEqual(TOKENS_KEPT);
    expect(s.retired.tokens).toBeGreaterThan(0);
    expect(s.tokens[tokenAddr(100)]!.book.qty).toBe(150);
    // the same trades with every token kept: one state per token, put together
    const all = initialWalletState('sim', WALLET);
    for (const swaps of perToken) Object.assign(all.tokens, fold(swaps).tokens);
    Object.assign(all, { version: s.version, asOfTs: s.asOfTs, maxBlock: s.maxBlock });
    const got = deriveWalletSnapshot(s);
    const want = deriveWalletSnapshot(all);
    expect(got.sample).toEqual(want.sample);
    expect(got.edge.forwardSamples).toBe(want.edge.forwardSamples);
    expect(got.edge.score).toBe(want.edge.score);
    expect(got.edge.excessReturnPct).toBeCloseTo(want.edge.excessReturnPct!, 6);
    expect(got.consistency).toEqual(want.consistency);
    expect(got.copyability).toEqual(want.copyability);
    expect(got.pnlQuality).toEqual(want.pnlQuality);
    expect(got.basis).toEqual(want.basis);
    expect(got.positions).toEqual(want.positions);
    expect(got.grade).toBe(want.grade);
  });

  it('foldPoolCreated records the earliest creation block', () => {
    let s = initialWalletState('sim', WALLET);
    s = foldPoolCreated(s, { token: A, block: 10 });
    const before = s;
    s = foldPoolCreated(s, { token: A, block: 12 });
    expect(s.poolCreatedBlock[A]).toBe(10);
    expect(s).toBe(before); // nothing changed, nothing copied
    s = foldPoolCreated(s, { token: A, block: 10, removed: true });
    expect(s.poolCreatedBlock[A]).toBeUndefined();
  });
});
