import { describe, expect, it } from 'vitest';
import {
  ExitRiskResponse,
  TokenChangesResponse,
  TokenHoldersInsightResponse,
  TokenInflectionResponse,
  TokenIntelResponse,
  TokenNarrativeResponse,
  TokenPriceActionResponse,
  TokenRiskResponse,
  TokenSignalResponse,
  TokenSparkResponse,
  TokenValuationResponse,
  SmartMoneyFlowResponse,
} from '../../schemas/token.ts';
import type { TokenSnapshot } from '../../schemas/token.ts';
import { deriveTokenSnapshot } from '../../engine/token/derive.ts';
import { foldTokenEvents, initialTokenState } from '../../engine/token/state.ts';
import { Market, addr, breakout, coilMarket, organicMarket } from '../../engine/token/testkit.ts';
import {
  exitRiskView,
  smartMoneyFlowView,
  tokenChangesView,
  tokenHoldersInsightView,
  tokenInflectionView,
  tokenIntelView,
  tokenNarrativeView,
  tokenPriceActionView,
  tokenRiskView,
  tokenSignalView,
  tokenSparkView,
  tokenValuationView,
} from './token.ts';

// the views are projections of snapshots the engine wrote: build real ones with the engine
const snap = (m: Market): TokenSnapshot => deriveTokenSnapshot(foldTokenEvents(initialTokenState(m.chain, m.token), m.events));
const organicMarketState = organicMarket(100);
const organic = snap(organicMarketState);
const now = organic.asOfTs + 42;

/** raw numbers that must never appear in a response */
function leaks(s: TokenSnapshot, response: unknown): string[] {
  const text = JSON.stringify(response);
  const out: string[] = [];
  if (text.includes('basis') || text.includes('recent')) out.push('basis');
  for (const n of [s.basis.priceUsd, s.basis.liquidityUsd, s.basis.reserveToken, s.basis.quoteReserveUsd]) {
    if (n !== null && text.includes(String(n))) out.push(String(n));
  }
  for (const e of organicMarketState.events) if (e.type === 'swap' && text.includes(e.trader)) out.push(e.trader);
  return out;
}

describe('every view validates against its response schema and leaks no raw data', () => {
  it('all token operations', async () => {
    const responses: Array<[{ parse(x: unknown): unknown }, unknown]> = [
      [TokenIntelResponse, tokenIntelView(organic, { sizeUsd: 2500 }, now)],
      [TokenSignalResponse, tokenSignalView(organic, now)],
      [TokenRiskResponse, tokenRiskView(organic, now)],
      [TokenHoldersInsightResponse, tokenHoldersInsightView(organic, now)],
      [TokenNarrativeResponse, tokenNarrativeView(organic, now)],
      [TokenInflectionResponse, tokenInflectionView(organic, now)],
      [TokenValuationResponse, tokenValuationView(organic, now)],
      [ExitRiskResponse, exitRiskView(organic, { sizeUsd: 5000 }, now)],
      [TokenChangesResponse, tokenChangesView(organic, now)],
      [TokenPriceActionResponse, tokenPriceActionView(organic, { hours: 24, resolution: '1h' }, now)],
      [TokenSparkResponse, tokenSparkView(organic, {}, now)],
      [SmartMoneyFlowResponse, smartMoneyFlowView(organic, 50, now)],
    ];
    for (const [schema, r] of responses) {
      expect(() => schema.parse(r)).not.toThrow();
      expect(r).toMatchObject({ asOf: organic.asOf, ageSeconds: 42, chain: 'sim', token: organic.token });
      expect(leaks(organic, r)).toEqual([]);
    }
  });
});

describe('token-spark', () => {
  it('defaults to 48 hourly points, rebased so the first is 0', () => {
    const r = tokenSparkView(organic, {}, now);
    expect(r.hours).toBe(48);
    expect(r.points).toBe(48);
    expect(r.series).toHaveLength(48);
    expect(r.series[0]).toBe(0);
    expect(r.changePct).toBe(r.series[47]);
    expect(r.available).toBe(true);
  });
  it('a fractional hours (the body allows any number in 6..72) covers the whole hours, and says so as an integer (found by Schemathesis: 71.99999999999999 was echoed)', () => {
    const r = tokenSparkView(organic, { hours: 71.99999999999999 }, now);
    expect(r.hours).toBe(71);
    expect(r.points).toBe(71);
    expect(tokenSparkView(organic, { hours: 6.5 }, now)).toMatchObject({ hours: 6, points: 6 });
  });
  it('never returns more than the engine 72 points', () => {
    expect(tokenSparkView(organic, { hours: 72 }, now).series.length).toBe(72);
    expect(tokenSparkView(organic, { hours: 6 }, now).series.length).toBe(6);
  });
  it('rebases to percent from the first bar of the window', () => {
    const r = tokenSparkView(organic, { hours: 12 }, now);
    const closes = organic.basis.hourly.slice(-12).map((b) => b.c);
    for (const i of [1, 5, 11]) expect(r.series[i]).toBeCloseTo((100 * (closes[i]! - closes[0]!)) / closes[0]!, 1);
  });
  it('is unavailable without trades', () => {
    const m = new Market().launch();
    const r = tokenSparkView(snap(m), {}, now);
    expect(r).toMatchObject({ available: false, points: 0, series: [], changePct: null });
  });
});

describe('exit-risk and token-intel select a rung of the exit ladder', () => {
  it('a bigger size never lowers the exit risk', () => {
    const order = ['low', 'moderate', 'high', 'extreme'];
    const small = exitRiskView(organic, { sizeUsd: 100 }, now);
    const big = exitRiskView(organic, { sizeUsd: 1_000_000 }, now);
    expect(order.indexOf(big.exitRisk)).toBeGreaterThan(order.indexOf(small.exitRisk));
    expect(big.signals.priceImpactPct!).toBeGreaterThan(small.signals.priceImpactPct!);
    expect(tokenIntelView(organic, { sizeUsd: 1_000_000 }, now).entry.exitRisk).toBe(big.exitRisk);
  });
  it('rates a size at the first rung at or above it, and the standard size is the snapshot exit', () => {
    expect(exitRiskView(organic, { sizeUsd: 3000 }, now).signals).toMatchObject({ sizeUsd: 3000, ratedAtUsd: 5000 });
    const std = exitRiskView(organic, {}, now);
    expect(std.signals.sizeUsd).toBe(1000);
    expect(std.exitRisk).toBe(organic.exit.band);
    expect(std.signals.score).toBe(organic.exit.score);
  });
});

describe('token-price-action', () => {
  it('serves the engine window at or above the hours asked for', () => {
    expect(tokenPriceActionView(organic, { hours: 24, resolution: '1h' }, now).bars).toBe(24);
    expect(tokenPriceActionView(organic, { hours: 24, resolution: '4h' }, now).bars).toBeLessThanOrEqual(7);
    expect(tokenPriceActionView(organic, { hours: 2, resolution: '5m' }, now).bars).toBe(24);
    expect(tokenPriceActionView(organic, { hours: 3, resolution: '15m' }, now).bars).toBe(12);
    const r = tokenPriceActionView(organic, { hours: 30, resolution: '1h' }, now);
    expect(r).toMatchObject({ hours: 48, requestedHours: 30, bars: 48 });
    const wide = tokenPriceActionView(organic, { hours: 999, resolution: '4h' }, now);
    expect(wide.hours).toBe(168);
    expect(wide.resolution).toBe('4h');
    expect(wide.summary).not.toMatch(/\d/);
  });
  it('reads a breakout above the range', () => {
    const m = breakout(coilMarket());
    const r = tokenPriceActionView(snap(m), { hours: 12, resolution: '1h' }, now);
    expect(r.breakout).toBe('above-range');
    expect(r.trend).toBe('up');
    expect(r.distanceFromHigh).toBeLessThan(5);
    expect(r.priceMomentum).toBeGreaterThan(50);
  });
});

describe('holders insight', () => {
  it('serves the engine holder verdict: a healthy distributed base above a concentrated one', () => {
    expect(tokenHoldersInsightView(organic, now).verdict).toBe('mirror-worthy');
    const m = new Market().launch(100_000, 0.3);
    for (let i = 0; i < 30; i++) m.advance(300).buy(addr(60_000 + i), 300);
    expect(tokenHoldersInsightView(snap(m), now).verdict).toBe('avoid');
  });
});
