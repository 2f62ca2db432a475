import type { Log, LogRecordIn } from '../infra/log/types.ts';
import type { Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import type { ChainEvent } from '../schemas/events.ts';
import { Topics, tokenKey } from '../schemas/events.ts';
import type { Source } from './types.ts';

export interface IngestCursor {
  chain: string;
  block: number;
  timestamp: number;
}

export function cursorKey(chain: string, source: string): string {
  return `ingest:${source}:${chain}`;
}

export async function readCursor(store: Store, chain: string, source: string): Promise<IngestCursor | undefined> {
  const row = await store.get(Tables.cursors, cursorKey(chain, source));
  return row ? (JSON.parse(row.body) as IngestCursor) : undefined;
}

/** Publishes events to their topics, keyed `chain:token` (candles to the candles topic). */
export async function publishEvents(log: Log, events: ChainEvent[]): Promise<void> {
  const { tokens, candles } = toRecords(events);
  if (tokens.length) await log.publish(Topics.tokenEvents, tokens);
  if (candles.length) await log.publish(Topics.candles, candles);
}

function toRecords(events: ChainEvent[]): { tokens: LogRecordIn[]; candles: LogRecordIn[] } {
  const tokens: LogRecordIn[] = [];
  const candles: LogRecordIn[] = [];
  for (const e of events) {
    const rec = { key: tokenKey(e.chain, e.token), value: JSON.stringify(e), timestamp: (e.type === 'candle' ? e.openTime : e.timestamp) * 1000 };
    (e.type === 'candle' ? candles : tokens).push(rec);
  }
  return { tokens, candles };
}

/**
 * Pumps a source into the log: confirmed events and retractions to their topics (keyed
 * `chain:token`), and the cursor to the store once what it covers is published. A crash between
 * the two re-publishes a block after restart; the engine's folds are idempotent.
 */
export async function pumpSource(
  deps: { log: Log; store: Store; onProgress?: (c: IngestCursor & { events: number }) => void },
  source: Source,
  sourceName: string,
  signal: AbortSignal,
): Promise<void> {
  const { log, store } = deps;
  await log.ensureTopic(Topics.tokenEvents);
  await log.ensureTopic(Topics.candles);
  let pending: ChainEvent[] = [];
  let published = 0;
  let lastFlush = Date.now();
  const flush = async () => {
    lastFlush = Date.now();
    if (pending.length === 0) return;
    await publishEvents(log, pending);
    published += pending.length;
    pending = [];
  };
  for await (const item of source.run(signal)) {
    if (item.kind === 'events') {
      pending.push(...item.events);
      // big batches while backfilling, at most ~200 ms of delay when live
      if (pending.length >= 5000 || Date.now() - lastFlush > 200) await flush();
    } else if (item.kind === 'reorg') {
      await flush();
      pending.push(...item.retractions.map((e) => ({ ...e, removed: true })));
      await flush();
    } else {
      await flush();
      const c: IngestCursor = { chain: item.chain, block: item.block, timestamp: item.timestamp };
      await store.upsert(Tables.cursors, [{ key: cursorKey(item.chain, sourceName), version: item.block, body: JSON.stringify(c) }]);
      deps.onProgress?.({ ...c, events: published });
    }
    if (signal.aborted) break;
  }
  await flush();
}
