import { describe, expect, it } from 'vitest';
import { copyDecision, copyOverlap, copyPlan, copySimulate } from './copy.ts';
import type { CopyLimitsInput } from './copy.ts';
import { DAY, HOUR, edgeTrader, tokenAddr, withFields } from './testkit.ts';
import type { TokenInfo } from './views.ts';

const safe: TokenInfo = { symbol: 'OK', risk: 'low', riskScore: 10, exitRisk: 'low', flags: [] };
const lastTrade = (s: ReturnType<typeof edgeTrader>) => Math.max(...(s.positions ?? []).map((p) => p.lastTradeTs));
const limits = (l: Partial<CopyLimitsInput> = {}): CopyLimitsInput => ({ budgetUsd: 1000, maxOpenPositions: 5, stopLossPct: 25, skipRiskAtOrAbove: 'high', ...l });

describe('copy-decision gates', () => {
  it('mirror-worthy when every gate passes; watch when the leader went quiet; avoid with a disqualifier; unrated without history', () => {
    const s = edgeTrader({ loseEvery: 8 });
    const now = lastTrade(s) + HOUR;
    const d = copyDecision(s, () => safe, now);
    expect(d.verdict).toBe('mirror-worthy');
    expect(d.gatesPassed).toBe(d.gatesTotal);
    const quiet = copyDecision(s, () => safe, now + 10 * DAY);
    expect(quiet.verdict).toBe('watch');
    expect(quiet.gates.find((g) => g.gate === 'active')?.passed).toBe(false);
    const dq = withFields(s, { disqualifiers: { bot: false, insider: true, sniper: false, reasons: ['insider: trades a token it deployed'] } });
    expect(copyDecision(dq, () => safe, now).verdict).toBe('avoid');
    expect(copyDecision(edgeTrader({ n: 3 }), () => safe, now).verdict).toBe('unrated');
  });
});

describe('copy-plan sizing', () => {
  it('splits the budget over the open positions, capped per trade, scaled down to a smaller leader', () => {
    const s = edgeTrader();
    const p = copyPlan(s, limits({ budgetUsd: 10_000, maxOpenPositions: 4, maxPerTradeUsd: 2000 }), () => safe, lastTrade(s));
    // the leader enters with about $1000: copies are scaled to it
    expect(p.plan.copyRatio).toBe('scaled');
    expect(p.plan.perTradeUsd).toBeCloseTo(1000, 0);
    expect(p.limits.perTradeUsd).toBe(2000);
    const small = copyPlan(s, limits({ budgetUsd: 2000, maxOpenPositions: 4 }), () => safe, lastTrade(s));
    expect(small.plan).toMatchObject({ copyRatio: 'fixed', perTradeUsd: 500, capitalAtRiskPct: 25, expectedHold: 'hours', leaderSize: 'medium' });
  });
});

describe('copy-simulate replay', () => {
  it('copies, skips with reasons, floors returns at the stop loss and bands the outcome', () => {
    const s = edgeTrader({ tokens: 4, loseEvery: 8 });
    const all = copySimulate(s, limits(), () => safe);
    expect(all.copied).toBe(4);
    expect(all.outcome.band).toBe('gain');
    expect(all.outcome.hitRatePct).toBe(100);
    const risky = copySimulate(s, limits(), (t) => (t === tokenAddr(1) ? { ...safe, risk: 'high' } : safe));
    expect(risky.skips).toEqual({ 'token risk above the limit': 1 });
    expect(risky.trades.find((t) => t.token === tokenAddr(1))).toMatchObject({ action: 'skipped', copySizeUsd: 0 });
    const tight = copySimulate(s, limits({ stopLossPct: 1 }), () => safe);
    for (const t of tight.trades) if (t.returnPct !== null) expect(t.returnPct).toBeGreaterThanOrEqual(-1);
  });

  it('skips entries while the open-position limit is reached, and frees the slot when a copy closes', () => {
    // four tokens traded in turn over the whole span: their positions overlap in time
    const s = edgeTrader({ n: 16, tokens: 4 });
    const one = copySimulate(s, limits({ maxOpenPositions: 1 }), () => safe);
    expect(one.copied).toBe(1);
    expect(one.skips).toEqual({ 'max open positions reached': 3 });
    // one token at a time: each closes before the next opens, so one slot is enough
    const serial = withFields(s, {
      positions: (s.positions ?? []).map((p, i) => ({ ...p, firstTradeTs: 1_000 * (10 - i), lastTradeTs: 1_000 * (10 - i) + 500 })),
    });
    const r = copySimulate(serial, limits({ maxOpenPositions: 1 }), () => safe);
    expect(r.copied).toBe(4);
    expect(r.skipped).toBe(0);
  });
});

describe('copy-overlap', () => {
  it('measures shared tokens pairwise (Jaccard) and overall', () => {
    const a = edgeTrader({ wallet: '0x' + '0a'.repeat(20), tokens: 4 });
    const b = edgeTrader({ wallet: '0x' + '0b'.repeat(20), tokens: 2 });
    const snaps = new Map([a, b].map((s) => [s.wallet, s]));
    const unknown = '0x' + '0c'.repeat(20);
    const o = copyOverlap([a.wallet, b.wallet, unknown], (w) => snaps.get(w), 'sim', () => safe);
    expect(o.pairs[0]).toEqual({ wallets: [a.wallet, b.wallet], sharedTokens: 2, jaccardPct: 50 });
    expect(o.overlapPct).toBe(50);
    expect(o.overlap).toBe('high');
    expect(o.leaders.find((l) => l.wallet === unknown)).toEqual({ wallet: unknown, grade: null, tokens: 0, known: false });
    expect(o.shared.map((x) => x.leaders)).toEqual([2, 2]);
    expect(o.shared[0]?.chain).toBe('sim');
  });
});
