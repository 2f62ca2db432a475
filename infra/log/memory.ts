import { rm } from 'node:fs/promises';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines, replaceFile, replaceFileSync } from '../files.ts';
import type { ConsumeOptions, Consumer, Log, LogBatch, LogRecord, LogRecordIn } from './types.ts';
import { partitionFor } from './types.ts';

/**
 * The in-process log: topics, partitions, offsets and consumer groups with the same semantics as
 * Kafka. With a data directory every appended record and every committed offset is written to
 * disk, so a restart resumes where it stopped. A partition is a series of segment files (JSON
 * lines, `<topic>~<partition>~<base offset>.jsonl`); a segment is dropped once every group that
 * reads the topic is past it (committed, or released for groups that restore from checkpoints),
 * so the log keeps the tail the workers still need, not all history. Compacted topics are
 * rewritten with the latest record per key when most of their records are superseded; a
 * `rebuildable` compacted topic (the snapshots, which readers rebuild from the store) lives in
 * memory only. Groups named `ephemeral-*` keep their offsets in memory only and hold nothing back.
 */
export interface MemoryLogOptions {
  dataDir?: string;
  defaultPartitions?: number;
  /** how long an idle consumer waits before polling again when nothing is pushed (ms) */
  idlePollMs?: number;
  /** a partition's current segment is closed and a new one started past this size (bytes) */
  segmentBytes?: number;
}

interface Segment {
  base: number;
  file: string;
  bytes: number;
}

interface Partition {
  /** records in offset order from the first retained segment; compaction leaves gaps in offsets */
  records: LogRecord[];
  nextOffset: number;
  /** on disk, oldest first (none when in memory only) */
  segments: Segment[];
  /** compacted partitions are rewritten once their records pass this count */
  compactAt: number;
}

interface Topic {
  name: string;
  compacted: boolean;
  persisted: boolean;
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
  const segmentBytes = opts.segmentBytes ?? 1024 * 1024;
  const dir = opts.dataDir ? join(opts.dataDir, 'log') : undefined;
  let nextMemberId = 1;
  let closed = false;
  /** segment files being removed (retain) */
  const unlinking = new Set<Promise<void>>();
  if (dir) mkdirSync(dir, { recursive: true });

  const offsetsFile = dir ? join(dir, 'offsets.json') : undefined;
  const persistedOffsets: Record<string, Record<string, number>> =
    offsetsFile && existsSync(offsetsFile) ? (JSON.parse(readFileSync(offsetsFile, 'utf8')) as Record<string, Record<string, number>>) : {};
  /** groups that hold records until they release them: `topic:partition` -> released below */
  const releasedFile = dir ? join(dir, 'released.json') : undefined;
  const released: Record<string, Record<string, number>> =
    releasedFile && existsSync(releasedFile) ? (JSON.parse(readFileSync(releasedFile, 'utf8')) as Record<string, Record<string, number>>) : {};

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

  function offsetsText(): string {
    const all: Record<string, Record<string, number>> = { ...persistedOffsets };
    for (const g of groups.values()) if (!g.id.startsWith('ephemeral-')) all[g.id] = g.committed;
    return JSON.stringify(all);
  }

  /** the save in flight, and whether another is due after it */
  let saving: Promise<void> | undefined;
  let saveAgain = false;
  /**
   * Offsets (and released marks) are written off the event loop: a synchronous write and rename
   * of them stalled the process (and the API it serves) by 7-23 ms when the disk was busy.
   */
  function saveOffsets(): void {
    if (!offsetsFile) return;
    if (saving) {
      saveAgain = true;
      return;
    }
    const offsets = offsetsText();
    const rel = releasedFile ? JSON.stringify(released) : undefined;
    saving = (async () => {
      await replaceFile(offsetsFile, offsets);
      if (releasedFile && rel !== undefined) await replaceFile(releasedFile, rel);
    })()
      .catch(() => scheduleSave())
      .finally(() => {
        saving = undefined;
        if (saveAgain) {
          saveAgain = false;
          saveOffsets();
        }
      });
  }

  /** at close: after any save in flight, the final offsets, written before close resolves */
  async function saveOffsetsNow(): Promise<void> {
    if (!offsetsFile) return;
    while (saving) await saving;
    replaceFileSync(offsetsFile, offsetsText());
    if (releasedFile) replaceFileSync(releasedFile, JSON.stringify(released));
  }

  const prefixOf = (topic: string, p: number) => `${encodeURIComponent(topic)}~${p}`;
  const segmentFile = (topic: string, p: number, base: number) => join(dir as string, `${prefixOf(topic, p)}~${base}.jsonl`);

  /** the partition's segment files, oldest first (a file without a base is the older one-file layout) */
  function segmentFiles(topic: string, p: number): { base: number; file: string }[] {
    if (!dir) return [];
    const prefix = prefixOf(topic, p);
    const out: { base: number; file: string }[] = [];
    for (const f of readdirSync(dir)) {
      if (f === `${prefix}.jsonl`) out.push({ base: -1, file: join(dir, f) });
      else if (f.startsWith(`${prefix}~`) && f.endsWith('.jsonl')) {
        const base = Number(f.slice(prefix.length + 1, -'.jsonl'.length));
        if (Number.isInteger(base)) out.push({ base, file: join(dir, f) });
      }
    }
    return out.sort((a, b) => a.base - b.base);
  }

  function readRecords(file: string): LogRecord[] {
    const out: LogRecord[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as LogRecord);
      } catch {
        // a torn last line from a crash mid-write: everything before it is intact
        break;
      }
    }
    return out;
  }

  function loadPartition(topic: string, p: number, persisted: boolean): Partition {
    const part: Partition = { records: [], nextOffset: 0, segments: [], compactAt: 1024 };
    if (!persisted) return part;
    let sorted = true;
    for (const { base, file } of segmentFiles(topic, p)) {
      const records = readRecords(file);
      const first = records[0]?.offset ?? base;
      const last = part.records[part.records.length - 1];
      if (last && records[0] && records[0].offset <= last.offset) sorted = false;
      for (const r of records) part.records.push(r);
      part.segments.push({ base: base >= 0 ? base : Math.max(0, first), file, bytes: statSync(file).size });
    }
    // a compaction that crashed between writing its file and removing the old ones leaves both
    if (!sorted) {
      const byOffset = new Map<number, LogRecord>();
      for (const r of part.records) byOffset.set(r.offset, r);
      part.records = [...byOffset.values()].sort((a, b) => a.offset - b.offset);
    }
    const last = part.records[part.records.length - 1];
    part.nextOffset = last ? last.offset + 1 : (part.segments[part.segments.length - 1]?.base ?? 0);
    part.compactAt = Math.max(1024, part.records.length * 2);
    return part;
  }

  /** append lines to the partition's current segment, starting a new one past the segment size */
  function appendToDisk(topic: Topic, p: number, part: Partition, recs: LogRecord[]): void {
    let lines: string[] = [];
    let bytes = 0;
    let seg = part.segments[part.segments.length - 1];
    const flush = () => {
      if (!seg || lines.length === 0) return;
      appendFileSync(seg.file, lines.join(''));
      seg.bytes += bytes;
      lines = [];
      bytes = 0;
    };
    for (const r of recs) {
      if (!seg || seg.bytes + bytes >= segmentBytes) {
        flush();
        seg = { base: r.offset, file: segmentFile(topic.name, p, r.offset), bytes: 0 };
        part.segments.push(seg);
      }
      const line = JSON.stringify(r) + '\n';
      lines.push(line);
      bytes += Buffer.byteLength(line);
    }
    flush();
  }

  /**
   * Drop the segments every group reading the topic is past: a group needs the records from its
   * committed offset, or from its released offset when it restores from checkpoints. A topic no
   * durable group reads keeps everything.
   */
  function retain(topic: Topic, p: number): void {
    const part = topic.partitions[p];
    if (!part || topic.compacted || part.segments.length < 2) return;
    const k = `${topic.name}:${p}`;
    let floor = Infinity;
    const ids = new Set([...Object.keys(persistedOffsets), ...groups.keys(), ...Object.keys(released)]);
    for (const id of ids) {
      if (id.startsWith('ephemeral-')) continue;
      const g = groups.get(id);
      const reads = g ? g.members.some((m) => m.topics.includes(topic.name)) || k in g.committed : k in (persistedOffsets[id] ?? {});
      const rel = released[id];
      if (rel) {
        if (reads || k in rel) floor = Math.min(floor, rel[k] ?? 0);
      } else if (reads) {
        floor = Math.min(floor, g?.committed[k] ?? persistedOffsets[id]?.[k] ?? 0);
      }
    }
    if (floor === Infinity) return;
    let drop = 0;
    while (drop < part.segments.length - 1 && (part.segments[drop + 1] as Segment).base <= floor) drop++;
    if (drop === 0) return;
    // unlinked off the event loop (a sync unlink took 13 ms under load; close waits for them); a
    // segment a crash leaves behind is below every group's floor and dropped again after the restart
    for (const seg of part.segments.splice(0, drop)) {
      const gone: Promise<void> = rm(seg.file, { force: true })
        .catch(() => undefined)
        .finally(() => unlinking.delete(gone));
      unlinking.add(gone);
    }
    const keepFrom = (part.segments[0] as Segment).base;
    part.records = part.records.slice(indexFrom(part.records, keepFrom));
  }

  /** latest record per key; rewritten to one segment when the topic is on disk */
  function compact(topic: Topic, p: number, part: Partition): void {
    const latest = new Map<string, number>();
    part.records.forEach((r, i) => latest.set(r.key, i));
    if (latest.size * 2 < part.records.length) {
      part.records = part.records.filter((r, i) => latest.get(r.key) === i);
      if (topic.persisted && part.records.length > 0) {
        const base = (part.records[0] as LogRecord).offset;
        const file = segmentFile(topic.name, p, base);
        const text = jsonLines(part.records);
        replaceFileSync(file, text);
        for (const seg of part.segments) if (seg.file !== file) rmSync(seg.file, { force: true });
        part.segments = [{ base, file, bytes: Buffer.byteLength(text) }];
      }
    }
    part.compactAt = Math.max(1024, part.records.length * 2);
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

  const log: Log = {
    kind: 'memory',

    async ensureTopic(name, o = {}) {
      if (topics.has(name)) return;
      const n = o.partitions ?? defaultPartitions;
      const compacted = o.compacted ?? false;
      const persisted = dir !== undefined && !(compacted && o.rebuildable);
      const partitions: Partition[] = [];
      // a topic persisted with more partitions keeps them: partitions never shrink
      let count = n;
      if (dir && persisted) {
        const prefix = `${encodeURIComponent(name)}~`;
        for (const f of readdirSync(dir)) {
          if (!f.startsWith(prefix)) continue;
          const p = Number(f.slice(prefix.length).split(/[~.]/)[0]);
          if (Number.isInteger(p)) count = Math.max(count, p + 1);
        }
      }
      for (let p = 0; p < count; p++) partitions.push(loadPartition(name, p, persisted));
      const topic: Topic = { name, compacted, persisted, partitions };
      topics.set(name, topic);
      for (let p = 0; p < count; p++) retain(topic, p);
      for (const g of groups.values()) if (g.members.some((m) => m.topics.includes(name))) rebalance(g);
    },

    async publish(topicName, records: LogRecordIn[]) {
      if (closed) throw new Error('log is closed');
      const topic = getTopic(topicName);
      const n = topic.partitions.length;
      const added = new Map<number, LogRecord[]>();
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
        let l = added.get(p);
        if (!l) added.set(p, (l = []));
        l.push(rec);
      }
      for (const [p, recs] of added) {
        const part = topic.partitions[p] as Partition;
        const segments = part.segments.length;
        if (topic.persisted) appendToDisk(topic, p, part, recs);
        if (topic.compacted && part.records.length > part.compactAt) compact(topic, p, part);
        else if (part.segments.length > segments) retain(topic, p);
      }
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
      if (o.retainUntilReleased && !g.id.startsWith('ephemeral-')) released[g.id] ??= {};
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
        // a new group that starts at the end starts at the end of when it joined, not of every poll
        const end = getTopic(topic).partitions[partition]?.nextOffset ?? 0;
        positions.set(k, end);
        return end;
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
        release(topic, partition, offset) {
          const rel = released[g.id];
          if (!rel) return;
          const k = `${topic}:${partition}`;
          if ((rel[k] ?? -1) >= offset) return;
          rel[k] = offset;
          scheduleSave();
          retain(getTopic(topic), partition);
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
      await saveOffsetsNow();
      await Promise.all(unlinking);
    },
  };
  return log;
}
