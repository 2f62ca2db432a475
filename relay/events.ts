import type { AgentView } from '../api/routes/agents.ts';
import type { Agent, Execution, WebhookEventType } from '../schemas/agents.ts';
import { eventIdOf } from './ids.ts';
import type { CopyDeps } from './types.ts';

/** an agent as its user sees it: without the partner it belongs to */
export function agentView(a: Agent): AgentView {
  const { partner: _partner, ...rest } = a;
  return rest;
}

/**
 * The webhook events of an agent's and an execution's changes, each with an id fixed by its
 * subject, so a replay enqueues the same event again, not a second one.
 */
export class RelayEvents {
  constructor(private readonly deps: Pick<CopyDeps, 'emit' | 'now'>) {}

  async agent(type: WebhookEventType, a: Agent, subject = `${a.agentId}|${a.state}|${a.updatedAt}`): Promise<void> {
    await this.deps.emit({ id: eventIdOf(type, subject), orgId: a.partner, type, data: { agent: agentView(a) }, timestamp: this.nowS() });
  }

  async execution(a: Agent, e: Execution): Promise<void> {
    const type = `execution.${e.status}` as WebhookEventType;
    await this.deps.emit({ id: eventIdOf(type, e.executionId), orgId: a.partner, type, data: { execution: e }, timestamp: this.nowS() });
  }

  private nowS(): number {
    return Math.floor(this.deps.now() / 1000);
  }
}
