import type { Logger } from 'pino';
import type { KeyService } from '../infra/keys.ts';
import type { Store } from '../infra/store/types.ts';
import type { VenueGateway } from '../venues/types.ts';
import type { WebhookEvent } from '../infra/webhooks/outbox.ts';

export type { VenueGateway } from '../venues/types.ts';
/** an agent's or an execution's change, as the relay hands it to the outbox */
export type WebhookEventIn = WebhookEvent;

export interface CopyDeps {
  store: Store;
  keys: Pick<KeyService, 'getOrg'>;
  venues: VenueGateway;
  /** enqueues a webhook event in the durable outbox (infra/webhooks/outbox.ts) */
  emit(event: WebhookEventIn): Promise<void>;
  now: () => number;
  defaultChain: string;
  /** where hyperliquid and polymarket agents follow leaders by default: the venue's feed when it is ingested, else `sim` (the venue simulator) */
  feeds?: { perp: string; prediction: string };
  logger?: Logger;
}

export interface CopyWorker {
  /** resolves when every planned execution handed to the executor so far is final */
  idle(): Promise<void>;
  /** runs the lifecycle checks now (activation, expiry) */
  tick(): Promise<void>;
  /** leader trades not yet decided, per partition */
  lag(): Promise<{ topic: string; partition: number; lag: number }[]>;
  stop(): Promise<void>;
}
