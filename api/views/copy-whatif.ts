import type { Verdict } from '../../schemas/common.ts';
import type { RiskBand } from '../../schemas/token.ts';
import type { TokenFinal, TokenLookup } from '../../schemas/trader.ts';
import type { WalletSnapshot } from '../../schemas/wallet.ts';
import { returnBandOfPct } from '../../schemas/wallet.ts';

/**
 * What-if answers over the caller's own inputs, which no snapshot can hold: sizing under the
 * caller's copy limits (copy-plan), replaying a leader's stored positions under them
 * (copy-simulate) and the overlap of the caller's set of leaders (copy-overlap). They grade
 * neither wallets nor tokens: the leader's verdict, gates and portfolio gate come from its wallet
 * snapshot (engine/wallet/final.ts), a token's risk and flags from its token snapshot; the only
 * time-dependent selection is the `active` gate, the stored bound compared with chain time.
 * Formulas: engine/trader/README.md.
 */

const RISK_ORDER: Record<RiskBand, number> = { low: 0, moderate: 1, high: 2, extreme: 3 };
/** capital at risk (every open copy at its stop) above this share of the budget is warned about, percent */
const CAPITAL_AT_RISK_WARN_PCT = 25;

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;

// a type alias (not an interface) so it is assignable to the response's loose object
export type Gate = { gate: string; passed: boolean; detail: string };

function unsellable(t: TokenFinal | undefined): boolean {
  return t !== undefined && !t.sellable;
}

/**
 * Should I mirror this leader: the six gates and the verdict its wallet snapshot carries, and
 * the two gates that depend on the moment: `active` (chain time within the stored bound) and
 * `portfolio` (flagged exposure below the stored bound). Either failing gives the stored
 * `otherwise` verdict.
 */
export function copyDecision(s: WalletSnapshot, chainNowTs: number) {
  const d = s.copy.decision;
  const active = d.activeUntilTs !== null && chainNowTs <= d.activeUntilTs;
  const clean = d.portfolioClean;
  const gates: Gate[] = [
    ...d.gates,
    { gate: 'active', passed: active, detail: active ? 'traded within the last week' : 'no trade in the last week' },
    { gate: 'portfolio', passed: clean, detail: clean ? 'open positions mostly in unflagged tokens' : 'much of the open book is in flagged tokens' },
  ];
  const verdict: Verdict = active && clean ? d.verdict : d.otherwise;
  return { verdict, gates, gatesPassed: gates.filter((g) => g.passed).length, gatesTotal: gates.length };
}

export interface CopyLimitsInput {
  budgetUsd: number;
  maxPerTradeUsd?: number;
  maxOpenPositions: number;
  stopLossPct: number;
  skipRiskAtOrAbove: RiskBand;
}

export function resolveLimits(l: CopyLimitsInput) {
  const even = l.budgetUsd / l.maxOpenPositions;
  const perTradeUsd = r2(Math.min(even, l.maxPerTradeUsd ?? even));
  return { budgetUsd: l.budgetUsd, perTradeUsd, maxOpenPositions: l.maxOpenPositions, stopLossPct: l.stopLossPct, skipRiskAtOrAbove: l.skipRiskAtOrAbove };
}

/** Sizing under the caller's limits, scaled down to the leader's stored entry size. */
export function copyPlan(s: WalletSnapshot, limits: CopyLimitsInput, tokens: TokenLookup, chainNowTs: number) {
  const decision = copyDecision(s, chainNowTs);
  const L = resolveLimits(limits);
  const leader = s.copy.plan;
  const scaled = leader.entryUsd !== null && leader.entryUsd < L.perTradeUsd;
  const perTradeUsd = scaled ? r2(leader.entryUsd as number) : L.perTradeUsd;
  const capitalAtRiskPct = r1(((L.maxOpenPositions * perTradeUsd * (L.stopLossPct / 100)) / L.budgetUsd) * 100);
  const skipRules = [
    `skip tokens whose risk is ${L.skipRiskAtOrAbove} or worse, or that carry a rug or honeypot flag`,
    'skip buys made within the launch window of a pool',
    `skip entries once ${L.maxOpenPositions} copied positions are open`,
    `exit a copied position at a ${L.stopLossPct}% loss`,
  ];
  const warnings: string[] = [];
  if (decision.verdict !== 'mirror-worthy') warnings.push(`the leader is rated ${decision.verdict}: ${decision.gates.filter((g) => !g.passed).map((g) => g.gate).join(', ') || 'see gates'}`);
  warnings.push(...leader.warnings);
  if (capitalAtRiskPct > CAPITAL_AT_RISK_WARN_PCT) warnings.push('more than a quarter of the budget is at risk if every open copy hits its stop');
  if (leader.entriesPerWeek * perTradeUsd > L.budgetUsd) warnings.push('the leader enters more often than the budget can follow');
  return {
    verdict: decision.verdict,
    limits: L,
    plan: {
      copyRatio: (scaled ? 'scaled' : 'fixed') as 'fixed' | 'scaled',
      perTradeUsd,
      capitalAtRiskPct,
      expectedEntriesPerWeek: leader.entriesPerWeek,
      expectedHold: leader.expectedHold,
      leaderSize: leader.entrySize,
    },
    skipRules,
    warnings,
  };
}

/**
 * Replay the leader's summarised tokens (oldest entry first) under the limits: each is copied or
 * skipped with the reason; copied ones take the leader's return on the token, floored at the stop
 * loss (an unsellable token's open position counts as lost). Known bias: a token's risk is its
 * current band, not the band at entry.
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
    else if (p.tooFastToCopy) reason = 'held shorter than the copier latency';
    else if (t && (RISK_ORDER[t.risk] >= RISK_ORDER[L.skipRiskAtOrAbove] || unsellable(t))) reason = 'token risk above the limit';
    else if (openCopies.length >= L.maxOpenPositions) reason = 'max open positions reached';
    else if (openCopies.reduce((a, c) => a + c.size, 0) + L.perTradeUsd > L.budgetUsd + 1e-9) reason = 'budget exhausted';
    const raw = p.status === 'closed' ? p.realisedReturnPct : unsellable(t) ? -100 : p.unrealisedReturnPct;
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
      outcome: ret === null ? null : returnBandOfPct(ret),
      returnPct: ret === null ? null : r2(ret),
    });
  }
  const rod = deployed > 0 ? r2(weighted / deployed) : null;
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
      band: rod === null ? null : returnBandOfPct(rod),
      returnOnDeployedPct: rod,
      hitRatePct: scored > 0 ? r1((hits / scored) * 100) : null,
      scored,
    },
  };
}

/** How much the caller's leaders trade the same tokens (their summarised tokens). */
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
      pairs.push({ wallets: [a.wallet, b.wallet], sharedTokens: shared, jaccardPct: union > 0 ? r1((shared / union) * 100) : 0 });
    }
  const sharedTokens = [...holders.entries()]
    .filter(([, w]) => w.length >= 2)
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const overlapPct = holders.size > 0 ? r1((sharedTokens.length / holders.size) * 100) : 0;
  const band = overlapPct === 0 ? 'none' : overlapPct < 10 ? 'low' : overlapPct < 30 ? 'moderate' : 'high';
  let newest: string | null = null;
  for (const x of sets) if (x.snap && (newest === null || x.snap.asOf > newest)) newest = x.snap.asOf;
  return {
    asOf: newest,
    overlap: band as 'none' | 'low' | 'moderate' | 'high',
    overlapPct,
    leaders: sets.map((x) => ({ wallet: x.wallet, grade: x.snap?.grade ?? null, tokens: x.tokens.size, known: x.snap !== undefined })),
    pairs,
    shared: sharedTokens.slice(0, 50).map(([token, w]) => ({ token, chain, symbol: tokens(token)?.symbol ?? null, leaders: w.length, wallets: w })),
  };
}
