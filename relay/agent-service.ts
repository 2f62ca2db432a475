import type { AgentCaller, AgentService, AgentView, CreateAgentInput, DryRunInput, DryRunResponse, GrantInput, GrantResponse } from '../api/routes/agents.ts';
import { keysetPage } from '../infra/page.ts';
import type { Page, SortKey } from '../infra/page.ts';
import type { Agent, AgentLimits, AgentSession, AgentState, Execution, ExecutionStatus } from '../schemas/agents.ts';
import { ApiError } from '../schemas/errors.ts';
import { VenueError, failureSentence } from '../venues/types.ts';
import { redactedError } from '../infra/redact.ts';
import { dryRun } from './dry-run.ts';
import { accountChain, liveRefusal, provenFor } from './entitlement.ts';
import { RelayEvents, agentView } from './events.ts';
import { followedOn, invalid, planGrant, sameGrant } from './grant.ts';
import type { GrantPlan } from './grant.ts';
import { leaderFeed } from './ids.ts';
import { CopyRows, bumped } from './rows.ts';
import type { CopyDeps } from './types.ts';

type CreateRequest = CreateAgentInput & { limits: AgentLimits };

/** The agent service of the relay routes (api/routes/agents.ts), over the agents table. */
export function createAgentService(deps: CopyDeps): AgentService {
  return new RelayAgents(deps);
}

class RelayAgents implements AgentService {
  private readonly rows: CopyRows;
  private readonly events: RelayEvents;

  constructor(private readonly deps: CopyDeps) {
    this.rows = new CopyRows(deps.store);
    this.events = new RelayEvents(deps);
  }

  async grant(caller: Omit<AgentCaller, 'wallet'>, input: GrantInput & { limits: AgentLimits }): Promise<GrantResponse> {
    const plan = await planGrant(this.deps, { ...caller, wallet: input.wallet.toLowerCase() }, input, input.timestamp);
    return { agentId: plan.agentId, sessionKey: plan.sessionKey, typedData: plan.typedData };
  }

  async create(caller0: AgentCaller, input: CreateRequest): Promise<AgentView> {
    const plan = await planGrant(this.deps, caller0, input, caller0.grant?.timestamp);
    const caller = await this.authorized(caller0, plan, input);
    // the same grant again (a replay that passed two API processes' guards at once) names the
    // same agent and creates nothing new; another grant signed at the same second is refused
    const existing = await this.rows.agent(caller.partner, caller.wallet, plan.agentId);
    if (existing && sameGrant(existing, plan, input)) return agentView(existing);
    if (existing) throw new ApiError('invalid_state', 'this wallet created another agent with this X-Auth-Timestamp: sign the new grant with another timestamp');
    const session = plan.mode === 'live' ? await this.sessionFor(plan, input) : null;
    const paper = plan.mode === 'paper';
    const a: Agent = {
      agentId: plan.agentId,
      partner: caller.partner,
      wallet: caller.wallet,
      mode: plan.mode,
      venue: input.venue,
      chain: plan.chain,
      leader: input.leader,
      limits: input.limits,
      state: paper ? 'active' : 'pending',
      stateReason: paper ? `paper mode (${plan.paperWhy}): its copies are recorded, never submitted` : 'waiting for the account to enable the session',
      session,
      createdAt: caller.now,
      updatedAt: caller.now,
    };
    await this.rows.putAgent(a);
    await this.events.agent('agent.created', a, a.agentId);
    return agentView(a);
  }

  async get(caller: AgentCaller, agentId: string): Promise<AgentView> {
    return agentView(await this.owned(caller, agentId));
  }

  async list(caller: AgentCaller, opts: { state?: AgentState } & Page): Promise<{ items: AgentView[]; next: SortKey | null }> {
    const all = await this.rows.agents(`${caller.partner}:${caller.wallet}:`);
    const page = keysetPage(
      all.filter((a) => (opts.state === undefined || a.state === opts.state) && provenFor(caller, a)),
      (a) => [-a.createdAt, a.agentId],
      opts,
    );
    return { items: page.items.map(agentView), next: page.next };
  }

  async setState(caller: AgentCaller, agentId: string, action: 'pause' | 'resume' | 'revoke'): Promise<AgentView> {
    const a = await this.owned(caller, agentId);
    if (a.state === 'revoked' || a.state === 'expired') throw new ApiError('invalid_state', `the agent is ${a.state}: it cannot ${action}`);
    if (action === 'pause') return agentView(await this.pause(a));
    if (action === 'resume') return agentView(await this.resume(a, caller.now));
    return agentView(await this.revoke(a));
  }

  async executions(caller: AgentCaller, agentId: string, opts: { status?: ExecutionStatus } & Page): Promise<{ items: Execution[]; next: SortKey | null }> {
    await this.owned(caller, agentId);
    const all = await this.rows.executions(agentId);
    const page = keysetPage(
      all.map((x) => x.e).filter((e) => opts.status === undefined || e.status === opts.status),
      (e) => [-e.tradeAt, -e.createdAt, e.executionId],
      opts,
    );
    return { items: page.items, next: page.next };
  }

  async dryRun(caller: AgentCaller, input: DryRunInput): Promise<DryRunResponse> {
    const { venue, chain, leader, limits } = input.agentId !== undefined ? await this.owned(caller, input.agentId) : this.dryRunSubject(input);
    const feed = leaderFeed(venue, chain);
    // a trade recorded before the leader's first grade is judged with its grade now
    const gradeNow = await this.rows.leaderGrade(feed.grade, leader);
    return dryRun(this.rows, { chain, feed: feed.trades, leader, limits, trades: input.trades, createdAt: caller.now, gradeNow });
  }

  /** a dry run of a leader and limits given in the request (no agent yet) */
  private dryRunSubject(input: DryRunInput): { venue: Agent['venue']; chain: string; leader: string; limits: AgentLimits } {
    if (input.leader === undefined) invalid('leader', 'is required without agentId');
    if (input.limits === undefined) invalid('limits', 'is required without agentId');
    const venue = input.venue ?? 'evm-spot';
    if (venue !== 'evm-spot' && input.chain !== undefined) invalid('chain', `is for evm-spot: a ${venue} leader is followed on leaderVenue`);
    if (venue === 'evm-spot' && input.leaderVenue !== undefined) invalid('leaderVenue', 'is for hyperliquid and polymarket leaders');
    return { venue, chain: followedOn(this.deps, venue, input), leader: input.leader, limits: input.limits as AgentLimits };
  }

  private async owned(caller: AgentCaller, agentId: string): Promise<Agent> {
    const a = await this.rows.agent(caller.partner, caller.wallet, agentId);
    if (!a) throw new ApiError('not_found', `no agent ${agentId} of wallet ${caller.wallet} with this partner`);
    if (!provenFor(caller, a)) {
      throw new ApiError('not_found', `no agent ${agentId} of wallet ${caller.wallet} on ${caller.walletChains?.join(', ')}, where the contract wallet's signature verified (name the agent's chain in the body)`);
    }
    return a;
  }

  /**
   * The caller once the user's EIP-712 signature of exactly this grant verified (the HTTP route
   * always asks it; a caller in this process that writes an agent directly does not), refused
   * when a contract wallet's signature does not prove the agent's account.
   */
  private async authorized(caller0: AgentCaller, plan: GrantPlan, input: CreateRequest): Promise<AgentCaller> {
    const auth = caller0.grant ? await caller0.grant.authorize(async () => ({ typedData: plan.typedData as never, chain: accountChain(plan) })) : undefined;
    const caller = auth ? { ...caller0, walletChains: auth.chains } : caller0;
    if (provenFor(caller, plan)) return caller;
    const where = accountChain(plan);
    throw new ApiError(
      'wallet_auth_required',
      where
        ? `the contract wallet's signature verified on ${caller.walletChains?.join(', ')}, not on ${where}, where this agent's account lives (name the chain in the body)`
        : `a ${input.venue} account is a key's: a contract wallet's signature cannot authorize its agent`,
    );
  }

  /** a live agent's session set up on its venue with the key the user granted */
  private async sessionFor(plan: GrantPlan, input: CreateRequest): Promise<AgentSession> {
    const session = await this.deps.venues.sessionSetup({
      agentId: plan.agentId, venue: input.venue, chain: plan.chain, account: plan.account,
      spendCapNative: input.spendCapNative, stableCaps: plan.stableCaps, expiresAt: input.limits.expiresAt,
    });
    // the key the user granted is the key that will sign
    if (session.sessionKey.toLowerCase() !== plan.sessionKey) throw new ApiError('internal', 'the session key set up is not the one granted');
    return session;
  }

  /**
   * A user's change of state, versioned when it is written: a revoke waits seconds for the venue,
   * and the worker's lifecycle check may write the agent in between; a version taken when the
   * request came would lose to that write (the store keeps the highest), and the revoke with it.
   */
  private async changed(a: Agent, patch: Pick<Agent, 'state' | 'stateReason'>): Promise<Agent> {
    const next = bumped(a, patch, this.deps.now());
    await this.rows.putAgent(next);
    return next;
  }

  private async pause(a: Agent): Promise<Agent> {
    if (a.state === 'paused') return a;
    const next = await this.changed(a, { state: 'paused', stateReason: 'paused by the user' });
    await this.events.agent('agent.paused', next);
    return next;
  }

  private async resume(a: Agent, nowMs: number): Promise<Agent> {
    if (a.state !== 'paused') return a;
    if (a.limits.expiresAt <= Math.floor(nowMs / 1000)) throw new ApiError('invalid_state', 'the agent is past its expiry');
    const refusal = a.mode === 'live' ? liveRefusal(await this.deps.keys.getOrg(a.partner), a) : undefined;
    if (refusal) throw new ApiError('venue_not_entitled', `the agent cannot resume: ${refusal}`);
    const enabled = a.mode === 'paper' || (await this.deps.venues.sessionEnabled(a).catch(() => false));
    const next = await this.changed(a, { state: enabled ? 'active' : 'pending', stateReason: enabled ? 'resumed by the user' : 'waiting for the account to enable the session' });
    if (enabled) await this.events.agent('agent.activated', next);
    return next;
  }

  /** for good; a live agent's session is disabled on the venue too */
  private async revoke(a: Agent): Promise<Agent> {
    const detail = a.mode === 'live' && a.session ? await this.revokeOnVenue(a, a.session) : 'revoked by the user';
    const next = await this.changed(a, { state: 'revoked', stateReason: detail });
    await this.events.agent('agent.revoked', next);
    return next;
  }

  /**
   * The session disabled on the venue, best effort (the backend never submits for a revoked agent,
   * and the user can uninstall the module): the revoke's reason, saying what became of it.
   */
  private async revokeOnVenue(a: Agent, session: AgentSession): Promise<string> {
    let detail = 'revoked by the user';
    try {
      const org = await this.deps.keys.getOrg(a.partner);
      const client = await this.deps.venues.client({ id: a.partner, live: org?.live ?? false }, a);
      const r = await client.revoke({ agentId: a.agentId, chain: a.chain, account: session.account as `0x${string}` });
      if (r.ref) detail += `; the session was disabled on chain in ${r.ref}`;
      else if (a.venue === 'hyperliquid') detail += '; the agent key stays approved on the venue until the user replaces or removes it there, or its validity ends: the backend never signs with it again';
      else if (a.venue === 'polymarket') detail += "; the backend never signs with the agent's key again (what its trading address holds stays on the venue)";
    } catch (err) {
      detail += `; disabling the session on chain failed (${failureSentence(err instanceof VenueError ? err.reason : 'venue_error')}): nothing will be submitted for it`;
      this.deps.logger?.warn({ error: redactedError(err), agentId: a.agentId }, 'session revoke on the venue failed');
    }
    return detail;
  }
}
