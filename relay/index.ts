/**
 * The relay: copy-trading execution (docs/copy-execution.md):
 * - the agent service the relay routes call (create, get, list, pause, resume, revoke,
 *   executions, dry run), over the agents table (agent-service.ts);
 * - the copy worker: the leaders' trades decided once per (agent, leader trade) with
 *   engine/copy/decide.ts (copy-worker.ts, leader-trades.ts, decisions.ts);
 * - the executor: planned executions of live agents sent to their venue (executor.ts);
 * - the lifecycle loop: activation, expiry, entitlement and the venue's approval (lifecycle.ts).
 * Every change of an agent or an execution is a webhook event in the durable outbox (events.ts).
 */
export { createAgentService } from './agent-service.ts';
export { startCopyWorker } from './copy-worker.ts';
export { liveRefusal } from './entitlement.ts';
export { executionKey } from './ids.ts';
export { paperOnlyVenues } from './paper-only.ts';
export type { CopyDeps, CopyWorker, VenueGateway, WebhookEventIn } from './types.ts';
