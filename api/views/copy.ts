import type { RiskBand } from '../../schemas/token.ts';
import type { TraderStyle, WalletSnapshot } from '../../schemas/wallet.ts';
import { newestAsOf } from './trader.ts';

/**
 * copy/strategies as a projection: a fixed catalogue of copy strategies (one per leader style,
 * with suggested limits) and, for each, the rated leaders of that style by their stored grade and
 * copy score.
 */

const STRATEGIES: {
  id: string;
  name: string;
  style: TraderStyle;
  risk: RiskBand;
  description: string;
  limits: { maxOpenPositions: number; perTradeSharePct: number; stopLossPct: number };
}[] = [
  {
    id: 'swing-momentum',
    name: 'Swing momentum',
    style: 'swing',
    risk: 'moderate',
    description: 'Mirror leaders who hold for hours to days and enter ahead of moves; a handful of positions at a time.',
    limits: { maxOpenPositions: 5, perTradeSharePct: 10, stopLossPct: 25 },
  },
  {
    id: 'patient-holder',
    name: 'Patient holder',
    style: 'holder',
    risk: 'low',
    description: 'Mirror leaders who build positions and hold for weeks; wider stops, more positions, smaller slices.',
    limits: { maxOpenPositions: 8, perTradeSharePct: 8, stopLossPct: 40 },
  },
  {
    id: 'fast-scalper',
    name: 'Fast scalper',
    style: 'scalper',
    risk: 'high',
    description: 'Mirror leaders who trade within the hour; copies lag their exits, so tight stops and few positions.',
    limits: { maxOpenPositions: 3, perTradeSharePct: 5, stopLossPct: 10 },
  },
];

/** Copy strategies by leader style, with the rated leaders that fit each. */
export function copyStrategies(snaps: WalletSnapshot[]) {
  const strategies = STRATEGIES.map((st) => {
    const fit = snaps.filter((s) => s.rated && s.style === st.style);
    const topLeaders = fit
      .filter((s) => s.grade === 'mirror-worthy' || s.grade === 'watch')
      .sort((a, b) => (a.grade === b.grade ? 0 : a.grade === 'mirror-worthy' ? -1 : 1) || b.scores.copy - a.scores.copy || a.wallet.localeCompare(b.wallet))
      .slice(0, 5)
      .map((s) => ({ wallet: s.wallet, grade: s.grade, score: s.scores.copy }));
    return {
      id: st.id,
      name: st.name,
      style: st.style,
      description: st.description,
      risk: st.risk,
      leaders: fit.filter((s) => s.grade === 'mirror-worthy').length,
      candidates: fit.filter((s) => s.grade === 'watch').length,
      topLeaders,
      suggestedLimits: st.limits,
    };
  });
  return { asOf: newestAsOf(snaps), strategies };
}
