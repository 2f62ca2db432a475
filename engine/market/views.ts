import type { Verdict } from '../../schemas/common.ts';
import type { TokenSnapshot } from '../../schemas/token.ts';

/**
 * Market views: pure functions over the latest token snapshots of a chain (and the wallet
 * grades, injected as a lookup). Time comes from the snapshots, never from the clock.
 */
export type GradeOf = (wallet: string) => Verdict | undefined;

const clamp = (x: number, lo = 0, hi = 100) => Math.max(lo, Math.min(hi, x));
const round = (x: number) => Math.round(x);

/** tokens with enough data to say anything, latest first */
function active(snaps: TokenSnapshot[]): TokenSnapshot[] {
  return snaps.filter((s) => s.data.enough);
}

function latestAsOf(snaps: TokenSnapshot[]): number | null {
  let t: number | null = null;
  for (const s of snaps) if (t === null || s.asOfTs > t) t = s.asOfTs;
  return t;
}

function holderBase(count: number): 'low' | 'moderate' | 'high' {
  return count >= 200 ? 'high' : count >= 50 ? 'moderate' : 'low';
}

/** Risk-filtered discovery feed: the strongest momentum among tokens that are not high risk. */
export function marketMovers(snaps: TokenSnapshot[], limit: number) {
  const items = active(snaps)
    .filter((s) => s.risk.band === 'low' || s.risk.band === 'moderate')
    .filter((s) => s.activity.h24.buys + s.activity.h24.sells > 0)
    .sort((a, b) => b.momentum.score - a.momentum.score || a.token.localeCompare(b.token))
    .slice(0, limit)
    .map((s) => ({
      token: s.token,
      chain: s.chain,
      symbol: s.symbol,
      momentum: { band: s.momentum.band, score: s.momentum.score },
      risk: s.risk.band,
      signals: {
        flow: s.activity.h24.netFlow,
        activity: s.activity.h24.volumeBand,
        liquidity: s.risk.signals.liquidityBand,
        holderBase: holderBase(s.holders.count),
      },
      verdict: s.verdict,
    }));
  return { asOfTs: latestAsOf(snaps), movers: items };
}

/** Smart buyers of a token within a window: distinct recent buyers graded mirror-worthy. */
export function smartBuyersOf(s: TokenSnapshot, gradeOf: GradeOf, opts: { sinceTs?: number; sample?: number } = {}) {
  const buyers = s.basis.recentBuyers.slice(0, opts.sample ?? s.basis.recentBuyers.length);
  let count = 0;
  let usd = 0;
  let graded = 0;
  const wallets: string[] = [];
  for (const b of buyers) {
    if (opts.sinceTs !== undefined && b.ts < opts.sinceTs) continue;
    const g = gradeOf(b.wallet);
    if (g && g !== 'unrated') graded++;
    if (g === 'mirror-worthy') {
      count++;
      usd += b.usd;
      wallets.push(b.wallet);
    }
  }
  return { count, usd, graded, sampled: buyers.length, wallets };
}

export function sizeBand(usd: number): 'small' | 'medium' | 'large' | 'whale' {
  return usd >= 100_000 ? 'whale' : usd >= 10_000 ? 'large' : usd >= 1_000 ? 'medium' : 'small';
}

/** Tokens that mirror-worthy wallets are accumulating within the window, most smart buyers first. */
export function smartMoneyRadar(snaps: TokenSnapshot[], gradeOf: GradeOf, opts: { windowHours: number; limit: number; setSize: number }) {
  const now = latestAsOf(snaps) ?? 0;
  const since = now - opts.windowHours * 3600;
  const items = active(snaps)
    .filter((s) => !s.risk.flags.rug.flagged && !s.risk.flags.honeypot.flagged)
    .map((s) => ({ s, smart: smartBuyersOf(s, gradeOf, { sinceTs: since }) }))
    .filter((x) => x.smart.count > 0)
    .sort((a, b) => b.smart.count - a.smart.count || b.smart.usd - a.smart.usd || a.s.token.localeCompare(b.s.token))
    .slice(0, opts.limit)
    .map(({ s, smart }) => ({
      token: s.token,
      chain: s.chain,
      symbol: s.symbol,
      smartBuyers: smart.count,
      conviction: round(clamp(s.signal.conviction * 0.5 + Math.min(50, smart.count * 12))),
      sizeBand: sizeBand(smart.usd),
    }));
  return { asOfTs: latestAsOf(snaps), accumulating: items, setSize: opts.setSize };
}

/** Tokens ranked by conviction with their six pillars (smartMoney from the wallet grades). */
export function convictionBoard(snaps: TokenSnapshot[], gradeOf: GradeOf, opts: { limit: number }) {
  const board = active(snaps)
    .map((s) => {
      const smart = smartBuyersOf(s, gradeOf, { sinceTs: s.asOfTs - 24 * 3600 });
      const pillars = { ...s.pillars, smartMoney: smart.count >= 2 };
      const pillarsLit = Object.values(pillars).filter(Boolean).length;
      const red = s.risk.band === 'extreme' || s.risk.flags.rug.flagged || s.risk.flags.honeypot.flagged;
      const conviction = red ? 0 : round(clamp(pillarsLit * 14 + (s.signal.conviction - 50) * 0.3 + (pillars.smartMoney ? 6 : 0)));
      return {
        token: s.token,
        chain: s.chain,
        symbol: s.symbol,
        conviction,
        pillarsLit,
        pillars: {
          smartMoney: pillars.smartMoney,
          coiling: pillars.coiling,
          lowExit: pillars.lowExit,
          organic: pillars.organic,
          momentum: pillars.momentum,
          structure: pillars.structure,
        },
      };
    })
    .sort((a, b) => b.conviction - a.conviction || b.pillarsLit - a.pillarsLit || a.token.localeCompare(b.token))
    .slice(0, opts.limit);
  return { asOfTs: latestAsOf(snaps), board };
}

/** Breadth, volatility and where volume goes: risk-on, neutral or risk-off. */
export function marketRegime(snaps: TokenSnapshot[]) {
  const act = active(snaps);
  const n = act.length;
  const now = latestAsOf(snaps) ?? 0;
  const rising = act.filter((s) => s.momentum.band === 'rising' || s.momentum.band === 'surging').length;
  const falling = act.filter((s) => s.momentum.band === 'falling').length;
  const risky = act.filter((s) => s.risk.band === 'high' || s.risk.band === 'extreme').length;
  const changes = act.map((s) => Math.abs(s.momentum.priceChange24hPct ?? 0)).sort((a, b) => a - b);
  const medianMove = changes.length ? (changes[Math.floor(changes.length / 2)] as number) : 0;
  const volatility = medianMove >= 40 ? 'extreme' : medianMove >= 20 ? 'high' : medianMove >= 8 ? 'moderate' : 'low';
  const young = act.filter((s) => s.ageHours !== null && s.ageHours < 72);
  const vol = (s: TokenSnapshot) => s.activity.h24.buys + s.activity.h24.sells;
  const totalTrades = act.reduce((a, s) => a + vol(s), 0);
  const newShare = totalTrades > 0 ? (young.reduce((a, s) => a + vol(s), 0) / totalTrades) * 100 : 0;
  const breadth = n > 0 ? (rising / n) * 100 : 0;
  const fallingPct = n > 0 ? (falling / n) * 100 : 0;
  const riskyPct = n > 0 ? (risky / n) * 100 : 0;
  // breadth dominates; heavy falling share, risky tokens and extreme volatility pull it down
  const score = round(clamp(50 + (breadth - fallingPct) * 0.6 - riskyPct * 0.2 - (volatility === 'extreme' ? 10 : 0)));
  const regime = n === 0 ? 'neutral' : score >= 60 ? 'risk-on' : score <= 40 ? 'risk-off' : 'neutral';
  return {
    asOfTs: n ? now : null,
    regime: regime as 'risk-on' | 'neutral' | 'risk-off',
    score,
    signals: {
      breadthPct: round(breadth),
      volatility: volatility as 'low' | 'moderate' | 'high' | 'extreme',
      volumeToNewPct: round(newShare),
      riskyTokensPct: round(riskyPct),
      tokens: n,
    },
  };
}
