import type { Consumer, Log, LogBatch, LogRecordIn } from '../infra/log/types.ts';
import type { Row, Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { Topics } from '../schemas/events.ts';

/**
 * Runs a pure fold over a keyed topic as a member of a consumer group: folds each batch into
 * per-key state, derives the snapshots of the keys it touched, flushes them to the store (latest
 * and history) and to the snapshots topic, and only then returns, so the log commits the
 * batch's offsets after the sink acknowledged the flush. A crash replays from the last commit;
 * the folds are idempotent and the store writes are upserts, so the replay is harmless.
 *
 * State lives in memory and is restored on assignment by replaying the assigned partitions from
 * their start (the source topic is the state's changelog), so a restarted or rebalanced worker
 * derives exactly the snapshots a worker that never stopped would have.
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
   * before the snapshot itself is flushed
   */
  emit?: (key: string, body: unknown) => { topic: string; record: LogRecordIn }[];
  /**
   * consumers of the tables the derivation reads: until they are caught up, neither are the
   * snapshots, so their lag is this worker's lag
   */
  joins?: { lag(): Promise<{ topic: string; partition: number; lag: number }[]> }[];
  /** called after each flush (metrics, lag) */
  onFlush?: (info: { partition: number; keys: number; records: number }) => void;
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

/** how long a re-derivation waits for a batch to ride on before it runs on its own */
const REDERIVE_DELAY_MS = 100;

export async function startFoldWorker<S, E>(deps: { log: Log; store: Store }, spec: FoldSpec<S, E>): Promise<FoldWorker> {
  const { log, store } = deps;
  const states = new Map<string, S>();
  const lastVersion = new Map<string, number>();
  const lastBucket = new Map<string, number>();
  /** per topic-partition: offsets below this were fanned out already (before a restart or rebalance) */
  const fannedUpTo = new Map<string, number>();
  const cursorKey = (topic: string, partition: number) => `fanout:${spec.groupId}:${topic}:${partition}`;

  async function fanOutFloor(topic: string, partition: number): Promise<number> {
    const k = cursorKey(topic, partition);
    let v = fannedUpTo.get(k);
    if (v === undefined) {
      const row = await store.get(Tables.cursors, k);
      v = row ? (JSON.parse(row.body) as { next: number }).next : 0;
      fannedUpTo.set(k, v);
    }
    return v;
  }

  /** keys whose derivation inputs changed outside their own events (see rederive) */
  const dirty = new Set<string>();
  let dirtyTimer: ReturnType<typeof setTimeout> | undefined;
  /** re-derivations taken but not yet flushed */
  let rederiving = 0;
  const takeDirty = (): string[] => {
    const keys = [...dirty];
    dirty.clear();
    return keys;
  };

  /** batches and re-derivations run one at a time: both read and write the states */
  let queue: Promise<void> = Promise.resolve();
  function serial(fn: () => Promise<void>): Promise<void> {
    const run = queue.then(fn);
    queue = run.catch(() => undefined);
    return run;
  }

  /** derive the touched keys and flush their snapshots (latest, history, snapshots topic) */
  async function flush(touched: Iterable<string>): Promise<number> {
    const rows: Row[] = [];
    const historyRows: Row[] = [];
    const emitted = new Map<string, LogRecordIn[]>();
    for (const key of touched) {
      const state = states.get(key);
      if (state === undefined) continue;
      const derived = spec.derive(state, key);
      if (derived === undefined) continue;
      const body = spec.finish ? await spec.finish(derived, key) : derived;
      const version = lastVersion.get(key) as number;
      const row = { key: `${spec.kind}:${key}`, version, body: JSON.stringify(body) };
      rows.push(row);
      for (const f of spec.emit?.(key, body) ?? []) {
        const list = emitted.get(f.topic) ?? [];
        list.push(f.record);
        emitted.set(f.topic, list);
      }
      const bucket = spec.historyBucket?.(state) ?? version;
      if (lastBucket.get(key) !== bucket) {
        lastBucket.set(key, bucket);
        historyRows.push(spec.historyBody ? { ...row, body: JSON.stringify(spec.historyBody(body)) } : row);
      }
    }
    for (const [topic, records] of emitted) await log.publish(topic, records);
    if (rows.length > 0) {
      await store.upsert(Tables.snapshots, rows);
      if (historyRows.length > 0) await store.upsert(Tables.snapshotHistory, historyRows);
      await log.publish(
        Topics.snapshots,
        rows.map((r) => ({ key: r.key, value: `{"version":${r.version},"body":${r.body}}` })),
      );
    }
    return rows.length;
  }

  async function handle(batch: LogBatch): Promise<void> {
    const touched = new Set<string>();
    const out = new Map<string, LogRecordIn[]>();
    const floor = spec.fanOut ? await fanOutFloor(batch.topic, batch.partition) : 0;
    for (const rec of batch.records) {
      const event = spec.decode(rec.value, rec.topic);
      if (event === undefined) continue;
      const prev = states.get(rec.key) ?? spec.init(rec.key, event);
      const next = spec.fold(prev, event);
      states.set(rec.key, next);
      touched.add(rec.key);
      // the row version grows with every event folded into the key (a retraction can move the
      // position back), the same on every replay whatever the batches: a new owner replaying a
      // partition must end on a version no lower than the rows a dead owner wrote for the key
      lastVersion.set(rec.key, Math.max(spec.version(next), (lastVersion.get(rec.key) ?? -1) + 1));
      if (!spec.fanOut) continue;
      // a fan-out may remember what it emitted (the hour of the last price mark of a token), so it
      // sees every event, replayed ones too; what it returns below the floor was published before
      const fanned = spec.fanOut(event, rec.key, next);
      if (rec.offset < floor) continue;
      for (const f of fanned) {
        const list = out.get(f.topic) ?? [];
        list.push(f.record);
        out.set(f.topic, list);
      }
    }
    for (const [topic, records] of out) await log.publish(topic, records);
    const last = batch.records[batch.records.length - 1];
    if (spec.fanOut && last && last.offset + 1 > floor) {
      const k = cursorKey(batch.topic, batch.partition);
      fannedUpTo.set(k, last.offset + 1);
      await store.upsert(Tables.cursors, [{ key: k, version: last.offset + 1, body: JSON.stringify({ next: last.offset + 1 }) }]);
    }
    // pending re-derivations ride on this flush; if it fails they stay pending (the batch is retried)
    const riding = takeDirty();
    for (const k of riding) touched.add(k);
    let keys: number;
    try {
      keys = await flush(touched);
    } catch (err) {
      for (const k of riding) dirty.add(k);
      throw err;
    }
    spec.onFlush?.({ partition: batch.partition, keys, records: batch.records.length });
  }

  for (const t of spec.topics) await log.ensureTopic(t);
  await log.ensureTopic(Topics.snapshots, { compacted: true });
  const consumer: Consumer = await log.consume({
    groupId: spec.groupId,
    topics: spec.topics,
    // restore state from the changelog: replay assigned partitions from their start
    startOffset: () => 0,
    onAssign: () => {
      states.clear();
      dirty.clear();
      lastVersion.clear();
      lastBucket.clear();
      // another owner may have moved a partition's fan-out cursor on meanwhile: read it again
      fannedUpTo.clear();
    },
    eachBatch: (b) => serial(() => handle(b)),
  });

  return {
    stop: async () => {
      if (dirtyTimer) clearTimeout(dirtyTimer);
      dirtyTimer = undefined;
      await consumer.stop();
    },
    // pending re-derivations count as lag: the snapshots are not yet what the inputs say
    lag: async () => {
      const l = [...(await consumer.lag())];
      for (const j of spec.joins ?? []) l.push(...(await j.lag()));
      const pending = dirty.size + rederiving;
      return pending > 0 ? [...l, { topic: 'rederive', partition: -1, lag: pending }] : l;
    },
    state: (key) => states.get(key),
    // the same version as the last event's row: equal versions are last-write-wins in every store
    rederive: (keys) => {
      for (const k of keys) if (states.has(k)) dirty.add(k);
      if (dirty.size === 0 || dirtyTimer) return Promise.resolve();
      // coalesced: the next batch derives them with its own keys, or this timer when none comes
      dirtyTimer = setTimeout(() => {
        dirtyTimer = undefined;
        const keys = takeDirty();
        rederiving += keys.length;
        // a failed flush leaves them dirty for the next batch or re-derivation
        void serial(async () => void (await flush(keys)))
          .catch(() => keys.forEach((k) => dirty.add(k)))
          .finally(() => (rederiving -= keys.length));
      }, REDERIVE_DELAY_MS);
      return Promise.resolve();
    },
  };
}
