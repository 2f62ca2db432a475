/**
 * What the latest read of a token's contract (schemas/events.ts ContractFacts, folded by state.ts)
 * says for its risk: the honeypot flag from the trade simulation, the contract flag from its
 * owner's powers and a proxy, LP custody across its pools, and the summary the risk answers carry.
 * Each flag says when it was measured. Pure.
 */
import type { ContractFacts, PoolFacts } from '../../schemas/events.ts';
import type { ContractSummary, RiskFlag } from '../../schemas/token.ts';

export const CONTRACT_THRESHOLDS = {
  /** a sell tax at or above this is a trap (red), as is a buy + sell round trip losing half */
  sellTaxRed: 25,
  roundTripRed: 50,
  /** a tax at or above this is worth a warning */
  taxWarning: 10,
  /** the deployer or owner holding this share of the LP tokens can pull the liquidity */
  lpHeldWarning: 50,
  /** LP tokens burned or locked at or above this share: the liquidity cannot be pulled */
  lpSafe: 90,
};

const iso = (ts: number) => new Date(ts * 1000).toISOString();
const r1 = (x: number) => Math.round(x * 10) / 10;

function measured(f: ContractFacts): Pick<RiskFlag, 'measuredAt' | 'block' | 'source'> {
  return { measuredAt: iso(f.timestamp), block: f.block, source: 'contract' };
}

/** the honeypot flag from the simulation, or null when there is none */
export function simulatedHoneypot(f: ContractFacts): RiskFlag | null {
  const probe = probeHoneypot(f);
  const holders = holderHoneypot(f);
  if (!probe || !holders) return probe ?? holders;
  const rank = { none: 0, warning: 1, red: 2 } as const;
  return rank[holders.severity] > rank[probe.severity] ? holders : probe;
}

const short = (a: string) => `${a.slice(0, 8)}…`;

/**
 * The honeypot flag from sells simulated as the token's holders: the worst of them. A sliver
 * that sells while a quarter of the balance cannot is a sell cap (only dust can leave); a loss
 * past the red tax at any size is a tax, whatever the small sells pay.
 */
export function holderHoneypot(f: ContractFacts): RiskFlag | null {
  const sims = f.holderSims ?? [];
  if (sims.length === 0) return null;
  const m = measured(f);
  const at = (holder: string) => `(simulated as holder ${short(holder)} at block ${f.block})`;
  const warnings: string[] = [];
  for (const h of sims) {
    const [small, typical, all] = h.sells;
    const why = (e: string | null) => (e ? ` (${e})` : '');
    if (small && !small.ok) return { flagged: true, severity: 'red', reason: `A holder's sell of ${small.sharePct}% of its balance reverts${why(small.error)} ${at(h.holder)}: holders cannot sell.`, ...m };
    if (typical && !typical.ok) {
      return { flagged: true, severity: 'red', reason: `A holder's sell of ${typical.sharePct}% of its balance reverts${why(typical.error)} while a sliver sells ${at(h.holder)}: a sell cap.`, ...m };
    }
    const worst = h.sells.filter((x) => x.ok && x.lossAtLeastPct !== null).sort((a, b) => (b.lossAtLeastPct ?? 0) - (a.lossAtLeastPct ?? 0))[0];
    if (worst && (worst.lossAtLeastPct ?? 0) >= CONTRACT_THRESHOLDS.sellTaxRed) {
      return { flagged: true, severity: 'red', reason: `A holder's sell of ${worst.sharePct}% of its balance loses more than ${worst.lossAtLeastPct}% to a tax ${at(h.holder)}.`, ...m };
    }
    if (all && !all.ok) warnings.push(`a holder cannot sell all of its balance at once${why(all.error)} ${at(h.holder)}`);
    if (worst && (worst.lossAtLeastPct ?? 0) >= CONTRACT_THRESHOLDS.taxWarning) warnings.push(`a holder's sell of ${worst.sharePct}% loses more than ${worst.lossAtLeastPct}% ${at(h.holder)}`);
  }
  if (warnings.length > 0) return { flagged: false, severity: 'warning', reason: `${warnings[0]?.[0]?.toUpperCase()}${warnings.join('; ').slice(1)}.`, ...m };
  const n = new Set(sims.map((h) => h.holder)).size;
  return { flagged: false, severity: 'none', reason: `Sells simulated as ${n} holder${n > 1 ? 's' : ''} went through at every size (block ${f.block}).`, ...m };
}

/** the honeypot flag from the fresh probe's round trip */
function probeHoneypot(f: ContractFacts): RiskFlag | null {
  const sim = f.sim;
  if (!sim) return null;
  const at = `(simulated at block ${f.block})`;
  const m = measured(f);
  const buyTax = sim.buy.taxPct ?? 0;
  const sellTax = sim.sell.taxPct ?? 0;
  if (sim.buy.ok && !sim.sell.ok) {
    return { flagged: true, severity: 'red', reason: `A sell right after a buy reverted${sim.sell.error ? ` (${sim.sell.error})` : ''} ${at}: holders cannot sell.`, ...m };
  }
  if (sim.sell.ok && sellTax >= CONTRACT_THRESHOLDS.sellTaxRed) {
    return { flagged: true, severity: 'red', reason: `Selling costs ${Math.round(sellTax)}% in tax ${at}.`, ...m };
  }
  const roundTrip = 100 * (1 - (1 - buyTax / 100) * (1 - sellTax / 100));
  if (sim.sell.ok && roundTrip >= CONTRACT_THRESHOLDS.roundTripRed) {
    return { flagged: true, severity: 'red', reason: `A buy and a sell lose ${Math.round(roundTrip)}% to taxes ${at}.`, ...m };
  }
  const warnings: string[] = [];
  if (!sim.buy.ok) warnings.push(`a buy reverted${sim.buy.error ? ` (${sim.buy.error})` : ''}: trading may not be open`);
  if (sim.buy.ok && buyTax >= CONTRACT_THRESHOLDS.taxWarning) warnings.push(`buy tax ${Math.round(buyTax)}%`);
  if (sim.sell.ok && sellTax >= CONTRACT_THRESHOLDS.taxWarning) warnings.push(`sell tax ${Math.round(sellTax)}%`);
  if (sim.buy.ok && !sim.transfer.ok) warnings.push('plain transfers revert');
  else if ((sim.transfer.taxPct ?? 0) >= CONTRACT_THRESHOLDS.taxWarning) warnings.push(`transfer tax ${Math.round(sim.transfer.taxPct ?? 0)}%`);
  if (sim.buy.ok && !sim.rebuy.ok) warnings.push('a second buy in the same block reverted (a cooldown or anti-bot limit)');
  if (sim.buy.ok && sim.largeBuy && !sim.largeBuy.ok) warnings.push(`a $${Math.round(sim.largeBuy.usd)} buy reverted (a max-transaction or max-wallet limit)`);
  if (warnings.length > 0) {
    const text = warnings.join('; ');
    return { flagged: false, severity: 'warning', reason: `${text[0]?.toUpperCase()}${text.slice(1)} ${at}.`, ...m };
  }
  return { flagged: false, severity: 'none', reason: `A simulated buy, transfer and sell went through (buy tax ${r1(buyTax)}%, sell tax ${r1(sellTax)}%) ${at}.`, ...m };
}

const POWER_TEXT: Record<ContractFacts['powers'][number], string> = {
  mint: 'mint new tokens',
  blacklist: 'blacklist wallets',
  pause: 'pause trading',
  fees: 'change the taxes',
  upgrade: 'upgrade the code',
};

/** the contract flag: what the owner can still do to holders (never red on its own: regulated stablecoins have these powers) */
export function contractFlag(f: ContractFacts | null): RiskFlag {
  if (!f) return { flagged: false, severity: 'none', reason: 'The contract has not been read.', measuredAt: null, block: null, source: 'contract' };
  const m = measured(f);
  if (!f.isContract) return { flagged: false, severity: 'none', reason: 'No contract code at the address.', ...m };
  const live = f.owner !== null && !f.renounced;
  const powers = f.powers.filter((p) => p !== 'upgrade');
  const parts: string[] = [];
  if (live && powers.length > 0) parts.push(`its owner can ${powers.map((p) => POWER_TEXT[p]).join(', ')}`);
  if (f.proxy) parts.push(`it is an upgradeable proxy (${f.proxy.kind}): its code can be replaced`);
  else if (live && f.powers.includes('upgrade')) parts.push('its owner can upgrade the code');
  // a renounced token whose transfers consult a contract someone still owns is not out of anyone's hands
  const owned = (f.dependencies ?? []).filter((d) => d.owner !== null);
  if (owned.length > 0) {
    const d = owned[0] as { address: string; owner: string };
    parts.push(`${f.renounced ? 'though ownership is renounced, ' : ''}it names contract ${short(d.address)}, whose owner ${short(d.owner)} can still change it${owned.length > 1 ? ` (and ${owned.length - 1} more)` : ''}`);
  }
  if (parts.length > 0) {
    const text = parts.join('; ');
    return { flagged: false, severity: 'warning', reason: `${text[0]?.toUpperCase()}${text.slice(1)} (read at block ${f.block}).`, ...m };
  }
  const why = f.renounced ? 'ownership is renounced' : f.owner === null ? 'it has no owner' : 'its owner holds no mint, blacklist, pause or tax power';
  return { flagged: false, severity: 'none', reason: `No owner powers over holders: ${why} (read at block ${f.block}).`, ...m };
}

type LpFacts = NonNullable<PoolFacts['lp']>;

/**
 * The share of a pool's LP tokens locked at `now`: its read locks still ahead (a lock that has come
 * due locks nothing, read again or not), or the read's figure when it carries no locks
 */
export function lockedAt(lp: LpFacts, now: number | undefined): { pct: number; until: number | null } {
  if (!lp.locks) return { pct: lp.lockedPct, until: null };
  const ahead = lp.locks.filter((l) => now === undefined || l.until > now);
  const until = ahead.length > 0 ? Math.min(...ahead.map((l) => l.until)) : null;
  return { pct: Math.min(lp.lockedPct, ahead.reduce((s, l) => s + l.pct, 0)), until };
}

/** LP custody across the token's pools, weighted by each pool's liquidity, at `now` (the locks still ahead then) */
export function lpCustody(f: ContractFacts | null, now?: number): { burnedPct: number; lockedPct: number; heldPct: number; pools: number } | null {
  const pools = f?.pools.filter((p) => p.lp !== null) ?? [];
  if (pools.length === 0) return null;
  const total = pools.reduce((s, p) => s + p.liquidityUsd, 0);
  const w = (p: (typeof pools)[number]) => (total > 0 ? p.liquidityUsd / total : 1 / pools.length);
  let burned = 0;
  let locked = 0;
  let held = 0;
  for (const p of pools) {
    const lp = p.lp as LpFacts;
    burned += w(p) * lp.burnedPct;
    locked += w(p) * lockedAt(lp, now).pct;
    held += w(p) * Math.min(100, lp.deployerPct + lp.ownerPct);
  }
  return { burnedPct: r1(burned), lockedPct: r1(locked), heldPct: r1(held), pools: f?.pools.length ?? 0 };
}

/** when the first LP lock still ahead at `now` comes due, over the token's pools (unix seconds); null when none is */
export function lpLockedUntil(f: ContractFacts | null, now?: number): number | null {
  const until = (f?.pools ?? []).flatMap((p) => (p.lp ? [lockedAt(p.lp, now).until] : [])).filter((u): u is number => u !== null);
  return until.length > 0 ? Math.min(...until) : null;
}

/**
 * What LP custody says of a rug that has not happened: a warning when the deployer or owner holds
 * enough LP tokens to pull the liquidity, none when nearly all are burned or locked, else null
 * (custody says nothing either way)
 */
export function lpRugFlag(f: ContractFacts | null, now?: number): RiskFlag | null {
  const lp = lpCustody(f, now);
  if (!f || !lp) return null;
  if (lp.heldPct >= CONTRACT_THRESHOLDS.lpHeldWarning) {
    return { flagged: false, severity: 'warning', reason: `The deployer or owner holds ${Math.round(lp.heldPct)}% of the LP tokens and can pull the liquidity (read at block ${f.block}).`, ...measured(f) };
  }
  if (lp.burnedPct + lp.lockedPct >= CONTRACT_THRESHOLDS.lpSafe) {
    const lockedUntil = lpLockedUntil(f, now);
    const until = lp.lockedPct > 0 && lockedUntil !== null ? `, locked until ${iso(lockedUntil)}` : '';
    return { flagged: false, severity: 'none', reason: `${Math.round(lp.burnedPct + lp.lockedPct)}% of the LP tokens are burned or locked${until} (read at block ${f.block}).`, ...measured(f) };
  }
  return null;
}

/** the summary the risk answers carry */
export function contractSummary(f: ContractFacts | null, now?: number): ContractSummary | null {
  if (!f) return null;
  const lp = lpCustody(f, now);
  const lockedUntil = lpLockedUntil(f, now);
  const sim = f.sim;
  const holders = f.holderSims ?? [];
  const holdersSell = holders.length > 0 ? holders.every((h) => h.sells[0]?.ok === true) : null;
  const probeSells = sim ? sim.buy.ok && sim.sell.ok : null;
  return {
    measuredAt: iso(f.timestamp),
    block: f.block,
    trigger: f.trigger,
    owner: f.owner,
    renounced: f.renounced,
    proxy: f.proxy ? { kind: f.proxy.kind, implementation: f.proxy.implementation } : null,
    powers: f.powers,
    simulated: sim !== null,
    simSkipped: f.simSkipped,
    sellable: probeSells === null ? holdersSell : probeSells && holdersSell !== false,
    holdersSimulated: new Set(holders.map((h) => h.holder)).size,
    buyTaxPct: sim?.buy.taxPct ?? null,
    sellTaxPct: sim?.sell.taxPct ?? null,
    transferTaxPct: sim?.transfer.taxPct ?? null,
    cooldown: sim ? sim.buy.ok && !sim.rebuy.ok : null,
    maxTxLimited: sim?.largeBuy ? sim.buy.ok && !sim.largeBuy.ok : null,
    pools: f.pools.length,
    lpBurnedPct: lp?.burnedPct ?? null,
    lpLockedPct: lp?.lockedPct ?? null,
    lpLockedUntil: lockedUntil === null ? null : iso(lockedUntil),
    lpHeldByDeployerPct: lp?.heldPct ?? null,
  };
}
