import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsumeOptions, Consumer, Log, LogBatch, LogRecord, LogRecordIn } from './types.ts';
import { partitionFor } from './types.ts';

/**
 * The in-process log: topics, partitions, offsets and consumer groups with the same semantics as
 * Kafka. With a data directory every appended record and every committed offset is written to
 * disk (JSON lines, one file per topic-partition), so a restart resumes where it stopped.
 * Compacted topics keep the latest record per key and live in memory only: they carry derived
 * data that readers rebuild from the store at start. Groups named `ephemeral-*` keep their
 * offsets in memory only.
 */
export interface MemoryLogOptions {
  dataDir?: string;
  defaultPartitions?: number;
  /** how long an idle consumer waits before polling again when nothing is pushed (ms) */
  idlePollMs?: number;
}

interface Partition {
  /** records in offset order; compaction leaves gaps in offsets */
  records: LogRecord[];
  nextOffset: number;
  file?: string;
}

interface Topic {
  name: string;
  compacted: boolean;
  partitions: Partition[];
}

interface GroupMember {
  id: number;
  topics: string[];
  assigned: { topic: string; partition: number }[];
  wake: () => void;
  onAssign?: ConsumeOptions['onAssign'];
}

interface Group {
  id: string;
  /** `topic:partition` -> next offset to read */
  committed: Record<string, number>;
  members: GroupMember[];
}

export function createMemoryLog(opts: MemoryLogOptions = {}): Log {
  const topics = new Map<string, Topic>();
  const groups = new Map<string, Group>();
  const defaultPartitions = opts.defaultPartitions ?? 4;
  const idlePollMs = opts.idlePollMs ?? 250;
  const dir = opts.dataDir ? join(opts.dataDir, 'log') : undefined;
  let nextMemberId = 1;
  let closed = false;
  if (dir) mkdirSync(dir, { recursive: true });

  const offsetsFile = dir ? join(dir, 'offsets.json') : undefined;
  const persistedOffsets: Record<string, Record<string, number>> =
    offsetsFile && existsSync(offsetsFile) ? (JSON.parse(readFileSync(offsetsFile, 'utf8')) as Record<string, Record<string, number>>) : {};

  /**
   * Committed offsets reach the disk at most every 200 ms (and at close): a crash replays at most
   * that much, which the consumers' idempotent handlers make harmless.
   */
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  function scheduleSave(): void {
    if (!offsetsFile || saveTimer) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      saveOffsets();
    }, 200);
    saveTimer.unref();
  }

  function saveOffsets(): void {
    if (!offsetsFile) return;
    const all: Record<string, Record<string, number>> = { ...persistedOffsets };
    for (const g of groups.values()) if (!g.id.startsWith('ephemeral-')) all[g.id] = g.committed;
    const tmp = `${offsetsFile}.tmp`;
    writeFileSync(tmp, JSON.stringify(all));
    renameSync(tmp, offsetsFile);
  }

  function partitionFile(topic: string, p: number): string | undefined {
    return dir ? join(dir, `${encodeURIComponent(topic)}~${p}.jsonl`) : undefined;
  }

  function loadPartition(topic: string, p: number, compacted: boolean): Partition {
    // compacted topics carry derived, rebuildable data (latest snapshot per key): in memory only
    const file = compacted ? undefined : partitionFile(topic, p);
    const part: Partition = { records: [], nextOffset: 0, file };
    if (!file || !existsSync(file)) return part;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        part.records.push(JSON.parse(line) as LogRecord);
      } catch {
        // a torn last line from a crash mid-write: everything before it is intact
        break;
      }
    }
    const last = part.records[part.records.length - 1];
    part.nextOffset = last ? last.offset + 1 : 0;
    return part;
  }

  function getTopic(name: string): Topic {
    const t = topics.get(name);
    if (!t) throw new Error(`unknown topic ${name}: call ensureTopic first`);
    return t;
  }

  function findGroup(id: string): Group {
    let g = groups.get(id);
    if (!g) {
      g = { id, committed: { ...(persistedOffsets[id] ?? {}) }, members: [] };
      groups.set(id, g);
    }
    return g;
  }

  /** range assignment per topic over the members subscribed to it, like Kafka's RangeAssignor */
  function rebalance(g: Group): void {
    for (const m of g.members) m.assigned = [];
    const byTopic = new Map<string, GroupMember[]>();
    for (const m of g.members) for (const t of m.topics) byTopic.set(t, [...(byTopic.get(t) ?? []), m]);
    for (const [t, members] of byTopic) {
      const topic = topics.get(t);
      if (!topic) continue;
      const n = topic.partitions.length;
      members.sort((a, b) => a.id - b.id);
      for (let p = 0; p < n; p++) {
        const m = members[p % members.length];
        if (m) m.assigned.push({ topic: t, partition: p });
      }
    }
    for (const m of g.members) {
      void m.onAssign?.(m.assigned);
      m.wake();
    }
  }

  /** first index in records with offset >= from (records are offset-ordered) */
  function indexFrom(records: LogRecord[], from: number): number {
    let lo = 0;
    let hi = records.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((records[mid] as LogRecord).offset < from) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  function compactInMemory(part: Partition): void {
    const latest = new Map<string, number>();
    part.records.forEach((r, i) => latest.set(r.key, i));
    if (latest.size * 2 >= part.records.length) return;
    part.records = part.records.filter((r, i) => latest.get(r.key) === i);
  }

  const log: Log = {
    kind: 'memory',

    async ensureTopic(name, o = {}) {
      if (topics.has(name)) return;
      const n = o.partitions ?? defaultPartitions;
      const compacted = o.compacted ?? false;
      const partitions: Partition[] = [];
      // a topic persisted with more partitions keeps them: partitions never shrink
      let count = n;
      if (dir) {
        const prefix = `${encodeURIComponent(name)}~`;
        for (const f of readdirSync(dir)) {
          if (!f.startsWith(prefix)) continue;
          const p = Number(f.slice(prefix.length).replace('.jsonl', ''));
          if (Number.isInteger(p)) count = Math.max(count, p + 1);
        }
      }
      for (let p = 0; p < count; p++) partitions.push(loadPartition(name, p, compacted));
      topics.set(name, { name, compacted, partitions });
      for (const g of groups.values()) if (g.members.some((m) => m.topics.includes(name))) rebalance(g);
    },

    async publish(topicName, records: LogRecordIn[]) {
      if (closed) throw new Error('log is closed');
      const topic = getTopic(topicName);
      const n = topic.partitions.length;
      const lines = new Map<number, string[]>();
      const now = Date.now();
      for (const r of records) {
        const p = partitionFor(r.key, n);
        const part = topic.partitions[p] as Partition;
        const rec: LogRecord = {
          topic: topicName,
          partition: p,
          offset: part.nextOffset++,
          key: r.key,
          value: r.value,
          timestamp: r.timestamp ?? now,
        };
        part.records.push(rec);
        if (part.file) {
          const l = lines.get(p) ?? [];
          l.push(JSON.stringify(rec) + '\n');
          lines.set(p, l);
        }
        if (topic.compacted && part.records.length > 1024) compactInMemory(part);
      }
      for (const [p, l] of lines) appendFileSync((topic.partitions[p] as Partition).file as string, l.join(''));
      for (const g of groups.values()) for (const m of g.members) if (m.topics.includes(topicName)) m.wake();
    },

    async consume(o: ConsumeOptions): Promise<Consumer> {
      for (const t of o.topics) getTopic(t);
      const g = findGroup(o.groupId);
      let stopped = false;
      let wakeUp: (() => void) | undefined;
      const member: GroupMember = {
        id: nextMemberId++,
        topics: o.topics,
        assigned: [],
        wake: () => wakeUp?.(),
        onAssign: (assigned) => {
          positions.clear();
          return o.onAssign?.(assigned);
        },
      };
      g.members.push(member);
      const maxBatch = o.maxBatchSize ?? 5000;

      /** read positions of this member, set on assignment */
      const positions = new Map<string, number>();
      function position(topic: string, partition: number): number {
        const k = `${topic}:${partition}`;
        const own = positions.get(k);
        if (own !== undefined) return own;
        const start = o.startOffset?.(topic, partition);
        if (start !== undefined) {
          positions.set(k, start);
          return start;
        }
        const c = g.committed[k];
        if (c !== undefined) return c;
        if (o.fromBeginning ?? true) return 0;
        return getTopic(topic).partitions[partition]?.nextOffset ?? 0;
      }

      let inFlight: Promise<void> = Promise.resolve();
      const loop = async (): Promise<void> => {
        while (!stopped) {
          let didWork = false;
          for (const { topic, partition } of [...member.assigned]) {
            if (stopped) break;
            const part = getTopic(topic).partitions[partition];
            if (!part) continue;
            const from = position(topic, partition);
            const i = indexFrom(part.records, from);
            if (i >= part.records.length) continue;
            const records = part.records.slice(i, i + maxBatch);
            const batch: LogBatch = { topic, partition, records, highWatermark: part.nextOffset - 1 };
            try {
              await o.eachBatch(batch);
            } catch {
              // not committed: the same records are delivered again after a short pause
              await new Promise((r) => setTimeout(r, idlePollMs));
              continue;
            }
            // a rebalance while the handler ran may have moved the partition: commit only if still ours
            if (!member.assigned.some((a) => a.topic === topic && a.partition === partition)) continue;
            const next = (records[records.length - 1] as LogRecord).offset + 1;
            positions.set(`${topic}:${partition}`, next);
            g.committed[`${topic}:${partition}`] = next;
            if (!g.id.startsWith('ephemeral-')) scheduleSave();
            didWork = true;
          }
          if (!didWork && !stopped) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, idlePollMs);
              wakeUp = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wakeUp = undefined;
          }
        }
      };
      rebalance(g);
      inFlight = loop();

      return {
        async stop() {
          stopped = true;
          member.wake();
          await inFlight;
          g.members = g.members.filter((m) => m !== member);
          rebalance(g);
        },
        async lag() {
          return member.assigned.map(({ topic, partition }) => {
            const part = getTopic(topic).partitions[partition] as Partition;
            return { topic, partition, lag: Math.max(0, part.nextOffset - position(topic, partition)) };
          });
        },
      };
    },

    async partitions(topic) {
      return getTopic(topic).partitions.length;
    },

    async close() {
      closed = true;
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = undefined;
      saveOffsets();
    },
  };
  return log;
}
