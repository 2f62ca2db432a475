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
} from '../../schemas/token.ts';
import type { TokenSnapshot } from '../../schemas/token.ts';
import { createTemplateWriter } from '../writer/index.ts';
import { deriveTokenSnapshot } from './derive.ts';
import { foldTokenEvents, initialTokenState } from './state.ts';
import { Market, addr, breakout, coilMarket, organicMarket } from './testkit.ts';
import {
  barsFor,
  exitRiskView,
  tokenChanges,
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
} from './views.ts';

const snap = (m: Market): TokenSnapshot => deriveTokenSnapshot(foldTokenEvents(initialTokenState(m.chain, m.token), m.events));
const organic = snap(organicMarket(100));
const ctx = { now: organic.asOfTs + 42, writer: createTemplateWriter() };

/** raw numbers that must never appear in a response */
function leaks(s: TokenSnapshot, response: unknown): string[] {
  const text = JSON.stringify(response);
  const out: string[] = [];
  if (text.includes('basis') || text.includes('recentBuyers')) out.push('basis');
  for (const n of [s.basis.priceUsd, s.basis.liquidityUsd, s.basis.reserveToken, s.basis.quoteReserveUsd]) {
    if (n !== null && text.includes(String(n))) out.push(String(n));
  }
  for (const b of s.basis.recentBuyers) if (text.includes(b.wallet)) out.push(b.wallet);
  return out;
}

describe('every view validates against its response schema and leaks no raw data', () => {
  it('all token operations', async () => {
    const responses: Array<[{ parse(x: unknown): unknown }, unknown]> = [
      [TokenIntelResponse, tokenIntelView(organic, { sizeUsd: 2500 }, ctx)],
      [TokenSignalResponse, await tokenSignalView(organic, {}, ctx)],
      [TokenRiskResponse, tokenRiskView(organic, {}, ctx)],
      [TokenHoldersInsightResponse, tokenHoldersInsightView(organic, {}, ctx)],
      [TokenNarrativeResponse, await tokenNarrativeView(organic, {}, ctx)],
      [TokenInflectionResponse, tokenInflectionView(organic, {}, ctx)],
      [TokenValuationResponse, tokenValuationView(organic, {}, ctx)],
      [ExitRiskResponse, exitRiskView(organic, { sizeUsd: 5000 }, ctx)],
      [TokenChangesResponse, await tokenChangesView(organic, organic, ctx)],
      [TokenPriceActionResponse, await tokenPriceActionView(organic, { hours: 24, resolution: '1h' }, ctx)],
      [TokenSparkResponse, tokenSparkView(organic, {}, ctx)],
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
    const r = tokenSparkView(organic, {}, ctx);
    expect(r.hours).toBe(48);
    expect(r.points).toBe(48);
    expect(r.series).toHaveLength(48);
    expect(r.series[0]).toBe(0);
    expect(r.changePct).toBe(r.series[47]);
    expect(r.available).toBe(true);
  });
  it('clamps hours to 6..72 and never returns more than 72 points', () => {
    expect(tokenSparkView(organic, { hours: 500 }, ctx).series.length).toBe(72);
    expect(tokenSparkView(organic, { hours: 500 }, ctx).hours).toBe(72);
    expect(tokenSparkView(organic, { hours: 1 }, ctx).series.length).toBe(6);
  });
  it('rebases to percent from the first bar', () => {
    const r = tokenSparkView(organic, { hours: 12 }, ctx);
    const closes = organic.basis.hourly.slice(-12).map((b) => b.c);
    expect(r.series[5]).toBeCloseTo((100 * (closes[5]! - closes[0]!)) / closes[0]!, 1);
  });
  it('is unavailable without trades', () => {
    const m = new Market().launch();
    const r = tokenSparkView(snap(m), {}, ctx);
    expect(r).toMatchObject({ available: false, points: 0, series: [], changePct: null });
  });
});

describe('exit-risk and token-intel take a size', () => {
  it('a bigger size never lowers the exit risk', () => {
    const order = ['low', 'moderate', 'high', 'extreme'];
    const small = exitRiskView(organic, { sizeUsd: 100 }, ctx);
    const big = exitRiskView(organic, { sizeUsd: 1_000_000 }, ctx);
    expect(order.indexOf(big.exitRisk)).toBeGreaterThan(order.indexOf(small.exitRisk));
    expect(big.signals.priceImpactPct!).toBeGreaterThan(small.signals.priceImpactPct!);
    expect(tokenIntelView(organic, { sizeUsd: 1_000_000 }, ctx).entry.exitRisk).toBe(big.exitRisk);
  });
  it('falls back to the standard size', () => {
    expect(exitRiskView(organic, {}, ctx).signals.sizeUsd).toBe(1000);
    expect(exitRiskView(organic, { sizeUsd: -5 }, ctx).signals.sizeUsd).toBe(1000);
  });
});

describe('token-price-action', () => {
  it('honours resolution and hours', async () => {
    expect(barsFor(organic, 24, '1h')).toHaveLength(24);
    expect(barsFor(organic, 24, '4h').length).toBeLessThanOrEqual(7);
    expect(barsFor(organic, 2, '5m')).toHaveLength(24);
    expect(barsFor(organic, 3, '15m')).toHaveLength(12);
    const r = await tokenPriceActionView(organic, { hours: 999, resolution: '4h' }, ctx);
    expect(r.hours).toBe(168);
    expect(r.resolution).toBe('4h');
    expect(r.summary).not.toMatch(/\d/);
  });
  it('reads a breakout above the range', async () => {
    const m = breakout(coilMarket());
    const r = await tokenPriceActionView(snap(m), { hours: 12, resolution: '1h' }, ctx);
    expect(r.breakout).toBe('above-range');
    expect(r.trend).toBe('up');
    expect(r.distanceFromHigh).toBeLessThan(5);
    expect(r.priceMomentum).toBeGreaterThan(50);
  });
});

describe('token-changes', () => {
  it('lists deltas including a price break and writes a headline', async () => {
    const m = organicMarket(6);
    const before = snap(m);
    m.advance(60).removeLiquidity(m.deployer, 0.9);
    for (let i = 0; i < 5; i++) m.advance(30).sell(addr(10_000 + i), 1500);
    const after = snap(m);
    const changes = tokenChanges(before, after);
    const byMetric = Object.fromEntries(changes.map((c) => [c.metric, c]));
    expect(byMetric['flags.rug']).toMatchObject({ from: 'none', to: 'red', severity: 'critical' });
    expect(byMetric['signal']).toMatchObject({ to: 'AVOID', severity: 'critical' });
    expect(byMetric['priceBreak']).toMatchObject({ to: 'below-24h-low' });
    const r = await tokenChangesView(before, after, ctx);
    expect(r.since).toBe(before.asOf);
    expect(r.current.signal).toBe('AVOID');
    expect(r.headline.length).toBeGreaterThan(10);
  });
  it('has no changes without a prior snapshot or between equal snapshots', () => {
    expect(tokenChanges(null, organic)).toEqual([]);
    expect(tokenChanges(organic, organic)).toEqual([]);
  });
});

describe('holders insight', () => {
  it('grades a healthy distributed base above a concentrated one', () => {
    expect(tokenHoldersInsightView(organic, {}, ctx).verdict).toBe('mirror-worthy');
    const m = new Market().launch(100_000, 0.3);
    for (let i = 0; i < 30; i++) m.advance(300).buy(addr(60_000 + i), 300);
    expect(tokenHoldersInsightView(snap(m), {}, ctx).verdict).toBe('avoid');
  });
});
