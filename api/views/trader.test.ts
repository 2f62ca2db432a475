import { describe, expect, it } from 'vitest';
import type { TokenFinal } from '../../schemas/trader.ts';
import type { WalletSnapshot } from '../../schemas/wallet.ts';
import { DAY, HOUR, T0, edgeTrader, remeasured } from '../../engine/wallet/testkit.ts';
import { copyStrategies } from './copy.ts';
import {
  healthAt,
  portfolioView,
  spotLeaders,
  topTraders,
  traderBoard,
  traderEdgeView,
  traderLeaderboard,
  traderScoreView,
  walletHealthView,
  walletTradesView,
} from './trader.ts';

const noTokens = () => undefined;
const BOT = { bot: true, insider: false, sniper: false, reasons: ['bot: x'] };
const honeypot: TokenFinal = { symbol: 'HP', risk: 'high', riskScore: 70, exitRisk: 'extreme', flags: ['honeypot'], sellable: false };
const lastTrade = (s: WalletSnapshot) => Math.max(...(s.positions ?? []).map((p) => p.lastTradeTs));
const heldToken = (s: WalletSnapshot) => (s.positions ?? []).find((p) => p.status === 'open')?.token as string;

describe('trader projections serve the stored values', () => {
  it('trader-score and trader-edge select the stored score, components and verdict, with freshness', () => {
    const s = edgeTrader({ loseEvery: 8 });
    const now = Date.parse(s.asOf) + 30_000;
    expect(traderScoreView(s, now)).toMatchObject({
      wallet: s.wallet,
      chain: 'sim',
      asOf: s.asOf,
      ageSeconds: 30,
      grade: 'mirror-worthy',
      score: s.scores.trader,
      components: { edge: s.edge.score, consistency: s.consistency.score, copyability: s.copyability.score, pnlQuality: s.pnlQuality.score },
    });
    const e = traderEdgeView(s, now);
    expect(e).toMatchObject({ verdict: s.edgeVerdict.verdict, confidence: s.edgeVerdict.confidence });
    expect(Object.keys(e.edge)).not.toContain('verdict');
  });

  it('leaderboard: rated wallets only, grade first then the stored trader score, limited; boards rank by their stored scores', () => {
    const a = edgeTrader({ wallet: '0x' + '0a'.repeat(20) });
    const b = { ...edgeTrader({ wallet: '0x' + '0b'.repeat(20), moveUp: 0.4 }), grade: 'watch' as const };
    const bot = remeasured(edgeTrader({ wallet: '0x' + '0c'.repeat(20) }), { disqualifiers: BOT, grade: 'avoid' });
    const thin = edgeTrader({ wallet: '0x' + '0d'.repeat(20), n: 4 });
    const lb = traderLeaderboard([b, bot, thin, a], { limit: 10 });
    expect(lb.rated).toBe(2);
    expect(lb.leaders.map((l) => [l.rank, l.wallet, l.grade, l.score])).toEqual([
      [1, a.wallet, 'mirror-worthy', a.scores.trader],
      [2, b.wallet, 'watch', b.scores.trader],
    ]);
    expect(lb.asOf).toBe(a.asOf);
    expect(traderLeaderboard([a, b], { limit: 1 }).leaders).toHaveLength(1);
    expect(spotLeaders([bot, thin, a], { limit: 5 }).leaders.map((l) => [l.wallet, l.copyScore])).toEqual([[a.wallet, a.scores.copy]]);
    const hi = { ...a, wallet: '0x' + '0e'.repeat(20), scores: { ...a.scores, performance: 99 } };
    expect(topTraders([a, hi, bot], { limit: 5 }).traders.map((t) => [t.wallet, t.score])).toEqual([
      [hi.wallet, 99],
      [a.wallet, a.scores.performance],
    ]);
  });

  it('trader-board counts grades and styles and what mirror-worthy wallets hold', () => {
    const a = edgeTrader({ wallet: '0x' + '0a'.repeat(20), openLast: true });
    const b = { ...edgeTrader({ wallet: '0x' + '0b'.repeat(20), openLast: true }), grade: 'watch' as const };
    const board = traderBoard([a, b], () => honeypot, { limit: 5, chain: 'sim' });
    expect(board.grades).toEqual({ 'mirror-worthy': 1, watch: 1, avoid: 0, unrated: 0 });
    expect(board.holding).toEqual([{ token: heldToken(a), chain: 'sim', symbol: 'HP', mirrorWorthyHolders: 1, risk: 'high' }]);
  });

  it('copy strategies list the rated leaders of each style by the stored copy score', () => {
    const a = edgeTrader({ wallet: '0x' + '0a'.repeat(20) });
    const st = copyStrategies([a]).strategies.find((x) => x.style === a.style);
    expect(st?.topLeaders).toEqual([{ wallet: a.wallet, grade: a.grade, score: a.scores.copy }]);
    expect(st?.leaders).toBe(1);
  });

  it('wallet-trades gives the stored bands and percentages per token, filtered by status', () => {
    const s = edgeTrader({ openLast: true });
    const v = walletTradesView(s, (T0 + 30 * DAY) * 1000, noTokens, { limit: 2 });
    expect(v.trades).toHaveLength(2);
    expect(v.trades[0]?.status).toBe('open');
    expect(v.trades[0]?.chain).toBe('sim');
    const closed = walletTradesView(s, (T0 + 30 * DAY) * 1000, noTokens, { limit: 10, status: 'closed' });
    expect(closed.trades.every((t) => t.status === 'closed' && t.outcome === 'gain' && t.hold === 'hours')).toBe(true);
    expect(JSON.stringify(v)).not.toMatch(/avgBuyUsd|openCostUsd|price/i);
  });

  it('wallet-health selects the stored phase that holds at chain time', () => {
    const s = edgeTrader();
    const last = lastTrade(s);
    expect(walletHealthView(s, last * 1000, last + HOUR)).toMatchObject({ health: 'healthy', activity: 'active' });
    expect(healthAt(s, last + DAY).activity).toBe('active');
    expect(healthAt(s, last + DAY + 1).activity).toBe('quiet');
    const idle = walletHealthView(s, last * 1000, last + 8 * DAY);
    expect(idle.activity).toBe('dormant');
    expect(idle.health).toBe('caution');
    const bad = walletHealthView(remeasured(s, { disqualifiers: BOT, grade: 'avoid' }), last * 1000, last);
    expect(bad.health).toBe('unhealthy');
    expect(bad.flags[0]).toMatchObject({ flag: 'bot', severity: 'red', reason: 'bot: x' });
  });
});

describe('portfolio-risk and wallet-trades never show a position that cannot be sold as a gain', () => {
  it('an open position in a token with a raised honeypot flag is a heavy loss, not its marked gain', () => {
    const plain = edgeTrader({ openLast: true });
    const held = heldToken(plain);
    expect((plain.positions ?? []).find((p) => p.token === held)?.outcome).toBe('gain');
    const tokens = (t: string) => (t === held ? honeypot : undefined);
    // the engine joined the open book with the token-facts table
    const s = edgeTrader({ openLast: true, tokenFacts: tokens });
    const v = portfolioView(s, T0 * 1000, tokens);
    expect(v.positions).toEqual([
      { token: held, chain: 'sim', symbol: 'HP', risk: 'high', exitRisk: 'extreme', flags: ['honeypot'], exposureSharePct: 100, unrealised: 'heavy-loss' },
    ]);
    expect(v).toMatchObject({ openPositions: 1, concentration: { band: 'concentrated', topPositionSharePct: 100 }, risk: 'extreme', flaggedExposurePct: 100 });
    const t = walletTradesView(s, T0 * 1000, tokens, { limit: 1, status: 'open' }).trades[0];
    expect(t).toMatchObject({ token: held, outcome: 'heavy-loss', returnPct: -100 });
    // a sellable token keeps the marked gain
    expect(portfolioView(plain, T0 * 1000, noTokens).positions[0]?.unrealised).toBe('gain');
  });
});
