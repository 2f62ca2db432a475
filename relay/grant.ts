import { zeroAddress } from 'viem';
import type { AgentCaller, CreateAgentInput } from '../api/routes/agents.ts';
import { LIVE_OFF, VENUES_IN_VALIDATION } from '../schemas/agents.ts';
import type { Agent, AgentLimits } from '../schemas/agents.ts';
import { ApiError } from '../schemas/errors.ts';
import { HYPERLIQUID_MAX_AGENT_VALIDITY_S } from '../venues/types.ts';
import { agentGrantTypedData } from './agent-grant.ts';
import { agentIdOf } from './ids.ts';
import { AgentLimitsCodec } from './rows.ts';
import type { CopyDeps } from './types.ts';

/**
 * What a create request grants, checked and resolved as the agent will hold it (its id, chain,
 * mode, account and session key), and the EIP-712 typed data the user signs for it. The id comes
 * from the partner, the wallet and the signing timestamp, so the session key (derived from the
 * id) is known before the signature: the grant operation announces it, the create verifies it.
 */

type GrantDeps = Pick<CopyDeps, 'keys' | 'venues' | 'defaultChain' | 'feeds'>;
type GrantCaller = Pick<AgentCaller, 'partner' | 'keyKind' | 'wallet' | 'now'>;
type GrantRequest = CreateAgentInput & { limits: AgentLimits };
export type GrantPlan = Awaited<ReturnType<typeof planGrant>>;

export function invalid(field: string, message: string): never {
  throw new ApiError('invalid_param', `${field}: ${message}`);
}

/**
 * Where an agent of `venue` follows its leader: evm-spot a chain (the deployment's by default),
 * the order-book venues a feed (the venue's own when it is ingested, else the simulator)
 */
export function followedOn(deps: Pick<CopyDeps, 'defaultChain' | 'feeds'>, venue: Agent['venue'], input: { chain?: string | undefined; leaderVenue?: string | undefined }): string {
  if (venue === 'evm-spot') return input.chain ?? deps.defaultChain;
  return input.leaderVenue ?? (venue === 'hyperliquid' ? deps.feeds?.perp : deps.feeds?.prediction) ?? 'sim';
}

/** the fields of another venue refused, the stablecoins' caps normalised (each token once), the limits' ranges checked */
function checkedFields(input: GrantRequest, nowS: number): { token: `0x${string}`; cap: string }[] {
  // evm-spot follows a wallet on a chain; the order-book venues follow an account on a venue's feed
  const venueFeed = input.venue === 'evm-spot' ? undefined : input.venue;
  if (venueFeed && input.chain !== undefined) invalid('chain', `is for evm-spot agents: a ${input.venue} agent follows its leader on leaderVenue`);
  if (!venueFeed && input.leaderVenue !== undefined) invalid('leaderVenue', 'is for hyperliquid and polymarket agents: an evm-spot agent follows its leader on chain');
  if (venueFeed && input.leaderVenue !== undefined && input.leaderVenue !== 'sim' && input.leaderVenue !== venueFeed) invalid('leaderVenue', `a ${input.venue} agent follows leaders on ${input.venue} or sim`);
  if (venueFeed && input.spendCapNative !== undefined) invalid('spendCapNative', `is for evm-spot agents: a ${input.venue} agent is limited by its limits and its standing on the venue`);
  if (venueFeed && input.stableCaps !== undefined) invalid('stableCaps', `is for evm-spot agents: a ${input.venue} agent is limited by its limits and its standing on the venue`);
  const stableCaps = (input.stableCaps ?? []).map((c) => ({ token: c.token.toLowerCase() as `0x${string}`, cap: c.cap }));
  if (new Set(stableCaps.map((c) => c.token)).size !== stableCaps.length) invalid('stableCaps', 'names a token twice');
  const limits = input.limits;
  if (limits.expiresAt <= nowS + 60) invalid('limits.expiresAt', 'must be more than a minute ahead');
  if (limits.expiresAt > nowS + 366 * 86_400) invalid('limits.expiresAt', 'must be at most a year ahead');
  if (limits.dailyCapUsd < limits.maxNotionalUsd) invalid('limits.dailyCapUsd', 'must be at least maxNotionalUsd');
  return stableCaps;
}

/**
 * Paper or live: a sandbox key trades on paper only; a live key trades live on a venue its
 * organisation is entitled to (403 venue_not_entitled otherwise), except on a venue in
 * validation, where an organisation not entitled gets paper unless it asked for live.
 */
async function modeOf(deps: GrantDeps, caller: Pick<AgentCaller, 'partner' | 'keyKind'>, input: CreateAgentInput): Promise<{ mode: 'paper' | 'live'; paperWhy: string }> {
  if (caller.keyKind === 'test') {
    if (input.mode === 'live') throw new ApiError('venue_not_entitled', 'a sandbox key trades on paper only');
    return { mode: 'paper', paperWhy: 'a sandbox key' };
  }
  if (input.mode === 'paper') return { mode: 'paper', paperWhy: 'asked for' };
  const off = LIVE_OFF[input.venue];
  if (off && input.mode === 'live') throw new ApiError('venue_not_entitled', off);
  if (off) return { mode: 'paper', paperWhy: `${input.venue} is in validation: ${off}` };
  const org = await deps.keys.getOrg(caller.partner);
  if (org?.venues.includes(input.venue)) return { mode: 'live', paperWhy: '' };
  if (VENUES_IN_VALIDATION.includes(input.venue) && input.mode === undefined) return { mode: 'paper', paperWhy: `${input.venue} is in validation and this partner is not entitled to it` };
  throw new ApiError('venue_not_entitled', `this partner is not entitled to trade on ${input.venue}; sandbox keys trade on paper`);
}

/** what a live agent needs besides the entitlement: its venue configured here, the signer's own account, the venue's limits */
function checkLive(deps: GrantDeps, input: GrantRequest, g: { chain: string; account: string; wallet: string; nowS: number }): void {
  const venueFeed = input.venue === 'evm-spot' ? undefined : input.venue;
  if (venueFeed && g.chain !== venueFeed) invalid('leaderVenue', `a live ${input.venue} agent follows leaders on ${input.venue} itself (the venue simulator is for paper)`);
  if (!deps.venues.configured(input.venue, g.chain)) throw new ApiError('gateway_unconfigured', `${input.venue} on ${g.chain} is not configured on this deployment`);
  if (g.account !== g.wallet) invalid('account', 'must be the signing wallet (a smart account signs through EIP-1271)');
  if (venueFeed === 'hyperliquid' && input.limits.expiresAt > g.nowS + HYPERLIQUID_MAX_AGENT_VALIDITY_S) invalid('limits.expiresAt', 'must be at most 180 days ahead: the venue approves agent keys for no longer');
  if (!venueFeed && input.spendCapNative === undefined) invalid('spendCapNative', `is required for a live ${input.venue} agent: the session's spend cap the contracts enforce`);
}

export async function planGrant(deps: GrantDeps, caller: GrantCaller, input: GrantRequest, timestamp: number | undefined) {
  const nowS = Math.floor(caller.now / 1000);
  const stableCaps = checkedFields(input, nowS);
  const chain = followedOn(deps, input.venue, input) as Agent['chain'];
  const account = (input.account ?? caller.wallet).toLowerCase() as `0x${string}`;
  if (input.leader === account) invalid('leader', 'an agent cannot copy its own account');
  const { mode, paperWhy } = await modeOf(deps, caller, input);
  const agentId = agentIdOf(caller.partner, caller.wallet, timestamp);
  if (mode === 'live') checkLive(deps, input, { chain, account, wallet: caller.wallet, nowS });
  const sessionKey = mode === 'live' ? deps.venues.sessionKey(agentId) : zeroAddress;
  const { limits } = input;
  const typedData = agentGrantTypedData({
    partner: caller.partner,
    venue: input.venue,
    chain,
    leaderVenue: input.leaderVenue ?? '',
    mode,
    leader: input.leader,
    account,
    sessionKey,
    caps: [...(input.spendCapNative !== undefined ? [{ asset: 'native', amount: input.spendCapNative }] : []), ...stableCaps.map((c) => ({ asset: c.token, amount: c.cap }))],
    maxNotionalUsd: limits.maxNotionalUsd,
    dailyCapUsd: limits.dailyCapUsd,
    maxOpenPositions: limits.maxOpenPositions,
    maxSlippageBps: limits.maxSlippageBps,
    allow: limits.allow ?? [],
    deny: limits.deny ?? [],
    minLeaderGrade: limits.minLeaderGrade,
    expiresAt: limits.expiresAt,
    timestamp: timestamp ?? nowS,
  });
  return { agentId, venue: input.venue, chain, mode, paperWhy, account, sessionKey: sessionKey.toLowerCase(), typedData, stableCaps };
}

/** an agent stored for the grant a create is about (the same venue, chain, mode, leader and limits) */
export function sameGrant(a: Agent, plan: Pick<Agent, 'chain' | 'mode'>, input: Pick<CreateAgentInput, 'venue' | 'leader'> & { limits: AgentLimits }): boolean {
  const of = (x: Pick<Agent, 'venue' | 'chain' | 'mode' | 'leader' | 'limits'>) => JSON.stringify([x.venue, x.chain, x.mode, x.leader, AgentLimitsCodec.encode(x.limits)]);
  return of(a) === of({ ...plan, venue: input.venue, leader: input.leader, limits: input.limits });
}
