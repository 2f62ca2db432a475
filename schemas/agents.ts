import { z } from 'zod';
import { ChainSlug, Verdict } from './common.ts';
import { Hex40 } from './events.ts';

/**
 * Copy-trading execution (DESIGN.md "Copy-trading execution"): agents, their limits, executions
 * and the webhook events they raise. An agent belongs to a partner (the API key's organisation)
 * and an end user (the wallet that authorized it), follows one leader on one venue, within the
 * user's limits.
 */

/** Execution venues. `evm-spot`: the user's ERC-7579 smart account with a session validator. */
export const ExecutionVenue = z.enum(['evm-spot']).meta({ description: 'Execution venue; `evm-spot`: swaps from the user\'s ERC-7579 smart account through a session key the contracts limit.' });
export type ExecutionVenue = z.infer<typeof ExecutionVenue>;

export const AgentState = z.enum(['pending', 'active', 'paused', 'revoked', 'expired']);
export type AgentState = z.infer<typeof AgentState>;

export const ExecutionStatus = z.enum(['planned', 'submitted', 'filled', 'failed', 'skipped']);
export type ExecutionStatus = z.infer<typeof ExecutionStatus>;

/** leader grades from the lowest to the highest; an agent copies leaders at or above its minimum */
export const LeaderGrades = ['unrated', 'avoid', 'watch', 'mirror-worthy'] as const satisfies readonly Verdict[];

const Usd = z.number().positive().max(1e9);

export const AgentLimits = z
  .object({
    /** USD per copied buy at most */
    maxNotionalUsd: Usd.meta({ description: 'USD per copied buy at most' }),
    /** USD of buys per UTC day at most */
    dailyCapUsd: Usd.meta({ description: 'USD of copied buys per UTC day at most' }),
    maxOpenPositions: z.number().int().min(1).max(100),
    /** basis points of price movement accepted between the quote and the fill */
    maxSlippageBps: z.number().int().min(1).max(5000),
    /** only these tokens when set */
    allow: z.array(Hex40).max(200).optional(),
    deny: z.array(Hex40).max(200).optional(),
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
  chain: ChainSlug,
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

export const Execution = z.object({
  executionId: z.string(),
  agentId: z.string(),
  /** identity of the leader's trade (chain:tx:logIndex) */
  leaderTrade: z.string(),
  leaderTx: z.string(),
  chain: ChainSlug,
  token: Hex40,
  side: z.enum(['buy', 'sell']),
  /** the leader's trade in USD */
  leaderUsd: z.number().nonnegative(),
  /** the agent's notional in USD (0 when skipped before sizing) */
  notionalUsd: z.number().nonnegative(),
  status: ExecutionStatus,
  /** skipped or failed: the reason code; filled: null */
  reason: z.string().nullable(),
  detail: z.string(),
  /** the venue's reference (evm-spot: the transaction hash) once submitted */
  ref: z.string().nullable(),
  /** the leader trade's time, unix seconds */
  tradeAt: z.number(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Execution = z.infer<typeof Execution>;

/** Webhook event types (DESIGN.md "Decisions"). */
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
]);
export type WebhookEventType = z.infer<typeof WebhookEventType>;
