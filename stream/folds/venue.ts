import { VenueFillsTopic } from '../../infra/topics.ts';
import type { VenueEvent } from '../../schemas/venues.ts';
import { VenueTopics } from '../../schemas/venues.ts';
import type { VenueAccountState } from '../../engine/venue/index.ts';
import { deriveVenueAccount, initialVenueAccountState } from '../../engine/venue/index.ts';
import type { FoldSpec } from '../spec.ts';
import type { FoldContext } from './common.ts';
import { splitKey } from './common.ts';

/**
 * A venue account fold (key venue:account) over the one venue topic, folding its own event type,
 * so its snapshots are a kind of their own (`perp:venue:account`, `prediction:venue:account`).
 */
export function venueFoldSpec<E extends VenueEvent>(
  ctx: FoldContext,
  kind: 'perp' | 'prediction',
  type: E['type'],
  fold: (s: VenueAccountState, e: E) => VenueAccountState,
): FoldSpec<VenueAccountState, E> {
  return {
    groupId: `engine-venue-${kind}`,
    kind,
    topics: [VenueTopics.fills],
    init: (key) => initialVenueAccountState(kind, ...splitKey(key)),
    decode: (v) => {
      const e = VenueFillsTopic.codec.decode(v);
      return e?.type === type ? (e as E) : undefined;
    },
    fold,
    derive: deriveVenueAccount,
    // an account's snapshot reads nothing but its state
    reads: { deriveId: ctx.deriveId, watermark: () => ({}), restore: () => false },
    version: (s) => Math.max(0, s.lastTime),
    historyBucket: (s) => Math.floor(s.lastTime / 3_600_000),
    ...ctx.hooks,
  };
}
