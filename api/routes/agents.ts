import { z } from 'zod';
import { EvmStableCap } from '../../schemas/evm-session.ts';
import { Agent, AgentState, Execution, ExecutionStatus, ExecutionVenue, Instrument } from '../../schemas/agents.ts';
import type { AgentLimits } from '../../schemas/agents.ts';
import { NextCursor, Verdict } from '../../schemas/common.ts';
import { SizeBand } from '../../schemas/wallet.ts';
import type { AnyOperation, CallContext } from '../operations.ts';
import { defineOperation } from '../operations.ts';
import { AddressParam, ChainParam, CursorParam, bodyNumber, decodeCursor, encodeCursor } from './common.ts';
import type { Page, SortKey } from '../../infra/page.ts';
import { ApiError } from '../../schemas/errors.ts';

/**
 * The copy-trading execution relay `/copy/agent/*` (docs/copy-execution.md): every
 * operation needs the end user's wallet authorization besides the key (api/wallet-auth.ts, run by
 * the operation handler before the input is read). An agent is the partner's (the key's
 * organisation) and the user's (the signing wallet): another partner or another wallet sees 404
 * not_found. The work is done by the agent service runtime/ injects (relay/agent-service.ts); the API
 * validates, authorizes and answers. Units: create 2, dry run 3, the others 1.
 */

/** who calls: the key's organisation and kind, and the wallet that signed */
export interface AgentCaller {
  partner: string;
  /** a sandbox (`test`) key's agents run in paper mode */
  keyKind: 'test' | 'live';
  wallet: string;
  /** ms */
  now: number;
  /** the hash of the signed message: what the call creates is keyed on it (a replay creates nothing new) */
  authorization?: string;
  /**
   * agent creation over HTTP: the signing timestamp (the agent's id derives from it) and the
   * verification of the EIP-712 grant the service builds (api/wallet-auth.ts authorizeTyped)
   */
  grant?: { timestamp: number; authorize: NonNullable<CallContext['authorizeTyped']> };
  /**
   * a contract wallet's signature: the chains where it verified. Its control of the address is
   * proven there only, so it reaches the agents that settle on one of them (absent: an EOA's
   * signature, which proves the address on every chain)
   */
  walletChains?: readonly string[];
}

const Usd = (what: string) =>
  z
    .number({ error: 'must be a number' })
    .positive({ error: 'must be above 0' })
    .max(1e9, { error: 'must be at most 1000000000' })
    .meta({ description: `${what} in USD` });

export const AgentLimitsInput = z
  .object({
    maxNotionalUsd: Usd('the most a copied buy spends'),
    dailyCapUsd: Usd('the most copied buys spend per UTC day'),
    maxOpenPositions: bodyNumber(1, 100, 5, 'copied positions open at once', true),
    maxSlippageBps: bodyNumber(1, 5000, 100, 'accepted price movement of a copied trade, basis points', true),
    allow: z.array(z.union([AddressParam, Instrument])).max(200).optional().meta({ description: 'only these tokens, coins (hyperliquid) or outcome token ids (polymarket), at most 200' }),
    deny: z.array(z.union([AddressParam, Instrument])).max(200).optional().meta({ description: 'never these tokens, coins (hyperliquid) or outcome token ids (polymarket), at most 200' }),
    minLeaderGrade: Verdict.default('watch').meta({ description: "the leader's grade at a trade must be at least this (unrated < avoid < watch < mirror-worthy); default watch" }),
    expiresAt: z
      .number({ error: 'must be a number' })
      .int({ error: 'must be an integer' })
      .positive({ error: 'must be unix seconds' })
      .meta({ description: 'hard expiry, unix seconds (at most a year ahead): nothing is submitted afterwards' }),
  })
  .strict();

export const CreateAgentBody = z
  .object({
    venue: ExecutionVenue,
    chain: ChainParam.meta({ description: 'evm-spot: the chain (default the configured default chain)' }),
    leaderVenue: z
      .enum(['hyperliquid', 'polymarket', 'sim'])
      .optional()
      .meta({ description: "hyperliquid and polymarket agents: the venue whose fills the leader is followed on (the agent's venue, or sim: the venue simulator, paper only); default the venue when its feed is ingested, else sim" }),
    mode: z
      .enum(['paper', 'live'])
      .optional()
      .meta({ description: "paper: recorded, never submitted. Default: live for a live key (403 venue_not_entitled when its organisation is not entitled to the venue), except on polymarket, whose live trading is off (its orders would come from an address whose key this service holds): live there answers 403 venue_not_entitled with that reason, the default is paper; a sandbox key trades on paper only" }),
    leader: AddressParam.meta({ description: 'the wallet (evm-spot) or venue account (hyperliquid, polymarket) whose trades the agent copies' }),
    account: AddressParam.optional().meta({
      description: "the user's account on the venue (evm-spot: the ERC-7579 smart account; it must be the signing wallet); default the signing wallet",
    }),
    spendCapNative: z
      .string({ error: 'must be a decimal string' })
      .regex(/^\d{1,12}(\.\d{1,18})?$/, { error: 'must be a decimal amount of the native asset, e.g. "0.5"' })
      .optional()
      .meta({ description: "evm-spot live agents: the session's total spend cap in the chain's native asset, enforced by the session contract" }),
    stableCaps: z
      .array(EvmStableCap)
      .max(8)
      .optional()
      .meta({
        description:
          "evm-spot live agents: stablecoins the session may also spend, each with its total cap in the token's base units (e.g. USDC's 6 decimals), enforced by the session contract; a stablecoin not named here cannot be spent by the session. Signed in the grant's caps",
      }),
    limits: AgentLimitsInput,
  })
  .strict();
export type CreateAgentInput = z.output<typeof CreateAgentBody>;

export const GrantBody = CreateAgentBody.extend({
  wallet: AddressParam.meta({ description: 'the end user’s wallet that will sign (X-Wallet-Address of the create)' }),
  timestamp: z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).positive({ error: 'must be unix seconds' }).meta({ description: 'the X-Auth-Timestamp the create will carry (unix seconds): the agent id and its session key derive from it' }),
}).strict();
export type GrantInput = z.output<typeof GrantBody>;

export const GrantResponse = z.object({
  agentId: z.string(),
  /** the backend's session key for the agent (the zero address for a paper agent) */
  sessionKey: z.string(),
  typedData: z
    .object({
      domain: z.object({ name: z.string(), version: z.string() }),
      types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
      primaryType: z.literal('AgentGrant'),
      message: z.record(z.string(), z.unknown()),
    })
    .meta({ description: 'EIP-712 typed data (eth_signTypedData_v4): venue, chain, leader, account, session key, caps, limits, expiry, timestamp; its signature is the X-Wallet-Signature of /copy/agent/create' }),
});
export type GrantResponse = z.infer<typeof GrantResponse>;

const AgentIdBody = z.object({ agentId: z.string({ error: 'must be a string' }).regex(/^ag_[0-9a-f]{16}$/, { error: 'must be an agent id (ag_ and 16 hex)' }) }).strict();

export const DryRunBody = z
  .object({
    agentId: AgentIdBody.shape.agentId.optional().meta({ description: 'an existing agent; or give the venue, chain (evm-spot) or leaderVenue, leader and limits' }),
    venue: ExecutionVenue.optional().meta({ description: 'without agentId: the venue the leader would be copied on; default evm-spot' }),
    chain: ChainParam,
    leaderVenue: CreateAgentBody.shape.leaderVenue,
    leader: AddressParam.optional(),
    limits: AgentLimitsInput.optional(),
    trades: bodyNumber(1, 50, 20, "how many of the leader's latest trades", true),
  })
  .strict();
export type DryRunInput = z.output<typeof DryRunBody>;

export const AgentView = Agent.omit({ partner: true });
export type AgentView = z.infer<typeof AgentView>;

export const DryRunItem = z.object({
  token: z.string(),
  side: z.enum(['buy', 'sell']),
  /** an entry of the leader, or an exit (a sell; on perpetuals, a fill that shrank its position) */
  action: z.enum(['open', 'close']),
  /** ISO time of the leader's trade */
  at: z.string(),
  leaderSize: SizeBand,
  decision: z.enum(['copy', 'skip']),
  reason: z.string().nullable(),
  notionalUsd: z.number().nonnegative(),
  detail: z.string(),
});

export const DryRunResponse = z.object({
  chain: z.string(),
  leader: z.string(),
  trades: z.number().int().nonnegative(),
  copied: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  notionalUsd: z.number().nonnegative(),
  byReason: z.record(z.string(), z.number().int()),
  items: z.array(DryRunItem),
  note: z.string(),
});
export type DryRunResponse = z.infer<typeof DryRunResponse>;

/** What the relay asks of the copy runtime. Errors are ApiErrors (not_found, venue_not_entitled, gateway_unconfigured, invalid_param). */
export interface AgentService {
  /** what creating this agent grants, as the typed data the user signs, for a wallet at a timestamp (nothing is written) */
  grant(caller: Omit<AgentCaller, 'wallet'>, input: GrantInput & { limits: AgentLimits }): Promise<GrantResponse>;
  create(caller: AgentCaller, input: CreateAgentInput & { limits: AgentLimits }): Promise<AgentView>;
  get(caller: AgentCaller, agentId: string): Promise<AgentView>;
  /** newest first, keyset pages (infra/page.ts) */
  list(caller: AgentCaller, opts: { state?: AgentState } & Page): Promise<{ items: AgentView[]; next: SortKey | null }>;
  setState(caller: AgentCaller, agentId: string, action: 'pause' | 'resume' | 'revoke'): Promise<AgentView>;
  /** newest first, keyset pages */
  executions(caller: AgentCaller, agentId: string, opts: { status?: ExecutionStatus } & Page): Promise<{ items: Execution[]; next: SortKey | null }>;
  dryRun(caller: AgentCaller, input: DryRunInput): Promise<DryRunResponse>;
}

/** answers 503 execution_unavailable: a deployment that runs no copy runtime (an API-only process without the store's agents) */
export const unavailableAgents: AgentService = new Proxy({} as AgentService, {
  get: () => async () => {
    throw new ApiError('execution_unavailable', 'this API process runs no copy-trading agent service');
  },
});

/** the creator: the wallet the headers claim, verified by the service once it has built the grant */
function grantCaller(ctx: CallContext): AgentCaller {
  if (!ctx.walletClaim || !ctx.authorizeTyped) throw new ApiError('wallet_auth_required', "agent creation needs the end user's EIP-712 signature of its grant");
  return { partner: ctx.key.orgId, keyKind: ctx.key.kind, wallet: ctx.walletClaim.wallet, now: ctx.now, grant: { timestamp: ctx.walletClaim.timestamp, authorize: ctx.authorizeTyped } };
}

function caller(ctx: CallContext): AgentCaller {
  if (!ctx.wallet) throw new ApiError('wallet_auth_required', 'the execution relay needs the end user\'s wallet authorization');
  return {
    partner: ctx.key.orgId,
    keyKind: ctx.key.kind,
    wallet: ctx.wallet,
    now: ctx.now,
    ...(ctx.authorization ? { authorization: ctx.authorization } : {}),
    ...(ctx.walletChains ? { walletChains: ctx.walletChains } : {}),
  };
}

const AgentResponse = z.object({ agent: AgentView });

export function createAgentOperations(agents: () => AgentService): AnyOperation[] {
  const lifecycle = (action: 'pause' | 'resume' | 'revoke', summary: string) =>
    defineOperation({
      id: `copyAgent${action[0]?.toUpperCase()}${action.slice(1)}`,
      method: 'POST',
      path: `/copy/agent/${action}`,
      cost: 1,
      group: 'copytrading',
      walletAuth: true,
      summary,
      returns: 'agent',
      request: AgentIdBody,
      response: AgentResponse,
      handler: async (i, ctx) => ({ agent: await agents().setState(caller(ctx), i.agentId, action) }),
    });
  return [
    defineOperation({
      id: 'copyAgentCreate',
      method: 'POST',
      path: '/copy/agent/create',
      cost: 2,
      group: 'copytrading',
      walletAuth: 'typed',
      summary:
        "Create a copy agent for the signing wallet. X-Wallet-Signature is the wallet's EIP-712 signature (eth_signTypedData_v4) of the grant /copy/agent-grant answers for this body, wallet and X-Auth-Timestamp: the wallet shows venue, leader, caps, limits, expiry and session key field by field. : one leader, one venue, the user's limits. A sandbox key's agent runs in paper mode (active at once, recorded as skipped/paper); a live evm-spot agent is pending until the user's smart account enables the session the answer describes; a live hyperliquid agent until the user approves its agent key on the venue with the action the answer describes; a polymarket agent (in validation) trades on paper only (live: 403 venue_not_entitled, its collateral would sit at a key this service holds)",
      returns: 'agent (with session setup for live agents)',
      request: CreateAgentBody,
      response: AgentResponse,
      handler: async (i, ctx) => ({ agent: await agents().create(grantCaller(ctx), i as CreateAgentInput & { limits: AgentLimits }) }),
    }),
    defineOperation({
      id: 'copyAgentGrant',
      method: 'POST',
      path: '/copy/agent-grant',
      cost: 1,
      group: 'copytrading',
      summary:
        "What creating a copy agent grants, before the user signs: the create body with the wallet and the X-Auth-Timestamp the create will carry, answered with the agent's id, its session key and the EIP-712 typed data the wallet signs (key only: nothing is written, nothing is authorized)",
      returns: 'agentId, sessionKey, typedData',
      request: GrantBody,
      response: GrantResponse,
      handler: async (i, ctx) => agents().grant({ partner: ctx.key.orgId, keyKind: ctx.key.kind, now: ctx.now }, i as GrantInput & { limits: AgentLimits }),
    }),
    defineOperation({
      id: 'copyAgentGet',
      method: 'POST',
      path: '/copy/agent/get',
      cost: 1,
      group: 'copytrading',
      walletAuth: true,
      summary: "One of the signing wallet's agents",
      returns: 'agent',
      request: AgentIdBody,
      response: AgentResponse,
      handler: async (i, ctx) => ({ agent: await agents().get(caller(ctx), i.agentId) }),
    }),
    defineOperation({
      id: 'copyAgentList',
      method: 'POST',
      path: '/copy/agent/list',
      cost: 1,
      group: 'copytrading',
      walletAuth: true,
      summary: "The signing wallet's agents with this partner, newest first",
      returns: 'agents[]',
      request: z
        .object({
          state: AgentState.optional().meta({ description: 'only agents in this state' }),
          limit: bodyNumber(1, 100, 20, 'how many agents', true),
          cursor: CursorParam,
        })
        .strict(),
      response: z.object({ agents: z.array(AgentView), next: NextCursor }),
      handler: async (i, ctx) => {
        const list = `copyAgentList:${i.state ?? ''}`;
        const page = await agents().list(caller(ctx), { state: i.state, limit: i.limit, after: decodeCursor(list, i.cursor) });
        return { agents: page.items, next: encodeCursor(list, page.next) };
      },
    }),
    lifecycle('pause', 'Pause an agent: nothing new is planned until it is resumed'),
    lifecycle('resume', 'Resume a paused agent (not past its expiry)'),
    lifecycle('revoke', "Revoke an agent for good; a live agent's session is disabled on the venue"),
    defineOperation({
      id: 'copyAgentExecutions',
      method: 'POST',
      path: '/copy/agent/executions',
      cost: 1,
      group: 'copytrading',
      walletAuth: true,
      summary: "An agent's executions, newest first: planned, submitted, filled, failed or skipped, each with its reason",
      returns: 'executions[]',
      request: AgentIdBody.extend({
        status: ExecutionStatus.optional().meta({ description: 'only executions in this status' }),
        limit: bodyNumber(1, 100, 20, 'how many executions', true),
        cursor: CursorParam,
      }).strict(),
      response: z.object({ agentId: z.string(), executions: z.array(Execution), next: NextCursor }),
      handler: async (i, ctx) => {
        const list = `copyAgentExecutions:${i.agentId}:${i.status ?? ''}`;
        const page = await agents().executions(caller(ctx), i.agentId, { status: i.status, limit: i.limit, after: decodeCursor(list, i.cursor) });
        return { agentId: i.agentId, executions: page.items, next: encodeCursor(list, page.next) };
      },
    }),
    defineOperation({
      id: 'copyAgentDryRun',
      method: 'POST',
      path: '/copy/agent/dry-run',
      cost: 3,
      group: 'copytrading',
      walletAuth: true,
      summary: "What an agent (an existing one, or a leader and limits) would have done with the leader's latest trades: the same decisions, gates and limits as live, on a fresh book",
      returns: 'items[] of {token, side, at, leaderSize, decision, reason, notionalUsd}, totals',
      request: DryRunBody,
      response: DryRunResponse,
      handler: async (i, ctx) => agents().dryRun(caller(ctx), i),
    }),
  ];
}
