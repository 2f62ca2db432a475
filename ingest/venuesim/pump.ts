import type { Log, LogRecordIn } from '../../infra/log/types.ts';
import { VenueCursorRow, readRowOrThrow, rowOf } from '../../infra/rows.ts';
import type { Store } from '../../infra/store/types.ts';
import type { VenueEvent } from '../../schemas/venues.ts';
import { VenueTopics, venueKey } from '../../schemas/venues.ts';

/**
 * What every venue source yields (simulator, perps ws, prediction ws): batches of decoded,
 * deduplicated venue events, oldest first. A source runs until the signal aborts.
 */
export interface VenueSource {
  readonly venue: string;
  run(signal: AbortSignal): AsyncGenerator<VenueEvent[]>;
}

/** Publishes venue events to the venue topic, keyed `venue:account`. */
export async function publishVenueEvents(log: Log, events: VenueEvent[]): Promise<void> {
  if (events.length === 0) return;
  const records: LogRecordIn[] = events.map((e) => ({ key: venueKey(e.venue, e.account), value: JSON.stringify(e), timestamp: e.time }));
  await log.publish(VenueTopics.fills, records);
}

export function venueCursorKey(source: string): string {
  return VenueCursorRow.key(source);
}

/**
 * Pumps a venue source into the log and records how far it got (time of the newest event) in the
 * cursors table once published. Replays after a crash are harmless: the engine dedupes by fill id.
 */
export async function pumpVenueSource(
  deps: { log: Log; store: Store; onProgress?: (p: { time: number; events: number }) => void },
  source: VenueSource,
  sourceName: string,
  signal: AbortSignal,
): Promise<void> {
  await deps.log.ensureTopic(VenueTopics.fills);
  let published = 0;
  for await (const batch of source.run(signal)) {
    if (batch.length > 0) {
      await publishVenueEvents(deps.log, batch);
      published += batch.length;
      const time = batch.reduce((a, e) => Math.max(a, e.time), 0);
      await deps.store.upsert(VenueCursorRow.table, [rowOf(VenueCursorRow, { time, events: published }, time, sourceName)]);
      deps.onProgress?.({ time, events: published });
    }
    if (signal.aborted) break;
  }
}

/** Time (ms) of the newest event a venue source published, if any. */
export async function readVenueCursor(store: Store, sourceName: string): Promise<number | undefined> {
  return (await readRowOrThrow(store, VenueCursorRow, sourceName))?.time;
}
