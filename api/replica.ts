import { randomUUID } from 'node:crypto';
import type { Consumer, Log } from '../infra/log/types.ts';
import type { Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { SnapshotsTopic, ensureTopic } from '../infra/topics.ts';

/**
 * One snapshot as the replica holds it: the JSON text the engine serialized once, when it wrote
 * it, and the parsed object, made on first use and kept for that version.
 */
export interface SnapshotEntry {
  version: number;
  /** the body exactly as the engine serialized it */
  text: string;
  value<T = unknown>(): T;
}

/**
 * The API's in-memory replica of the latest snapshots: key (`kind:chain:entity`) → serialized
 * bytes. Bootstrapped from the store, then fed by the compacted snapshots topic, so a token read is
 * a map lookup, fresh within milliseconds of the engine.
 */
export interface Replica {
  get<T = unknown>(key: string): T | undefined;
  entry(key: string): SnapshotEntry | undefined;
  /** every snapshot of a kind on a chain */
  list<T = unknown>(kind: string, chain: string): T[];
  size(): number;
  /** every snapshot entry of a kind on a chain, unparsed */
  entries(kind: string, chain: string): SnapshotEntry[];
  /**
   * calls `fn` with each snapshot the snapshots topic brings after the store's bootstrap (the
   * entry it replaced, if any, and the new one), in the order the replica applies them; returns
   * the unsubscribe. A record replayed with the body the replica already holds is not a change; a
   * re-derivation at the same version (a wallet's grade moved a token's conviction) is.
   */
  onChange(fn: SnapshotListener): () => void;
  /**
   * records of the snapshots topic not applied yet, read from the log (a round trip to the broker
   * on Kafka); rejects when the log does not answer or the replica holds no partition of the topic
   */
  lag(): Promise<number>;
  stop(): Promise<void>;
}

export type SnapshotListener = (key: string, previous: SnapshotEntry | undefined, next: SnapshotEntry) => void;

class Entry implements SnapshotEntry {
  private parsed: unknown;
  constructor(
    readonly version: number,
    readonly text: string,
  ) {}
  value<T>(): T {
    this.parsed ??= JSON.parse(this.text);
    return this.parsed as T;
  }
}

export async function createReplica(deps: { log: Log; store: Store }): Promise<Replica> {
  const byKey = new Map<string, Entry>();
  const byKindChain = new Map<string, Map<string, Entry>>();

  function newer(key: string, version: number): boolean {
    const cur = byKey.get(key);
    return !cur || cur.version <= version;
  }

  const listeners = new Set<SnapshotListener>();

  function put(key: string, version: number, text: string): void {
    if (!newer(key, version)) return;
    const e = new Entry(version, text);
    const previous = byKey.get(key);
    byKey.set(key, e);
    if (listeners.size > 0 && previous?.text !== text) for (const fn of listeners) fn(key, previous, e);
    const i = key.indexOf(':');
    const j = i < 0 ? -1 : key.indexOf(':', i + 1);
    if (j < 0) return; // not `kind:chain:entity`: by key only
    const idx = key.slice(0, j);
    let m = byKindChain.get(idx);
    if (!m) {
      m = new Map<string, Entry>();
      byKindChain.set(idx, m);
    }
    m.set(key.slice(j + 1), e);
  }

  for (const row of await deps.store.list(Tables.snapshots)) put(row.key, row.version, row.body);
  await ensureTopic(deps.log, SnapshotsTopic);
  // The topic is compacted (the latest record per key), so this replay is bounded by the number
  // of keys, not by history; records the store already gave are skipped on their version alone.
  // Starting at the topic's end instead needs the end offsets read before the store list above,
  // which the log interface does not offer yet.
  const consumer: Consumer = await deps.log.consume({
    groupId: `ephemeral-replica-${randomUUID()}`,
    topics: [SnapshotsTopic.name],
    startOffset: () => 0,
    eachBatch: async (batch) => {
      for (const r of batch.records) {
        const head = SnapshotsTopic.versionOf(r.value);
        if (head !== undefined && !newer(r.key, head)) continue;
        const split = SnapshotsTopic.split(r.value);
        if (split) put(r.key, split.version, split.text);
      }
    },
  });

  return {
    get<T>(key: string) {
      return byKey.get(key)?.value<T>();
    },
    entry: (key) => byKey.get(key),
    list<T>(kind: string, chain: string) {
      const m = byKindChain.get(`${kind}:${chain}`);
      if (!m) return [];
      const out: T[] = [];
      for (const e of m.values()) out.push(e.value<T>());
      return out;
    },
    size: () => byKey.size,
    entries: (kind, chain) => [...(byKindChain.get(`${kind}:${chain}`)?.values() ?? [])],
    onChange(fn) {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
    async lag() {
      const parts = await consumer.lag();
      if (parts.length === 0) throw new Error('the replica holds no partition of the snapshots topic');
      return parts.reduce((a, p) => a + p.lag, 0);
    },
    stop: () => consumer.stop(),
  };
}
