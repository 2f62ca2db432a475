import type { Consumer, Log, LogBatch, LogRecord, LogRecordIn } from '../infra/log/types.ts';
import type { Row, Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { CheckpointOffsetRow, CheckpointRow, FanOutCursorRow, readRow, rowOf } from '../infra/rows.ts';
import type { Checkpoint } from '../infra/rows.ts';
import { SnapshotsTopic, ensureTopic } from '../infra/topics.ts';
import { SLICE_MS, slicer } from '../infra/pause.ts';
import { snapshotKey } from '../schemas/topics.ts';

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

/**
 * Replaying one record after a restart costs about what serializing and writing this many bytes
 * of checkpoint does (a fold is 2-4 µs; a checkpoint 10-20 ns a byte): a partition is checkpointed
 * once the records folded since its last checkpoint would cost more to replay than a checkpoint
 * costs to write. Live, with a few records a block and megabytes of state, that is every several
 * minutes rather than every block; under a backfill it is every `checkpointMs`. Either way a
 * restart replays no more than a checkpoint's worth of work. A checkpoint is also due once the
 * records folded since the last one take more bytes than it does: it lets the log drop them, so
 * the disk holds no more than about a checkpoint's size of log per partition (a backfill's tail
 * was kept up to `checkpointMaxMs` after it ended, 40 MB of a 10-day history).
 */
const REPLAY_BYTES_PER_RECORD = 200;

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

/** how long a re-derivation waits for a batch to ride on before it runs on its own */
const REDERIVE_DELAY_MS = 100;

const tpOf = (topic: string, partition: number) => `${topic}:${partition}`;

export async function startFoldWorker<S, E>(deps: { log: Log; store: Store }, spec: FoldSpec<S, E>, opts: WorkerOptions = {}): Promise<FoldWorker> {
  const { log, store } = deps;
  const checkpointMs = opts.checkpointMs ?? 5_000;
  const checkpointMaxMs = Math.max(checkpointMs, opts.checkpointMaxMs ?? 600_000);
  const states = new Map<string, S>();
  const lastVersion = new Map<string, number>();
  const lastBucket = new Map<string, number>();
  /**
   * per key: its checkpoint entry as last serialized, dropped when the key's state, version or
   * bucket moves. A checkpoint serializes only the keys changed since the last one and reuses the
   * rest, so a live checkpoint costs the changed keys plus one copy of the partition's text, not a
   * JSON.stringify of megabytes of state every few seconds (which took the CPU from the API).
   */
  const entries = new Map<string, string>();
  /** per key: the historyKey of its last history row (a restart forgets it and writes one more row) */
  const lastHistoryKey = new Map<string, string>();
  /** per topic-partition: offsets below this were fanned out already (before a restart or rebalance) */
  const fannedUpTo = new Map<string, number>();
  async function fanOutFloor(topic: string, partition: number): Promise<number> {
    const k = tpOf(topic, partition);
    let v = fannedUpTo.get(k);
    if (v === undefined) {
      v = (await readRow(store, FanOutCursorRow, spec.groupId, topic, partition))?.next ?? 0;
      fannedUpTo.set(k, v);
    }
    return v;
  }

  /** the partitions this worker holds: their keys, the next offset to fold, the last checkpoint */
  const held = new Map<
    string,
    {
      topic: string;
      partition: number;
      keys: Set<string>;
      next: number;
      /**
       * the next offset to fold: above `next` while the outputs of records folded by a batch that
       * failed (the log or the store unreachable) are not all out; they wait in `pending`, and the
       * batch's retry publishes and flushes them without folding the records again (a fold is
       * idempotent, but a fan-out that remembers what it emitted, the hour of a token's last price
       * mark, would not emit it again)
       */
      folded: number;
      pending: { out: Map<string, LogRecordIn[]>; touched: Set<string> };
      checkpointedAt: number;
      checkpointed: number;
      /** records folded since the last checkpoint */
      since: number;
      /** their bytes: what the log keeps for this partition until the next checkpoint */
      sinceBytes: number;
      /** what the last checkpoint said of the derivations' basis (FoldSpec.reads: `basisOf`) */
      basis: string;
      /** length of the last checkpoint written (0: none yet by this worker) */
      bytes: number;
    }
  >();
  const checkpointKey = (topic: string, partition: number) => CheckpointRow.key(spec.groupId, topic, partition);
  /** per partition: the offset of its newest checkpoint known here, where a new owner starts reading */
  const checkpointOffsets = new Map<string, number>();
  const stateVersion = spec.stateVersion ?? 1;
  for (const row of await store.list(CheckpointOffsetRow.table, { prefix: CheckpointOffsetRow.groupPrefix(spec.groupId) })) {
    const c = CheckpointOffsetRow.codec.decode(row.body);
    if (c && (c.stateVersion ?? 1) === stateVersion) checkpointOffsets.set(tpOf(c.topic, c.partition), c.offset);
  }

  /** load a partition's checkpoint (if any) into the states; the partition is held from the offset it covers */
  async function restore(topic: string, partition: number): Promise<void> {
    // the states are the fold's own plain JSON, versioned by stateVersion (CheckpointRow)
    const row = await store.get(CheckpointRow.table, checkpointKey(topic, partition));
    const stored = row ? (CheckpointRow.codec.decode(row.body) as Checkpoint<S> | undefined) : undefined;
    // said, never passed over: the partition is then rebuilt from what the log still holds
    if (row && !stored) spec.onError?.(new Error(`checkpoint of ${checkpointKey(topic, partition)} does not decode: rebuilding from the log`));
    // a checkpoint of another state shape is not restored: the partition is rebuilt from the log
    const ck: Checkpoint<S> = stored && stored.stateVersion === stateVersion ? stored : { offset: 0, stateVersion, keys: [] };
    if (stored && stored !== ck) spec.onError?.(new Error(`checkpoint of ${checkpointKey(topic, partition)} has state version ${stored.stateVersion}, not ${stateVersion}: rebuilding from the log`));
    // every key is derived again unless the checkpoint says what its snapshot was derived from
    const reads = spec.reads;
    const watermark = reads && ck.deriveId === reads.deriveId ? ck.watermark : undefined;
    const waiting = new Set(ck.dirty);
    const keys = new Set<string>();
    let stale = 0;
    for (const k of ck.keys) {
      states.set(k.key, k.state);
      lastVersion.set(k.key, k.version);
      if (k.bucket !== undefined) lastBucket.set(k.key, k.bucket);
      entries.delete(k.key);
      keys.add(k.key);
      if (!reads || !watermark || reads.restore(k.key, k.state, k.reads, watermark) || waiting.has(k.key)) {
        dirty.add(k.key);
        stale++;
      }
    }
    if (stored === ck) spec.onRestore?.({ group: spec.groupId, topic, partition, offset: ck.offset, keys: ck.keys.length, stale });
    held.set(tpOf(topic, partition), {
      topic,
      partition,
      keys,
      next: ck.offset,
      folded: ck.offset,
      pending: { out: new Map(), touched: new Set() },
      checkpointedAt: Date.now(),
      checkpointed: ck.offset,
      since: 0,
      sinceBytes: 0,
      basis: reads && stored === ck ? basisText(ck.deriveId, ck.watermark, ck.dirty) : '',
      bytes: 0,
    });
  }

  /**
   * what a checkpoint says of its keys' derivations (FoldSpec.reads), as the text it writes: the
   * code, the tables' watermark and the keys of the partition waiting for a re-derivation, taken
   * together (a table change below the watermark was handed to rederive, so its readers were
   * flushed before, since this runs in the serial queue as flushes do, or are waiting in `dirty`)
   */
  const basisText = (deriveId: string | undefined, watermark: Record<string, number> | undefined, waiting: string[] | undefined) =>
    `"deriveId":${JSON.stringify(deriveId)},"watermark":${JSON.stringify(watermark)},"dirty":${JSON.stringify(waiting ?? [])},`;
  const basisOf = (keys: Set<string>): string =>
    spec.reads
      ? basisText(
          spec.reads.deriveId,
          spec.reads.watermark(),
          [...dirty].filter((k) => keys.has(k)),
        )
      : '';

  /** write a partition's checkpoint (one atomic row), then let the log drop what it covers */
  async function checkpoint(tp: string): Promise<void> {
    const h = held.get(tp);
    // due when records were folded since the last one, or when the basis it would say moved (a
    // restart's re-derivations, the tables' changes): else a restart would derive those keys again.
    // A state ahead of `next` (a failed batch's outputs pending) is not one the offset describes
    if (!h || (h.next <= h.checkpointed && (h.keys.size === 0 || basisOf(h.keys) === h.basis)) || h.folded > h.next) {
      if (h) h.checkpointedAt = Date.now();
      return;
    }
    // serialized key by key (the changed ones; see `entries`), yielding to the event loop every
    // few milliseconds (batches wait meanwhile: this runs in the serial queue, so the state cannot
    // move under it)
    const parts: string[] = [];
    const slice = slicer(SLICE_MS);
    const reads = spec.reads;
    for (const key of h.keys) {
      let text = entries.get(key);
      if (text === undefined) {
        const entry: Checkpoint<S>['keys'][number] = { key, state: states.get(key) as S, version: lastVersion.get(key) as number, bucket: lastBucket.get(key), reads: reads?.save?.(key) };
        text = JSON.stringify(entry);
        entries.set(key, text);
      }
      parts.push(text);
      if (slice.due()) await slice.next();
    }
    // after the last yield: see basisText
    const basis = basisOf(h.keys);
    const body = `{"offset":${h.next},"stateVersion":${stateVersion},${basis}"keys":[${parts.join(',')}]}`;
    await store.upsert(CheckpointRow.table, [{ key: CheckpointRow.key(spec.groupId, h.topic, h.partition), version: h.next, body }]);
    // the offset row is written after the state it points at, so it never runs ahead of it
    await store.upsert(CheckpointOffsetRow.table, [
      rowOf(CheckpointOffsetRow, { topic: h.topic, partition: h.partition, offset: h.next, stateVersion }, h.next, spec.groupId, h.topic, h.partition),
    ]);
    h.checkpointed = h.next;
    h.basis = basis;
    h.checkpointedAt = Date.now();
    h.since = 0;
    h.sinceBytes = 0;
    h.bytes = body.length;
    checkpointOffsets.set(tp, h.next);
    // the consumer exists once consume() resolved; a checkpoint cannot run before (assignments restore, not checkpoint)
    consumerRef.current?.release(h.topic, h.partition, h.next);
  }

  const consumerRef: { current?: Consumer } = {};

  /** keys whose derivation inputs changed outside their own events (see rederive) */
  const dirty = new Set<string>();
  let dirtyTimer: ReturnType<typeof setTimeout> | undefined;
  /** re-derivations taken but not yet flushed */
  let rederiving = 0;
  /** assignments whose states are not restored yet */
  let restoring = 0;
  const takeDirty = (): string[] => {
    const keys = [...dirty];
    dirty.clear();
    return keys;
  };

  /** coalesced: the next batch derives the dirty keys with its own, or this timer when none comes */
  function scheduleDirty(): void {
    if (dirty.size === 0 || dirtyTimer || stopped) return;
    dirtyTimer = setTimeout(() => {
      dirtyTimer = undefined;
      // taken in the serial queue: until then they stay in `dirty`, where a checkpoint sees them
      void serial(async () => {
        const keys = takeDirty();
        rederiving += keys.length;
        try {
          await flush(keys);
        } catch (err) {
          // left dirty for the next batch or re-derivation
          keys.forEach((k) => dirty.add(k));
          throw err;
        } finally {
          rederiving -= keys.length;
        }
      }).catch((err: unknown) => {
        spec.onError?.(err);
        scheduleDirty();
      });
    }, REDERIVE_DELAY_MS);
  }
  let stopped = false;

  /** batches and re-derivations run one at a time: both read and write the states */
  let queue: Promise<void> = Promise.resolve();
  function serial(fn: () => Promise<void>): Promise<void> {
    const run = queue.then(fn);
    queue = run.catch(() => undefined);
    return run;
  }

  /** derive the touched keys and flush their snapshots (latest, history, snapshots topic), in slices */
  async function flush(touched: Iterable<string>): Promise<number> {
    const rows: Row[] = [];
    const historyRows: Row[] = [];
    const emitted = new Map<string, LogRecordIn[]>();
    /** the snapshots whose emitted records are published with this flush */
    const emitters: [string, unknown][] = [];
    const slice = slicer(SLICE_MS);
    for (const key of touched) {
      if (slice.due()) await slice.next();
      const state = states.get(key);
      if (state === undefined) continue;
      const derived = spec.derive(state, key);
      // the rows it read may have moved with this derivation: its entry keeps them (reads.save)
      if (spec.reads?.save) entries.delete(key);
      if (derived === undefined) continue;
      const body = spec.finish ? await spec.finish(derived, key) : derived;
      const version = lastVersion.get(key) as number;
      // serialized once: the same text goes to the store and, spliced, to the snapshots topic
      const row = { key: snapshotKey(spec.kind, key), version, body: JSON.stringify(body) };
      rows.push(row);
      const records = spec.emit?.(key, body) ?? [];
      for (const f of records) {
        const list = emitted.get(f.topic) ?? [];
        list.push(f.record);
        emitted.set(f.topic, list);
      }
      if (records.length > 0) emitters.push([key, body]);
      const bucket = spec.historyBucket?.(state) ?? version;
      if (lastBucket.get(key) !== bucket) {
        lastBucket.set(key, bucket);
        entries.delete(key);
        const past = spec.historyBody ? spec.historyBody(body) : body;
        const id = spec.historyKey?.(past);
        if (id === undefined || lastHistoryKey.get(key) !== id) {
          if (id !== undefined) lastHistoryKey.set(key, id);
          historyRows.push(spec.historyBody ? { ...row, body: JSON.stringify(past) } : row);
        }
      }
    }
    for (const [topic, records] of emitted) await log.publish(topic, records);
    for (const [key, body] of emitters) spec.emitted?.(key, body);
    if (rows.length > 0) {
      await store.upsert(Tables.snapshots, rows);
      if (historyRows.length > 0) await store.upsert(Tables.snapshotHistory, historyRows);
      await log.publish(
        SnapshotsTopic.name,
        rows.map((r) => SnapshotsTopic.record(r.key, r.version, r.body)),
      );
    }
    return rows.length;
  }

  async function handle(batch: LogBatch): Promise<void> {
    const tp = tpOf(batch.topic, batch.partition);
    if (!held.has(tp)) await restore(batch.topic, batch.partition);
    const h = held.get(tp) as NonNullable<ReturnType<typeof held.get>>;
    const first = batch.records[0];
    if (first && first.offset > h.next && h.next === h.checkpointed) {
      // the records between the checkpoint and this batch are gone (retention): say so, go on
      spec.onGap?.({ topic: batch.topic, partition: batch.partition, expected: h.next, first: first.offset });
    }
    const { out, touched } = h.pending;
    const floor = spec.fanOut ? await fanOutFloor(batch.topic, batch.partition) : 0;
    /** folds one record into its key's state and collects its fan-out */
    const foldRecord = (rec: LogRecord): void => {
      const event = spec.decode(rec.value, rec.topic);
      // a record the fold ignores gives its key no state: the key is not the partition's (a
      // checkpoint entry without a state did not decode, and lost the partition's whole state)
      if (event === undefined) return;
      h.keys.add(rec.key);
      const prev = states.get(rec.key) ?? spec.init(rec.key, event);
      const next = spec.fold(prev, event);
      states.set(rec.key, next);
      h.since++;
      h.sinceBytes += rec.value.length;
      entries.delete(rec.key);
      touched.add(rec.key);
      // the row version grows with every event folded into the key (a retraction can move the
      // position back), the same on every replay whatever the batches: a new owner replaying a
      // partition must end on a version no lower than the rows a dead owner wrote for the key
      lastVersion.set(rec.key, Math.max(spec.version(next), (lastVersion.get(rec.key) ?? -1) + 1));
      if (!spec.fanOut) return;
      // a fan-out may remember what it emitted (the hour of the last price mark of a token), so it
      // sees every event, replayed ones too; what it returns below the floor was published before
      const fanned = spec.fanOut(event, rec.key, next);
      if (rec.offset < floor) return;
      for (const f of fanned) {
        const list = out.get(f.topic) ?? [];
        list.push(f.record);
        out.set(f.topic, list);
      }
    };
    const slice = slicer(SLICE_MS);
    for (const rec of batch.records) {
      if (slice.due()) await slice.next();
      // folded in already: the checkpoint this partition was restored from covers it, or a failed
      // attempt of this batch folded it (its outputs are pending)
      if (rec.offset < h.folded) continue;
      foldRecord(rec);
      h.folded = rec.offset + 1;
    }
    for (const [topic, records] of out) {
      await log.publish(topic, records);
      out.delete(topic);
    }
    if (spec.fanOut && h.folded > floor) {
      const k = tpOf(batch.topic, batch.partition);
      fannedUpTo.set(k, h.folded);
      await store.upsert(FanOutCursorRow.table, [rowOf(FanOutCursorRow, { next: h.folded }, h.folded, spec.groupId, batch.topic, batch.partition)]);
    }
    // pending re-derivations ride on this flush; if it fails they stay pending (the batch is retried)
    const riding = takeDirty();
    let keys: number;
    try {
      keys = await flush(new Set([...touched, ...riding]));
    } catch (err) {
      for (const k of riding) dirty.add(k);
      throw err;
    }
    touched.clear();
    h.next = Math.max(h.next, h.folded);
    spec.onFlush?.({ partition: batch.partition, keys, records: batch.records.length });
    await checkpointIfDue(tp);
  }

  /** the records since the last checkpoint cost more to replay, or take more disk, than a new one */
  const sizeDue = (h: { since: number; sinceBytes: number; bytes: number }) => h.since * REPLAY_BYTES_PER_RECORD >= h.bytes || h.sinceBytes >= h.bytes;
  /** per partition: a checkpoint the size rules call for, waiting out `checkpointMs` after the last one */
  const waiting = new Map<string, ReturnType<typeof setTimeout>>();

  /**
   * checkpoints the partition when due; when only the interval holds it back, later without a
   * batch: a backfill's last batches are followed by live blocks minutes apart, and the log holds
   * the records the checkpoint would release until it is written
   */
  async function checkpointIfDue(tp: string): Promise<void> {
    const h = held.get(tp);
    if (!h) return;
    const elapsed = Date.now() - h.checkpointedAt;
    if (elapsed >= checkpointMs && (sizeDue(h) || elapsed >= checkpointMaxMs)) return checkpoint(tp);
    if (stopped || waiting.has(tp) || h.next <= h.checkpointed || !sizeDue(h)) return;
    const timer = setTimeout(() => {
      waiting.delete(tp);
      serial(() => checkpointIfDue(tp)).catch((err: unknown) => spec.onError?.(err));
    }, checkpointMs - elapsed);
    waiting.set(tp, timer);
  }

  for (const t of spec.topics) await log.ensureTopic(t);
  await ensureTopic(log, SnapshotsTopic);
  const consumer: Consumer = await log.consume({
    groupId: spec.groupId,
    topics: spec.topics,
    // a partition is read from its checkpoint (from its start when it has none): the source
    // topic is the state's changelog, the checkpoint a snapshot of it
    startOffset: (topic, partition) => checkpointOffsets.get(tpOf(topic, partition)) ?? 0,
    retainUntilReleased: true,
    // partitions moved: the states are restored from the checkpoints, after the batch in flight
    onAssign: (assigned) => {
      restoring++;
      void serial(async () => {
        states.clear();
        dirty.clear();
        lastVersion.clear();
        lastBucket.clear();
        entries.clear();
        held.clear();
        // another owner may have moved a partition's fan-out cursor on meanwhile: read it again
        fannedUpTo.clear();
        for (const a of assigned) if (spec.topics.includes(a.topic)) await restore(a.topic, a.partition);
        scheduleDirty();
      })
        .catch((err: unknown) => spec.onError?.(err))
        .finally(() => restoring--);
    },
    eachBatch: (b) => serial(() => handle(b)),
  });
  consumerRef.current = consumer;

  return {
    stop: async () => {
      stopped = true;
      if (dirtyTimer) clearTimeout(dirtyTimer);
      dirtyTimer = undefined;
      for (const t of waiting.values()) clearTimeout(t);
      waiting.clear();
      await consumer.stop();
      // a clean stop checkpoints everything folded, so a restart replays nothing
      await serial(async () => {
        for (const tp of held.keys()) await checkpoint(tp);
      });
    },
    // pending restores and re-derivations count as lag: the states and snapshots are not yet
    // what the log says (a partition whose checkpoint covers the whole log reads lag 0 at once)
    lag: async () => {
      const l = [...(await consumer.lag())];
      for (const j of spec.joins ?? []) l.push(...(await j.lag()));
      if (restoring > 0) l.push({ topic: 'restore', partition: -1, lag: restoring });
      const pending = dirty.size + rederiving;
      return pending > 0 ? [...l, { topic: 'rederive', partition: -1, lag: pending }] : l;
    },
    state: (key) => states.get(key),
    // the same version as the last event's row: equal versions are last-write-wins in every store
    rederive: (keys) => {
      for (const k of keys) if (states.has(k)) dirty.add(k);
      scheduleDirty();
      return Promise.resolve();
    },
  };
}
