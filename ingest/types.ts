import type { ChainEvent } from '../schemas/events.ts';

/**
 * What every ingest source yields (simulator, EVM, perps, prediction): an async generator of
 * this union. `events` are confirmed (they have the chain's configured confirmations);
 * `reorg` carries retractions (`removed: true`) of events already yielded from orphaned blocks;
 * `finalized` moves the source's cursor (persist it, then resume after it).
 */
export type SourceItem =
  | { kind: 'events'; chain: string; block: number; timestamp: number; events: ChainEvent[] }
  | { kind: 'reorg'; chain: string; forkBlock: number; retractions: ChainEvent[] }
  | { kind: 'finalized'; chain: string; block: number; timestamp: number };

export interface Source {
  readonly chain: string;
  /** yields until the signal aborts */
  run(signal: AbortSignal): AsyncGenerator<SourceItem>;
}
