import type { Consumer, Log, LogBatch, LogRecord, LogRecordIn } from '../infra/log/types.ts';
import type { Row, Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { CheckpointOffsetRow, CheckpointRow, FanOutCursorRow, readRow, rowOf } from '../infra/rows.ts';
import type { Checkpoint } from '../infra/rows.ts';
import { SnapshotsTopic, ensureTopic } from '../infra/topics.ts';
import { SLICE_MS, slicer } from '../infra/pause.ts';
import { snapshotKey } from '../schemas/topics.ts';
import { basisText, checkpointBody, checkpointToRestore, sizeDue } from './checkpoint.ts';
import type { FoldSpec, FoldWorker, WorkerOptions } from './spec.ts';

export type { FoldSpec, FoldWorker, WorkerOptions } from './spec.ts';

/** how long a re-derivation waits for a batch to ride on before it runs on its own */
const REDERIVE_DELAY_MS = 100;

const tpOf = (topic: string, partition: number) => `${topic}:${partition}`;

type Timer = ReturnType<typeof setTimeout>;
type Lag = { topic: string; partition: number; lag: number };

/** a partition this worker holds: its keys, the next offset to fold, its last checkpoint */
interface Partition {
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

/** what one flush writes: snapshot rows, history rows and the records `emit` asked for */
interface FlushOut {
  rows: Row[];
  historyRows: Row[];
  emitted: Map<string, LogRecordIn[]>;
  /** the snapshots whose emitted records are published with this flush */
  emitters: [string, unknown][];
}

const push = <V>(lists: Map<string, V[]>, topic: string, value: V) => {
  const list = lists.get(topic);
  if (list) list.push(value);
  else lists.set(topic, [value]);
};

/** per key: its state, row version, history bucket and checkpoint entry */
class KeyTable<S> {
  readonly states = new Map<string, S>();
  readonly versions = new Map<string, number>();
  readonly buckets = new Map<string, number>();
  /**
   * per key: its checkpoint entry as last serialized, dropped when the key's state, version or
   * bucket moves. A checkpoint serializes only the keys changed since the last one and reuses the
   * rest, so a live checkpoint costs the changed keys plus one copy of the partition's text, not a
   * JSON.stringify of megabytes of state every few seconds (which took the CPU from the API).
   */
  readonly entries = new Map<string, string>();
  /** per key: the historyKey of its last history row (a restart forgets it and writes one more row) */
  readonly historyKeys = new Map<string, string>();

  /** a reassignment: the states are restored again from the checkpoints */
  clear(): void {
    this.states.clear();
    this.versions.clear();
    this.buckets.clear();
    this.entries.clear();
  }

  /** the key's checkpoint entry, serialized when it changed since the last one */
  entry(key: string, reads: (key: string) => unknown): string {
    let text = this.entries.get(key);
    if (text === undefined) {
      const entry: Checkpoint<S>['keys'][number] = { key, state: this.states.get(key) as S, version: this.versions.get(key) as number, bucket: this.buckets.get(key), reads: reads(key) };
      text = JSON.stringify(entry);
      this.entries.set(key, text);
    }
    return text;
  }
}

/**
 * Starts a fold worker (see FoldSpec): a member of the spec's consumer group that folds, derives,
 * flushes, fans out and checkpoints its partitions.
 */
export async function startFoldWorker<S, E>(deps: { log: Log; store: Store }, spec: FoldSpec<S, E>, opts: WorkerOptions = {}): Promise<FoldWorker> {
  const runner = new FoldRunner(deps, spec, opts);
  await runner.start();
  return runner;
}

/**
 * The worker's state lives here and moves only inside `transact`: batches, re-derivations,
 * reassignments and checkpoints run there one at a time.
 */
class FoldRunner<S, E> implements FoldWorker {
  private readonly log: Log;
  private readonly store: Store;
  private readonly checkpointMs: number;
  private readonly checkpointMaxMs: number;
  private readonly stateVersion: number;
  private readonly keys = new KeyTable<S>();
  private readonly held = new Map<string, Partition>();
  /** per topic-partition: offsets below this were fanned out already (before a restart or rebalance) */
  private readonly fannedUpTo = new Map<string, number>();
  /** per partition: the offset of its newest checkpoint known here, where a new owner starts reading */
  private readonly checkpointOffsets = new Map<string, number>();
  /** keys whose derivation inputs changed outside their own events (see rederive) */
  private readonly dirty = new Set<string>();
  /** per partition: a checkpoint the size rules call for, waiting out `checkpointMs` after the last one */
  private readonly waiting = new Map<string, Timer>();
  private dirtyTimer: Timer | undefined;
  /** re-derivations taken but not yet flushed */
  private rederiving = 0;
  /** assignments whose states are not restored yet */
  private restoring = 0;
  private stopped = false;
  private queue: Promise<void> = Promise.resolve();
  /** exists once consume() resolved; a checkpoint cannot run before (assignments restore, not checkpoint) */
  private consumer: Consumer | undefined;

  constructor(
    deps: { log: Log; store: Store },
    private readonly spec: FoldSpec<S, E>,
    opts: WorkerOptions,
  ) {
    this.log = deps.log;
    this.store = deps.store;
    this.checkpointMs = opts.checkpointMs ?? 5_000;
    this.checkpointMaxMs = Math.max(this.checkpointMs, opts.checkpointMaxMs ?? 600_000);
    this.stateVersion = spec.stateVersion ?? 1;
  }

  async start(): Promise<void> {
    const { spec, log } = this;
    await this.loadCheckpointOffsets();
    for (const t of spec.topics) await log.ensureTopic(t);
    await ensureTopic(log, SnapshotsTopic);
    this.consumer = await log.consume({
      groupId: spec.groupId,
      topics: spec.topics,
      // a partition is read from its checkpoint (from its start when it has none): the source
      // topic is the state's changelog, the checkpoint a snapshot of it
      startOffset: (topic, partition) => this.checkpointOffsets.get(tpOf(topic, partition)) ?? 0,
      retainUntilReleased: true,
      onAssign: (assigned) => this.assign(assigned),
      eachBatch: (b) => this.transact(() => this.handle(b)),
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.dirtyTimer) clearTimeout(this.dirtyTimer);
    this.dirtyTimer = undefined;
    for (const t of this.waiting.values()) clearTimeout(t);
    this.waiting.clear();
    await this.consumer?.stop();
    // a clean stop checkpoints everything folded, so a restart replays nothing
    await this.transact(async () => {
      for (const tp of this.held.keys()) await this.checkpoint(tp);
    });
  }

  // pending restores and re-derivations count as lag: the states and snapshots are not yet
  // what the log says (a partition whose checkpoint covers the whole log reads lag 0 at once)
  async lag(): Promise<Lag[]> {
    const l = [...((await this.consumer?.lag()) ?? [])];
    for (const j of this.spec.joins ?? []) l.push(...(await j.lag()));
    if (this.restoring > 0) l.push({ topic: 'restore', partition: -1, lag: this.restoring });
    const pending = this.dirty.size + this.rederiving;
    return pending > 0 ? [...l, { topic: 'rederive', partition: -1, lag: pending }] : l;
  }

  state(key: string): unknown {
    return this.keys.states.get(key);
  }

  // the same version as the last event's row: equal versions are last-write-wins in every store
  rederive(keys: Iterable<string>): Promise<void> {
    for (const k of keys) if (this.keys.states.has(k)) this.dirty.add(k);
    this.scheduleDirty();
    return Promise.resolve();
  }

  /** the one boundary the state moves in: batches and re-derivations run one at a time, both read and write it */
  private transact(fn: () => Promise<void>): Promise<void> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async loadCheckpointOffsets(): Promise<void> {
    for (const row of await this.store.list(CheckpointOffsetRow.table, { prefix: CheckpointOffsetRow.groupPrefix(this.spec.groupId) })) {
      const c = CheckpointOffsetRow.codec.decode(row.body);
      if (c && (c.stateVersion ?? 1) === this.stateVersion) this.checkpointOffsets.set(tpOf(c.topic, c.partition), c.offset);
    }
  }

  /** partitions moved: the states are restored from the checkpoints, after the batch in flight */
  private assign(assigned: { topic: string; partition: number }[]): void {
    this.restoring++;
    void this.transact(async () => {
      this.keys.clear();
      this.dirty.clear();
      this.held.clear();
      // another owner may have moved a partition's fan-out cursor on meanwhile: read it again
      this.fannedUpTo.clear();
      for (const a of assigned) if (this.spec.topics.includes(a.topic)) await this.restore(a.topic, a.partition);
      this.scheduleDirty();
    })
      .catch((err: unknown) => this.spec.onError?.(err))
      .finally(() => this.restoring--);
  }

  private async fanOutFloor(topic: string, partition: number): Promise<number> {
    const k = tpOf(topic, partition);
    let v = this.fannedUpTo.get(k);
    if (v === undefined) {
      v = (await readRow(this.store, FanOutCursorRow, this.spec.groupId, topic, partition))?.next ?? 0;
      this.fannedUpTo.set(k, v);
    }
    return v;
  }

  /** load a partition's checkpoint (if any) into the states; the partition is held from the offset it covers */
  private async restore(topic: string, partition: number): Promise<void> {
    const { spec, keys: table } = this;
    const name = CheckpointRow.key(spec.groupId, topic, partition);
    const { ck, restored } = checkpointToRestore<S>(await this.store.get(CheckpointRow.table, name), name, this.stateVersion, spec.onError);
    // every key is derived again unless the checkpoint says what its snapshot was derived from
    const reads = spec.reads;
    const watermark = reads && ck.deriveId === reads.deriveId ? ck.watermark : undefined;
    const waiting = new Set(ck.dirty);
    const keys = new Set<string>();
    let stale = 0;
    for (const k of ck.keys) {
      table.states.set(k.key, k.state);
      table.versions.set(k.key, k.version);
      if (k.bucket !== undefined) table.buckets.set(k.key, k.bucket);
      table.entries.delete(k.key);
      keys.add(k.key);
      if (!reads || !watermark || reads.restore(k.key, k.state, k.reads, watermark) || waiting.has(k.key)) {
        this.dirty.add(k.key);
        stale++;
      }
    }
    if (restored) spec.onRestore?.({ group: spec.groupId, topic, partition, offset: ck.offset, keys: ck.keys.length, stale });
    const basis = reads && restored ? basisText(ck.deriveId, ck.watermark, ck.dirty) : '';
    this.held.set(tpOf(topic, partition), {
      ...{ topic, partition, keys, next: ck.offset, folded: ck.offset, checkpointed: ck.offset, basis },
      ...{ pending: { out: new Map(), touched: new Set() }, checkpointedAt: Date.now(), since: 0, sinceBytes: 0, bytes: 0 },
    });
  }

  private basisOf(keys: Set<string>): string {
    const reads = this.spec.reads;
    if (!reads) return '';
    return basisText(
      reads.deriveId,
      reads.watermark(),
      [...this.dirty].filter((k) => keys.has(k)),
    );
  }

  /** write a partition's checkpoint (one atomic row), then let the log drop what it covers */
  private async checkpoint(tp: string): Promise<void> {
    const h = this.held.get(tp);
    // due when records were folded since the last one, or when the basis it would say moved (a
    // restart's re-derivations, the tables' changes): else a restart would derive those keys again.
    // A state ahead of `next` (a failed batch's outputs pending) is not one the offset describes
    if (!h || (h.next <= h.checkpointed && (h.keys.size === 0 || this.basisOf(h.keys) === h.basis)) || h.folded > h.next) {
      if (h) h.checkpointedAt = Date.now();
      return;
    }
    const entries = await this.entriesOf(h.keys);
    // after the last yield: see basisText
    const basis = this.basisOf(h.keys);
    const body = checkpointBody(h.next, this.stateVersion, basis, entries);
    const { groupId } = this.spec;
    await this.store.upsert(CheckpointRow.table, [{ key: CheckpointRow.key(groupId, h.topic, h.partition), version: h.next, body }]);
    // the offset row is written after the state it points at, so it never runs ahead of it
    await this.store.upsert(CheckpointOffsetRow.table, [
      rowOf(CheckpointOffsetRow, { topic: h.topic, partition: h.partition, offset: h.next, stateVersion: this.stateVersion }, h.next, groupId, h.topic, h.partition),
    ]);
    Object.assign(h, { checkpointed: h.next, basis, checkpointedAt: Date.now(), since: 0, sinceBytes: 0, bytes: body.length });
    this.checkpointOffsets.set(tp, h.next);
    this.consumer?.release(h.topic, h.partition, h.next);
  }

  /**
   * the keys' checkpoint entries, serialized key by key (the changed ones; see KeyTable.entries),
   * yielding to the event loop every few milliseconds (batches wait meanwhile: this runs in the
   * serial queue, so the state cannot move under it)
   */
  private async entriesOf(keys: Set<string>): Promise<string[]> {
    const parts: string[] = [];
    const slice = slicer(SLICE_MS);
    const save = (key: string) => this.spec.reads?.save?.(key);
    for (const key of keys) {
      parts.push(this.keys.entry(key, save));
      if (slice.due()) await slice.next();
    }
    return parts;
  }

  /**
   * checkpoints the partition when due; when only the interval holds it back, later without a
   * batch: a backfill's last batches are followed by live blocks minutes apart, and the log holds
   * the records the checkpoint would release until it is written
   */
  private async checkpointIfDue(tp: string): Promise<void> {
    const h = this.held.get(tp);
    if (!h) return;
    const elapsed = Date.now() - h.checkpointedAt;
    if (elapsed >= this.checkpointMs && (sizeDue(h) || elapsed >= this.checkpointMaxMs)) return this.checkpoint(tp);
    if (this.stopped || this.waiting.has(tp) || h.next <= h.checkpointed || !sizeDue(h)) return;
    const timer = setTimeout(() => {
      this.waiting.delete(tp);
      this.transact(() => this.checkpointIfDue(tp)).catch((err: unknown) => this.spec.onError?.(err));
    }, this.checkpointMs - elapsed);
    this.waiting.set(tp, timer);
  }

  private takeDirty(): string[] {
    const keys = [...this.dirty];
    this.dirty.clear();
    return keys;
  }

  /** coalesced: the next batch derives the dirty keys with its own, or this timer when none comes */
  private scheduleDirty(): void {
    if (this.dirty.size === 0 || this.dirtyTimer || this.stopped) return;
    this.dirtyTimer = setTimeout(() => {
      this.dirtyTimer = undefined;
      // taken in the serial queue: until then they stay in `dirty`, where a checkpoint sees them
      void this.transact(() => this.flushDirty()).catch((err: unknown) => {
        this.spec.onError?.(err);
        this.scheduleDirty();
      });
    }, REDERIVE_DELAY_MS);
  }

  private async flushDirty(): Promise<void> {
    const keys = this.takeDirty();
    this.rederiving += keys.length;
    try {
      await this.flush(keys);
    } catch (err) {
      // left dirty for the next batch or re-derivation
      keys.forEach((k) => this.dirty.add(k));
      throw err;
    } finally {
      this.rederiving -= keys.length;
    }
  }

  /** derive the touched keys and flush their snapshots (latest, history, snapshots topic), in slices */
  private async flush(touched: Iterable<string>): Promise<number> {
    const out: FlushOut = { rows: [], historyRows: [], emitted: new Map(), emitters: [] };
    const slice = slicer(SLICE_MS);
    for (const key of touched) {
      if (slice.due()) await slice.next();
      await this.deriveKey(key, out);
    }
    await this.writeFlush(out);
    return out.rows.length;
  }

  /** one key's snapshot row, the records it emits and, when its history bucket moved, its history row */
  private async deriveKey(key: string, out: FlushOut): Promise<void> {
    const { spec, keys: table } = this;
    const state = table.states.get(key);
    if (state === undefined) return;
    const derived = spec.derive(state, key);
    // the rows it read may have moved with this derivation: its entry keeps them (reads.save)
    if (spec.reads?.save) table.entries.delete(key);
    if (derived === undefined) return;
    const body = spec.finish ? await spec.finish(derived, key) : derived;
    const version = table.versions.get(key) as number;
    // serialized once: the same text goes to the store and, spliced, to the snapshots topic
    const row = { key: snapshotKey(spec.kind, key), version, body: JSON.stringify(body) };
    out.rows.push(row);
    const records = spec.emit?.(key, body) ?? [];
    for (const f of records) push(out.emitted, f.topic, f.record);
    if (records.length > 0) out.emitters.push([key, body]);
    const bucket = spec.historyBucket?.(state) ?? version;
    if (table.buckets.get(key) === bucket) return;
    table.buckets.set(key, bucket);
    table.entries.delete(key);
    const past = spec.historyBody ? spec.historyBody(body) : body;
    const id = spec.historyKey?.(past);
    if (id !== undefined && table.historyKeys.get(key) === id) return;
    if (id !== undefined) table.historyKeys.set(key, id);
    out.historyRows.push(spec.historyBody ? { ...row, body: JSON.stringify(past) } : row);
  }

  private async writeFlush({ rows, historyRows, emitted, emitters }: FlushOut): Promise<void> {
    const { log, store } = this;
    for (const [topic, records] of emitted) await log.publish(topic, records);
    for (const [key, body] of emitters) this.spec.emitted?.(key, body);
    if (rows.length === 0) return;
    await store.upsert(Tables.snapshots, rows);
    if (historyRows.length > 0) await store.upsert(Tables.snapshotHistory, historyRows);
    await log.publish(
      SnapshotsTopic.name,
      rows.map((r) => SnapshotsTopic.record(r.key, r.version, r.body)),
    );
  }

  private async handle(batch: LogBatch): Promise<void> {
    const tp = tpOf(batch.topic, batch.partition);
    if (!this.held.has(tp)) await this.restore(batch.topic, batch.partition);
    const h = this.held.get(tp) as Partition;
    const first = batch.records[0];
    if (first && first.offset > h.next && h.next === h.checkpointed) {
      // the records between the checkpoint and this batch are gone (retention): say so, go on
      this.spec.onGap?.({ topic: batch.topic, partition: batch.partition, expected: h.next, first: first.offset });
    }
    const floor = this.spec.fanOut ? await this.fanOutFloor(batch.topic, batch.partition) : 0;
    await this.foldBatch(h, batch, floor);
    await this.publishFanOut(h, floor);
    const keys = await this.flushTouched(h);
    this.spec.onFlush?.({ partition: batch.partition, keys, records: batch.records.length });
    await this.checkpointIfDue(tp);
  }

  private async foldBatch(h: Partition, batch: LogBatch, floor: number): Promise<void> {
    const slice = slicer(SLICE_MS);
    for (const rec of batch.records) {
      if (slice.due()) await slice.next();
      // folded in already: the checkpoint this partition was restored from covers it, or a failed
      // attempt of this batch folded it (its outputs are pending)
      if (rec.offset < h.folded) continue;
      this.foldRecord(h, rec, floor);
      h.folded = rec.offset + 1;
    }
  }

  /** folds one record into its key's state and collects its fan-out */
  private foldRecord(h: Partition, rec: LogRecord, floor: number): void {
    const { spec, keys: table } = this;
    const event = spec.decode(rec.value, rec.topic);
    // a record the fold ignores gives its key no state: the key is not the partition's (a
    // checkpoint entry without a state did not decode, and lost the partition's whole state)
    if (event === undefined) return;
    h.keys.add(rec.key);
    const next = spec.fold(table.states.get(rec.key) ?? spec.init(rec.key, event), event);
    table.states.set(rec.key, next);
    h.since++;
    h.sinceBytes += rec.value.length;
    table.entries.delete(rec.key);
    h.pending.touched.add(rec.key);
    // the row version grows with every event folded into the key (a retraction can move the
    // position back), the same on every replay whatever the batches: a new owner replaying a
    // partition must end on a version no lower than the rows a dead owner wrote for the key
    table.versions.set(rec.key, Math.max(spec.version(next), (table.versions.get(rec.key) ?? -1) + 1));
    if (!spec.fanOut) return;
    // a fan-out may remember what it emitted (the hour of the last price mark of a token), so it
    // sees every event, replayed ones too; what it returns below the floor was published before
    const fanned = spec.fanOut(event, rec.key, next);
    if (rec.offset < floor) return;
    for (const f of fanned) push(h.pending.out, f.topic, f.record);
  }

  /** publishes the batch's fan-out, then moves the partition's fan-out cursor past it */
  private async publishFanOut(h: Partition, floor: number): Promise<void> {
    const { out } = h.pending;
    for (const [topic, records] of out) {
      await this.log.publish(topic, records);
      out.delete(topic);
    }
    if (!this.spec.fanOut || h.folded <= floor) return;
    this.fannedUpTo.set(tpOf(h.topic, h.partition), h.folded);
    await this.store.upsert(FanOutCursorRow.table, [rowOf(FanOutCursorRow, { next: h.folded }, h.folded, this.spec.groupId, h.topic, h.partition)]);
  }

  /** flushes the keys the batch touched; pending re-derivations ride on it (they stay pending if it fails: the batch is retried) */
  private async flushTouched(h: Partition): Promise<number> {
    const { touched } = h.pending;
    const riding = this.takeDirty();
    let keys: number;
    try {
      keys = await this.flush(new Set([...touched, ...riding]));
    } catch (err) {
      for (const k of riding) this.dirty.add(k);
      throw err;
    }
    touched.clear();
    h.next = Math.max(h.next, h.folded);
    return keys;
  }
}
