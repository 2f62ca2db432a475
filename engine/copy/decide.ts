import type { AgentLimits, AgentState } from '../../schemas/agents.ts';
import { LeaderGrades } from '../../schemas/agents.ts';
import type { Verdict } from '../../schemas/common.ts';
import type { RiskBand, TokenFinal } from '../../schemas/token.ts';

/**
 * Copy decisions (docs/copy-execution.md): a leader's trade, the engine's final gates
 * at that moment and an agent's limits and book → one decision, `planned` with a notional or
 * `skipped` with the reason. Pure: the caller passes the time, the gates and the book; the
 * runtime records the decision once per (agent, leader trade) and applies it to the book.
 *
 * Order: the agent's own state (inactive, expired, a trade from before the agent, a stale trade),
 * then the engine's gates (leader grade, token risk, exit risk), then the user's limits (allow and
 * deny lists, open positions, per-trade size, daily cap, slippage against the pool's depth). A
 * sell copies only a position the agent holds and closes it; the gates that protect an entry do
 * not stop an exit.
 */

/** A leader's swap as the copy worker sees it (a `trades.by-wallet` swap). */
export interface LeaderTrade {
  /** event identity chain:tx:logIndex */
  id: string;
  tx: string;
  chain: string;
  token: string;
  side: 'buy' | 'sell';
  usd: number;
  /** unix seconds */
  timestamp: number;
  /** the token's total pool liquidity (USD) when the swap was folded, when known */
  liquidityUsd: number | null;
  /**
   * what is traded: `spot` a token (the engine's token gates apply), `perp` a perpetual's coin,
   * `outcome` a prediction market's outcome token (the venue lists them: no token gates, no pool
   * depth); default spot
   */
  instrument?: 'spot' | 'perp' | 'outcome';
  /** an entry or an exit of the leader; default: a buy opens, a sell closes */
  action?: 'open' | 'close';
  /** an exit: the share (0, 1] of its position the leader closed; default 1 */
  fraction?: number;
}

/** the leader's trade is an exit (spot: a sell; perpetuals: it reduced its position) */
export const isExit = (t: Pick<LeaderTrade, 'side' | 'action'>): boolean => (t.action ?? (t.side === 'sell' ? 'close' : 'open')) === 'close';

/** The engine's final facts at the trade: the token's bands and flags, and the leader's grade. */
export interface CopyGates {
  token: Pick<TokenFinal, 'risk' | 'exitRisk' | 'flags' | 'sellable'> | undefined;
  leaderGrade: Verdict | undefined;
}

/** What an agent holds and spent, as its executions left it. */
export interface AgentBook {
  /** UTC day (YYYY-MM-DD) the spend counts for */
  day: string;
  /** USD of buys on `day` (planned, submitted, filled and paper) */
  spentUsd: number;
  /**
   * open positions by token: USD bought; `units`, a live evm-spot agent's: the token's base units
   * (a decimal integer) its filled buys brought into the account and its closes did not take, so a
   * close sells the copy and never what the user held besides (absent in books from before units
   * were counted, and for the other venues)
   */
  open: Record<string, Position>;
}

export interface Position {
  usd: number;
  since: number;
  units?: string;
}

/** the base units a close of `fraction` of the position sells: its share of the copied units (undefined when they are not counted) */
export function closeUnits(pos: Position | undefined, fraction: number): string | undefined {
  if (pos?.units === undefined) return undefined;
  const f = Math.min(1, Math.max(0, fraction));
  return f >= 1 ? pos.units : ((BigInt(pos.units) * BigInt(Math.round(f * 1e6))) / 1_000_000n).toString();
}

/** the book after a copied buy of `token` filled with `units` base units: its position holds them (a position closed meanwhile takes nothing) */
export function applyFill(book: AgentBook, token: string, units: string): AgentBook {
  const pos = book.open[token];
  if (pos?.units === undefined) return book;
  return { ...book, open: { ...book.open, [token]: { ...pos, units: (BigInt(pos.units) + BigInt(units)).toString() } } };
}

export interface CopyAgent {
  mode: 'paper' | 'live';
  state: AgentState;
  limits: AgentLimits;
  /** ms */
  createdAt: number;
}

export type CopyDecision =
  | { status: 'planned'; notionalUsd: number; reason: null; detail: string }
  | { status: 'skipped'; notionalUsd: number; reason: SkipReason; detail: string };

export type SkipReason =
  | 'agent_inactive'
  | 'agent_expired'
  | 'stale_trade'
  | 'leader_grade'
  | 'token_unknown'
  | 'token_risk'
  | 'exit_risk'
  | 'token_denied'
  | 'token_not_allowed'
  | 'no_position'
  | 'max_open_positions'
  | 'daily_cap'
  | 'slippage'
  | 'paper';

/** a trade older than this when decided is not copied: the price it was made at is gone */
export const MAX_TRADE_AGE_S = 300;
/** buys below this many USD are not worth a transaction */
export const MIN_NOTIONAL_USD = 1;
const RISK_ORDER: readonly RiskBand[] = ['low', 'moderate', 'high', 'extreme'];

export const utcDay = (unixS: number): string => new Date(unixS * 1000).toISOString().slice(0, 10);

export const emptyBook = (day: string): AgentBook => ({ day, spentUsd: 0, open: {} });

/** the book as of `day`: a new UTC day starts with nothing spent */
export function bookOn(book: AgentBook, day: string): AgentBook {
  return book.day === day ? book : { day, spentUsd: 0, open: book.open };
}

const gradeRank = (g: Verdict | undefined): number => LeaderGrades.indexOf(g ?? 'unrated');

/**
 * The price impact of spending `usd` into a constant-product pool holding `liquidityUsd` in total
 * (half on each side), in basis points: out = y·x'/(x+x'), so the average price moves by x'/(x+x').
 */
export function impactBps(usd: number, liquidityUsd: number): number {
  const side = liquidityUsd / 2;
  if (side <= 0) return Infinity;
  return (usd / (side + usd)) * 10_000;
}

/** One leader trade for one agent. `nowS`: the decision's time (unix seconds). */
export function decideCopy(agent: CopyAgent, trade: LeaderTrade, gates: CopyGates, book: AgentBook, nowS: number): CopyDecision {
  const skip = (reason: SkipReason, detail: string, notionalUsd = 0): CopyDecision => ({ status: 'skipped', reason, detail, notionalUsd });
  const l = agent.limits;
  if (trade.timestamp >= l.expiresAt || nowS >= l.expiresAt) return skip('agent_expired', `the agent expired at ${new Date(l.expiresAt * 1000).toISOString()}`);
  if (agent.state !== 'active') return skip('agent_inactive', `the agent is ${agent.state}`);
  if (nowS - trade.timestamp > MAX_TRADE_AGE_S) return skip('stale_trade', `the leader's trade is ${Math.round(nowS - trade.timestamp)} s old (at most ${MAX_TRADE_AGE_S} s is copied)`);
  const b = bookOn(book, utcDay(trade.timestamp));
  const held = b.open[trade.token];

  if (isExit(trade)) {
    if (!held) return skip('no_position', `the leader ${trade.instrument === 'perp' ? 'reduced a position' : 'sold a token'} the agent does not hold`);
    const fraction = Math.min(1, Math.max(0, trade.fraction ?? 1));
    if (fraction < 1) return decided(agent, held.usd * fraction, `the leader closed ${Math.round(fraction * 100)}% of its position: the agent closes the same share of its own`);
    return decided(agent, held.usd, `the leader ${trade.instrument === 'perp' ? 'closed its position' : 'sold'}: the agent closes its position (opened for $${round2(held.usd)})`);
  }

  if (gradeRank(gates.leaderGrade) < gradeRank(l.minLeaderGrade)) {
    return skip('leader_grade', `the leader is graded ${gates.leaderGrade ?? 'unrated'}, below the agent's minimum ${l.minLeaderGrade}`);
  }
  // a perpetual or an outcome has no token facts: the venue lists it, and its book is the depth
  if (trade.instrument === 'perp' || trade.instrument === 'outcome') return sized(agent, trade, b, held);
  if (!gates.token) return skip('token_unknown', 'the token has no final verdict yet');
  if (gates.token.flags.includes('rug') || gates.token.flags.includes('honeypot') || !gates.token.sellable) {
    return skip('token_risk', `the token is flagged ${gates.token.flags.join(', ') || 'unsellable'}`);
  }
  if (RISK_ORDER.indexOf(gates.token.risk) >= RISK_ORDER.indexOf('high')) return skip('token_risk', `the token's risk is ${gates.token.risk}`);
  if (RISK_ORDER.indexOf(gates.token.exitRisk) >= RISK_ORDER.indexOf('high')) return skip('exit_risk', `the token's exit risk is ${gates.token.exitRisk}`);
  return sized(agent, trade, b, held);
}

/** the user's limits on an entry: allow and deny lists, open positions, per-trade size, daily cap, pool depth */
function sized(agent: CopyAgent, trade: LeaderTrade, b: AgentBook, held: AgentBook['open'][string] | undefined): CopyDecision {
  const skip = (reason: SkipReason, detail: string, notionalUsd = 0): CopyDecision => ({ status: 'skipped', reason, detail, notionalUsd });
  const l = agent.limits;
  if (l.deny?.includes(trade.token)) return skip('token_denied', 'the token is on the agent\'s deny list');
  if (l.allow && l.allow.length > 0 && !l.allow.includes(trade.token)) return skip('token_not_allowed', 'the token is not on the agent\'s allow list');
  if (!held && Object.keys(b.open).length >= l.maxOpenPositions) return skip('max_open_positions', `the agent holds ${l.maxOpenPositions} positions, its maximum`);

  const notional = Math.min(trade.usd, l.maxNotionalUsd);
  if (notional < MIN_NOTIONAL_USD) return skip('daily_cap', `$${round2(notional)} is below the $${MIN_NOTIONAL_USD} minimum`, notional);
  if (b.spentUsd + notional > l.dailyCapUsd + 1e-9) {
    return skip('daily_cap', `$${round2(notional)} would pass the daily cap: $${round2(b.spentUsd)} of $${round2(l.dailyCapUsd)} spent today`, notional);
  }
  if (trade.liquidityUsd !== null) {
    const impact = impactBps(notional, trade.liquidityUsd);
    if (impact > l.maxSlippageBps) return skip('slippage', `$${round2(notional)} would move the pool's price ~${Math.round(impact)} bps, above the agent's ${l.maxSlippageBps} bps`, notional);
  }
  const size = notional < trade.usd ? `capped at $${round2(notional)} (the leader traded $${round2(trade.usd)})` : `$${round2(notional)}, as the leader`;
  return decided(agent, notional, `copying the leader's ${trade.instrument === 'perp' ? 'entry' : 'buy'}: ${size}`);
}

function decided(agent: CopyAgent, notionalUsd: number, detail: string): CopyDecision {
  if (agent.mode === 'paper') return { status: 'skipped', reason: 'paper', notionalUsd, detail: `paper: ${detail}` };
  return { status: 'planned', notionalUsd, reason: null, detail };
}

/**
 * The book after a decision was recorded: a planned (or paper) buy spends today's cap and opens
 * or adds to the position, a sell closes it. A live agent's position is opened when the buy is
 * planned (so the open-position limit counts it in flight) and dropped again if it fails.
 */
export function applyDecision(book: AgentBook, trade: LeaderTrade, d: CopyDecision): AgentBook {
  const live = d.status === 'planned' || (d.status === 'skipped' && d.reason === 'paper');
  const b = bookOn(book, utcDay(trade.timestamp));
  if (!live) return b;
  if (isExit(trade)) {
    const open = { ...b.open };
    const pos = open[trade.token];
    const left = pos ? pos.usd - d.notionalUsd : 0;
    if (pos && left > 1e-9) {
      // closeUnits is defined exactly when the position counts units
      const sold = closeUnits(pos, trade.fraction ?? 1);
      open[trade.token] = { ...pos, usd: left, ...(sold !== undefined ? { units: (BigInt(pos.units as string) - BigInt(sold)).toString() } : {}) };
    }
    else delete open[trade.token];
    return { ...b, open };
  }
  const prev = b.open[trade.token];
  // a new position counts the units its fills bring; one from before they were counted stays uncounted
  const units = prev ? prev.units : '0';
  return {
    ...b,
    spentUsd: b.spentUsd + d.notionalUsd,
    open: { ...b.open, [trade.token]: { usd: (prev?.usd ?? 0) + d.notionalUsd, since: prev?.since ?? trade.timestamp, ...(units !== undefined ? { units } : {}) } },
  };
}

/**
 * The book after a live execution failed: a failed buy gives its notional back to the day it was
 * spent on and its position is dropped when it held nothing else; a failed sell (a close) puts
 * what it would have closed back into the position.
 */
export function applyFailure(
  book: AgentBook,
  exec: { token: string; side: 'buy' | 'sell'; action?: 'open' | 'close'; notionalUsd: number; tradeAt: number },
  held?: Position,
): AgentBook {
  if (isExit(exec)) {
    if (!held) return book;
    const pos = book.open[exec.token];
    // the units the close would have sold are the position's again (when both sides count them)
    const units = held.units !== undefined && (pos === undefined || pos.units !== undefined) ? (BigInt(pos?.units ?? '0') + BigInt(held.units)).toString() : undefined;
    return { ...book, open: { ...book.open, [exec.token]: { usd: (pos?.usd ?? 0) + held.usd, since: pos?.since ?? held.since, ...(units !== undefined ? { units } : {}) } } };
  }
  const day = utcDay(exec.tradeAt);
  const spentUsd = book.day === day ? Math.max(0, book.spentUsd - exec.notionalUsd) : book.spentUsd;
  const pos = book.open[exec.token];
  const open = { ...book.open };
  if (pos) {
    const left = pos.usd - exec.notionalUsd;
    if (left > 1e-9) open[exec.token] = { ...pos, usd: left };
    else delete open[exec.token];
  }
  return { ...book, spentUsd, open };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
