import { createHash, randomBytes } from 'node:crypto';
import { utcDay } from '../engine/copy/decide.ts';
import type { Agent } from '../schemas/agents.ts';

/** The row keys and ids of agents, executions and their webhook events: fixed by their subject, so a replay names the same one. */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * An agent's id: from the partner, the wallet and the signing timestamp, so the session key (derived
 * from the id) is known before the signature; random for an agent created without a grant.
 */
export const agentIdOf = (partner: string, wallet: string, timestamp: number | undefined) =>
  timestamp === undefined ? `ag_${randomBytes(8).toString('hex')}` : `ag_${sha256(`${partner}|${wallet}|${timestamp}`).slice(0, 16)}`;
export const agentKey = (partner: string, wallet: string, agentId: string) => `${partner}:${wallet}:${agentId}`;
/** seconds, zero-padded so keys sort by time */
export const pad = (n: number) => String(Math.floor(n)).padStart(11, '0');
/** an execution's row key: by agent, the trade's UTC day and time, and the trade */
export const executionKey = (agentId: string, tradeAt: number, tradeId: string) => `${agentId}:${utcDay(tradeAt)}:${pad(tradeAt)}:${tradeId}`;
export const executionIdOf = (agentId: string, tradeId: string) => `ex_${sha256(`${agentId}|${tradeId}`).slice(0, 20)}`;
export const eventIdOf = (type: string, subject: string) => `evt_${sha256(`${type}|${subject}`).slice(0, 24)}`;
export const leaderKey = (chain: string, wallet: string) => `${chain}:${wallet}`;

/**
 * Where a leader's trades are recorded and its grade is read: a chain's wallet (evm-spot), or an
 * account on a perpetuals or prediction venue's feed (hyperliquid, polymarket agents).
 */
export function leaderFeed(venue: Agent['venue'], chain: string): { trades: string; grade: string } {
  if (venue === 'evm-spot') return { trades: chain, grade: `wallet:${chain}` };
  const kind = venue === 'hyperliquid' ? 'perp' : 'prediction';
  return { trades: `${kind}:${chain}`, grade: `${kind}:${chain}` };
}
