import { describe, expect, it } from 'vitest';
import type { TrackRecord } from '../../schemas/trackrecord.ts';
import type { TokenPriceView } from './score.ts';
import {
  chainBenchmarkPct,
  claimOf,
  initialScores,
  median,
  pendingHorizons,
  priceAt,
  resolvedCount,
  scoreTokenHorizon,
  scoreTraderHorizon,
  summarize,
} from './score.ts';

const H = 3600;
const T = 1_800_000_000 - (1_800_000_000 % H); // an hour start

/** A token whose hourly close moves by `stepPct` percent every hour from 1.0, over 48 hours. */
function token(name: string, stepPct: number, opts: { liquidityUsd?: number; hours?: number } = {}): TokenPriceView {
  const hours = opts.hours ?? 48;
  const hourly = Array.from({ length: hours }, (_, i) => ({ t: T + i * H, c: (1 + stepPct / 100) ** i }));
  const last = hourly[hourly.length - 1] as { t: number; c: number };
  return { token: name, asOfTs: last.t + 1800, createdTs: T, priceUsd: last.c, hourly, liquidityUsd: opts.liquidityUsd ?? 100_000 };
}

function tokenRecord(value: string, refPrice = 1, refLiquidityUsd = 100_000): TrackRecord {
  return {
    key: `tokenSignal:sim:up:${T / H}`,
    operation: 'tokenSignal',
    kind: 'token',
    chain: 'sim',
    subject: 'up',
    symbol: 'UP',
    value,
    refTs: T,
    refPrice,
    refLiquidityUsd,
    refRealisedUsd: null,
    refCostSoldUsd: null,
    refClosed: null,
    scores: initialScores('token', value),
  };
}

describe('prices at a time', () => {
  it('takes the close of the hour containing t, the last price after the last event, null before the first bar', () => {
    const v = token('up', 10);
    expect(priceAt(v, T + 30 * 60)).toBe(1);
    expect(priceAt(v, T + H)).toBeCloseTo(1.1, 10);
    expect(priceAt(v, T + 100 * H)).toBe(v.priceUsd);
    expect(priceAt(v, T - 1)).toBeNull();
    expect(priceAt(v, T - 1800, 3600)).toBe(1);
  });

  it('at +7d the benchmark still finds start prices just before the 7-day bar window', () => {
    // bars start 30 minutes after the record: within the tolerance
    const chain = [token('a', 0), token('b', 1), token('c', 2)].map((v) => ({ ...v, createdTs: T - 30 * 86400 }));
    expect(chainBenchmarkPct(chain, T - 1800, T + 24 * H)).toBeCloseTo((1.01 ** 24 - 1) * 100, 1);
    expect(chainBenchmarkPct(chain, T - 3 * H, T + 24 * H)).toBeNull();
  });

  it('benchmark: the median forward return of the chain tokens priced at both ends', () => {
    const chain = [token('a', 0), token('b', 1), token('c', 2), { ...token('late', 5), createdTs: T + 10 * H }];
    // +1h: 0%, 1%, 2% → median 1%; the token created later is left out
    expect(chainBenchmarkPct(chain, T, T + H)).toBe(1);
    expect(median([3, 1, 2, 4])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe('token records', () => {
  const chain = [token('flat', 0), token('up', 2), token('down', -2), token('mild', 0.5)];
  const up = chain[1] as TokenPriceView;
  const down = chain[2] as TokenPriceView;

  it('stay pending until chain time reaches the horizon', () => {
    expect(scoreTokenHorizon(tokenRecord('BUY'), '24h', up, chain, T + 23 * H).outcome).toBe('pending');
  });

  it('BUY hits when it beats the chain median and misses otherwise (misses are kept)', () => {
    const hit = scoreTokenHorizon(tokenRecord('BUY'), '24h', up, chain, T + 30 * H);
    expect(hit.outcome).toBe('hit');
    expect(hit.forwardReturnPct).toBeCloseTo((1.02 ** 24 - 1) * 100, 1);
    expect(hit.benchmarkPct).toBeGreaterThan(0);
    const miss = scoreTokenHorizon(tokenRecord('ACCUMULATE'), '24h', down, chain, T + 30 * H);
    expect(miss.outcome).toBe('miss');
    expect(miss.forwardReturnPct).toBeLessThan(0);
  });

  it('AVOID hits when the token falls or half its liquidity left, on prices and liquidity alone', () => {
    expect(scoreTokenHorizon(tokenRecord('AVOID'), '1h', down, chain, T + 2 * H).outcome).toBe('hit');
    expect(scoreTokenHorizon(tokenRecord('AVOID'), '1h', up, chain, T + 2 * H).outcome).toBe('miss');
    const drained = { ...up, liquidityUsd: 40_000 };
    expect(scoreTokenHorizon(tokenRecord('avoid'), '1h', drained, chain, T + 2 * H)).toMatchObject({ outcome: 'hit', note: 'liquidity left', liquidityChangePct: -60 });
    // a third of the liquidity gone while the price rose is no fall: the call missed
    expect(scoreTokenHorizon(tokenRecord('avoid'), '1h', { ...up, liquidityUsd: 66_000 }, chain, T + 2 * H).outcome).toBe('miss');
    // an older record without its reference liquidity is scored on its price alone
    expect(scoreTokenHorizon({ ...tokenRecord('avoid'), refLiquidityUsd: undefined }, '1h', drained, chain, T + 2 * H).outcome).toBe('miss');
  });

  it('HOLD and watch make no claim: unscored, with their forward return measured; no price: void', () => {
    expect(initialScores('token', 'HOLD')['1h'].outcome).toBe('pending');
    expect(scoreTokenHorizon(tokenRecord('HOLD'), '1h', up, chain, T + 2 * H)).toMatchObject({ outcome: 'unscored', forwardReturnPct: 2 });
    expect(scoreTokenHorizon(tokenRecord('HOLD'), '1h', undefined, chain, T + 2 * H).outcome).toBe('unscored');
    expect(scoreTokenHorizon(tokenRecord('watch'), '1h', up, chain, T + 2 * H).outcome).toBe('unscored');
    expect(scoreTokenHorizon(tokenRecord('BUY'), '1h', undefined, chain, T + 2 * H).outcome).toBe('void');
    expect(claimOf('token', 'BUY')).toBe('outperform');
    expect(claimOf('trader', 'watch')).toBeNull();
  });
});

describe('trader records', () => {
  const rec = { value: 'mirror-worthy', refTs: T, refRealisedUsd: 100, refCostSoldUsd: 1000, refClosed: 10 };
  it('mirror-worthy hits when the round trips closed after the grade were profitable, misses when not, void without any', () => {
    const later = (realisedUsd: number, costSoldUsd: number, closed: number) => ({ measuredTs: T + 20 * H, realisedUsd, costSoldUsd, closed });
    const hit = scoreTraderHorizon(rec, '24h', later(150, 1500, 12), T + 25 * H);
    expect(hit).toMatchObject({ outcome: 'hit', forwardReturnPct: 10 });
    expect(scoreTraderHorizon(rec, '24h', later(80, 1500, 12), T + 25 * H)).toMatchObject({ outcome: 'miss', forwardReturnPct: -4 });
    expect(scoreTraderHorizon(rec, '24h', later(100, 1000, 10), T + 25 * H).outcome).toBe('void');
    expect(scoreTraderHorizon({ ...rec, value: 'avoid' }, '24h', later(80, 1500, 12), T + 25 * H).outcome).toBe('hit');
    expect(scoreTraderHorizon(rec, '24h', later(150, 1500, 12), T + 23 * H).outcome).toBe('pending');
  });
});

describe('summaries', () => {
  it('count hits, misses, pending, void and unscored per value and horizon, with hit rates over scored records only', () => {
    const chain = [token('flat', 0), token('up', 2), token('down', -2)];
    const recs: TrackRecord[] = [];
    for (const [subject, value] of [['up', 'BUY'], ['down', 'BUY'], ['down', 'AVOID'], ['up', 'HOLD']] as const) {
      const r = { ...tokenRecord(value), subject, key: `tokenSignal:sim:${subject}:${value}` };
      for (const h of pendingHorizons(r)) r.scores[h] = scoreTokenHorizon(r, h, chain.find((c) => c.token === subject), chain, T + 30 * H);
      recs.push(r);
    }
    expect(resolvedCount(recs[0] as TrackRecord)).toBe(2);
    const s = summarize(recs, { examples: 3 });
    const buy = s.groups.find((g) => g.value === 'BUY');
    expect(buy?.horizons['1h']).toEqual({ n: 2, hits: 1, misses: 1, pending: 0, void: 0, unscored: 0, hitRatePct: 50 });
    expect(buy?.horizons['7d']).toMatchObject({ n: 2, pending: 2, hitRatePct: null });
    expect(s.groups.find((g) => g.value === 'HOLD')?.horizons['24h']).toMatchObject({ n: 1, unscored: 1, hitRatePct: null });
    expect(s.overall['24h']).toMatchObject({ n: 4, hits: 2, misses: 1, unscored: 1 });
    expect(s.recent).toHaveLength(3);
    // the base rates: every token record measured at +1h, the claim's rule applied to each
    expect(buy?.baseRates['1h']).toMatchObject({ n: 4, hitRatePct: 50 });
    expect(s.groups.find((g) => g.value === 'AVOID')?.baseRates['1h']).toMatchObject({ n: 4, hitRatePct: 50, valueMedianReturnPct: -2 });
    expect(s.groups.find((g) => g.value === 'HOLD')?.baseRates['1h']).toMatchObject({ n: 0, hitRatePct: null });
    expect(s.recent.every((e) => 'token' in e && (e.outcome === 'hit' || e.outcome === 'miss'))).toBe(true);
  });
});
