import type { Log } from '../infra/log/types.ts';
import { CandlesTopic, TokenEventsTopic, ensureTopic, publishTo } from '../infra/topics.ts';
import type { Store } from '../infra/store/types.ts';
import { IngestCursorRow, readRow, rowOf } from '../infra/rows.ts';
import type { Candle, ChainEvent, TokenEvent } from '../schemas/events.ts';
import type { Source } from './types.ts';

export interface IngestCursor {
  chain: string;
  block: number;
  timestamp: number;
}

export function cursorKey(chain: string, source: string): string {
  return IngestCursorRow.key(chain, source);
}

export async function readCursor(store: Store, chain: string, source: string): Promise<IngestCursor | undefined> {
  return readRow(store, IngestCursorRow, chain, source);
}

/** Publishes events to their topics, keyed `chain:token` (candles to the candles topic). */
export async function publishEvents(log: Log, events: ChainEvent[]): Promise<void> {
  const tokens: TokenEvent[] = [];
  const candles: Candle[] = [];
  for (const e of events) {
    if (e.type === 'candle') candles.push(e);
    else tokens.push(e);
  }
  await publishTo(log, TokenEventsTopic, tokens);
  await publishTo(log, CandlesTopic, candles);
}

export interface PumpHooks {
  /** after the events up to the block are published (persist cursors here) */
  onFinalized?: (c: IngestCursor & { events: number }) => void | Promise<void>;
  onReorg?: (forkBlock: number, retractions: number) => void;
}

/**
 * Publishes a source's events (batched) and retractions to the token-events topic keyed
 * chain:token; `finalized` flushes first, so a cursor persisted by the hook never runs ahead of the
 * log. A crash re-publishes at most the blocks after the last cursor: the engine's folds are
 * idempotent on event identity.
 */
export async function pumpToLog(log: Log, source: Source, signal: AbortSignal, hooks: PumpHooks = {}): Promise<number> {
  await ensureTopic(log, TokenEventsTopic);
  await ensureTopic(log, CandlesTopic);
  let pending: ChainEvent[] = [];
  let published = 0;
  let lastFlush = Date.now();
  const flush = async () => {
    lastFlush = Date.now();
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    await publishEvents(log, batch);
    published += batch.length;
  };
  for await (const item of source.run(signal)) {
    if (item.kind === 'events') {
      pending.push(...item.events);
      if (pending.length >= 5000 || Date.now() - lastFlush > 200) await flush();
    } else if (item.kind === 'reorg') {
      await flush();
      pending = item.retractions.map((e) => ({ ...e, removed: true }) as ChainEvent);
      await flush();
      hooks.onReorg?.(item.forkBlock, item.retractions.length);
    } else {
      await flush();
      await hooks.onFinalized?.({ chain: item.chain, block: item.block, timestamp: item.timestamp, events: published });
    }
    if (signal.aborted) break;
  }
  await flush();
  return published;
}

/**
 * Pumps a source into the log (pumpToLog) and persists its cursor under `sourceName` once what it
 * covers is published. A crash between the two re-publishes a block after restart; the engine's
 * folds are idempotent.
 */
export async function pumpSource(
  deps: { log: Log; store: Store; onProgress?: (c: IngestCursor & { events: number }) => void },
  source: Source,
  sourceName: string,
  signal: AbortSignal,
): Promise<void> {
  await pumpToLog(deps.log, source, signal, {
    onFinalized: async ({ events, ...c }) => {
      await deps.store.upsert(IngestCursorRow.table, [rowOf(IngestCursorRow, c, c.block, c.chain, sourceName)]);
      deps.onProgress?.({ ...c, events });
    },
  });
}
