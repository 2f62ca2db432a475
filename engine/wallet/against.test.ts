import { describe, expect, it } from 'vitest';
import { SwapFactory, T0, WALLET, retraction, tokenAddr } from './fixtures.ts';
import { foldWalletSwap, initialWalletState } from './state.ts';
import type { WalletState, WalletSwap } from './state.ts';
import { AGAINST_KEPT } from './against.ts';

/** The round trips' counterparties as the wallet fold keeps them: replayed with the trades, bounded. */

const f = new SwapFactory();
const token = tokenAddr(1);
const fold = (swaps: WalletSwap[]): WalletState => swaps.reduce(foldWalletSwap, initialWalletState('sim', WALLET));

const buy = f.swap({ token, side: 'buy', qty: 100, price: 1, ts: T0 });
const sell: WalletSwap = { ...f.swap({ token, side: 'sell', qty: 100, price: 1.5, ts: T0 + 600 }), against: { '0xloser': 5000, '0xother': 1000 } };

describe('counterparties of round trips', () => {
  it('a closed round trip goes to its buyers by USD share', () => {
    const vs = fold([buy, sell]).tokens[token]?.book.vs ?? {};
    expect(vs['0xloser']?.[0]).toBeCloseTo(5 / 6);
    expect(vs['0xother']?.[1]).toBeCloseTo(1 / 6); // a win
    expect(vs['0xloser']?.[3]).toBeCloseTo((5 / 6) * 50); // its share of the $50 won
  });

  it('the closing sell retracted and included again (a reorg) attributes the round trip once', () => {
    const once = fold([buy, sell]);
    const again = fold([buy, sell, { ...retraction(sell), against: sell.against }, sell]);
    expect(again.tokens[token]?.book.vs).toEqual(once.tokens[token]?.book.vs);
    expect(fold([buy, sell, retraction(sell)]).tokens[token]?.book.vs).toBeUndefined();
  });

  it('buyers before the opening buy were not against it', () => {
    const early: WalletSwap = { ...f.swap({ token, side: 'buy', qty: 100, price: 1, ts: T0 + 1200 }), against: { '0xbefore': 9000 } };
    const close = f.swap({ token, side: 'sell', qty: 100, price: 1.2, ts: T0 + 1800 });
    const vs = fold([buy, sell, early, close]).tokens[token]?.book.vs ?? {};
    expect(vs['0xbefore']).toBeUndefined();
  });

  it('attacker: a hundred buyers on one round trip keep the largest few, the state stays bounded', () => {
    const many: Record<string, number> = {};
    for (let i = 0; i < 100; i++) many[`0x${i}`] = i === 7 ? 1e6 : 1 + i;
    const s = fold([buy, { ...sell, against: many }]);
    const vs = s.tokens[token]?.book.vs ?? {};
    expect(Object.keys(vs)).toHaveLength(AGAINST_KEPT);
    expect(vs['0x7']?.[0]).toBeGreaterThan(0.99);
  });
});
