import type { Org } from '../infra/keys.ts';
import { redactedError } from '../infra/redact.ts';
import type { Agent } from '../schemas/agents.ts';
import { liveRefusal } from './entitlement.ts';
import type { Executor } from './executor.ts';
import type { FollowedAgents } from './followed.ts';
import { bumped } from './rows.ts';
import type { CopyDeps } from './types.ts';

/** an active hyperliquid agent's key is looked up on the venue at most this often */
const APPROVAL_CHECK_MS = 60_000;
/** how often executions abandoned by a stopped process are looked for */
const RECOVER_MS = 60_000;

/** the user can remove or replace a hyperliquid agent key on the venue at any time: an active live one is looked up there */
const watched = (a: Agent) => a.state === 'active' && a.mode === 'live' && a.venue === 'hyperliquid';

const activatedHow: Record<Agent['venue'], string> = {
  'evm-spot': 'the session is enabled on chain',
  hyperliquid: 'the agent key is approved on the venue',
  polymarket: 'the trading address holds collateral on the venue',
};

/**
 * The lifecycle loop: a pending live agent becomes active once its session is enabled on its
 * venue; an agent past its expiry becomes expired; a live agent that may no longer trade is
 * paused; an active hyperliquid agent whose key the venue no longer lists is revoked.
 */
export class Lifecycle {
  private lastRecover: number;
  /** when each active hyperliquid agent's key was last looked up on the venue */
  private readonly approvalCheckedAt = new Map<string, number>();

  constructor(
    private readonly deps: CopyDeps,
    private readonly agents: FollowedAgents,
    private readonly executor: Executor,
  ) {
    this.lastRecover = deps.now();
  }

  async tick(): Promise<void> {
    await this.agents.reload();
    await this.pauseRefused();
    const now = this.deps.now();
    const looked = new Set<string>();
    for (const a of this.agents.all()) {
      if (watched(a)) looked.add(a.agentId);
      await this.check(a, now);
    }
    // an agent revoked, expired or gone is not looked up again: its time goes with it
    for (const id of this.approvalCheckedAt.keys()) if (!looked.has(id)) this.approvalCheckedAt.delete(id);
    if (now - this.lastRecover >= RECOVER_MS) {
      this.lastRecover = now;
      await this.executor.recover();
    }
  }

  private async check(a: Agent, now: number): Promise<void> {
    if (a.limits.expiresAt * 1000 <= now) {
      const stateReason = `expired at ${new Date(a.limits.expiresAt * 1000).toISOString()}`;
      await this.agents.replace(a, bumped(a, { state: 'expired', stateReason }, now), 'agent.expired');
    } else if (a.state === 'pending' && a.mode === 'live') {
      if (!(await this.sessionEnabled(a, false, 'reading the session failed'))) return;
      await this.agents.replace(a, bumped(a, { state: 'active', stateReason: activatedHow[a.venue] }, now), 'agent.activated');
    } else if (watched(a) && now - (this.approvalCheckedAt.get(a.agentId) ?? 0) >= APPROVAL_CHECK_MS) {
      // the agent stops when the venue no longer lists its key, not only when its next order is refused
      this.approvalCheckedAt.set(a.agentId, now);
      const listed = await this.sessionEnabled(a, true, 'reading the agent key on the venue failed');
      if (!listed) await this.agents.stopRefused(a, 'the venue no longer lists it for the account');
    }
  }

  /** the venue's answer, or `unknown` when it could not be asked (logged) */
  private sessionEnabled(a: Agent, unknown: boolean, failed: string): Promise<boolean> {
    return this.deps.venues.sessionEnabled(a).catch((err: unknown) => {
      this.deps.logger?.warn({ error: redactedError(err), agentId: a.agentId }, failed);
      return unknown;
    });
  }

  /** live agents that may no longer trade (their organisation's entitlement or state changed) are paused: each organisation read once per check */
  private async pauseRefused(): Promise<void> {
    const orgs = new Map<string, Promise<Org | undefined>>();
    const live = this.agents.all().filter((a) => a.mode === 'live' && (a.state === 'active' || a.state === 'pending'));
    for (const a of live) {
      let org = orgs.get(a.partner);
      if (!org) orgs.set(a.partner, (org = this.deps.keys.getOrg(a.partner)));
      const why = liveRefusal(await org, a);
      if (why) await this.agents.stop(a, 'agent.paused', `paused: ${why}`);
    }
  }
}
