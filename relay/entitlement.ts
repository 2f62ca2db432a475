import type { AgentCaller } from '../api/routes/agents.ts';
import type { Org } from '../infra/keys.ts';
import { LIVE_OFF } from '../schemas/agents.ts';
import type { Agent } from '../schemas/agents.ts';

/**
 * Where an agent's account lives, the only chain on which a contract wallet's signature proves the
 * address (the same address on another chain may be anyone's contract): an evm-spot agent's chain;
 * Polygon for the prediction market (its CLOB settles there); none for the perpetuals venue,
 * whose accounts are keys (a contract cannot sign for one).
 */
export function accountChain(a: Pick<Agent, 'venue' | 'chain'>): string | undefined {
  if (a.venue === 'evm-spot') return a.chain;
  return a.venue === 'polymarket' ? 'polygon' : undefined;
}

/** the caller proved the agent's account: an EOA's signature anywhere, a contract wallet's on the account's chain */
export function provenFor(caller: Pick<AgentCaller, 'walletChains'>, a: Pick<Agent, 'venue' | 'chain'>): boolean {
  if (!caller.walletChains) return true;
  const chain = accountChain(a);
  return chain !== undefined && caller.walletChains.includes(chain);
}

/**
 * Why a live agent may not trade now, in one sentence; undefined when it may. Read at every submit
 * and every lifecycle check, not only at creation: an organisation gone, back to paper, no longer
 * entitled to the venue, or a venue whose live trading is off.
 */
export function liveRefusal(org: Org | undefined, a: Pick<Agent, 'partner' | 'venue'>): string | undefined {
  if (!org) return `organisation ${a.partner} no longer exists`;
  if (!org.live) return `organisation ${org.id} trades on paper only`;
  const off = LIVE_OFF[a.venue];
  if (off) return off;
  if (!org.venues.includes(a.venue)) return `organisation ${org.id} is no longer entitled to ${a.venue}`;
  return undefined;
}
