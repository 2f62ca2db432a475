import { describe, expect, it } from 'vitest';
import type { PerpFill, PredictionTrade } from '../../schemas/venues.ts';
import { VenueAccountSnapshot } from '../../schemas/venues.ts';
import { DAY_MS, deriveVenueAccount, gradeAccount, initialVenueAccountState } from './account.ts';
import type { VenueAccountState } from './account.ts';
import { foldPerpFill } from './perp.ts';
import { foldPredictionTrade } from './prediction.ts';

const ACC = '0x' + 'a1'.repeat(20);
const T0 = 1_735_689_600_000; // a UTC midnight
let tid = 1;

function fill(over: Partial<PerpFill> & Pick<PerpFill, 'side' | 'size' | 'price' | 'startPosition' | 'time'>): PerpFill {
  return { type: 'perp_fill', venue: 'hyperliquid', account: ACC, coin: 'BTC', dir: '', closedPnl: 0, fee: 0, fillId: String(tid++), hash: '0x', ...over };
}

/** a long round trip on BTC: open at `entry`, close at `exit`, `holdS` seconds later */
function longTrip(s: VenueAccountState, time: number, entry: number, exit: number, holdS = 3600, size = 1): VenueAccountState {
  foldPerpFill(s, fill({ side: 'buy', size, price: entry, startPosition: 0, time }));
  return foldPerpFill(s, fill({ side: 'sell', size, price: exit, startPosition: size, time: time + holdS * 1000, closedPnl: size * (exit - entry) }));
}

describe('perps account fold', () => {
  it('books round trips from flat to flat with the venue closedPnl net of fees, and partial closes', () => {
    const s = initialVenueAccountState('perp', 'hyperliquid', ACC);
    foldPerpFill(s, fill({ side: 'sell', size: 2, price: 100, startPosition: 0, time: T0, fee: 0.1 }));
    foldPerpFill(s, fill({ side: 'buy', size: 1, price: 90, startPosition: -2, time: T0 + 60_000, closedPnl: 10, fee: 0.1 }));
    expect(s.closed).toBe(0);
    expect(s.positions.BTC?.qty).toBe(-1);
    foldPerpFill(s, fill({ side: 'buy', size: 1, price: 95, startPosition: -1, time: T0 + 7_200_000, closedPnl: 5, fee: 0.1 }));
    expect(s.closed).toBe(1);
    expect(s.wins).toBe(1);
    expect(s.realised).toBeCloseTo(15 - 0.3, 9);
    expect(s.closedCost).toBe(200);
    expect(s.holdHist[3]).toBe(1); // 2 hours: the <1d bucket
    expect(s.longOpens).toBe(0);
  });

  it('a fill through zero closes the trade and opens the opposite one (a flip)', () => {
    const s = initialVenueAccountState('perp', 'hyperliquid', ACC);
    foldPerpFill(s, fill({ side: 'buy', size: 1, price: 100, startPosition: 0, time: T0 }));
    foldPerpFill(s, fill({ side: 'sell', size: 3, price: 110, startPosition: 1, time: T0 + 1000, closedPnl: 10, dir: 'Long > Short' }));
    expect(s.closed).toBe(1);
    expect(s.flips).toBe(1);
    expect(s.positions.BTC).toMatchObject({ qty: -2, avgPx: 110, cost: 220 });
    expect(s.opens).toBe(2);
  });

  it('adopts the venue position when fills were missed (startPosition disagrees with the book)', () => {
    const s = initialVenueAccountState('perp', 'hyperliquid', ACC);
    foldPerpFill(s, fill({ side: 'sell', size: 0.5, price: 200, startPosition: 0.5, time: T0, closedPnl: 20 }));
    expect(s.closed).toBe(1);
    expect(s.closedCost).toBe(100);
    expect(s.realised).toBe(20);
  });

  it('is idempotent: a replayed fill id changes nothing', () => {
    const s = initialVenueAccountState('perp', 'hyperliquid', ACC);
    const f = fill({ side: 'buy', size: 1, price: 100, startPosition: 0, time: T0 });
    foldPerpFill(s, f);
    const once = JSON.stringify(s);
    foldPerpFill(s, f);
    expect(JSON.stringify(s)).toBe(once);
  });
});

describe('prediction account fold', () => {
  const trade = (over: Partial<PredictionTrade> & Pick<PredictionTrade, 'side' | 'size' | 'price' | 'time'>): PredictionTrade => ({
    type: 'prediction_trade', venue: 'polymarket', account: ACC, market: '0xm', asset: 'yes', outcome: 'Yes', txHash: '0x', tradeId: String(tid++), ...over,
  });
  it('realises shares × (price − average cost) on sells; ignores sells of shares it never saw bought; counts outcome switches', () => {
    const s = initialVenueAccountState('prediction', 'polymarket', ACC);
    foldPredictionTrade(s, trade({ side: 'sell', size: 50, price: 0.5, time: T0 }));
    expect(s.closed).toBe(0);
    foldPredictionTrade(s, trade({ side: 'buy', size: 100, price: 0.2, time: T0 + 1 }));
    foldPredictionTrade(s, trade({ side: 'buy', size: 100, price: 0.4, time: T0 + 2 }));
    foldPredictionTrade(s, trade({ side: 'buy', size: 10, price: 0.7, time: T0 + 3, asset: 'no', outcome: 'No' }));
    expect(s.flips).toBe(1);
    foldPredictionTrade(s, trade({ side: 'sell', size: 250, price: 0.5, time: T0 + 4 }));
    expect(s.closed).toBe(1);
    expect(s.realised).toBeCloseTo(200 * (0.5 - 0.3), 9);
    expect(s.closedCost).toBeCloseTo(60, 9);
    const snap = deriveVenueAccount(s);
    expect(snap.sample.openPositions).toBe(1);
    expect(snap.behaviour.longSharePct).toBeCloseTo((1 / 3) * 100, 1);
  });
});

describe('grades', () => {
  it('unrated below the sample; mirror-worthy with a steady edge; avoid when losing', () => {
    let good = initialVenueAccountState('perp', 'hyperliquid', ACC);
    let bad = initialVenueAccountState('perp', 'hyperliquid', ACC);
    for (let i = 0; i < 30; i++) {
      const t = T0 + i * 3 * 3_600_000;
      const win = i % 4 !== 0; // 75% winners
      good = longTrip(good, t, 100, win ? 102 : 99);
      bad = longTrip(bad, t, 100, win ? 98 : 101);
      if (i === 5) expect(gradeAccount(good).grade).toBe('unrated');
    }
    const g = deriveVenueAccount(good);
    expect(VenueAccountSnapshot.parse(g)).toEqual(g);
    expect(g.grade).toBe('mirror-worthy');
    expect(g.performance.winRatePct).toBe(73.33); // 22 of 30
    expect(g.performance.profitFactorBand).toBe('strong');
    expect(g.style).toBe('swing');
    expect(deriveVenueAccount(bad).grade).toBe('avoid');
  });

  it('a profitable account whose trades are too short to copy is at most watch', () => {
    let s = initialVenueAccountState('perp', 'hyperliquid', ACC);
    for (let i = 0; i < 30; i++) s = longTrip(s, T0 + i * 3 * 3_600_000, 100, i % 4 ? 102 : 99, 20);
    const snap = deriveVenueAccount(s);
    expect(snap.grade).toBe('watch');
    expect(snap.reasons.join(' ')).toContain("copier's latency");
    expect(snap.style).toBe('scalper');
  });
});

describe('track record of grades', () => {
  it('takes a daily checkpoint of the grade and resolves it by the trades after it: hits, misses, inactive, pending', () => {
    let s = initialVenueAccountState('perp', 'hyperliquid', ACC);
    // days 0-3: winning (becomes mirror-worthy), days 4-5: losing, day 6 nothing, day 8: one trade
    for (let d = 0; d < 6; d++) {
      for (let k = 0; k < 8; k++) {
        const t = T0 + d * DAY_MS + k * 3 * 3_600_000;
        s = longTrip(s, t, 100, d < 4 ? (k % 4 ? 103 : 99) : k % 4 ? 97 : 101);
      }
    }
    s = longTrip(s, T0 + 8 * DAY_MS, 100, 101);
    const snap = deriveVenueAccount(s);
    const one = (g: string) => snap.trackRecord.find((o) => o.grade === g && o.horizon === '1d');
    // checkpoints at the starts of days 1-5 and 8. Days 1 and 2: unrated (under two days of
    // history), both followed by a winning day: hits for unrated (which counts winners).
    expect(one('unrated')).toMatchObject({ graded: 2, hits: 2, misses: 0, pending: 0 });
    // days 3, 4, 5 and 8: mirror-worthy (the early edge outweighs the two losing days). Day 3's
    // grade was followed by a winning day (hit), day 4's and day 5's by losing ones (misses stay
    // in the record), day 8's has not reached its horizon.
    expect(one('mirror-worthy')).toMatchObject({ graded: 4, hits: 1, misses: 2, inactive: 0, pending: 1 });
    expect(one('mirror-worthy')?.forwardReturnPctSum).toBeLessThan(0);
    // only day 1's checkpoint is 7 days old at day 8: days 1-5 netted a gain
    const seven = snap.trackRecord.filter((o) => o.horizon === '7d').reduce((a, o) => a + o.hits + o.misses + o.inactive, 0);
    expect(seven).toBe(1); // only day 1's checkpoint is 7 days old at day 8
  });

  it('a checkpoint followed by no closed trade within its horizon is inactive, not a hit or a miss', () => {
    let s = initialVenueAccountState('perp', 'hyperliquid', ACC);
    s = longTrip(s, T0, 100, 101);
    foldPerpFill(s, fill({ coin: 'ETH', side: 'buy', size: 1, price: 10, startPosition: 0, time: T0 + DAY_MS }));
    foldPerpFill(s, fill({ coin: 'SOL', side: 'buy', size: 1, price: 10, startPosition: 0, time: T0 + 2 * DAY_MS }));
    const o = deriveVenueAccount(s).trackRecord.find((x) => x.grade === 'unrated' && x.horizon === '1d');
    expect(o).toMatchObject({ graded: 2, hits: 0, misses: 0, inactive: 1, pending: 1 });
  });
});
