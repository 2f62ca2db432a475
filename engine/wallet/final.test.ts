import type { TokenFinal } from '../../schemas/token.ts';
import { describe, expect, it } from 'vitest';
import { WalletSnapshot } from '../../schemas/wallet.ts';
import { FinalThresholds } from './final.ts';
import { DAY, HOUR, edgeTrader, remeasured } from './testkit.ts';

const BOT = { bot: true, insider: false, sniper: false, reasons: ['bot: 2 trades per block'] };
const lastTrade = (s: WalletSnapshot) => Math.max(...(s.positions ?? []).map((p) => p.lastTradeTs));

describe('wallet snapshot: position summaries and basis', () => {
  it('summarises each token newest first, with derived returns and bands and no prices, and keeps realised sums private', () => {
    const s = WalletSnapshot.parse(edgeTrader({ loseEvery: 8 }));
    expect(s.grade).toBe('mirror-worthy');
    const ps = s.positions ?? [];
    expect(ps).toHaveLength(4);
    expect(ps.map((p) => p.lastTradeTs)).toEqual([...ps.map((p) => p.lastTradeTs)].sort((a, b) => b - a));
    expect(ps.reduce((a, p) => a + p.roundTrips, 0)).toBe(16);
    for (const p of ps) {
      expect(p.status).toBe('closed');
      expect(p.avgHoldSeconds).toBe(6 * HOUR);
      expect(p.hold).toBe('hours');
      expect(p.tooFastToCopy).toBe(false);
      expect(p.realisedReturnPct).toBeGreaterThan(5);
      expect(p.outcome).toBe('gain');
      expect(p.exposureSharePct).toBe(0);
      expect(p.sizeBand).toBe('medium'); // $1000 buys and $1200 sells
    }
    expect(s.basis).toMatchObject({ closed: 16, wins: 14, losses: 2 });
    expect(s.basis?.realisedUsd).toBeGreaterThan(0);
  });

  it('marks the open position with its unrealised return, open cost and its share of the open book', () => {
    const s = edgeTrader({ openLast: true });
    const open = (s.positions ?? []).filter((p) => p.status === 'open');
    expect(open).toHaveLength(1);
    expect(open[0]?.openCostUsd).toBeCloseTo(1000, 0);
    expect(open[0]?.unrealisedReturnPct).toBeGreaterThan(0);
    expect(open[0]?.outcome).toBe('gain');
    expect(open[0]?.exposureSharePct).toBe(100);
    expect(s.portfolio).toMatchObject({ openPositions: 1, concentration: { topPositionSharePct: 100, band: 'concentrated' } });
    // no token-facts table given: the open token counts as unknown (risk score 70), plus the concentration points
    expect(s.portfolio.risk).toEqual({ band: 'extreme', score: 85, flaggedExposurePct: 0 });
    expect(edgeTrader().portfolio).toEqual({ openPositions: 0, concentration: { topPositionSharePct: null, band: 'none' }, risk: { band: 'low', score: 0, flaggedExposurePct: 0 } });
  });
});

describe('wallet snapshot: final scores and verdicts', () => {
  it('trader score is 40% edge, 20% consistency, 20% copyability, 20% PnL quality; the boards rank by stored scores', () => {
    const s = WalletSnapshot.parse(edgeTrader({ loseEvery: 8 }));
    const q = s.pnlQuality.score;
    expect(q).toBeGreaterThan(50);
    expect(s.scores.trader).toBe(Math.round(0.4 * s.edge.score + 0.2 * s.consistency.score + 0.2 * s.copyability.score + 0.2 * q));
    expect(s.scores.copy).toBe(Math.round(0.35 * s.edge.score + 0.35 * s.copyability.score + 0.15 * s.consistency.score + 0.15 * q));
    expect(s.scores.performance).toBe(Math.round(0.5 * s.edge.score + 0.5 * q));
    expect(s.rated).toBe(true);
    expect(s.copy.leader).toBe(true);
    expect(s.pnlQuality.quality).toBe(q >= 75 ? 'excellent' : 'solid');
  });

  it('a disqualified wallet is not rated, not a leader, and its edge verdict is avoid', () => {
    const bot = remeasured(edgeTrader(), { disqualifiers: BOT, grade: 'avoid' });
    expect(bot.rated).toBe(false);
    expect(bot.copy.leader).toBe(false);
    expect(bot.edgeVerdict.verdict).toBe('avoid');
    expect(bot.analysis.weaknesses).toContain('bot: 2 trades per block');
  });

  it('edge verdict: mirror-worthy on a strong, well-sampled edge; unrated without the sample', () => {
    const s = edgeTrader({ loseEvery: 8 });
    expect(s.edgeVerdict).toEqual({ verdict: 'mirror-worthy', confidence: 'moderate' });
    const thin = edgeTrader({ n: 4 });
    expect(thin.grade).toBe('unrated');
    expect(thin.edgeVerdict.verdict).toBe('unrated');
    expect(thin.rated).toBe(false);
  });

  it('strengths and weaknesses name the edge, the profit factor and the history', () => {
    const s = edgeTrader({ loseEvery: 8 });
    expect(s.analysis.strengths[0]).toMatch(/edge over the tokens' own moves/);
    expect(edgeTrader({ n: 4 }).analysis.weaknesses).toContain('too little history for a grade');
  });

  it('tempo and launch timing from the sample', () => {
    const s = edgeTrader();
    // 32 trades over ~12.8 days
    expect(s.tempo).toEqual({ band: 'occasional', tradesPerDay: Math.round((32 / s.sample.daysActive) * 10) / 10 });
    expect(s.launchTiming).toBe('none');
  });
});

describe('wallet snapshot: health by chain time', () => {
  it('one phase per change: active, then quiet after a day, then dormant (and the open position stale) after a week', () => {
    const s = edgeTrader({ openLast: true });
    const last = lastTrade(s);
    expect(s.health.map((p) => [p.afterTs, p.activity, p.staleOpenPositions, p.health])).toEqual([
      [null, 'active', 0, 'healthy'],
      [last + FinalThresholds.quietAfterS, 'quiet', 0, 'healthy'],
      [last + FinalThresholds.staleAfterS, 'dormant', 1, 'caution'],
    ]);
    const dormant = s.health[2];
    expect(dormant?.flags.map((f) => f.flag)).toEqual(['dormant', 'stale-positions']);
    expect(dormant?.score).toBe(100 - 15 - 5);
  });

  it('a red flag makes every phase unhealthy', () => {
    const bad = remeasured(edgeTrader(), { disqualifiers: BOT, grade: 'avoid' });
    for (const p of bad.health) expect(p.health).toBe('unhealthy');
    expect(bad.health[0]?.flags[0]).toEqual({ flag: 'bot', severity: 'red', reason: 'bot: 2 trades per block' });
  });
});

describe('wallet snapshot: the copy decision and plan, wallet side', () => {
  it('six gates, the grade as verdict, watch when a moment gate fails, and the active bound a week after the last trade', () => {
    const s = edgeTrader({ loseEvery: 8 });
    const d = s.copy.decision;
    expect(d.gates.map((g) => g.gate)).toEqual(['history', 'clean', 'edge', 'profitable', 'consistent', 'copyable']);
    expect(d.gates.every((g) => g.passed)).toBe(true);
    expect(d).toMatchObject({ verdict: 'mirror-worthy', otherwise: 'watch', activeUntilTs: lastTrade(s) + 7 * DAY, maxFlaggedExposurePct: 25 });
    const bot = remeasured(s, { disqualifiers: BOT, grade: 'avoid' }).copy.decision;
    expect(bot).toMatchObject({ verdict: 'avoid', otherwise: 'avoid' });
    expect(bot.gates.find((g) => g.gate === 'clean')).toEqual({ gate: 'clean', passed: false, detail: 'bot: 2 trades per block' });
  });

  it("the leader's side of a plan: median entry, size and hold bands, entries per week", () => {
    const p = edgeTrader().copy.plan;
    expect(p.entryUsd).toBeCloseTo(1000, 0);
    expect(p).toMatchObject({ entrySize: 'medium', expectedHold: 'hours', warnings: [] });
    expect(p.entriesPerWeek).toBeGreaterThan(0);
  });
});

describe('the open book joined with the token-facts table', () => {
  const safe: TokenFinal = { symbol: 'OK', risk: 'low', riskScore: 10, exitRisk: 'low', flags: [], sellable: true };
  const rug: TokenFinal = { symbol: 'RUG', risk: 'extreme', riskScore: 95, exitRisk: 'extreme', flags: ['rug'], sellable: false };
  const heldOf = (s: WalletSnapshot) => (s.positions ?? []).find((p) => p.status === 'open')?.token as string;

  it("weights each token's risk score by exposure, adds the concentration points, and counts flagged exposure", () => {
    const held = heldOf(edgeTrader({ openLast: true }));
    expect(edgeTrader({ openLast: true, tokenFacts: (t) => (t === held ? rug : undefined) }).portfolio.risk).toEqual({ band: 'extreme', score: 100, flaggedExposurePct: 100 });
    expect(edgeTrader({ openLast: true, tokenFacts: () => safe }).portfolio.risk).toEqual({ band: 'moderate', score: 10 + 15, flaggedExposurePct: 0 });
    // a token the table does not know counts as high risk
    expect(edgeTrader({ openLast: true }).portfolio.risk).toMatchObject({ score: 85, band: 'extreme' });
    expect(edgeTrader({ tokenFacts: () => safe }).portfolio.risk).toEqual({ band: 'low', score: 0, flaggedExposurePct: 0 });
  });

  it('an open position in a token that cannot be sold is a heavy loss at -100 %, never its marked gain, and fails the portfolio gate', () => {
    const plain = edgeTrader({ openLast: true, tokenFacts: () => safe });
    const held = heldOf(plain);
    expect(plain.positions?.find((p) => p.token === held)).toMatchObject({ outcome: 'gain', sellable: true });
    expect(plain.copy.decision.portfolioClean).toBe(true);
    const trapped = edgeTrader({ openLast: true, tokenFacts: (t) => (t === held ? rug : safe) });
    expect(trapped.positions?.find((p) => p.token === held)).toMatchObject({ outcome: 'heavy-loss', unrealisedReturnPct: -100, sellable: false });
    expect(trapped.copy.decision.portfolioClean).toBe(false);
  });
});
