import type { InflectionState, MomentumBand, Severity, TokenChange, TokenSnapshot, Trend, ValuationStance, Verdict } from '../../schemas/token.ts';
import { DepthBand, RiskBand } from '../../schemas/token.ts';
import type { TokenSignalValue } from '../../schemas/token.ts';

/**
 * token-changes compares two snapshots the engine wrote, with the same derivation: the token
 * state keeps a digest of each snapshot it wrote (one per 5-minute slot, about the last hour and
 * a half), and the next snapshot is compared with the one written about an hour before it. So
 * every change it reports happened between two answers the API served.
 */
export interface SnapshotDigest {
  asOfTs: number;
  asOf: string;
  verdict: Verdict;
  signal: TokenSignalValue;
  risk: RiskBand;
  flags: { rug: string; honeypot: string; concentration: string };
  liquidity: DepthBand;
  momentum: MomentumBand;
  inflection: InflectionState | null;
  holderTrend: Trend;
  exit: RiskBand;
  stance: ValuationStance;
  pillarsLit: number;
  price: number | null;
  high24h: number | null;
  low24h: number | null;
}

const COMPARE_AGO_S = 3600;
const SLOT_S = 300;

/** What token-changes compares of a snapshot (the price and the 24 h range from its basis). */
export function digestOf(s: TokenSnapshot): SnapshotDigest {
  const f = s.risk.flags;
  return {
    asOfTs: s.asOfTs,
    asOf: s.asOf,
    verdict: s.verdict,
    signal: s.signal.value,
    risk: s.risk.band,
    flags: { rug: f.rug.severity, honeypot: f.honeypot.severity, concentration: f.concentration.severity },
    liquidity: s.risk.signals.liquidityBand,
    momentum: s.momentum.band,
    inflection: s.inflection.state,
    holderTrend: s.holders.trend,
    exit: s.exit.band,
    stance: s.valuation.stance,
    pillarsLit: s.pillarsLit,
    price: s.basis.priceUsd,
    high24h: s.basis.high24h,
    low24h: s.basis.low24h,
  };
}

/** The digest to compare a snapshot at `now` with: the newest written an hour or more before, else the oldest kept. */
export function priorDigest(written: readonly SnapshotDigest[], now: number): SnapshotDigest | null {
  let found: SnapshotDigest | null = null;
  for (const d of written) {
    if (d.asOfTs > now - COMPARE_AGO_S) break;
    found = d;
  }
  if (found) return found;
  const oldest = written[0];
  return oldest && oldest.asOfTs < now ? oldest : null;
}

/** Remember a written snapshot: one digest per 5-minute slot, dropping those no comparison can reach. */
export function rememberWritten(written: SnapshotDigest[], d: SnapshotDigest): void {
  const last = written[written.length - 1];
  if (last && Math.floor(last.asOfTs / SLOT_S) === Math.floor(d.asOfTs / SLOT_S)) written[written.length - 1] = d;
  else if (!last || d.asOfTs >= last.asOfTs) written.push(d);
  // keep one digest at or before an hour ago; older ones are never compared with again
  while (written.length > 1 && written[1]!.asOfTs <= d.asOfTs - COMPARE_AGO_S) written.shift();
}

// the bands' enums list them in order
const RISK_ORDER: readonly string[] = RiskBand.options;
const DEPTH_ORDER: readonly string[] = DepthBand.options;

/** Signal deltas between a prior written snapshot and the current one, including price breaks. */
export function changesBetween(prev: SnapshotDigest | null, cur: SnapshotDigest): TokenChange[] {
  if (!prev) return [];
  const out: TokenChange[] = [];
  const push = (metric: string, from: string | number | boolean | null, to: string | number | boolean | null, severity: Severity) => {
    if (from !== to) out.push({ metric, from, to, severity });
  };
  push('verdict', prev.verdict, cur.verdict, cur.verdict === 'avoid' ? 'critical' : prev.verdict === 'avoid' || cur.verdict === 'mirror-worthy' ? 'warning' : 'info');
  push('signal', prev.signal, cur.signal, cur.signal === 'AVOID' ? 'critical' : 'warning');
  const rUp = RISK_ORDER.indexOf(cur.risk) > RISK_ORDER.indexOf(prev.risk);
  push('risk', prev.risk, cur.risk, cur.risk === 'extreme' ? 'critical' : rUp ? 'warning' : 'info');
  for (const k of ['rug', 'honeypot', 'concentration'] as const) {
    const to = cur.flags[k];
    push(`flags.${k}`, prev.flags[k], to, to === 'red' ? 'critical' : to === 'warning' ? 'warning' : 'info');
  }
  const dDown = DEPTH_ORDER.indexOf(cur.liquidity) < DEPTH_ORDER.indexOf(prev.liquidity);
  push('liquidity', prev.liquidity, cur.liquidity, dDown ? 'warning' : 'info');
  push('momentum', prev.momentum, cur.momentum, 'info');
  push('inflection', prev.inflection, cur.inflection, cur.inflection === 'breaking-out' ? 'warning' : 'info');
  push('holders.trend', prev.holderTrend, cur.holderTrend, cur.holderTrend === 'shrinking' ? 'warning' : 'info');
  const eUp = RISK_ORDER.indexOf(cur.exit) > RISK_ORDER.indexOf(prev.exit);
  push('exitRisk', prev.exit, cur.exit, eUp ? 'warning' : 'info');
  push('valuation', prev.stance, cur.stance, 'info');
  push('pillarsLit', prev.pillarsLit, cur.pillarsLit, 'info');

  // price breaks, as percentages only
  const p0 = prev.price;
  const p1 = cur.price;
  if (p0 !== null && p1 !== null && p0 > 0) {
    const chg = Math.round((1000 * (p1 - p0)) / p0) / 10;
    if (Math.abs(chg) >= 10) push('priceChangePct', 0, chg, Math.abs(chg) >= 30 ? 'critical' : 'warning');
    if (prev.high24h !== null && p1 > prev.high24h) push('priceBreak', 'in-range', 'above-24h-high', 'warning');
    else if (prev.low24h !== null && p1 < prev.low24h) push('priceBreak', 'in-range', 'below-24h-low', chg <= -30 ? 'critical' : 'warning');
  }
  return out;
}
