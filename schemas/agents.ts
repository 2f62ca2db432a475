import { z } from 'zod';
import { ChainSlug, Verdict } from './common.ts';
import { Hex40 } from './events.ts';
import { StreamEventNames } from './stream.ts';

/**
 * Copy-trading execution (docs/copy-execution.md): agents, their limits, executions
 * and the webhook events they raise. An agent belongs to a partner (the API key's organisation)
 * and an end user (the wallet that authorized it), follows one leader on one venue, within the
 * user's limits.
 */

/**
 * Execution venues. `evm-spot`: the user's ERC-7579 smart account with a session validator;
 * `hyperliquid`: perpetuals through an agent key the user approves on the venue; `polymarket`
 * (in validation): paper only (LIVE_OFF).
 */
export const ExecutionVenue = z.enum(['evm-spot', 'hyperliquid', 'polymarket']).meta({
  description:
    "Execution venue; `evm-spot`: swaps from the user's ERC-7579 smart account through a session key the contracts limit; `hyperliquid`: perpetuals orders signed by an agent key the user approves on the venue (revocable, with an expiry); `polymarket` (in validation): paper only, its live trading is off (its orders would come from an address whose key this service holds)",
});
/** venues in validation: a live key's agent trades on paper unless its organisation is entitled */
export const VENUES_IN_VALIDATION: readonly ExecutionVenue[] = ['polymarket'];
export type ExecutionVenue = z.infer<typeof ExecutionVenue>;

/**
 * Venues whose live trading is off on every deployment, with the sentence that says why: the
 * prediction market's orders would come from an address whose key this service derives, so the
 * user's collateral would sit at a key we hold (a leak of the service's secret would drain it).
 * Its agents trade on paper; no client or signer is built for a live one.
 */
export const LIVE_OFF: Partial<Record<ExecutionVenue, string>> = {
  polymarket:
    "live trading on polymarket is off: its orders would be signed for an address whose key this service holds, so the user's collateral would sit at a key we hold; its agents trade on paper",
};

export const AgentState = z.enum(['pending', 'active', 'paused', 'revoked', 'expired']);
export type AgentState = z.infer<typeof AgentState>;

export const ExecutionStatus = z.enum(['planned', 'submitted', 'filled', 'failed', 'skipped']);
export type ExecutionStatus = z.infer<typeof ExecutionStatus>;

/** leader grades from the lowest to the highest; an agent copies leaders at or above its minimum */
export const LeaderGrades = ['unrated', 'avoid', 'watch', 'mirror-worthy'] as const satisfies readonly Verdict[];

const Usd = z.number().positive().max(1e9);

/** an instrument of an order-book venue: a perpetual's coin (`BTC`), an outcome token id */
export const Instrument = z.string().regex(/^(?!0x)[A-Za-z0-9:._-]{1,80}$/, 'a coin or outcome token id');
/** what an agent trades: a token address (evm-spot), a coin (perpetuals), an outcome token (prediction) */
export const InstrumentOrToken = z.union([Hex40, Instrument]);

export const AgentLimits = z
  .object({
    /** USD per copied buy at most */
    maxNotionalUsd: Usd.meta({ description: 'USD per copied buy at most' }),
    /** USD of buys per UTC day at most */
    dailyCapUsd: Usd.meta({ description: 'USD of copied buys per UTC day at most' }),
    maxOpenPositions: z.number().int().min(1).max(100),
    /** basis points of price movement accepted between the quote and the fill */
    maxSlippageBps: z.number().int().min(1).max(5000),
    /** only these tokens (evm-spot) or instruments (a perpetual's coin, an outcome token) when set */
    allow: z.array(InstrumentOrToken).max(200).optional(),
    deny: z.array(InstrumentOrToken).max(200).optional(),
    /** the leader's grade at the trade must be at least this */
    minLeaderGrade: Verdict.default('watch'),
    /** hard expiry, unix seconds: nothing is submitted afterwards */
    expiresAt: z.number().int().positive(),
  })
  .strict();
export type AgentLimits = z.infer<typeof AgentLimits>;

/** What the venue needs to trade for the user, and what the user enables on chain. */
export const AgentSession = z.object({
  /** the user's account on the venue (evm-spot: the ERC-7579 smart account) */
  account: Hex40,
  /** address of the backend's session key for this agent */
  sessionKey: Hex40,
  /** venue-specific setup the user performs once (evm-spot: the module and the call enabling the session) */
  setup: z.record(z.string(), z.unknown()),
});
export type AgentSession = z.infer<typeof AgentSession>;

export const Agent = z.object({
  agentId: z.string(),
  /** organisation of the API key that created it */
  partner: z.string(),
  /** the end user's wallet that authorized it (lowercase) */
  wallet: Hex40,
  /** paper: a sandbox organisation's agent, recorded as skipped/paper, never submitted */
  mode: z.enum(['paper', 'live']),
  venue: ExecutionVenue,
  /** evm-spot: the chain; hyperliquid, polymarket: the venue whose fills the leader is followed on (the venue itself, or `sim`, the venue simulator, for paper) */
  chain: z.union([ChainSlug, z.enum(['hyperliquid', 'polymarket'])]),
  leader: Hex40,
  limits: AgentLimits,
  state: AgentState,
  /** why the state is what it is (pause, revoke, expiry) */
  stateReason: z.string().nullable(),
  session: AgentSession.nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Agent = z.infer<typeof Agent>;

/** One fill of an execution's order on the venue. */
export const ExecutionFill = z.object({
  /** decimal strings as the venue reports them: the price in USD, the size in the instrument's units */
  price: z.string(),
  size: z.string(),
});

export const Execution = z.object({
  executionId: z.string(),
  agentId: z.string(),
  /** identity of the leader's trade (chain:tx:logIndex) */
  leaderTrade: z.string(),
  leaderTx: z.string(),
  chain: Agent.shape.chain,
  /** what is traded: the token (evm-spot), the coin (hyperliquid), the outcome token id (polymarket) */
  token: InstrumentOrToken,
  /** the order's side */
  side: z.enum(['buy', 'sell']),
  /** open: a copy of the leader's entry; close: of its exit (reduce-only on perpetuals); rows before perpetuals: buy opens, sell closes */
  action: z.enum(['open', 'close']).optional(),
  /** perpetuals: the position an open adds to */
  direction: z.enum(['long', 'short']).nullable().optional(),
  /** a close: the share of the position it closes (the leader's share of its own) */
  fraction: z.number().positive().max(1).nullable().optional(),
  /**
   * a live close: what it sells (a decimal integer), its share of what the agent's filled copies
   * brought into the account, so the user's other holding is never sold: evm-spot the token's base
   * units, perpetuals the position's size in units of 10^-8; null or absent: an entry, or a
   * position from before the units were counted (evm-spot: then the share of the account's
   * balance; perpetuals: nothing is reduced)
   */
  units: z.string().regex(/^\d+$/).nullable().optional(),
  /** the leader's trade in USD */
  leaderUsd: z.number().nonnegative(),
  /** the agent's notional in USD (0 when skipped before sizing) */
  notionalUsd: z.number().nonnegative(),
  status: ExecutionStatus,
  /** skipped or failed: the reason code; filled: null */
  reason: z.string().nullable(),
  detail: z.string(),
  /** the venue's reference (evm-spot: the transaction hash; hyperliquid, polymarket: the order id) once submitted */
  ref: z.string().nullable(),
  /** order-book venues: the venue's order id once it took the order */
  venueOrderId: z.string().nullable().default(null),
  /** order-book venues: the order's fills (evm-spot: none, the swap is the transaction) */
  fills: z.array(ExecutionFill).default([]),
  /** the leader trade's time, unix seconds */
  tradeAt: z.number(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Execution = z.infer<typeof Execution>;

/** Webhook event types (docs/architecture.md "Decisions"). */
export const WebhookEventType = z.enum([
  'agent.created',
  'agent.activated',
  'agent.paused',
  'agent.revoked',
  'agent.expired',
  'execution.planned',
  'execution.submitted',
  'execution.filled',
  'execution.skipped',
  'execution.failed',
  /** sent on request from the webhooks API, to check an endpoint */
  'webhook.test',
  /** the live stream's events, pushed to an endpoint subscribed to their topic (billed per delivery) */
  ...StreamEventNames,
]);
export type WebhookEventType = z.infer<typeof WebhookEventType>;
