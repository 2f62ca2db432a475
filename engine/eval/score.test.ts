import { describe, expect, it } from 'vitest';
import { confusion, outOfSample, scoreSignals, scoreWalletClass } from './score.ts';
import type { SignalSample } from './score.ts';
import { summarize } from './summary.ts';
import type { SeedResult } from './score.ts';

describe('eval scoring', () => {
  it('confusion counts a flag against its labels', () => {
    expect(confusion(['a', 'b', 'c', 'd'], (s) => s === 'a' || s === 'b', new Set(['a', 'c']))).toEqual({ tp: 1, fp: 1, fn: 1 });
  });

  it('a wallet class: caught at its final snapshot, hours from its first trade to the check that caught it, never-caught ones missed', () => {
    const seen = { first: new Map([['f1', 0], ['f2', 3600], ['f3', 0]]), caught: new Map([['f1', 7200], ['f2', 3600]]) };
    const c = scoreWalletClass(['f1', 'f2', 'f3', 'x'], (w) => w === 'f1' || w === 'f2' || w === 'x', ['f1', 'f2', 'f3'], seen);
    expect(c).toEqual({ tp: 2, fp: 1, fn: 1, hours: [2, 0], missed: 1 });
  });

  it('out of sample: only the round trips closed after the grade count, grouped by the grade then, beside every trader', () => {
    const mid = new Map([
      ['smart', { grade: 'mirror-worthy', early: true, realisedUsd: 500, costSoldUsd: 1000 }],
      ['dud', { grade: 'watch', early: false, realisedUsd: 0, costSoldUsd: 1000 }],
      ['idle', { grade: 'watch', early: false, realisedUsd: 10, costSoldUsd: 100 }],
    ]);
    const end = new Map([
      ['smart', { realisedUsd: 600, costSoldUsd: 2000 }], // +100 on 1000 after
      ['dud', { realisedUsd: -100, costSoldUsd: 1500 }], // -100 on 500 after
      ['idle', { realisedUsd: 10, costSoldUsd: 100 }], // nothing closed after
      ['late', { realisedUsd: 50, costSoldUsd: 100 }], // first traded after the middle
    ]);
    const o = outOfSample(mid, end);
    expect(o.byGrade).toEqual({ 'mirror-worthy': [10], early: [10], watch: [-20] });
    expect(o.all).toEqual([10, -20, 50]);
  });

  it('AVOID on price and liquidity alone: an emptied pool is a hit even when its last price rose', () => {
    const samples: SignalSample[] = [
      { token: 'rugged', signal: 'AVOID', ts: 0, price: 1, liquidity: 1000 },
      { token: 'fine', signal: 'BUY', ts: 0, price: 1, liquidity: 1000 },
    ];
    const prices = new Map([
      ['rugged', [{ ts: 100, price: 2, liquidity: 5 }]],
      ['fine', [{ ts: 100, price: 1.1, liquidity: 1000 }]],
    ]);
    const s = scoreSignals(samples, prices, 100);
    expect(s.AVOID).toEqual({ n: 1, hits: 1, base: { n: 2, hits: 1 } });
    // the median of two is the upper one: beating it takes more than being it
    expect(s.BUY).toEqual({ n: 1, hits: 0, base: { n: 2, hits: 0 } });
  });

  it('the report prints the wallet classes, the grades out of sample and the closing note', () => {
    const none = { tp: 0, fp: 0, fn: 0 };
    const r: SeedResult = {
      seed: 1,
      events: 10,
      flags: { rug: none, honeypot: none, concentration: none },
      traders: { mirrorWorthy: 0, mirrorWorthyEdge: 0, edgeWallets: 0, edgeRated: 0, botsMirrorWorthy: 0, bots: 0 },
      classes: { sybil: { tp: 4, fp: 0, fn: 0, hours: [20], missed: 0 }, skilled: { tp: 1, fp: 0, fn: 1, hours: [], missed: 1 } },
      outOfSample: { byGrade: { 'mirror-worthy': [5] }, all: [0, 5, -5] },
      signals: { BUY: { n: 0, hits: 0, base: { n: 0, hits: 0 } }, ACCUMULATE: { n: 0, hits: 0, base: { n: 0, hits: 0 } }, HOLD: { n: 0, hits: 0, base: { n: 0, hits: 0 } }, AVOID: { n: 0, hits: 0, base: { n: 0, hits: 0 } } },
      servedMismatches: 0,
      latency: { rug: { minutes: [], missed: 0 }, honeypot: { minutes: [], missed: 0 }, pulledAt: [] },
      byStory: {},
    };
    const text = summarize([r]).lines.join('\n');
    expect(text).toMatch(/class 7, sybil farm.*precision {2}1\.00 \(4\/4\) {2}recall {2}1\.00 \(4\/4\)/);
    expect(text).toMatch(/mirror-worthy +median {2}5\.00 +beat the median trader {2}1\.00 \(n=1\)/);
    expect(text).toMatch(/Cost: 0 extra calls/);
  });
});
