/**
 * What the end user signs to create a copy agent: EIP-712 typed data a wallet shows field by field
 * (Hyperliquid's `approveAgent` is the model), not a hash of a body. Every field of the create
 * request is in it, as the agent will hold it (the chain and mode resolved, the session key the
 * backend derives for the agent), so a signature over other caps, another leader or another key
 * verifies for nothing else. The other relay calls keep the canonical EIP-191 message.
 *
 * The domain has no chainId: an agent may live off any EVM chain (a perpetuals venue), and a wallet
 * refuses typed data whose chainId is not its current chain; `chain` is a field of the message.
 */
export const AGENT_GRANT_DOMAIN = { name: 'intel-agent-api', version: '1' };

export const AgentGrantTypes = {
  Cap: [
    { name: 'asset', type: 'string' },
    { name: 'amount', type: 'string' },
  ],
  AgentGrant: [
    { name: 'partner', type: 'string' },
    { name: 'venue', type: 'string' },
    { name: 'chain', type: 'string' },
    { name: 'leaderVenue', type: 'string' },
    { name: 'mode', type: 'string' },
    { name: 'leader', type: 'address' },
    { name: 'account', type: 'address' },
    { name: 'sessionKey', type: 'address' },
    { name: 'caps', type: 'Cap[]' },
    { name: 'maxNotionalUsd', type: 'string' },
    { name: 'dailyCapUsd', type: 'string' },
    { name: 'maxOpenPositions', type: 'uint256' },
    { name: 'maxSlippageBps', type: 'uint256' },
    { name: 'allow', type: 'string[]' },
    { name: 'deny', type: 'string[]' },
    { name: 'minLeaderGrade', type: 'string' },
    { name: 'expiresAt', type: 'uint256' },
    { name: 'timestamp', type: 'uint256' },
  ],
};

/** a cumulative cap on what the session may spend of one asset, in that asset's units (evm-spot: `native`) */
export interface GrantCap {
  asset: string;
  amount: string;
}

export interface AgentGrant {
  /** the organisation of the API key */
  partner: string;
  venue: string;
  /** resolved: evm-spot's chain, or the feed an order-book venue's leader is followed on */
  chain: string;
  /** as asked; empty when not given */
  leaderVenue: string;
  /** resolved: paper or live */
  mode: 'paper' | 'live';
  leader: string;
  account: string;
  /** the backend's session key for the agent; the zero address for a paper agent (no key exists) */
  sessionKey: string;
  caps: GrantCap[];
  maxNotionalUsd: number;
  dailyCapUsd: number;
  maxOpenPositions: number;
  maxSlippageBps: number;
  allow: string[];
  deny: string[];
  minLeaderGrade: string;
  expiresAt: number;
  /** X-Auth-Timestamp: when it was signed (the authorization is fresh for 300 s, accepted once) */
  timestamp: number;
}

/** The typed data of a grant, as eth_signTypedData_v4 takes it (JSON: numbers, strings, arrays). */
export function agentGrantTypedData(g: AgentGrant) {
  return {
    domain: AGENT_GRANT_DOMAIN,
    types: AgentGrantTypes,
    primaryType: 'AgentGrant' as const,
    message: {
      ...g,
      leader: g.leader.toLowerCase(),
      account: g.account.toLowerCase(),
      sessionKey: g.sessionKey.toLowerCase(),
      maxNotionalUsd: String(g.maxNotionalUsd),
      dailyCapUsd: String(g.dailyCapUsd),
    },
  };
}
export type AgentGrantTypedData = ReturnType<typeof agentGrantTypedData>;
