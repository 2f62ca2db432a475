import { describe, expect, it } from 'vitest';
import { WalletSnapshot } from '../../schemas/wallet.ts';
import { DAY, HOUR, T0, edgeTrader, tokenAddr, withFields } from './testkit.ts';
import type { TokenInfo } from './views.ts';
import {
  portfolioRiskView,
  spotLeaders,
  traderLeaderboard,
  traderScore,
  traderScoreView,
  walletHealthView,
  walletTradesView,
} from './views.ts';

const noTokens = () => undefined;

describe('wallet snapshot: position summaries and basis (engine/wallet/derive.ts additions)', () => {
  it('summarises each token newest first, with derived returns and no prices, and keeps realised sums private', () => {
    const s = WalletSnapshot.parse(edgeTrader({ loseEvery: 8 }));
    expect(s.grade).toBe('mirror-worthy');
    const ps = s.positions ?? [];
    expect(ps).toHaveLength(4);
    expect(ps.map((p) => p.lastTradeTs)).toEqual([...ps.map((p) => p.lastTradeTs)].sort((a, b) => b - a));
    expect(ps.reduce((a, p) => a + p.roundTrips, 0)).toBe(16);
    for (const p of ps) {
      expect(p.status).toBe('closed');
      expect(p.avgHoldSeconds).toBe(6 * HOUR);
      expect(p.realisedReturnPct).toBeGreaterThan(5);
      expect(p.sizeBand).toBe('medium'); // $1000 buys and $1200 sells
    }
    expect(s.basis).toMatchObject({ closed: 16, wins: 14, losses: 2 });
    expect(s.basis?.realisedUsd).toBeGreaterThan(0);
  });

  it('marks the open position with its unrealised return and open cost', () => {
    const s = edgeTrader({ openLast: true });
    const open = (s.positions ?? []).filter((p) => p.status === 'open');
    expect(open).toHaveLength(1);
    expect(open[0]?.openCostUsd).toBeCloseTo(1000, 0);
    expect(open[0]?.unrealisedReturnPct).toBeGreaterThan(0);
  });
});

describe('trader views', () => {
  it('trader score is 40% edge, 20% consistency, 20% copyability, 20% PnL quality', () => {
    const s = edgeTrader({ loseEvery: 8 });
    const { score, components } = traderScore(s);
    expect(components.edge).toBe(s.edge.score);
    expect(score).toBe(Math.round(0.4 * components.edge + 0.2 * components.consistency + 0.2 * components.copyability + 0.2 * components.pnlQuality));
    const v = traderScoreView(s, Date.parse(s.asOf) / 1000 + 30);
    expect(v).toMatchObject({ wallet: s.wallet, chain: 'sim', grade: 'mirror-worthy', ageSeconds: 30 });
  });

  it('leaderboard: rated wallets only, grade first then score, limited', () => {
    const a = edgeTrader({ wallet: '0x' + '0a'.repeat(20) });
    const b = withFields(edgeTrader({ wallet: '0x' + '0b'.repeat(20), moveUp: 0.4 }), { grade: 'watch' });
    const bot = withFields(edgeTrader({ wallet: '0x' + '0c'.repeat(20) }), { disqualifiers: { bot: true, insider: false, sniper: false, reasons: ['bot: x'] } });
    const thin = edgeTrader({ wallet: '0x' + '0d'.repeat(20), n: 4 });
    expect(thin.grade).toBe('unrated');
    const lb = traderLeaderboard([b, bot, thin, a], { limit: 10 });
    expect(lb.rated).toBe(2);
    expect(lb.leaders.map((l) => [l.rank, l.wallet, l.grade])).toEqual([
      [1, a.wallet, 'mirror-worthy'],
      [2, b.wallet, 'watch'],
    ]);
    expect(traderLeaderboard([a, b], { limit: 1 }).leaders).toHaveLength(1);
    expect(spotLeaders([bot, thin, a], 5).leaders.map((l) => l.wallet)).toEqual([a.wallet]);
  });

  it('wallet-trades gives bands and percentages per token, filtered by status', () => {
    const s = edgeTrader({ openLast: true });
    const v = walletTradesView(s, T0 + 30 * DAY, noTokens, { limit: 2 });
    expect(v.trades).toHaveLength(2);
    expect(v.trades[0]?.status).toBe('open');
    expect(v.trades[0]?.chain).toBe('sim');
    const closed = walletTradesView(s, T0 + 30 * DAY, noTokens, { limit: 10, status: 'closed' });
    expect(closed.trades.every((t) => t.status === 'closed' && t.outcome === 'gain' && t.hold === 'hours')).toBe(true);
    expect(JSON.stringify(v)).not.toMatch(/avgBuyUsd|openCostUsd|price/i);
  });

  it('wallet-health: dormant after a week of chain time, unhealthy with a disqualifier', () => {
    const s = edgeTrader();
    const last = Math.max(...(s.positions ?? []).map((p) => p.lastTradeTs));
    expect(walletHealthView(s, last, last + HOUR)).toMatchObject({ health: 'healthy', activity: 'active' });
    const idle = walletHealthView(s, last, last + 8 * DAY);
    expect(idle.activity).toBe('dormant');
    expect(idle.health).toBe('caution');
    const bad = walletHealthView(withFields(s, { disqualifiers: { bot: true, insider: false, sniper: false, reasons: ['bot: 2 trades per block'] } }), last, last);
    expect(bad.health).toBe('unhealthy');
    expect(bad.flags[0]).toMatchObject({ flag: 'bot', severity: 'red', reason: 'bot: 2 trades per block' });
  });

  it('portfolio-risk weights token risk by exposure and counts flagged exposure', () => {
    const s = edgeTrader({ openLast: true });
    const held = (s.positions ?? []).find((p) => p.status === 'open')?.token as string;
    const rug: TokenInfo = { symbol: 'RUG', risk: 'extreme', riskScore: 95, exitRisk: 'extreme', flags: ['rug'] };
    const v = portfolioRiskView(s, T0, (t) => (t === held ? rug : undefined));
    expect(v.openPositions).toBe(1);
    expect(v.flaggedExposurePct).toBe(100);
    expect(v.concentration.band).toBe('concentrated');
    expect(v.risk).toBe('extreme');
    expect(v.positions[0]).toMatchObject({ token: held, chain: 'sim', symbol: 'RUG', flags: ['rug'], exposureSharePct: 100 });
    const none = portfolioRiskView(edgeTrader(), T0, noTokens);
    expect(none).toMatchObject({ openPositions: 0, risk: 'low', score: 0, concentration: { band: 'none' } });
    expect(tokenAddr(1)).toMatch(/^0x/);
  });
});
