import type { LogRecordIn } from '../infra/log/types.ts';

/**
 * Runs a pure fold over a keyed topic as a member of a consumer group: folds each batch into
 * per-key state, derives the snapshots of the keys it touched, flushes them to the store (latest
 * and history) and to the snapshots topic, and only then returns, so the log commits the
 * batch's offsets after the sink acknowledged the flush. A crash replays from the last commit;
 * the folds are idempotent and the store writes are upserts, so the replay is harmless.
 *
 * State is checkpointed (when: see REPLAY_BYTES_PER_RECORD; always when the worker stops): each
 * partition's keys, states and the offset they cover are written as one row of the checkpoints
 * table, in one atomic write; the log may then drop the records below that offset. A restart or a
 * rebalance loads a partition's checkpoint and replays only the records after it, so restart time
 * and the log's size do not grow with history, and the state is exactly the one a worker that
 * never stopped holds. A restored key is derived again once when what its snapshot was derived
 * from may have moved while no worker held it: a row it read of a joined table changed after the
 * checkpoint, it was waiting for a re-derivation then, or the derivation's code is not the one
 * that wrote the checkpoint (`FoldSpec.reads`); without `reads`, every restored key is.
 */
export interface FoldSpec<S, E> {
  /** consumer group and the snapshot kind (`token`, `wallet`) */
  groupId: string;
  kind: string;
  topics: string[];
  init: (key: string, event: E) => S;
  /** decode a record value; undefined skips it */
  decode: (value: string, topic: string) => E | undefined;
  fold: (state: S, event: E) => S;
  /** snapshot body of a state, or undefined while there is nothing to say */
  derive: (state: S, key: string) => unknown;
  /** version of the snapshot: the position of the last event folded in */
  version: (state: S) => number;
  /**
   * History is kept at this granularity: a history row is written when the bucket (e.g. the
   * 5-minute slot of the last event's time) changes, so history spans days, not minutes.
   */
  historyBucket?: (state: S) => number;
  /** what of a snapshot the history keeps (drop bulky series the past does not need) */
  historyBody?: (body: unknown) => unknown;
  /**
   * what of the history body must change for a new history row (default: any new bucket writes
   * one); a wallet whose realised sums did not move adds no row
   */
  historyKey?: (historyBody: unknown) => string;
  /**
   * records to publish to other topics for an event (e.g. swaps re-keyed by wallet). Called for
   * every folded event in order, also while a partition is replayed; records of replayed events
   * below the partition's fan-out cursor are dropped (they were published before).
   */
  fanOut?: (event: E, key: string, state: S) => { topic: string; record: LogRecordIn }[];
  /**
   * an optional asynchronous last step on a derived snapshot (a configured model writer
   * rephrasing its texts); must resolve, falling back to the body it was given
   */
  finish?: (body: unknown, key: string) => Promise<unknown>;
  /**
   * records to publish for a derived snapshot (e.g. a wallet's grade to the wallet-grades table),
   * before the snapshot itself is flushed. A spec that emits only changes remembers what it
   * emitted in `emitted`, never here: a flush that fails is retried and must emit the same records.
   */
  emit?: (key: string, body: unknown) => { topic: string; record: LogRecordIn }[];
  /** the records `emit` returned for the key's snapshot are published */
  emitted?: (key: string, body: unknown) => void;
  /**
   * consumers of the tables the derivation reads: until they are caught up, neither are the
   * snapshots, so their lag is this worker's lag
   */
  joins?: { lag(): Promise<{ topic: string; partition: number; lag: number }[]> }[];
  /** called after each flush (metrics, lag) */
  onFlush?: (info: { partition: number; keys: number; records: number }) => void;
  /**
   * a partition's records start after the offset its state covers: retention dropped records no
   * checkpoint covered, so the state misses them (logged loudly by the caller)
   */
  onGap?: (info: { topic: string; partition: number; expected: number; first: number }) => void;
  /**
   * shape version of the state (TokenState.v): a checkpoint of another version is not restored,
   * the partition is rebuilt from the log instead
   */
  stateVersion?: number;
  /**
   * What a derivation depends on besides its key's state, so that a restart derives again only the
   * restored keys whose snapshot may be stale, not every key (a restart of a long history spent
   * half its time deriving snapshots the store already held). Without it every restored key is
   * derived again. The checkpoint keeps `watermark()` and the keys waiting for a re-derivation, taken
   * together: every change of a joined table below the watermark was handed to `rederive` before,
   * so its readers were either derived since or are among those keys.
   */
  reads?: {
    /** identity of the derivation's code: a checkpoint written by other code has every key derived again */
    deriveId: string;
    /** how far the joined tables' changes have been handed to `rederive`, per `topic:partition` (next offset) */
    watermark(): Record<string, number>;
    /** what the key's checkpoint entry keeps of the rows it read (undefined: nothing, `restore` recomputes them from the state) */
    save?(key: string): unknown;
    /**
     * a restored key: reinstate the rows it read (what `save` kept, or from its state), and say
     * whether any of them changed at or after `watermark` (then it is derived again)
     */
    restore(key: string, state: S, saved: unknown, watermark: Record<string, number>): boolean;
  };
  /** a partition's checkpoint was restored: the offset it covers, how many keys it held and how many of them are derived again */
  onRestore?: (info: { group: string; topic: string; partition: number; offset: number; keys: number; stale: number }) => void;
  /** a restore, checkpoint or re-derivation that failed (it is retried) */
  onError?: (err: unknown) => void;
}

export interface WorkerOptions {
  /** the least time between two checkpoints of a partition (ms of wall time) */
  checkpointMs?: number;
  /** the most time between two checkpoints of a partition that folded anything (ms of wall time) */
  checkpointMaxMs?: number;
}

export interface FoldWorker {
  stop(): Promise<void>;
  lag(): Promise<{ topic: string; partition: number; lag: number }[]>;
  /** current state of a key (tests and tools) */
  state(key: string): unknown;
  /**
   * derive and flush these keys again without a new event, because a table their derivation
   * reads changed (a buyer's grade); keys this worker does not hold are ignored
   */
  rederive(keys: Iterable<string>): Promise<void>;
}
