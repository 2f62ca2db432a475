import { describe, it, expect } from 'vitest';
import { WalletSnapshot } from '../../schemas/wallet.ts';
import { deriveWalletSnapshot } from './derive.ts';
import { initialWalletState } from './state.ts';
import { foldAll, SwapFactory, T0, WALLET, tokenAddr, type Item } from './fixtures.ts';
import { foldWalletMessage } from '../rekey.ts';

const HOUR = 3600;
const DAY = 86400;

/**
 * Round trips of $1000 on `tokens` tokens, one every `every` seconds. Each token's price path:
 * flat at p before the trade; from the buy it moves linearly by `moveUp` over `hold` seconds,
 * the wallet sells at the end, then the price goes back to p over the next `hold` seconds.
 * Marks every 15 minutes feed forward returns. `loseEvery`: every n-th round trip ends at a loss.
 */
function roundTrips(opts: {
  n: number;
  tokens: number;
  every: number;
  hold: number;
  moveUp: number;
  loseEvery?: number;
  launch?: Record<string, number>;
}): Item[] {
  const f = new SwapFactory();
  const items: Item[] = [];
  for (let j = 0; j < opts.n; j++) {
    const token = tokenAddr(1 + (j % opts.tokens));
    const start = T0 + j * opts.every;
    const p = 1 + (j % 3) * 0.1;
    const losing = opts.loseEvery !== undefined && j % opts.loseEvery === opts.loseEvery - 1;
    const end = losing ? p * 0.95 : p * (1 + opts.moveUp);
    const qty = 1000 / p;
    items.push({ kind: 'swap', swap: f.swap({ token, side: 'buy', qty, price: p, ts: start }) });
    const step = Math.min(900, Math.max(60, Math.floor(opts.hold / 8)));
    for (let t = step; t < opts.hold; t += step) {
      items.push({ kind: 'mark', mark: { token, timestamp: start + t, priceUsd: p + ((end - p) * t) / opts.hold } });
    }
    items.push({ kind: 'swap', swap: f.swap({ token, side: 'sell', qty, price: end, ts: start + opts.hold }) });
    for (let t = step; t <= opts.hold; t += step) {
      items.push({ kind: 'mark', mark: { token, timestamp: start + opts.hold + t, priceUsd: end + ((p - end) * t) / opts.hold } });
    }
  }
  return items;
}

describe('deriveWalletSnapshot grades', () => {
  it('grades an edge trader mirror-worthy', () => {
    // 16 round trips over ~13 days on 4 tokens: buys before 20% rises, sells before falls.
    const s = foldAll(roundTrips({ n: 16, tokens: 4, every: 20 * HOUR, hold: 6 * HOUR, moveUp: 0.2, loseEvery: 8 }));
    const snap = WalletSnapshot.parse(deriveWalletSnapshot(s));
    expect(snap.sample.met).toBe(true);
    expect(snap.edge.band).toBe('positive');
    expect(snap.edge.score).toBeGreaterThanOrEqual(65);
    expect(snap.edge.forwardExcessPct).toBeGreaterThan(0);
    expect(snap.edge.roundTripExcessPct).toBeGreaterThan(10);
    expect(snap.pnlQuality.winRatePct).toBe(87.5);
    expect(snap.disqualifiers).toMatchObject({ bot: false, insider: false, sniper: false });
    expect(snap.style).toBe('swing');
    expect(snap.copyability.medianHold).toBe('hours');
    expect(snap.grade).toBe('mirror-worthy');
    expect(snap.reasons.length).toBeGreaterThan(0);
  });

  it('shrinks the edge toward none by the observations behind it: the same per-trade edge scores higher over a longer record', () => {
    const short = deriveWalletSnapshot(foldAll(roundTrips({ n: 10, tokens: 3, every: 18 * HOUR, hold: 6 * HOUR, moveUp: 0.05 })));
    const long = deriveWalletSnapshot(foldAll(roundTrips({ n: 40, tokens: 3, every: 18 * HOUR, hold: 6 * HOUR, moveUp: 0.05 })));
    expect(short.sample.met).toBe(true);
    expect(long.edge.roundTripExcessPct).toBe(short.edge.roundTripExcessPct);
    expect(long.edge.score).toBeGreaterThan(short.edge.score);
  });

  it('checks the grade on the latest week: an edge that lost in its latest active week is watch, saying so', () => {
    const items = roundTrips({ n: 16, tokens: 4, every: 20 * HOUR, hold: 6 * HOUR, moveUp: 0.2, loseEvery: 8 });
    // one more round trip two weeks later, at a loss
    const late = roundTrips({ n: 4, tokens: 4, every: 20 * HOUR, hold: 6 * HOUR, moveUp: -0.3 }).map((it) =>
      it.kind === 'swap' ? { ...it, swap: { ...it.swap, timestamp: it.swap.timestamp + 21 * DAY, tx: `0x${'9'.repeat(48)}${it.swap.tx.slice(50)}`, block: it.swap.block + 1_000_000 } } : { ...it, mark: { ...it.mark, timestamp: it.mark.timestamp + 21 * DAY } },
    );
    const snap = deriveWalletSnapshot(foldAll([...items, ...late]));
    expect(snap.grade).not.toBe('mirror-worthy');
    expect(snap.reasons.join('; ')).toMatch(/latest active week lost/);
  });

  it('checks size against liquidity: the same edge trader buying 10 % of each pool cannot be copied at its price', () => {
    const items = roundTrips({ n: 16, tokens: 4, every: 20 * HOUR, hold: 6 * HOUR, moveUp: 0.2, loseEvery: 8 });
    const fold = (liquidityUsd: number) => {
      let st = initialWalletState('sim', WALLET);
      for (const it of [...items].sort((a, b) => (a.kind === 'swap' ? a.swap.timestamp : a.mark.timestamp) - (b.kind === 'swap' ? b.swap.timestamp : b.mark.timestamp))) {
        st = foldWalletMessage(st, it.kind === 'swap' ? { kind: 'swap', swap: it.swap, poolBlock: null, liquidityUsd } : { kind: 'mark', wallet: WALLET, chain: 'sim', mark: it.mark });
      }
      return deriveWalletSnapshot(st);
    };
    const deep = fold(1_000_000);
    expect(deep.grade).toBe('mirror-worthy');
    expect(deep.copyability.oversizedTokensPct).toBe(0);
    const thin = fold(10_000);
    expect(thin.copyability.oversizedTokensPct).toBe(100);
    expect(thin.copyability.score).toBeLessThan(deep.copyability.score);
    expect(thin.grade).toBe('watch');
    expect(thin.reasons.join('; ')).toMatch(/buys over 2% of the pool's liquidity in 4 of 4 tokens/);
  });

  it('grades a trader who buys tops and sells bottoms avoid (negative edge)', () => {
    const s = foldAll(roundTrips({ n: 16, tokens: 4, every: 20 * HOUR, hold: 6 * HOUR, moveUp: -0.2 }));
    const snap = WalletSnapshot.parse(deriveWalletSnapshot(s));
    expect(snap.sample.met).toBe(true);
    expect(snap.edge.band).toBe('negative');
    expect(snap.grade).toBe('avoid');
    expect(snap.reasons[0]).toMatch(/negative edge/);
  });

  it('grades a proven but unremarkable trader watch, saying what is missing', () => {
    // Wins +3% twice for every -5% loss: profit factor 1.2, no real edge.
    const s = foldAll(roundTrips({ n: 15, tokens: 3, every: 20 * HOUR, hold: 6 * HOUR, moveUp: 0.03, loseEvery: 3 }));
    const snap = WalletSnapshot.parse(deriveWalletSnapshot(s));
    expect(snap.sample.met).toBe(true);
    expect(snap.pnlQuality.profitFactor).toBe(1.2);
    expect(snap.edge.band).toBe('none');
    expect(snap.grade).toBe('watch');
    expect(snap.reasons.join(' ')).toMatch(/profit factor 1.2 below 1.5/);
  });

  it('grades an empty wallet unrated with a valid snapshot', () => {
    const snap = WalletSnapshot.parse(deriveWalletSnapshot(initialWalletState('sim', '0x' + '11'.repeat(20))));
    expect(snap.grade).toBe('unrated');
    expect(snap.sample.trades).toBe(0);
  });

  it('grades a short history unrated, with the missing sample in the reasons', () => {
    const s = foldAll(roundTrips({ n: 3, tokens: 3, every: 4 * HOUR, hold: HOUR, moveUp: 0.3 }));
    const snap = WalletSnapshot.parse(deriveWalletSnapshot(s));
    expect(snap.grade).toBe('unrated');
    expect(snap.sample.met).toBe(false);
    expect(snap.reasons.join(' ')).toMatch(/3 closed round trips \(need 10\)/);
    expect(snap.reasons.join(' ')).toMatch(/days of history/);
    expect(snap.disqualifiers.reasons).toEqual([]);
  });

  it('grades a profitable wash bot avoid, never mirror-worthy', () => {
    const f = new SwapFactory();
    const items: Item[] = [];
    // Every 10 minutes for 10 days, on 3 tokens: buy $5 and sell $5.05 in the same block.
    for (let i = 0; i < 10 * 24 * 6; i++) {
      const ts = T0 + i * 600;
      const token = tokenAddr(1 + (i % 3));
      items.push({ kind: 'swap', swap: f.swap({ token, side: 'buy', qty: 5, price: 1, ts, logIndex: 0 }) });
      items.push({ kind: 'swap', swap: f.swap({ token, side: 'sell', qty: 5, price: 1.01, ts, logIndex: 1 }) });
    }
    const s = foldAll(items);
    const snap = WalletSnapshot.parse(deriveWalletSnapshot(s));
    expect(snap.sample.met).toBe(true);
    expect(snap.pnlQuality.winRatePct).toBe(100);
    expect(snap.disqualifiers.bot).toBe(true);
    expect(snap.style).toBe('bot');
    expect(snap.grade).toBe('avoid');
    expect(snap.activity.tradesPerBlock).toBe(2);
    expect(snap.activity.sameBlockRoundTrips).toBe(1440);
    expect(snap.copyability.score).toBe(0);
    expect(snap.reasons.some((r) => r.startsWith('bot:'))).toBe(true);
  });

  it('flags a launch sniper from injected pool-creation blocks', () => {
    const items = roundTrips({ n: 16, tokens: 4, every: 20 * HOUR, hold: 6 * HOUR, moveUp: 0.2 });
    const s = foldAll(items);
    // Each token's first buy: round trips 0..3 start at j * 20h.
    const created: Record<string, number> = {};
    for (let j = 0; j < 4; j++) created[tokenAddr(1 + j)] = Math.floor((j * 20 * HOUR) / 2) - 1;
    const snap = WalletSnapshot.parse(deriveWalletSnapshot(s, { poolCreatedBlock: created }));
    expect(snap.activity.launchWindowBuys).toBe(4);
    expect(snap.activity.creationBlockBuys).toBe(0);
    expect(snap.disqualifiers.sniper).toBe(true);
    expect(snap.style).toBe('sniper');
    expect(snap.grade).toBe('avoid');
  });

  it('flags an insider funded by a deployer of a traded token', () => {
    const s = foldAll(roundTrips({ n: 16, tokens: 4, every: 20 * HOUR, hold: 6 * HOUR, moveUp: 0.2 }));
    const deployer = '0x' + 'de'.repeat(20);
    const snap = deriveWalletSnapshot(s, { deployers: { [tokenAddr(2)]: deployer }, funder: deployer });
    expect(snap.disqualifiers.insider).toBe(true);
    expect(snap.grade).toBe('avoid');
  });
  it('attacker: funded through two fresh wallets the deployer paid: an insider all the same, the hops said', () => {
    const s = foldAll(roundTrips({ n: 16, tokens: 4, every: 20 * HOUR, hold: 6 * HOUR, moveUp: 0.2 }));
    const deployer = '0x' + 'de'.repeat(20);
    const hops = ['0x' + 'a1'.repeat(20), '0x' + 'a2'.repeat(20)];
    const direct = deriveWalletSnapshot(s, { deployers: { [tokenAddr(2)]: deployer }, funder: hops[0] });
    expect(direct.disqualifiers.insider).toBe(false);
    const snap = deriveWalletSnapshot(s, { deployers: { [tokenAddr(2)]: deployer }, funders: [...hops, deployer] });
    expect(snap.disqualifiers.insider).toBe(true);
    expect(snap.grade).toBe('avoid');
    expect(snap.disqualifiers.reasons).toContain('insider: funded by the deployer of a traded token through 2 wallets it funded');
  });
});

describe('style classification', () => {
  it('scalper: minutes-long holds', () => {
    const s = foldAll(roundTrips({ n: 12, tokens: 3, every: 16 * HOUR, hold: 10 * 60, moveUp: 0.02 }));
    expect(deriveWalletSnapshot(s).style).toBe('scalper');
  });

  it('swing: holds of hours to days', () => {
    const s = foldAll(roundTrips({ n: 12, tokens: 3, every: 2 * DAY, hold: DAY, moveUp: 0.1 }));
    expect(deriveWalletSnapshot(s).style).toBe('swing');
  });

  it('holder: holds of weeks', () => {
    const s = foldAll(roundTrips({ n: 4, tokens: 4, every: DAY, hold: 10 * DAY, moveUp: 0.5 }));
    const snap = deriveWalletSnapshot(s);
    expect(snap.style).toBe('holder');
    expect(snap.copyability.medianHold).toBe('weeks');
  });

  it('holder from open positions when nothing is closed yet', () => {
    const f = new SwapFactory();
    const s = foldAll([
      { kind: 'swap', swap: f.swap({ token: tokenAddr(1), side: 'buy', qty: 10, price: 1, ts: T0 }) },
      { kind: 'mark', mark: { token: tokenAddr(1), timestamp: T0 + 9 * DAY, priceUsd: 2 } },
    ]);
    const snap = deriveWalletSnapshot(s);
    expect(snap.style).toBe('holder');
    expect(snap.grade).toBe('unrated');
    expect(snap.pnlQuality.unrealisedReturnPct).toBe(100);
  });
});
