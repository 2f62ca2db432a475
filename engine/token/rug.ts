import type { RiskFlag } from '../../schemas/token.ts';
import type { LiquidityDrop, TokenState, TraderRec } from './state.ts';
import { LIMITS } from './state.ts';

/**
 * The rug flag from the pool's history: what made each large fall of the liquidity, and what the
 * deployer side took out over the token's life. A fall is a rug only when liquidity was taken
 * out (a pull, or a drain over hours) or the deployer side sold into the pool (a dump); a fall
 * that came from outside sellers is a price crash, and one whose liquidity now sits in another
 * pool of the token is a migration. Slow drains pass every windowed rule, so the deployer side's
 * withdrawals are also summed over the token's life.
 */

export const RUG_THRESHOLDS = {
  /** a fall of more than this share of the liquidity is looked at */
  dropShare: 0.5,
  /** a fall is a pull when removals took at least this share of what fell */
  removedShareOfFall: 1 / 3,
  /** a fall is a dump when the deployer side's sells took at least this share of the quote side that fell */
  dumpShareOfFall: 1 / 3,
  /** a migration: the token's liquidity stands at this share of the drop's high again, in other pools at least `migratedElsewhere` */
  migratedTotal: 0.7,
  migratedElsewhere: 0.5,
  /** ... and the deployer side added at least this share of what fell to other pools ... */
  migratedArrived: 0.7,
  /** ... within this many seconds of the fall (before it: the new pool first; after it: the old pool first) */
  migrationWindowSec: 3600,
  /** the deployer side's net withdrawals over the token's life, as a share of the liquidity's peak */
  drainRed: 0.5,
  drainWarning: 0.25,
} as const;

const H = 3600;
const DAY = 24 * H;
const iso = (ts: number) => new Date(ts * 1000).toISOString();

export type DropCause = 'pull' | 'dump' | 'migration' | 'crash';

export interface RugContext {
  liquidity: TokenState['liquidity'];
  traders: Record<string, TraderRec>;
  /** the deployer, the insiders, and whoever first supplied each pool's liquidity */
  deployerSide: Set<string>;
  deployer: string | null;
}

/**
 * The deployer side of a token: its deployer and insiders, the first provider of each of its
 * pools, and any wallet that removed liquidity it never added (it was handed the LP tokens).
 */
export function deployerSide(state: TokenState, insiders: Set<string>): Set<string> {
  const L = state.liquidity;
  const side = new Set(insiders);
  for (const p of Object.values(L.firstProviders ?? {})) side.add(p);
  for (const [p, w] of Object.entries(L.withdrawals ?? {})) {
    const added = (L.providers[p] ?? 0) + w.removedUsd;
    if (added <= 0.01 * w.removedUsd) side.add(p);
  }
  return side;
}

export function dropShare(d: LiquidityDrop): number {
  return d.fromUsd > 0 ? 1 - d.toUsd / d.fromUsd : 0;
}

/** what made a large fall: checked from the strongest evidence of intent down */
export function dropCause(d: LiquidityDrop, ctx: RugContext): DropCause {
  if (migrated(d, ctx)) return 'migration';
  const fell = d.fromUsd - d.toUsd;
  const removed = d.removedUsd ?? (d.removedBy.length > 0 ? fell : 0);
  if (d.overSec !== undefined || removed >= RUG_THRESHOLDS.removedShareOfFall * fell) return 'pull';
  // the quote side of a V2 pool is half its liquidity: sells took about half of what fell
  if (deployerSideSells(d, ctx) >= RUG_THRESHOLDS.dumpShareOfFall * (fell / 2)) return 'dump';
  return 'crash';
}

/**
 * The liquidity stands again near the drop's high, mostly outside the pool that fell, and the
 * deployer side put it there around the fall: liquidity an outsider holds in another pool, or
 * liquidity put back a day later, is no migration (holders had nowhere to sell meanwhile).
 * An add's USD is twice its quote side, so tokens alone in a V3 range put back nothing.
 */
function migrated(d: LiquidityDrop, ctx: RugContext): boolean {
  const L = ctx.liquidity;
  if (d.pool === undefined || !L.pools || L.usd === null) return false;
  const elsewhere = Object.entries(L.pools).reduce((sum, [pool, p]) => (pool === d.pool ? sum : sum + p.usd), 0);
  if (L.usd < RUG_THRESHOLDS.migratedTotal * d.fromUsd || elsewhere < RUG_THRESHOLDS.migratedElsewhere * d.fromUsd) return false;
  // whoever pulled, or the deployer: a pool's first provider is deployer side, yet may be anyone
  const movers = new Set([...d.removedBy, ...(ctx.deployer ? [ctx.deployer] : [])]);
  const near = (ts: number) => Math.abs(ts - d.ts) <= RUG_THRESHOLDS.migrationWindowSec;
  const arrived = (L.adds ?? []).filter((a) => a.pool !== d.pool && movers.has(a.provider) && near(a.ts)).reduce((sum, a) => sum + a.usd, 0);
  return arrived >= RUG_THRESHOLDS.migratedArrived * (d.fromUsd - d.toUsd);
}

/** USD the deployer side sold with a sell inside the drop's window (their whole sells: a trader record keeps sums) */
function deployerSideSells(d: LiquidityDrop, ctx: RugContext): number {
  const from = d.ts - (d.overSec ?? 0) - LIMITS.dropWindowMinutes * 60;
  let usd = 0;
  for (const w of ctx.deployerSide) {
    const t = ctx.traders[w];
    if (!t || t.sellUsd <= 0) continue;
    const inWindow = (ts: number) => ts >= from && ts <= d.ts;
    if (inWindow(t.lastSellTs) || inWindow(t.prevSellTs)) usd += t.sellUsd;
  }
  return usd;
}

function pulledBy(providers: string[], ctx: RugContext): string {
  return providers.some((p) => p === ctx.deployer)
    ? ', pulled by the deployer'
    : providers.some((p) => ctx.deployerSide.has(p))
      ? ', pulled by an insider'
      : providers.length > 0
        ? ', pulled by a liquidity provider'
        : '';
}

function fallFlag(d: LiquidityDrop, cause: DropCause, ctx: RugContext): RiskFlag {
  const pct = Math.round(100 * dropShare(d));
  const when = d.overSec === undefined ? `within ${LIMITS.dropWindowMinutes} minutes` : `over ${Math.max(1, Math.round(d.overSec / H))} h of removals`;
  if (cause === 'pull') return { flagged: true, severity: 'red', reason: `Liquidity fell ${pct}% ${when}${pulledBy(d.removedBy, ctx)}.`, happenedAt: iso(d.ts) };
  if (cause === 'dump') {
    return { flagged: true, severity: 'red', reason: `Liquidity fell ${pct}% ${when} as the deployer side sold into the pool: a dump.`, happenedAt: iso(d.ts) };
  }
  if (cause === 'migration') return { flagged: false, severity: 'none', reason: `Liquidity moved to another pool of the token: a migration, not a pull.` };
  return { flagged: false, severity: 'warning', reason: `The pool's value fell ${pct}% ${when} in a price crash, with its liquidity left in place.` };
}

/** the deployer side's net withdrawals over the token's life: removals less what it added back since */
export function drainOf(ctx: RugContext): { share: number; removals: number; firstTs: number; lastTs: number } | null {
  const L = ctx.liquidity;
  if (!L.withdrawals || !(L.peakUsd > 0)) return null;
  let net = 0;
  let removals = 0;
  let firstTs = Infinity;
  let lastTs = -Infinity;
  for (const [provider, w] of Object.entries(L.withdrawals)) {
    if (!ctx.deployerSide.has(provider)) continue;
    net += Math.max(0, w.removedUsd - w.readdedUsd);
    removals += w.removals;
    firstTs = Math.min(firstTs, w.firstTs);
    lastTs = Math.max(lastTs, w.lastTs);
  }
  return removals > 0 ? { share: net / L.peakUsd, removals, firstTs, lastTs } : null;
}

function drainFlag(ctx: RugContext): RiskFlag | null {
  const drain = drainOf(ctx);
  if (!drain || drain.share < RUG_THRESHOLDS.drainWarning) return null;
  const pct = Math.round(100 * drain.share);
  const span = drain.lastTs - drain.firstTs;
  const over = span >= DAY ? `${Math.round((10 * span) / DAY) / 10} days` : `${Math.max(1, Math.round(span / H))} h`;
  const what = `The deployer side has taken out ${pct}% of the liquidity's peak in ${drain.removals} removals over ${over}`;
  if (drain.share >= RUG_THRESHOLDS.drainRed) return { flagged: true, severity: 'red', reason: `${what}: a slow drain.`, happenedAt: iso(drain.lastTs) };
  return { flagged: false, severity: 'warning', reason: `${what}: a drain may be under way.` };
}

/**
 * The rug flag from the pool's history: the largest fall that was a pull or a dump; else a drain
 * over the token's life; else the largest fall's benign cause (a crash warns, a migration is
 * said); null when nothing of the pool's history speaks (the caller's other rules decide).
 */
export function poolRugFlag(ctx: RugContext): RiskFlag | null {
  const large = ctx.liquidity.drops.filter((d) => dropShare(d) > RUG_THRESHOLDS.dropShare).sort((a, b) => dropShare(b) - dropShare(a));
  const causes = large.map((d) => ({ d, cause: dropCause(d, ctx) }));
  const rug = causes.find((c) => c.cause === 'pull' || c.cause === 'dump');
  if (rug) return fallFlag(rug.d, rug.cause, ctx);
  const drain = drainFlag(ctx);
  if (drain) return drain;
  const benign = causes[0];
  return benign ? fallFlag(benign.d, benign.cause, ctx) : null;
}
