import type { Agent } from '../schemas/agents.ts';
import type { RelayEvents } from './events.ts';
import { leaderKey } from './ids.ts';
import { bumped } from './rows.ts';
import type { CopyRows } from './rows.ts';

const retired = (a: Agent) => a.state === 'revoked' || a.state === 'expired';

/**
 * The agents the copy worker follows leaders for, by the leader they follow (revoked and expired
 * ones left out), and the changes the worker itself makes to them.
 */
export class FollowedAgents {
  private byLeader = new Map<string, Agent[]>();
  private loadedAt = 0;

  constructor(
    private readonly rows: CopyRows,
    private readonly events: RelayEvents,
    private readonly now: () => number,
  ) {}

  async reload(): Promise<void> {
    const next = new Map<string, Agent[]>();
    for (const a of await this.rows.agents()) {
      if (retired(a)) continue;
      const k = leaderKey(a.chain, a.leader);
      next.set(k, [...(next.get(k) ?? []), a]);
    }
    this.byLeader = next;
    this.loadedAt = this.now();
  }

  /** reloads when the list is older than `ms` (another process's new agents are seen within it) */
  async reloadOlderThan(ms: number): Promise<void> {
    if (this.now() - this.loadedAt > ms) await this.reload();
  }

  /** an agent written in this process, as the index sees it at once */
  changed(a: Agent): void {
    const k = leaderKey(a.chain, a.leader);
    const list = (this.byLeader.get(k) ?? []).filter((x) => x.agentId !== a.agentId);
    if (!retired(a)) list.push(a);
    this.byLeader.set(k, list);
  }

  /** the agents following a leader: a wallet on a chain, or an account on a venue's feed */
  following(feed: string, account: string): Agent[] {
    return this.byLeader.get(leaderKey(feed, account)) ?? [];
  }

  all(): Agent[] {
    return [...this.byLeader.values()].flat();
  }

  /**
   * The lifecycle's change of an agent, written only over the agent as it was listed: a pause,
   * resume or revoke since the list was loaded is not undone by a write made from the older copy
   * (the next check sees the agent as it is).
   */
  async replace(listed: Agent, next: Agent, type: 'agent.expired' | 'agent.activated'): Promise<void> {
    const stored = await this.rows.agent(listed.partner, listed.wallet, listed.agentId);
    if (!stored || stored.updatedAt !== listed.updatedAt) return;
    await this.write(next, type);
  }

  /**
   * Stops an agent as stored now, with the reason and its webhook: revoked (the venue refused its
   * key), or paused (it may no longer trade live; its user resumes it once the cause is gone). An
   * agent already stopped that far is left as it is.
   */
  async stop(a0: Agent, type: 'agent.revoked' | 'agent.paused', stateReason: string): Promise<void> {
    const a = await this.rows.current(a0);
    const state = type === 'agent.revoked' ? 'revoked' : 'paused';
    if (retired(a) || a.state === state) return;
    await this.write(bumped(a, { state, stateReason }, this.now()), type);
  }

  /** the venue no longer knows the agent's key (the user revoked it there, or its validity ran out): the agent stops */
  stopRefused(a: Agent, detail: string): Promise<void> {
    return this.stop(a, 'agent.revoked', `the venue no longer accepts the agent's key (${detail}): nothing more is submitted`);
  }

  private async write(next: Agent, type: 'agent.revoked' | 'agent.paused' | 'agent.expired' | 'agent.activated'): Promise<void> {
    await this.rows.putAgent(next);
    this.changed(next);
    await this.events.agent(type, next);
  }
}
