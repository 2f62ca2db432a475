import { describe, expect, it } from 'vitest';
import type { TokenFinal } from '../../schemas/trader.ts';
import type { WalletSnapshot } from '../../schemas/wallet.ts';
import { DAY, HOUR, edgeTrader, remeasured, tokenAddr } from '../../engine/wallet/testkit.ts';
import { copyDecision, copyOverlap, copyPlan, copySimulate } from './copy-whatif.ts';
import type { CopyLimitsInput } from './copy-whatif.ts';

const safe: TokenFinal = { symbol: 'OK', risk: 'low', riskScore: 10, exitRisk: 'low', flags: [], sellable: true };
const honeypot: TokenFinal = { symbol: 'HP', risk: 'high', riskScore: 70, exitRisk: 'extreme', flags: ['honeypot'], sellable: false };
const lastTrade = (s: WalletSnapshot) => Math.max(...(s.positions ?? []).map((p) => p.lastTradeTs));
const limits = (l: Partial<CopyLimitsInput> = {}): CopyLimitsInput => ({ budgetUsd: 1000, maxOpenPositions: 5, stopLossPct: 25, skipRiskAtOrAbove: 'high', ...l });
const heldToken = (s: WalletSnapshot) => (s.positions ?? []).find((p) => p.status === 'open')?.token as string;

describe('copy-decision: stored gates and verdict, and the two moment gates', () => {
  it('mirror-worthy when every gate passes; watch when the leader went quiet or holds flagged tokens; the stored verdict otherwise', () => {
    const s = edgeTrader({ loseEvery: 8 });
    const now = lastTrade(s) + HOUR;
    const d = copyDecision(s, now);
    expect(d.verdict).toBe('mirror-worthy');
    expect(d.gatesPassed).toBe(d.gatesTotal);
    expect(d.gates.slice(0, 6)).toEqual(s.copy.decision.gates);
    const quiet = copyDecision(s, now + 10 * DAY);
    expect(quiet.verdict).toBe('watch');
    expect(quiet.gates.find((g) => g.gate === 'active')?.passed).toBe(false);
    const dq = remeasured(s, { disqualifiers: { bot: false, insider: true, sniper: false, reasons: ['insider: trades a token it deployed'] }, grade: 'avoid' });
    expect(copyDecision(dq, now).verdict).toBe('avoid');
    const thin = edgeTrader({ n: 3 });
    expect(copyDecision(thin, now).verdict).toBe(thin.grade);
  });

  it('the portfolio gate fails when the open book sits in a token that cannot be sold', () => {
    const held = heldToken(edgeTrader({ loseEvery: 8, openLast: true }));
    const s = edgeTrader({ loseEvery: 8, openLast: true, tokenFacts: (t) => (t === held ? honeypot : safe) });
    const d = copyDecision(s, lastTrade(s));
    expect(d.gates.find((g) => g.gate === 'portfolio')?.passed).toBe(false);
    expect(d.verdict).toBe(s.copy.decision.otherwise);
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

  it('warns with the failed gates when the leader is not mirror-worthy now', () => {
    const s = edgeTrader({ loseEvery: 8 });
    const p = copyPlan(s, limits(), () => safe, lastTrade(s) + 10 * DAY);
    expect(p.verdict).toBe('watch');
    expect(p.warnings[0]).toBe('the leader is rated watch: active');
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

  it('skips an unsellable token even under a permissive risk limit, and never shows its open position as a gain', () => {
    const s = edgeTrader({ openLast: true });
    const held = heldToken(s);
    const r = copySimulate(s, limits({ skipRiskAtOrAbove: 'extreme' }), (t) => (t === held ? { ...honeypot, risk: 'low' } : safe));
    const t = r.trades.find((x) => x.token === held);
    expect(t).toMatchObject({ action: 'skipped', reason: 'token risk above the limit', outcome: 'loss', returnPct: -25 });
  });

  it('skips entries while the open-position limit is reached, and frees the slot when a copy closes', () => {
    // four tokens traded in turn over the whole span: their positions overlap in time
    const s = edgeTrader({ n: 16, tokens: 4 });
    const one = copySimulate(s, limits({ maxOpenPositions: 1 }), () => safe);
    expect(one.copied).toBe(1);
    expect(one.skips).toEqual({ 'max open positions reached': 3 });
    // one token at a time: each closes before the next opens, so one slot is enough
    const serial: WalletSnapshot = {
      ...s,
      positions: (s.positions ?? []).map((p, i) => ({ ...p, firstTradeTs: 1_000 * (10 - i), lastTradeTs: 1_000 * (10 - i) + 500 })),
    };
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
    expect(o.asOf).toBe(a.asOf > b.asOf ? a.asOf : b.asOf);
  });
});
