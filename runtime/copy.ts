import type { Logger } from 'pino';
import type { Config } from '../infra/config.ts';
import { createKeyService } from '../infra/keys.ts';
import type { Log } from '../infra/log/types.ts';
import type { Store } from '../infra/store/types.ts';
import { enqueueWebhookEvent } from '../infra/webhooks/outbox.ts';
import { startCopyWorker } from '../relay/index.ts';
import type { CopyWorker, VenueGateway, WebhookEventIn } from '../relay/index.ts';
import { venueGatewayFromConfig } from './execution.ts';

export type { CopyWorker } from '../relay/index.ts';

/**
 * The copy role of an engine process: the copy worker (relay/) over the services' log and store,
 * stopped on shutdown. Started beside the engine workers by `intel start` and `intel engine`.
 */
export async function startCopyRole(
  services: { log: Log; store: Store; logger: Logger; config: Config; onShutdown(fn: () => Promise<void> | void): void },
  opts: { venues?: VenueGateway; emit?: (e: WebhookEventIn) => Promise<void>; now?: () => number; tickMs?: number } = {},
): Promise<CopyWorker> {
  const keys = createKeyService({ store: services.store, cacheTtlSeconds: 30 });
  const worker = await startCopyWorker({
    store: services.store,
    log: services.log,
    keys,
    venues: opts.venues ?? venueGatewayFromConfig(services.config),
    emit: opts.emit ?? ((e) => enqueueWebhookEvent(services.store, e)),
    now: opts.now ?? Date.now,
    defaultChain: services.config.DEFAULT_CHAIN,
    feeds: { perp: services.config.PERPS_WS_URL ? 'hyperliquid' : 'sim', prediction: services.config.PREDICTION_WS_URL ? 'polymarket' : 'sim' },
    logger: services.logger.child({ role: 'copy' }),
    tickMs: opts.tickMs,
  });
  services.onShutdown(() => worker.stop());
  return worker;
}
