import type { AnyOperation } from '../operations.ts';
import { createAgentOperations, unavailableAgents } from './agents.ts';
import type { AgentService } from './agents.ts';
import { createBatchOperations } from './batch.ts';
import { createCopyOperations } from './copy.ts';
import { createSignalsOperations } from './signals.ts';
import { createTraderOperations } from './trader.ts';
import { RecordedOperations } from './context.ts';
import type { RouteDeps, TrackRecords } from './context.ts';
import { createInfraOperations } from './infra.ts';
import { createMarketOperations } from './market.ts';
import { createTokenOperations } from './token.ts';
import { createVenueOperations } from './venues.ts';
import { createWebhookOperations } from './webhooks.ts';
import type { WebhookRouteDeps } from './webhooks.ts';
import { ingestedChains } from '../../infra/config.ts';

/** Every operation of the API, in catalog order; the track-record service is injected at boot (runtime/api.ts). */
export function createOperations(deps: RouteDeps, extras: { trackRecords: TrackRecords; agents?: AgentService }): AnyOperation[] {
  const { trackRecords } = extras;
  const token = createTokenOperations(deps);
  const ops = [...createInfraOperations(deps), ...createWebhookOperations(webhookDepsOf(deps)), ...token, ...createBatchOperations(token, deps.config.DEFAULT_CHAIN), ...createMarketOperations(deps), ...createVenueOperations(deps)];
  ops.push(...createTraderOperations(deps), ...createCopyOperations(deps), ...createAgentOperations(() => extras.agents ?? unavailableAgents));
  ops.push(...createSignalsOperations(deps, trackRecords));
  recordServedValues(ops, trackRecords);
  const ids = new Set<string>();
  for (const op of ops) {
    if (ids.has(op.id)) throw new Error(`duplicate operationId ${op.id}`);
    ids.add(op.id);
  }
  return ops;
}

/**
 * Track records: every verdict and signal served by the recorded operations is
 * appended once per subject and snapshot hour. The handler is wrapped in place, so overviews that
 * call it (token-overview, wallet-overview) record too. Recording never fails or delays a call.
 */
function recordServedValues(ops: AnyOperation[], trackRecords: TrackRecords): void {
  for (const op of ops) {
    if (!RecordedOperations[op.id]) continue;
    const inner = op.handler;
    op.handler = async (input, ctx) => {
      const out = await inner(input, ctx);
      trackRecords.record(op.id, out);
      return out;
    };
  }
}

/** the webhooks' settings of a deployment: local URLs, and the stream topics an endpoint may subscribe to (the console's panel uses them too) */
export function webhookDepsOf(deps: Pick<RouteDeps, 'store' | 'config' | 'webhookResolver'>): WebhookRouteDeps {
  return { store: deps.store, allowLocal: deps.config.WEBHOOKS_ALLOW_LOCAL, resolve: deps.webhookResolver, chains: ingestedChains(deps.config), maxTopics: deps.config.STREAM_MAX_TOPICS };
}
