import { describe, expect, it } from 'vitest';
import type { AgentLimits } from '../../schemas/agents.ts';
import { applyDecision, applyFailure, applyFill, closeUnits, decideCopy, emptyBook, impactBps, utcDay } from './decide.ts';
import type { AgentBook, CopyAgent, CopyGates, LeaderTrade } from './decide.ts';

const T0 = 1_800_000_000;
const TOKEN = '0x00000000000000000000000000000000000000aa';
const OTHER = '0x00000000000000000000000000000000000000bb';
const limits = (l: Partial<AgentLimits> = {}): AgentLimits => ({
  maxNotionalUsd: 100,
  dailyCapUsd: 250,
  maxOpenPositions: 2,
  maxSlippageBps: 100,
  minLeaderGrade: 'watch',
  expiresAt: T0 + 86_400,
  ...l,
});
const agent = (a: Partial<CopyAgent> = {}): CopyAgent => ({ mode: 'live', state: 'active', limits: limits(), createdAt: (T0 - 60) * 1000, ...a });
const trade = (t: Partial<LeaderTrade> = {}): LeaderTrade => ({
  id: `sim:0x1:${Math.random()}`,
  tx: '0x1',
  chain: 'sim',
  token: TOKEN,
  side: 'buy',
  usd: 80,
  timestamp: T0,
  liquidityUsd: 1_000_000,
  ...t,
});
const safe: CopyGates = { token: { risk: 'low', exitRisk: 'low', flags: [], sellable: true }, leaderGrade: 'mirror-worthy' };
const book = (): AgentBook => emptyBook(utcDay(T0));

describe('copy decisions', () => {
  it('a leader buy within every limit is planned at the leader size, capped per trade', () => {
    expect(decideCopy(agent(), trade(), safe, book(), T0 + 5)).toMatchObject({ status: 'planned', notionalUsd: 80 });
    expect(decideCopy(agent(), trade({ usd: 5000 }), safe, book(), T0 + 5)).toMatchObject({ status: 'planned', notionalUsd: 100 });
  });

  it('daily cap: once the day is spent the next buy is skipped with the reason, and a new UTC day starts afresh', () => {
    let b = book();
    const reasons: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      const t = trade({ usd: 100, token: i % 2 ? TOKEN : OTHER, timestamp: T0 + i });
      const d = decideCopy(agent({ limits: limits({ maxOpenPositions: 10 }) }), t, safe, b, T0 + 10);
      reasons.push(d.reason);
      b = applyDecision(b, t, d);
    }
    expect(reasons).toEqual([null, null, 'daily_cap', 'daily_cap']);
    expect(b.spentUsd).toBe(200);
    const tomorrow = trade({ usd: 100, timestamp: T0 + 86_400 / 2 });
    expect(decideCopy(agent({ limits: limits({ maxOpenPositions: 10, expiresAt: T0 + 10 * 86_400 }) }), { ...tomorrow, timestamp: T0 + 86_400 }, safe, b, T0 + 86_400 + 1).status).toBe('planned');
  });

  it('the engine gates come before the limits: leader grade, flags, risk and exit risk', () => {
    expect(decideCopy(agent(), trade(), { ...safe, leaderGrade: 'avoid' }, book(), T0).reason).toBe('leader_grade');
    expect(decideCopy(agent(), trade(), { ...safe, leaderGrade: undefined }, book(), T0).reason).toBe('leader_grade');
    expect(decideCopy(agent(), trade(), { ...safe, token: undefined }, book(), T0).reason).toBe('token_unknown');
    expect(decideCopy(agent(), trade(), { ...safe, token: { risk: 'low', exitRisk: 'low', flags: ['honeypot'], sellable: false } }, book(), T0).reason).toBe('token_risk');
    expect(decideCopy(agent(), trade(), { ...safe, token: { risk: 'high', exitRisk: 'low', flags: [], sellable: true } }, book(), T0).reason).toBe('token_risk');
    expect(decideCopy(agent(), trade(), { ...safe, token: { risk: 'moderate', exitRisk: 'extreme', flags: [], sellable: true } }, book(), T0).reason).toBe('exit_risk');
  });

  it('allow and deny lists, open positions and slippage against the pool depth', () => {
    expect(decideCopy(agent({ limits: limits({ deny: [TOKEN] }) }), trade(), safe, book(), T0).reason).toBe('token_denied');
    expect(decideCopy(agent({ limits: limits({ allow: [OTHER] }) }), trade(), safe, book(), T0).reason).toBe('token_not_allowed');
    const full: AgentBook = { ...book(), open: { [OTHER]: { usd: 10, since: T0 }, '0xcc': { usd: 10, since: T0 } } };
    expect(decideCopy(agent(), trade(), safe, full, T0).reason).toBe('max_open_positions');
    // adding to a held position is not a new position
    expect(decideCopy(agent(), trade({ token: OTHER }), safe, full, T0).status).toBe('planned');
    // $80 into a $10,000 pool moves it ~159 bps
    expect(impactBps(80, 10_000)).toBeCloseTo(157.5, 0);
    expect(decideCopy(agent(), trade({ liquidityUsd: 10_000 }), safe, book(), T0).reason).toBe('slippage');
  });

  it('a sell closes a held position whatever the gates say, and is skipped without one', () => {
    const sell = trade({ side: 'sell', usd: 500 });
    expect(decideCopy(agent(), sell, safe, book(), T0).reason).toBe('no_position');
    const held: AgentBook = { ...book(), open: { [TOKEN]: { usd: 80, since: T0 } } };
    const flagged: CopyGates = { token: { risk: 'extreme', exitRisk: 'extreme', flags: ['rug'], sellable: false }, leaderGrade: 'avoid' };
    const d = decideCopy(agent(), sell, flagged, held, T0);
    expect(d).toMatchObject({ status: 'planned', notionalUsd: 80 });
    expect(applyDecision(held, sell, d).open).toEqual({});
  });

  it('the agent state: paused, pending, revoked and expired agents never plan; old trades are stale', () => {
    for (const state of ['paused', 'pending', 'revoked', 'expired'] as const) expect(decideCopy(agent({ state }), trade(), safe, book(), T0).reason).toBe('agent_inactive');
    expect(decideCopy(agent({ limits: limits({ expiresAt: T0 }) }), trade(), safe, book(), T0).reason).toBe('agent_expired');
    expect(decideCopy(agent(), trade(), safe, book(), T0 + 3600).reason).toBe('stale_trade');
  });

  it('paper mode: the same decision, recorded as skipped/paper with its notional, and it fills the paper book', () => {
    const paper = agent({ mode: 'paper' });
    const t = trade();
    const d = decideCopy(paper, t, safe, book(), T0);
    expect(d).toMatchObject({ status: 'skipped', reason: 'paper', notionalUsd: 80 });
    expect(applyDecision(book(), t, d)).toMatchObject({ spentUsd: 80, open: { [TOKEN]: { usd: 80 } } });
    // a gate still says why, not paper
    expect(decideCopy(paper, t, { ...safe, leaderGrade: 'avoid' }, book(), T0).reason).toBe('leader_grade');
  });

  it('a failed live buy gives its spend back and drops the position it opened', () => {
    const t = trade();
    const d = decideCopy(agent(), t, safe, book(), T0);
    const after = applyDecision(book(), t, d);
    expect(applyFailure(after, { token: TOKEN, side: 'buy', notionalUsd: 80, tradeAt: T0 })).toEqual(book());
  });

  it("a close sells its share of the units the copies brought, never the user's other holding: fills add units, a partial close takes its share, a failed close puts it back", () => {
    const buy = trade();
    let b = applyDecision(book(), buy, decideCopy(agent(), buy, safe, book(), T0));
    expect(b.open[TOKEN]?.units).toBe('0');
    b = applyFill(b, TOKEN, '1000');
    const more = trade({ timestamp: T0 + 1 });
    b = applyDecision(b, more, decideCopy(agent(), more, safe, b, T0 + 1));
    b = applyFill(b, TOKEN, '500');
    expect(b.open[TOKEN]?.units).toBe('1500');
    // the leader sells 40 % of its position: the close sells 40 % of the copy's 1500
    const part = trade({ side: 'sell', fraction: 0.4, timestamp: T0 + 2 });
    expect(closeUnits(b.open[TOKEN], 0.4)).toBe('600');
    const c = decideCopy(agent(), part, safe, b, T0 + 2);
    const afterClose = applyDecision(b, part, c);
    expect(afterClose.open[TOKEN]?.units).toBe('900');
    // the close failed: its 600 units are the position's again
    const back = applyFailure(afterClose, { token: TOKEN, side: 'sell', notionalUsd: c.notionalUsd, tradeAt: T0 + 2 }, { usd: c.notionalUsd, since: T0, units: '600' });
    expect(back.open[TOKEN]?.units).toBe('1500');
    expect(back.open[TOKEN]?.usd).toBeCloseTo(160, 9);
    // a full close sells every counted unit; a fill arriving after it adds to no position
    expect(closeUnits(afterClose.open[TOKEN], 1)).toBe('900');
    const all = trade({ side: 'sell', timestamp: T0 + 3 });
    const closed = applyDecision(afterClose, all, decideCopy(agent(), all, safe, afterClose, T0 + 3));
    expect(closed.open).toEqual({});
    expect(applyFill(closed, TOKEN, '77')).toEqual(closed);
    // a position from before units were counted stays uncounted (its close sells a share of the balance)
    const legacy: AgentBook = { ...book(), open: { [TOKEN]: { usd: 80, since: T0 } } };
    expect(closeUnits(legacy.open[TOKEN], 1)).toBeUndefined();
    expect(applyDecision(legacy, more, decideCopy(agent(), more, safe, legacy, T0 + 1)).open[TOKEN]?.units).toBeUndefined();
  });

  it('perpetuals: an entry passes without token facts (the venue lists the coin) but not below the leader grade; a partial exit closes the same share, a failed one puts it back', () => {
    const perp = (t: Partial<LeaderTrade>) => trade({ chain: 'hyperliquid', token: 'ETH', liquidityUsd: null, instrument: 'perp', ...t });
    const noFacts: CopyGates = { token: undefined, leaderGrade: 'watch' };
    const open = perp({ action: 'open', side: 'sell', usd: 300 });
    const d = decideCopy(agent(), open, noFacts, book(), T0 + 5);
    expect(d).toMatchObject({ status: 'planned', notionalUsd: 100 });
    expect(decideCopy(agent(), open, { token: undefined, leaderGrade: 'avoid' }, book(), T0 + 5)).toMatchObject({ status: 'skipped', reason: 'leader_grade' });
    expect(decideCopy(agent({ limits: limits({ deny: ['ETH'] }) }), open, noFacts, book(), T0 + 5)).toMatchObject({ status: 'skipped', reason: 'token_denied' });
    let b = applyDecision(book(), open, d);
    // a short's exit is a buy: the action, not the side, makes it an exit
    const half = perp({ action: 'close', side: 'buy', fraction: 0.25 });
    const c = decideCopy(agent(), half, noFacts, b, T0 + 6);
    expect(c).toMatchObject({ status: 'planned', notionalUsd: 25 });
    b = applyDecision(b, half, c);
    expect(b.open.ETH?.usd).toBeCloseTo(75, 9);
    expect(applyFailure(b, { token: 'ETH', side: 'buy', action: 'close', notionalUsd: 25, tradeAt: T0 }, { usd: 25, since: T0 }).open.ETH?.usd).toBeCloseTo(100, 9);
    const all = perp({ action: 'close', side: 'buy', fraction: 1 });
    expect(applyDecision(b, all, decideCopy(agent(), all, noFacts, b, T0 + 7)).open).toEqual({});
  });
});
