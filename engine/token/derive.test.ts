import { describe, expect, it } from 'vitest';
import { TokenSnapshot } from '../../schemas/token.ts';
import type { Bar } from '../../schemas/token.ts';
import { THRESHOLDS, deriveTokenSnapshot, exitScore, isAccumulating, priceImpact } from './derive.ts';
import type { SnapshotDigest } from './changes.ts';
import { digestOf, rememberWritten } from './changes.ts';
import type { DeriveOptions } from './derive.ts';
import { foldTokenEvents, initialTokenState } from './state.ts';
import { Market, addr, breakout, coilMarket, organicMarket } from './testkit.ts';
import { createCandleTable, createFundingTable } from '../tables.ts';

function snap(m: Market, opts?: DeriveOptions): TokenSnapshot {
  const s = deriveTokenSnapshot(foldTokenEvents(initialTokenState(m.chain, m.token), m.events), opts);
  return TokenSnapshot.parse(s);
}

describe('deriveTokenSnapshot: a healthy organic market', () => {
  const s = snap(organicMarket(30));
  it('raises no flag and rates it', () => {
    expect(s.risk.flags.rug.flagged).toBe(false);
    expect(s.risk.flags.honeypot.flagged).toBe(false);
    expect(s.risk.flags.concentration.flagged).toBe(false);
    expect(s.risk.band).toBe('low');
    expect(s.verdict).not.toBe('avoid');
    expect(s.verdict).not.toBe('unrated');
    expect(s.signal.value).not.toBe('AVOID');
    expect(s.organic.band).toBe('high');
  });
  it('has windows, holders and a reason on every flag', () => {
    expect(s.activity.h24.buys).toBeGreaterThan(s.activity.h1.buys);
    expect(s.activity.h1.buys).toBeGreaterThanOrEqual(s.activity.m5.buys);
    expect(s.activity.h24.buyers).toBeGreaterThan(10);
    expect(s.holders.count).toBeGreaterThan(50);
    expect(s.holders.trend).toBe('growing');
    for (const k of ['rug', 'honeypot', 'concentration'] as const) expect(s.risk.flags[k].reason.length).toBeGreaterThan(5);
    expect(s.asOf).toBe(new Date(s.asOfTs * 1000).toISOString());
    expect(s.basis.hourly.length).toBeGreaterThanOrEqual(30);
    expect(s.basis.hourly.length).toBeLessThanOrEqual(168);
    expect(s.smartMoney.recent.length).toBeLessThanOrEqual(200);
    const ages = s.smartMoney.recent.map((b) => b.ageS);
    expect([...ages].sort((a, b) => a - b)).toEqual(ages); // newest first
  });
});

describe('too little data', () => {
  it('is unrated, never avoid, on a fresh launch with a few trades', () => {
    const m = new Market().launch(100_000);
    m.advance(60);
    m.buy(addr(1), 100);
    const s = snap(m);
    expect(s.data.enough).toBe(false);
    expect(s.verdict).toBe('unrated');
  });
});

describe('rug', () => {
  it('flags liquidity pulled by the deployer', () => {
    const m = organicMarket(6);
    m.advance(60).removeLiquidity(m.deployer, 0.95);
    const s = snap(m);
    expect(s.risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.rug.reason).toMatch(/deployer/);
    expect(s.risk.signals.largestLiquidityDropPct).toBeGreaterThan(90);
    expect(s.signal.value).toBe('AVOID');
    expect(s.verdict).toBe('avoid');
    expect(s.risk.band).toBe('extreme');
  });
  it('names an insider that pulled it', () => {
    const m = organicMarket(6);
    const lp = addr('insider-lp');
    m.advance(60).removeLiquidity(lp, 0.8);
    expect(snap(m, { insiders: [lp] }).risk.flags.rug.reason).toMatch(/insider/);
  });
  it('keeps flagging the rug hours later', () => {
    const m = organicMarket(6);
    m.advance(60).removeLiquidity(m.deployer, 0.9);
    for (let i = 0; i < 30; i++) m.advance(600).buy(addr(900 + i), 10);
    expect(snap(m).risk.flags.rug.severity).toBe('red');
  });
  it('does not flag a quarter of the liquidity removed', () => {
    const m = organicMarket(6);
    m.advance(60).removeLiquidity(m.deployer, 0.25);
    expect(snap(m).risk.flags.rug.severity).not.toBe('red');
  });
});

describe('honeypot', () => {
  it('flags many buyers and no outside seller', () => {
    const m = new Market().launch(50_000);
    for (let i = 0; i < 20; i++) m.advance(400).buy(addr(50_000 + i), 300);
    m.advance(60).sell(m.deployer, 500); // the deployer can sell; that does not count
    const s = snap(m);
    expect(s.risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.signals.nonInsiderSellers).toBe(0);
    expect(s.verdict).toBe('avoid');
  });
  it('does not count sells by injected insiders (funded by the deployer)', () => {
    const m = new Market().launch(50_000);
    for (let i = 0; i < 20; i++) m.advance(400).buy(addr(50_000 + i), 300);
    const friend = addr(50_000);
    m.advance(60).sell(friend, 100);
    expect(snap(m).risk.flags.honeypot.severity).not.toBe('red');
    expect(snap(m, { insiders: [friend] }).risk.flags.honeypot.severity).toBe('red');
  });
  it('attacker: decoy sellers funded through two hops from the deployer are insiders all the same (the funding tree the engine joins)', () => {
    const m = new Market().launch(50_000);
    for (let i = 0; i < 45; i++) m.advance(400).buy(addr(50_000 + i), 300);
    const decoys = [addr('decoy-1'), addr('decoy-2'), addr('decoy-3')];
    for (const d of decoys) m.advance(60).buy(d, 200);
    for (const d of decoys) m.advance(60).sell(d, 150);
    // the funding table: deployer → a fresh hop → a second hop → the decoys
    const f = createFundingTable();
    let position = 0;
    const fund = (funder: string, wallet: string) => f.apply({ chain: 'sim', wallet, asset: addr('weth'), funder, position: ++position });
    fund(m.deployer, addr('hop-1'));
    fund(addr('hop-1'), addr('hop-2'));
    for (const d of decoys) fund(addr('hop-2'), d);
    // the decoys dodge a rule that knows the deployer's direct wallets only
    expect(snap(m, { insiders: f.fundedBy('sim', m.deployer) }).risk.flags.honeypot.severity).not.toBe('red');
    expect(snap(m, { insiders: f.fundedWithin('sim', m.deployer) }).risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red' });
  });
  it('attacker: a tax that only hits the larger sells, diluted in the averages by many small clean sells: red all the same', () => {
    const m = new Market().launch(200_000);
    for (let i = 0; i < 40; i++) m.advance(300).buy(addr(51_000 + i), 2000);
    for (let i = 0; i < 40; i++) m.advance(120).sell(addr(51_000 + i), i % 8 === 0 ? 1500 : 50, i % 8 === 0 ? 0.5 : 0);
    const s = snap(m);
    expect(s.risk.signals.sellTaxPct).toBeLessThan(25);
    expect(s.risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.honeypot.reason).toMatch(/hits some sells/);
  });
  it('attacker: after the taxed sells, the deployer\'s decoys sell clean: a switch-off only outsiders\' sells can show, red stays', () => {
    const m = new Market().launch(200_000);
    for (let i = 0; i < 30; i++) m.advance(300).buy(addr(54_000 + i), 1000);
    const decoys = [addr('decoy-a'), addr('decoy-b'), addr('decoy-c'), addr('decoy-d')];
    for (const d of decoys) m.advance(60).buy(d, 500);
    for (let i = 0; i < 10; i++) m.advance(120).sell(addr(54_000 + i), 300, 0.4);
    for (const d of [...decoys, ...decoys]) m.advance(120).sell(d, 100);
    expect(snap(m).risk.flags.honeypot.severity).not.toBe('red');
    expect(snap(m, { insiders: decoys }).risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red' });
  });
  it('a tax switched off since: the clean sells after it clear the flag, not a simulation', () => {
    const m = new Market().launch(200_000);
    for (let i = 0; i < 30; i++) m.advance(300).buy(addr(52_000 + i), 1000);
    for (let i = 0; i < 10; i++) m.advance(120).sell(addr(52_000 + i), 300, 0.4);
    expect(snap(m).risk.flags.honeypot.severity).toBe('red');
    for (let i = 10; i < 24; i++) m.advance(120).sell(addr(52_000 + i), 300);
    expect(snap(m).risk.flags.honeypot.severity).not.toBe('red');
  });
  it('attacker: a token that lets the simulation sell while its holders cannot: the clean probe never clears the trades\' red', () => {
    const m = new Market().launch(50_000);
    for (let i = 0; i < 20; i++) m.advance(400).buy(addr(53_000 + i), 300);
    const hash = `0x${'7'.repeat(64)}`;
    const step = { ok: true, taxPct: 0, error: null };
    const ts = m.ts;
    m.events.push({
      chain: m.chain, block: m.block, blockHash: hash, tx: hash, logIndex: 99, timestamp: ts, type: 'contract', token: m.token, trigger: 'schedule',
      isContract: true, owner: null, renounced: true, proxy: null, powers: [],
      sim: { router: m.pool, pool: m.pool, path: [m.pool, m.token], buyUsd: 100, buy: step, rebuy: step, transfer: step, sell: step, largeBuy: { usd: 2000, ok: true, error: null } },
      simSkipped: null, pools: [],
    });
    const s = snap(m);
    expect(s.risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.honeypot.reason).toMatch(/simulated sell went through/);
    expect(s.verdict).toBe('avoid');
  });
  it('flags a hidden transfer tax on sells', () => {
    const m = new Market().launch(50_000);
    for (let i = 0; i < 20; i++) {
      m.advance(400).buy(addr(50_000 + i), 300);
      m.advance(60).sell(addr(50_000 + i), 100, 0.4);
    }
    const s = snap(m);
    expect(s.risk.flags.honeypot.severity).toBe('red');
    expect(s.risk.flags.honeypot.reason).toMatch(/tax/);
    expect(s.risk.signals.sellTaxPct).toBeCloseTo(40, 0);
  });
  it('late-tax: a tax switched on after hundreds of clean sells is red from its recent sells, not diluted by the clean ones', () => {
    const m = new Market().launch(50_000);
    for (let i = 0; i < 200; i++) {
      m.advance(200).buy(addr(60_000 + i), 300);
      m.advance(60).sell(addr(60_000 + i), 100);
    }
    expect(snap(m).risk.flags.honeypot.severity).not.toBe('red');
    // half the recent sells taxed: red already
    for (let i = 0; i < 8; i++) {
      m.advance(200).buy(addr(61_000 + i), 300);
      m.advance(60).sell(addr(61_000 + i), 100, 0.6);
    }
    expect(snap(m).risk.flags.honeypot).toMatchObject({ severity: 'red', reason: expect.stringMatching(/The last 16 sells deliver about 30% less than sent/) });
    for (let i = 8; i < 16; i++) {
      m.advance(200).buy(addr(61_000 + i), 300);
      m.advance(60).sell(addr(61_000 + i), 100, 0.6);
    }
    const s = snap(m);
    expect(s.risk.flags.honeypot.severity).toBe('red');
    expect(s.risk.flags.honeypot.reason).toMatch(/The last 16 sells deliver about 60% less than sent/);
    expect(s.risk.signals.sellTaxPct).toBeGreaterThanOrEqual(25);
  });
  it('is not raised before sells would be expected', () => {
    const m = new Market().launch(50_000);
    for (let i = 0; i < 20; i++) m.advance(30).buy(addr(50_000 + i), 300);
    expect(snap(m).risk.flags.honeypot.severity).toBe('none');
  });
});

describe('concentration', () => {
  it('flags one wallet holding most of the supply', () => {
    const m = new Market().launch(100_000, 0.3); // the deployer keeps 70%
    for (let i = 0; i < 30; i++) {
      m.advance(300).buy(addr(60_000 + i), 300);
      m.sell(addr(60_000 + i), 100);
    }
    const s = snap(m);
    expect(s.risk.flags.concentration).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.holders.whaleShape).toBe('single-whale');
    expect(s.holders.largestSharePct).toBeCloseTo(70, 0);
    expect(s.signal.value).toBe('AVOID');
  });
  it('warns when the top ten hold more than half', () => {
    const m = new Market().launch(100_000, 0.45);
    for (let i = 0; i < 10; i++) m.transfer(m.deployer, addr(70_000 + i), 55_000);
    for (let i = 0; i < 30; i++) m.advance(300).buy(addr(60_000 + i), 300);
    const s = snap(m);
    expect(s.risk.flags.concentration).toMatchObject({ flagged: false, severity: 'warning' });
    expect(s.holders.whaleShape).toBe('top-heavy');
    expect(s.holders.top10SharePct).toBeGreaterThan(50);
  });
});

describe('inflection', () => {
  it('sees a coil, then the breakout', () => {
    const m = coilMarket();
    const coil = snap(m);
    expect(coil.inflection.state).toBe('coiling');
    expect(coil.pillars.coiling).toBe(true);
    expect(coil.inflection.earlyScore).toBeGreaterThan(50);
    breakout(m);
    const br = snap(m);
    expect(br.inflection.state).toBe('breaking-out');
    expect(br.inflection.volumeRatio).toBeGreaterThanOrEqual(2);
    expect(br.momentum.band).toBe('surging');
    expect(br.pillars.momentum).toBe(true);
  });
  it('does not call a steady uptrend a coil', () => {
    expect(snap(organicMarket(30)).inflection.state).not.toBe('coiling');
  });
});

describe('smart money and signal', () => {
  it('lights the smartMoney pillar from buyers the grade table calls mirror-worthy inside the window', () => {
    const m = coilMarket();
    const state = foldTokenEvents(initialTokenState(m.chain, m.token), m.events);
    const base = deriveTokenSnapshot(state);
    expect(base.pillars.smartMoney).toBe(false);
    expect(base.smartBuyers).toBe(0);
    const recent = new Set(state.recentBuyers.filter((b) => b.ts > state.lastTs - 24 * 3600).map((b) => b.wallet));
    const two = [...recent].slice(0, 2);
    const lit = deriveTokenSnapshot(state, { gradeOf: (w) => (two.includes(w) ? 'mirror-worthy' : 'watch') });
    expect(lit.smartBuyers).toBe(2);
    expect(lit.smartMoney).toMatchObject({ buying: true, mirrorWorthyBuyers: 2, windowHours: 24 });
    expect(lit.pillars.smartMoney).toBe(true);
    expect(lit.pillarsLit).toBe(base.pillarsLit + 1);
    expect(lit.signal.conviction).toBeGreaterThan(base.signal.conviction);
    const one = deriveTokenSnapshot(state, { gradeOf: (w) => (w === two[0] ? 'mirror-worthy' : undefined) });
    expect(one.pillars.smartMoney).toBe(false);
  });
  it('does not count mirror-worthy buyers whose buys are older than the window', () => {
    const m = coilMarket();
    const state = foldTokenEvents(initialTokenState(m.chain, m.token), m.events);
    const old = new Set(state.recentBuyers.filter((b) => b.ts <= state.lastTs - 24 * 3600).map((b) => b.wallet));
    const s = deriveTokenSnapshot(state, { gradeOf: (w) => (old.has(w) ? 'mirror-worthy' : 'watch') });
    expect(old.size).toBeGreaterThan(1);
    expect(s.smartMoney.buying).toBe(false);
    expect(s.smartBuyers).toBe(0);
  });
});

describe('one verdict: red flags, exits and stances agree', () => {
  it('a token outside buyers cannot sell has extreme exit risk at every size and an unlit lowExit', () => {
    const m = new Market().launch(5_000_000);
    for (let i = 0; i < 20; i++) m.advance(400).buy(addr(70_000 + i), 300);
    const s = snap(m);
    expect(s.risk.flags.honeypot.severity).toBe('red');
    expect(s.exit.band).toBe('extreme');
    expect(s.exit.blocked).toMatch(/sell/);
    expect(s.exit.ladder.every((r) => r.band === 'extreme')).toBe(true);
    expect(s.pillars.lowExit).toBe(false);
    expect(s.signal.value).toBe('AVOID');
    expect(s.verdict).toBe('avoid');
    expect(s.holders.verdict).toBe('avoid');
    expect(s.valuation.stance).not.toBe('undervalued');
  });
  it('a rugged token is avoid and never undervalued, whatever its distance from the high', () => {
    const m = organicMarket(30);
    m.advance(60).removeLiquidity(m.deployer, 0.99);
    const s = snap(m);
    expect(s.risk.flags.rug.severity).toBe('red');
    expect(s.verdict).toBe('avoid');
    expect(s.valuation.stance).toBe('stretched');
    expect(s.texts.thesis).toMatch(/liquidity was pulled/);
    expect(s.texts.rationale).toMatch(/avoid/);
  });
});

describe('token-changes compares two snapshots the engine wrote', () => {
  it('reports the deltas since the snapshot written about an hour before, with a headline', () => {
    const m = organicMarket(6);
    const state = foldTokenEvents(initialTokenState(m.chain, m.token), m.events);
    const written: SnapshotDigest[] = [];
    const before = deriveTokenSnapshot(state, { written });
    rememberWritten(written, digestOf(before));
    expect(before.changes).toMatchObject({ since: null, items: [] });
    m.advance(3600).removeLiquidity(m.deployer, 0.9);
    for (let i = 0; i < 5; i++) m.advance(30).sell(addr(10_000 + i), 1500);
    const after = deriveTokenSnapshot(foldTokenEvents(initialTokenState(m.chain, m.token), m.events), { written });
    const byMetric = Object.fromEntries(after.changes.items.map((c) => [c.metric, c]));
    expect(after.changes.since).toBe(before.asOf);
    expect(byMetric['flags.rug']).toMatchObject({ from: 'none', to: 'red', severity: 'critical' });
    expect(byMetric['signal']).toMatchObject({ from: before.signal.value, to: 'AVOID', severity: 'critical' });
    expect(byMetric['priceBreak']).toMatchObject({ to: 'below-24h-low' });
    expect(after.changes.headline).toMatch(/rug flag went red/);
    expect(after.changes.headline).not.toMatch(/\d/);
  });
  it('reports nothing when nothing changed', () => {
    const m = organicMarket(6);
    const state = foldTokenEvents(initialTokenState(m.chain, m.token), m.events);
    const written: SnapshotDigest[] = [];
    const first = deriveTokenSnapshot(state, { written });
    rememberWritten(written, digestOf(first));
    expect(deriveTokenSnapshot(state, { written }).changes.items).toEqual([]);
  });
});

describe('BUY needs a setup, not a move that already happened', () => {
  it('BUYs a coil with low risk', () => {
    const s = snap(coilMarket());
    expect(s.pillars.coiling).toBe(true);
    expect(s.risk.band).toBe('low');
    expect(s.signal.value).toBe('BUY');
  });
  it('does not BUY a token extended far above where it was a day ago, however many pillars are lit', () => {
    const s = snap(breakout(coilMarket(), 30, 6000));
    expect(s.momentum.priceChange24hPct!).toBeGreaterThanOrEqual(THRESHOLDS.extendedRise24hPct);
    expect(s.pillars.momentum).toBe(true);
    expect(s.signal.value).not.toBe('BUY');
    expect(s.signal.value).not.toBe('AVOID');
  });
  it('does not call a range that was never wider a coil', () => {
    const s = snap(organicMarket(40));
    expect(s.pillars.coiling).toBe(false);
    expect(s.signal.value).not.toBe('BUY');
  });
});

describe('isAccumulating', () => {
  /** a snapshot with 24 hourly bars whose lows step up, holders +60% and price +10% in 24 h */
  function quietClimb(over: { growth?: number; ch24?: number; buyers?: number; sellers?: number; lows?: number[] } = {}): [TokenSnapshot, Bar[]] {
    const base = snap(organicMarket(30));
    const lows = over.lows ?? [1, 1.02, 1.05];
    const hourly = Array.from({ length: 24 }, (_, i) => {
      const l = lows[Math.floor(i / 8)]!;
      return { t: 3600 * i, o: l * 1.01, h: l * 1.03, l, c: l * 1.02, v: 100 };
    });
    const snapshot = {
      ...base,
      holders: { ...base.holders, growth24hPct: over.growth ?? 60 },
      momentum: { ...base.momentum, priceChange24hPct: over.ch24 ?? 10 },
      activity: { ...base.activity, h24: { ...base.activity.h24, buyers: over.buyers ?? 50, sellers: over.sellers ?? 40 } },
    };
    return [snapshot, hourly];
  }
  it('sees holders growing faster than a modest rise with higher lows and buyers keeping up', () => {
    expect(isAccumulating(...quietClimb())).toBe(true);
  });
  it('is not accumulation when price already ran, holders do not grow, sellers dominate or lows fall', () => {
    expect(isAccumulating(...quietClimb({ ch24: 50 }))).toBe(false);
    expect(isAccumulating(...quietClimb({ ch24: -5 }))).toBe(false);
    expect(isAccumulating(...quietClimb({ growth: 5 }))).toBe(false);
    expect(isAccumulating(...quietClimb({ growth: 25, ch24: 20 }))).toBe(false);
    expect(isAccumulating(...quietClimb({ buyers: 10, sellers: 40 }))).toBe(false);
    expect(isAccumulating(...quietClimb({ lows: [1, 0.95, 0.97] }))).toBe(false);
  });
});

describe('exit risk', () => {
  it('uses constant-product impact', () => {
    expect(priceImpact(1000, 99_000)).toBeCloseTo(0.01);
    expect(priceImpact(1000, null)).toBeNull();
  });
  it('grows with size and with thinner pools', () => {
    const small = exitScore(1000, 100_000, 0.5, 0, 1_000_000);
    const big = exitScore(50_000, 100_000, 0.5, 0, 1_000_000);
    const thin = exitScore(1000, 5_000, 0.5, 0, 1_000_000);
    expect(big.score).toBeGreaterThan(small.score);
    expect(thin.score).toBeGreaterThan(small.score);
    expect(small.band).toBe('low');
    expect(exitScore(100_000, 10_000, 0.9, 5_000_000, 1_000_000).band).toBe('extreme');
  });
});

describe('provider candles where swaps are sparse', () => {
  it('hours without a swap take the candle table\'s bar; without candles they repeat the previous close', () => {
    const m = new Market().launch();
    m.buy(addr(1), 200);
    const firstHour = m.ts - (m.ts % 3600);
    m.advance(10 * 3600);
    m.buy(addr(2), 200);
    const s = foldTokenEvents(initialTokenState(m.chain, m.token), m.events);
    const candles = Array.from({ length: 9 }, (_, i) => ({ t: firstHour + (i + 1) * 3600, o: 1 + i, h: 1.5 + i, l: 0.9 + i, c: 1.2 + i, v: 10 }));
    const without = deriveTokenSnapshot(s).basis.hourly;
    const withCandles = deriveTokenSnapshot(s, { candles }).basis.hourly;
    const at = (bars: { t: number; c: number }[], t: number) => bars.find((b) => b.t === t)?.c;
    expect(at(withCandles, firstHour + 5 * 3600)).toBe(5.2);
    expect(at(without, firstHour + 5 * 3600)).toBe(at(without, firstHour));
    // an hour with swaps keeps its own bar
    expect(at(withCandles, firstHour)).toBe(at(without, firstHour));
  });

  it('the candle table keeps one bar per hour (a revision replaces it), hourly candles only, 7 days', () => {
    const t = createCandleTable();
    const c = (openTime: number, close: number, interval: '1h' | '5m' = '1h') => ({ type: 'candle' as const, chain: 'ethereum', token: 'x', interval, openTime, open: 1, high: 2, low: 0.5, close, volumeUsd: 5, source: 'geckoterminal' });
    expect(t.apply(c(3600, 1))).toBe(true);
    expect(t.apply(c(3600, 1))).toBe(false);
    expect(t.apply(c(3600, 1.5))).toBe(true);
    expect(t.apply(c(7200, 2, '5m'))).toBe(false);
    expect(t.barsOf('ethereum', 'x').map((b) => b.c)).toEqual([1.5]);
    t.apply(c(3600 + 8 * 86400, 3));
    expect(t.barsOf('ethereum', 'x').map((b) => b.t)).toEqual([3600 + 8 * 86400]);
  });
});
