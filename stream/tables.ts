import { randomUUID } from 'node:crypto';
import type { Consumer, Log } from '../infra/log/types.ts';
import type { TopicDef } from '../infra/topics.ts';
import { ensureTopic } from '../infra/topics.ts';
import type { FoldWorker } from './spec.ts';

/** what re-derives the keys a table change made stale (a fold worker, or a slot for one) */
export interface Rederiver {
  rederive(keys: Iterable<string>): Promise<void>;
}

/** the keys a table record made stale, per reader */
export type StaleKeys = [reader: Rederiver, keys: Iterable<string>][];

/** where a table record stands in its topic (a change clock names a row's change by it) */
export interface RecordAt {
  tp: string;
  offset: number;
}

/**
 * Folds a compacted table topic from its start into an in-memory table, in this process (an
 * ephemeral group: every process reads the whole table). `apply` folds a record into its table
 * and may return the keys it made stale, per reader: they are re-derived once per batch, and
 * `handed` is then told how far the batch's changes went to their readers (a change clock's
 * watermark).
 */
export async function followTable<T>(
  log: Log,
  def: TopicDef<T>,
  apply: (record: T, at: RecordAt) => StaleKeys | void,
  opts: { handed?: (tp: string, next: number) => void } = {},
): Promise<Consumer> {
  await ensureTopic(log, def);
  return log.consume({
    groupId: `ephemeral-${def.name}-${randomUUID()}`,
    topics: [def.name],
    startOffset: () => 0,
    eachBatch: async (b) => {
      const stale = new Map<Rederiver, Set<string>>();
      const tp = `${b.topic}:${b.partition}`;
      for (const r of b.records) {
        const v = def.codec.decode(r.value);
        if (v === undefined) continue;
        for (const [reader, keys] of apply(v, { tp, offset: r.offset }) ?? []) {
          let set = stale.get(reader);
          if (!set) stale.set(reader, (set = new Set()));
          for (const k of keys) set.add(k);
        }
      }
      for (const [reader, keys] of stale) if (keys.size > 0) await reader.rederive(keys);
      const last = b.records[b.records.length - 1];
      if (last) opts.handed?.(tp, last.offset + 1);
    },
  });
}

/** Resolves once a consumer has read every record its partitions held (lag 0 once). */
export async function caughtUp(c: { lag(): Promise<{ lag: number }[]> }): Promise<void> {
  for (;;) {
    if ((await c.lag()).every((l) => l.lag === 0)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface ReaderSlot extends Rederiver {
  /** from now on changes are kept for the worker */
  arm(): void;
  /** the worker is started: the keys kept for it are re-derived */
  start(worker: FoldWorker): Promise<void>;
}

/**
 * The worker that reads a table, once it is started: keys a table change makes stale before then
 * (the worker replays while its handle does not exist yet) are kept and re-derived at start.
 * Changes read before it is armed (the tables' catch-up at start, before any worker derived) are
 * not kept.
 */
export function createReaderSlot(): ReaderSlot {
  let worker: FoldWorker | undefined;
  let armed = false;
  const early = new Set<string>();
  return {
    arm: () => void (armed = true),
    rederive: async (keys) => {
      if (worker) await worker.rederive(keys);
      else if (armed) for (const k of keys) early.add(k);
    },
    start: async (w) => {
      worker = w;
      await w.rederive(early);
      early.clear();
    },
  };
}
