import type { TokenSnapshot } from '../../schemas/token.ts';
import { isSmartWindow, smartSizeBand } from '../../schemas/token.ts';
import { keysetPage } from '../../infra/page.ts';
import type { Page } from '../../infra/page.ts';

/**
 * Market lists as selections over the token snapshots of a chain: filter, sort and slice by the
 * engine's final fields (verdict, signal, conviction, pillars, bands). The one conviction and the
 * one verdict of a token are the ones its snapshot carries.
 */

/** tokens with enough data to say anything */
function active(snaps: TokenSnapshot[]): TokenSnapshot[] {
  return snaps.filter((s) => s.data.enough);
}

export function latestAsOf(snaps: TokenSnapshot[]): number | null {
  let t: number | null = null;
  for (const s of snaps) if (t === null || s.asOfTs > t) t = s.asOfTs;
  return t;
}

function holderBase(count: number): 'low' | 'moderate' | 'high' {
  return count >= 200 ? 'high' : count >= 50 ? 'moderate' : 'low';
}

/** Risk-filtered discovery feed: the strongest momentum among tokens that are neither high risk nor AVOID. */
export function marketMovers(snaps: TokenSnapshot[], page: Page) {
  const eligible = active(snaps)
    .filter((s) => (s.risk.band === 'low' || s.risk.band === 'moderate') && s.signal.value !== 'AVOID')
    .filter((s) => s.activity.h24.buys + s.activity.h24.sells > 0);
  const p = keysetPage(eligible, (s) => [-s.momentum.score, s.token], page);
  const items = p.items.map((s) => ({
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
      signal: s.signal.value,
      conviction: s.signal.conviction,
    }));
  return { asOfTs: latestAsOf(snaps), movers: items, next: p.next };
}

/** Mirror-worthy buyers of a token within `hours` of its asOf, as the engine graded them. */
export function smartBuysWithin(s: TokenSnapshot, hours: number): { count: number; usd: number } {
  let count = 0;
  let usd = 0;
  for (const b of s.smartMoney.recent) {
    if (b.grade !== 'mirror-worthy' || !isSmartWindow(b.ageS, hours)) continue;
    count += 1;
    usd += b.usd;
  }
  return { count, usd };
}

/** Tokens that mirror-worthy wallets are accumulating within the window, most smart buyers first; never a token to avoid. */
export function smartMoneyRadar(snaps: TokenSnapshot[], opts: { windowHours: number; setSize: number } & Page) {
  const eligible = active(snaps)
    .filter((s) => s.signal.value !== 'AVOID')
    .map((s) => ({ s, smart: smartBuysWithin(s, opts.windowHours) }))
    .filter((x) => x.smart.count > 0);
  const p = keysetPage(eligible, (x) => [-x.smart.count, -x.smart.usd, x.s.token], opts);
  const items = p.items.map(({ s, smart }) => ({
      token: s.token,
      chain: s.chain,
      symbol: s.symbol,
      smartBuyers: smart.count,
      conviction: s.signal.conviction,
      signal: s.signal.value,
      verdict: s.verdict,
      sizeBand: smartSizeBand(smart.usd),
    }));
  return { asOfTs: latestAsOf(snaps), accumulating: items, setSize: opts.setSize, next: p.next };
}

const SIGNAL_ORDER = { BUY: 3, ACCUMULATE: 2, HOLD: 1, AVOID: 0 } as const;

/** Tokens ranked by the engine's conviction with their six pillars; tokens to avoid are not on the board. */
export function convictionBoard(snaps: TokenSnapshot[], page: Page) {
  const eligible = active(snaps).filter((s) => s.signal.value !== 'AVOID');
  const p = keysetPage(eligible, (s) => [-s.signal.conviction, -SIGNAL_ORDER[s.signal.value], -s.pillarsLit, s.token], page);
  const board = p.items.map((s) => ({
      token: s.token,
      chain: s.chain,
      symbol: s.symbol,
      conviction: s.signal.conviction,
      signal: s.signal.value,
      verdict: s.verdict,
      pillarsLit: s.pillarsLit,
      pillars: {
        smartMoney: s.pillars.smartMoney,
        coiling: s.pillars.coiling,
        lowExit: s.pillars.lowExit,
        organic: s.pillars.organic,
        momentum: s.pillars.momentum,
        structure: s.pillars.structure,
      },
    }));
  return { asOfTs: latestAsOf(snaps), board, next: p.next };
}

/**
 * Breadth, volatility and where volume goes: risk-on, neutral or risk-off. An aggregate of the
 * tokens' final bands (counts and shares), the only market answer not stored by the engine.
 */
export function marketRegime(snaps: TokenSnapshot[]) {
  const round = Math.round;
  const clamp = (x: number) => Math.max(0, Math.min(100, x));
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
