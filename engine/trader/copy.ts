import type { Verdict } from '../../schemas/common.ts';
import type { TraderStyle, WalletSnapshot } from '../../schemas/wallet.ts';
import type { RiskBandT, TokenLookup } from './views.ts';
import { asOfTs, copyScore, holdBandOf, isRated, returnBand, sizeBandOf } from './views.ts';

/**
 * Copy-trading views: pure functions over wallet snapshots. Whether to mirror a leader (gates and
 * a verdict), sizing under the caller's risk limits, a replay of the leader's recent tokens under
 * those limits, and how much leaders overlap. Formulas: engine/trader/README.md.
 */

export const CopyThresholds = {
  edgeScore: 65,
  profitFactor: 1.5,
  consistency: 50,
  copyability: 50,
  /** the leader traded within this many seconds of chain time */
  activeWithinS: 7 * 86400,
  /** share of open cost in flagged tokens above which the portfolio gate fails, percent */
  flaggedExposurePct: 25,
  /** copier latency: round trips held shorter than this cannot be mirrored */
  copierLatencyS: 300,
} as const;

const RISK_ORDER: Record<RiskBandT, number> = { low: 0, moderate: 1, high: 2, extreme: 3 };

// a type alias (not an interface) so it is assignable to the response's loose object
export type Gate = {
  gate: string;
  passed: boolean;
  detail: string;
};

function lastTradeTs(s: WalletSnapshot): number {
  return Math.max(0, ...(s.positions ?? []).map((p) => p.lastTradeTs));
}

function flaggedExposurePct(s: WalletSnapshot, tokens: TokenLookup): number {
  const open = (s.positions ?? []).filter((p) => p.status === 'open' && p.openCostUsd > 0);
  const total = open.reduce((a, p) => a + p.openCostUsd, 0);
  if (total === 0) return 0;
  let flagged = 0;
  for (const p of open) {
    const t = tokens(p.token);
    if (t && (t.risk === 'extreme' || t.flags.includes('rug') || t.flags.includes('honeypot'))) flagged += p.openCostUsd;
  }
  return (flagged / total) * 100;
}

/**
 * Should I mirror this leader: eight gates. Verdict: a disqualifier, a negative edge or a profit
 * factor under 0.5 → avoid; too little history → unrated; every gate passed → mirror-worthy;
 * otherwise watch.
 */
export function copyDecision(s: WalletSnapshot, tokens: TokenLookup, chainNowTs: number) {
  const T = CopyThresholds;
  const pf = s.pnlQuality.profitFactor;
  const pfOk = pf === null ? (s.pnlQuality.winRatePct ?? 0) > 0 : pf >= T.profitFactor;
  const idle = chainNowTs - lastTradeTs(s);
  const flagged = flaggedExposurePct(s, tokens);
  const dq = s.disqualifiers;
  const gates: Gate[] = [
    { gate: 'history', passed: s.sample.met, detail: s.sample.met ? 'enough round trips, days and tokens' : 'too little history to judge' },
    {
      gate: 'clean',
      passed: !(dq.bot || dq.insider || dq.sniper),
      detail: dq.reasons.length ? dq.reasons.join('; ') : 'no bot, insider or sniper behaviour',
    },
    { gate: 'edge', passed: s.edge.score >= T.edgeScore && (s.edge.band === 'positive' || s.edge.band === 'strong'), detail: `${s.edge.band} edge, score ${s.edge.score}` },
    { gate: 'profitable', passed: pfOk, detail: `profit factor ${s.pnlQuality.profitFactorBand ?? 'unknown'}` },
    { gate: 'consistent', passed: s.consistency.score >= T.consistency, detail: `consistency ${s.consistency.band}` },
    { gate: 'copyable', passed: s.copyability.score >= T.copyability, detail: `copyability ${s.copyability.band}, median hold ${s.copyability.medianHold ?? 'unknown'}` },
    { gate: 'active', passed: idle <= T.activeWithinS, detail: idle <= T.activeWithinS ? 'traded within the last week' : 'no trade in the last week' },
    {
      gate: 'portfolio',
      passed: flagged < T.flaggedExposurePct,
      detail: flagged < T.flaggedExposurePct ? 'open positions mostly in unflagged tokens' : 'much of the open book is in flagged tokens',
    },
  ];
  const byName = Object.fromEntries(gates.map((g) => [g.gate, g.passed]));
  let verdict: Verdict;
  if (!byName.clean || s.edge.band === 'negative' || (pf !== null && pf < 0.5)) verdict = 'avoid';
  else if (!byName.history) verdict = 'unrated';
  else if (gates.every((g) => g.passed)) verdict = 'mirror-worthy';
  else verdict = 'watch';
  return { verdict, gates, gatesPassed: gates.filter((g) => g.passed).length, gatesTotal: gates.length };
}

export interface CopyLimitsInput {
  budgetUsd: number;
  maxPerTradeUsd?: number;
  maxOpenPositions: number;
  stopLossPct: number;
  skipRiskAtOrAbove: RiskBandT;
}

export function resolveLimits(l: CopyLimitsInput) {
  const even = l.budgetUsd / l.maxOpenPositions;
  const perTradeUsd = Math.round(Math.min(even, l.maxPerTradeUsd ?? even) * 100) / 100;
  return { budgetUsd: l.budgetUsd, perTradeUsd, maxOpenPositions: l.maxOpenPositions, stopLossPct: l.stopLossPct, skipRiskAtOrAbove: l.skipRiskAtOrAbove };
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Sizing under the caller's limits. */
export function copyPlan(s: WalletSnapshot, limits: CopyLimitsInput, tokens: TokenLookup, chainNowTs: number) {
  const decision = copyDecision(s, tokens, chainNowTs);
  const L = resolveLimits(limits);
  const leaderAvg = median((s.positions ?? []).map((p) => p.avgBuyUsd).filter((x) => x > 0));
  const scaled = leaderAvg !== null && leaderAvg < L.perTradeUsd;
  const perTradeUsd = scaled ? Math.round((leaderAvg as number) * 100) / 100 : L.perTradeUsd;
  const weeks = Math.max(1, s.sample.daysActive / 7);
  const expectedEntriesPerWeek = Math.round((s.sample.distinctTokens / weeks) * 10) / 10;
  const capitalAtRiskPct = Math.round(((L.maxOpenPositions * perTradeUsd * (L.stopLossPct / 100)) / L.budgetUsd) * 1000) / 10;
  const holds = (s.positions ?? []).map((p) => p.avgHoldSeconds).filter((x): x is number => x !== null);
  const medHold = median(holds);
  const skipRules = [
    `skip tokens whose risk is ${L.skipRiskAtOrAbove} or worse, or that carry a rug or honeypot flag`,
    'skip buys made within the launch window of a pool',
    `skip entries once ${L.maxOpenPositions} copied positions are open`,
    `exit a copied position at a ${L.stopLossPct}% loss`,
  ];
  const warnings: string[] = [];
  if (decision.verdict !== 'mirror-worthy') warnings.push(`the leader is rated ${decision.verdict}: ${decision.gates.filter((g) => !g.passed).map((g) => g.gate).join(', ') || 'see gates'}`);
  if (s.copyability.medianHold === 'seconds' || s.copyability.medianHold === 'minutes') warnings.push('short holds: copies may lag the leader exits');
  if (s.activity.launchWindowBuys > 0) warnings.push('some entries are launch-window buys that cannot be copied');
  if (capitalAtRiskPct > 25) warnings.push('more than a quarter of the budget is at risk if every open copy hits its stop');
  if (expectedEntriesPerWeek * perTradeUsd > L.budgetUsd) warnings.push('the leader enters more often than the budget can follow');
  return {
    verdict: decision.verdict,
    limits: L,
    plan: {
      copyRatio: (scaled ? 'scaled' : 'fixed') as 'fixed' | 'scaled',
      perTradeUsd,
      capitalAtRiskPct,
      expectedEntriesPerWeek,
      expectedHold: medHold === null ? null : holdBandOf(medHold),
      leaderSize: leaderAvg === null ? null : sizeBandOf(leaderAvg),
    },
    skipRules,
    warnings,
  };
}

/**
 * Replay the leader's newest tokens (oldest entry first) under the limits: each is copied or
 * skipped with the reason; copied ones take the leader's return on the token, floored at the stop
 * loss. Known bias: a token's risk is its current band, not the band at entry.
 */
export function copySimulate(s: WalletSnapshot, limits: CopyLimitsInput, tokens: TokenLookup) {
  const L = resolveLimits(limits);
  const positions = [...(s.positions ?? [])].sort((a, b) => a.firstTradeTs - b.firstTradeTs || a.token.localeCompare(b.token));
  const openCopies: { until: number; size: number }[] = [];
  const skips: Record<string, number> = {};
  const trades = [];
  let deployed = 0;
  let weighted = 0;
  let scored = 0;
  let hits = 0;
  for (const p of positions) {
    // copies closed before this entry free their slot and capital
    for (let i = openCopies.length - 1; i >= 0; i--) if ((openCopies[i] as { until: number }).until <= p.firstTradeTs) openCopies.splice(i, 1);
    const t = tokens(p.token);
    let reason: string | null = null;
    if (p.launchWindowBuy) reason = 'launch-window buy';
    else if (p.status === 'closed' && p.avgHoldSeconds !== null && p.avgHoldSeconds < CopyThresholds.copierLatencyS) reason = 'held shorter than the copier latency';
    else if (t && (RISK_ORDER[t.risk] >= RISK_ORDER[L.skipRiskAtOrAbove] || t.flags.includes('rug') || t.flags.includes('honeypot'))) reason = 'token risk above the limit';
    else if (openCopies.length >= L.maxOpenPositions) reason = 'max open positions reached';
    else if (openCopies.reduce((a, c) => a + c.size, 0) + L.perTradeUsd > L.budgetUsd + 1e-9) reason = 'budget exhausted';
    const raw = p.status === 'closed' ? p.realisedReturnPct : p.unrealisedReturnPct;
    const ret = raw === null ? null : Math.max(raw, -L.stopLossPct);
    if (reason === null) {
      openCopies.push({ until: p.status === 'closed' ? p.lastTradeTs : Infinity, size: L.perTradeUsd });
      if (ret !== null) {
        deployed += L.perTradeUsd;
        weighted += L.perTradeUsd * ret;
        scored++;
        if (ret > 0) hits++;
      }
    } else skips[reason] = (skips[reason] ?? 0) + 1;
    trades.push({
      token: p.token,
      chain: s.chain,
      symbol: t?.symbol ?? null,
      enteredAt: new Date(p.firstTradeTs * 1000).toISOString(),
      action: (reason === null ? 'copied' : 'skipped') as 'copied' | 'skipped',
      reason,
      copySizeUsd: reason === null ? L.perTradeUsd : 0,
      status: p.status,
      outcome: ret === null ? null : returnBand(ret),
      returnPct: ret === null ? null : Math.round(ret * 100) / 100,
    });
  }
  const rod = deployed > 0 ? Math.round((weighted / deployed) * 100) / 100 : null;
  const first = positions[0];
  const last = positions[positions.length - 1];
  return {
    limits: L,
    window: {
      from: first ? new Date(first.firstTradeTs * 1000).toISOString() : null,
      to: last ? new Date(last.firstTradeTs * 1000).toISOString() : null,
      trades: positions.length,
    },
    copied: trades.filter((t) => t.action === 'copied').length,
    skipped: trades.filter((t) => t.action === 'skipped').length,
    skips,
    trades: trades.reverse(), // newest first
    outcome: {
      band: rod === null ? null : returnBand(rod),
      returnOnDeployedPct: rod,
      hitRatePct: scored > 0 ? Math.round((hits / scored) * 1000) / 10 : null,
      scored,
    },
  };
}

/** How much leaders trade the same tokens (their newest summarised tokens). */
export function copyOverlap(wallets: string[], snapOf: (w: string) => WalletSnapshot | undefined, chain: string, tokens: TokenLookup) {
  const sets = wallets.map((w) => {
    const s = snapOf(w);
    return { wallet: w, snap: s, tokens: new Set((s?.positions ?? []).map((p) => p.token)) };
  });
  const holders = new Map<string, string[]>();
  for (const x of sets) for (const t of x.tokens) holders.set(t, [...(holders.get(t) ?? []), x.wallet]);
  const pairs = [];
  for (let i = 0; i < sets.length; i++)
    for (let j = i + 1; j < sets.length; j++) {
      const a = sets[i] as (typeof sets)[number];
      const b = sets[j] as (typeof sets)[number];
      let shared = 0;
      for (const t of a.tokens) if (b.tokens.has(t)) shared++;
      const union = a.tokens.size + b.tokens.size - shared;
      pairs.push({ wallets: [a.wallet, b.wallet], sharedTokens: shared, jaccardPct: union > 0 ? Math.round((shared / union) * 1000) / 10 : 0 });
    }
  const sharedTokens = [...holders.entries()]
    .filter(([, w]) => w.length >= 2)
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const overlapPct = holders.size > 0 ? Math.round((sharedTokens.length / holders.size) * 1000) / 10 : 0;
  const band = overlapPct === 0 ? 'none' : overlapPct < 10 ? 'low' : overlapPct < 30 ? 'moderate' : 'high';
  let newest: number | null = null;
  for (const x of sets) if (x.snap && (newest === null || asOfTs(x.snap) > newest)) newest = asOfTs(x.snap);
  return {
    asOfTs: newest,
    overlap: band as 'none' | 'low' | 'moderate' | 'high',
    overlapPct,
    leaders: sets.map((x) => ({ wallet: x.wallet, grade: x.snap?.grade ?? null, tokens: x.tokens.size, known: x.snap !== undefined })),
    pairs,
    shared: sharedTokens.slice(0, 50).map(([token, w]) => ({ token, chain, symbol: tokens(token)?.symbol ?? null, leaders: w.length, wallets: w })),
  };
}

const STRATEGIES: { id: string; name: string; style: TraderStyle; risk: RiskBandT; description: string; limits: { maxOpenPositions: number; perTradeSharePct: number; stopLossPct: number } }[] = [
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
  let newest: number | null = null;
  for (const s of snaps) if (newest === null || asOfTs(s) > newest) newest = asOfTs(s);
  const strategies = STRATEGIES.map((st) => {
    const fit = snaps.filter((s) => isRated(s) && s.style === st.style);
    const top = fit
      .filter((s) => s.grade === 'mirror-worthy' || s.grade === 'watch')
      .map((s) => ({ wallet: s.wallet, grade: s.grade, score: copyScore(s) }))
      .sort((a, b) => (a.grade === b.grade ? 0 : a.grade === 'mirror-worthy' ? -1 : 1) || b.score - a.score || a.wallet.localeCompare(b.wallet))
      .slice(0, 5);
    return {
      id: st.id,
      name: st.name,
      style: st.style,
      description: st.description,
      risk: st.risk,
      leaders: fit.filter((s) => s.grade === 'mirror-worthy').length,
      candidates: fit.filter((s) => s.grade === 'watch').length,
      topLeaders: top,
      suggestedLimits: st.limits,
    };
  });
  return { asOfTs: newest, strategies };
}


