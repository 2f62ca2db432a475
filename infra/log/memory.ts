import { rm } from 'node:fs/promises';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { appendSync, createFileSyncer, cutTornTailSync, jsonLines, readJsonLines, replaceFile, replaceFileSync, warnTornTail } from '../files.ts';
import type { TornTail } from '../files.ts';
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
 *
 * Crash safety (infra/files.ts says what survives what): a segment's torn tail, the record a killed
 * process was appending, is cut off when the partition is loaded, before anything is appended; a
 * damaged line with records after it fails the open, naming the file and byte. A partition's next
 * offset is never below an offset a group committed or released, so records written after a tear
 * (or after a power loss that kept a commit and lost the records it covered) never reuse offsets a
 * group is already past. `publish` resolves once its records are written to the OS: a killed process
 * loses no published record. Segments are fdatasync'd in the background every `syncIntervalMs`
 * (100 ms), and committed offsets are saved only after the records they cover were synced, so after a
 * power loss a committed offset never points past the records on disk. One process owns a data dir's
 * log (the keys CLI appends to it only to publish a revocation).
 */
export interface MemoryLogOptions {
  dataDir?: string;
  defaultPartitions?: number;
  /** how long an idle consumer waits before polling again when nothing is pushed (ms) */
  idlePollMs?: number;
  /** a partition's current segment is closed and a new one started past this size (bytes) */
  segmentBytes?: number;
  /** at most this long after a publish resolved, its records are fdatasync'd (ms; default 100) */
  syncIntervalMs?: number;
  /** a torn tail was cut off a segment when it was loaded (default: a process warning) */
  onTornTail?: (t: TornTail) => void;
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
  const onTornTail = opts.onTornTail ?? warnTornTail;
  if (dir) mkdirSync(dir, { recursive: true });
  const syncer = dir ? createFileSyncer({ intervalMs: opts.syncIntervalMs ?? 100 }) : undefined;
  /** a write failed and could not be undone: appending more could land after a partial record */
  let broken: Error | undefined;

  /** offsets and released marks: replaced whole by rename, so never torn (a damaged one fails the open) */
  function readMarks(file: string | undefined): Record<string, Record<string, number>> {
    if (!file || !existsSync(file)) return {};
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, number>>;
    } catch (err) {
      throw new Error(`${file}: not valid JSON (${String(err)})`, { cause: err });
    }
  }
  const offsetsFile = dir ? join(dir, 'offsets.json') : undefined;
  const persistedOffsets = readMarks(offsetsFile);
  /** groups that hold records until they release them: `topic:partition` -> released below */
  const releasedFile = dir ? join(dir, 'released.json') : undefined;
  const released = readMarks(releasedFile);

  /**
   * Committed offsets reach the disk at most every 200 ms (and at close), after the segments they
   * cover are synced: a crash replays at most that much (plus a sync's time on a slow disk), which
   * the consumers' idempotent handlers make harmless.
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
   * of them stalled the process (and the API it serves) when the disk was busy.
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
      // the records a commit covers are durable before the commit is
      await syncer?.flush();
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
    await syncer?.flush();
    replaceFileSync(offsetsFile, offsetsText());
    if (releasedFile) replaceFileSync(releasedFile, JSON.stringify(released));
  }

  const prefixOf = (topic: string, p: number) => `${encodeURIComponent(topic)}~${p}`;
  const segmentFile = (topic: string, p: number, base: number) => join(dir as string, `${prefixOf(topic, p)}~${base}.jsonl`);

  /**
   * the partition's segment files among the log directory's `names`, oldest first (a file without
   * a base is the older one-file layout)
   */
  function segmentFiles(topic: string, p: number, names: readonly string[]): { base: number; file: string }[] {
    if (!dir) return [];
    const prefix = prefixOf(topic, p);
    const out: { base: number; file: string }[] = [];
    for (const f of names) {
      if (f === `${prefix}.jsonl`) out.push({ base: -1, file: join(dir, f) });
      else if (f.startsWith(`${prefix}~`) && f.endsWith('.jsonl')) {
        const base = Number(f.slice(prefix.length + 1, -'.jsonl'.length));
        if (Number.isInteger(base)) out.push({ base, file: join(dir, f) });
      }
    }
    return out.sort((a, b) => a.base - b.base);
  }

  /**
   * A segment's records; a torn tail (the record a killed process was appending) is cut off here,
   * before anything is appended after it
   */
  function readSegment(file: string): { records: LogRecord[]; bytes: number } {
    const { values, end, size } = readJsonLines<LogRecord>(file);
    const cut = size > end ? cutTornTailSync(file, end) : undefined;
    if (cut) onTornTail(cut);
    return { records: values, bytes: end };
  }

  /** the highest offset any group committed or released on the partition: new records go past it */
  function floorOf(topic: string, p: number): number {
    const k = `${topic}:${p}`;
    let floor = 0;
    for (const marks of [persistedOffsets, released]) for (const byPartition of Object.values(marks)) floor = Math.max(floor, byPartition[k] ?? 0);
    return floor;
  }

  /** a partition from its segments among the log directory's `names` (none: held in memory only) */
  function loadPartition(topic: string, p: number, names: readonly string[] | undefined): Partition {
    const part: Partition = { records: [], nextOffset: 0, segments: [], compactAt: 1024 };
    if (!names) return part;
    let sorted = true;
    for (const { base, file } of segmentFiles(topic, p, names)) {
      const { records, bytes } = readSegment(file);
      const first = records[0]?.offset ?? base;
      const last = part.records[part.records.length - 1];
      if (last && records[0] && records[0].offset <= last.offset) sorted = false;
      for (const r of records) part.records.push(r);
      part.segments.push({ base: base >= 0 ? base : Math.max(0, first), file, bytes });
    }
    // a compaction that crashed between writing its file and removing the old ones leaves both
    if (!sorted) {
      const byOffset = new Map<number, LogRecord>();
      for (const r of part.records) byOffset.set(r.offset, r);
      part.records = [...byOffset.values()].sort((a, b) => a.offset - b.offset);
    }
    const last = part.records[part.records.length - 1];
    // a torn tail cut off records a group may have read and committed (a power loss can keep the
    // commit and lose the records): offsets below a commit are never given out again, or the group
    // would skip the new records that got them
    part.nextOffset = Math.max(last ? last.offset + 1 : (part.segments[part.segments.length - 1]?.base ?? 0), floorOf(topic, p));
    part.compactAt = Math.max(1024, part.records.length * 2);
    return part;
  }

  /**
   * Append records to the partition's current segment, starting a new one past the segment size.
   * A write that fails part-way (a full disk) is undone, every file cut back to where it was, so a
   * record is never appended after a partial one; the publish fails and publishes nothing of this
   * partition.
   */
  function appendToDisk(topic: Topic, p: number, part: Partition, recs: LogRecord[]): void {
    const chunks: { seg: Segment; lines: string[]; created: boolean }[] = [];
    let seg = part.segments[part.segments.length - 1];
    let chunk = seg ? { seg, lines: [] as string[], created: false } : undefined;
    let bytes = seg?.bytes ?? 0;
    for (const r of recs) {
      if (!chunk || bytes >= segmentBytes) {
        if (chunk && chunk.lines.length > 0) chunks.push(chunk);
        seg = { base: r.offset, file: segmentFile(topic.name, p, r.offset), bytes: 0 };
        chunk = { seg, lines: [], created: true };
        bytes = 0;
      }
      const line = JSON.stringify(r) + '\n';
      chunk.lines.push(line);
      bytes += Buffer.byteLength(line);
    }
    if (chunk && chunk.lines.length > 0) chunks.push(chunk);
    const written: { seg: Segment; bytes: number; created: boolean }[] = [];
    try {
      for (const c of chunks) {
        const buf = Buffer.from(c.lines.join(''));
        written.push({ seg: c.seg, bytes: buf.length, created: c.created });
        appendSync(c.seg.file, buf);
      }
    } catch (err) {
      try {
        for (const w of written) {
          if (w.created) rmSync(w.seg.file, { force: true });
          else truncateSync(w.seg.file, w.seg.bytes);
        }
      } catch (undo) {
        broken = new Error(`log: a failed append to ${topic.name}~${p} could not be undone (${String(undo)}); reopen the log to cut the torn tail`, { cause: err });
      }
      throw err;
    }
    for (const w of written) {
      w.seg.bytes += w.bytes;
      if (w.created) part.segments.push(w.seg);
      syncer?.dirty(w.seg.file, w.created);
    }
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
      // the directory is listed once for the topic, not again for each partition
      const names = dir && persisted ? readdirSync(dir) : undefined;
      if (names) {
        const prefix = `${encodeURIComponent(name)}~`;
        for (const f of names) {
          if (!f.startsWith(prefix)) continue;
          const p = Number(f.slice(prefix.length).split(/[~.]/)[0]);
          if (Number.isInteger(p)) count = Math.max(count, p + 1);
        }
      }
      for (let p = 0; p < count; p++) partitions.push(loadPartition(name, p, names));
      const topic: Topic = { name, compacted, persisted, partitions };
      topics.set(name, topic);
      for (let p = 0; p < count; p++) retain(topic, p);
      for (const g of groups.values()) if (g.members.some((m) => m.topics.includes(name))) rebalance(g);
    },

    async publish(topicName, records: LogRecordIn[]) {
      if (closed) throw new Error('log is closed');
      if (broken) throw broken;
      const topic = getTopic(topicName);
      const n = topic.partitions.length;
      const byPartition = new Map<number, LogRecordIn[]>();
      for (const r of records) {
        const p = partitionFor(r.key, n);
        let l = byPartition.get(p);
        if (!l) byPartition.set(p, (l = []));
        l.push(r);
      }
      const now = Date.now();
      try {
        for (const [p, ins] of byPartition) {
          const part = topic.partitions[p] as Partition;
          const recs = ins.map(
            (r, i): LogRecord => ({ topic: topicName, partition: p, offset: part.nextOffset + i, key: r.key, value: r.value, timestamp: r.timestamp ?? now }),
          );
          const segments = part.segments.length;
          // on disk first: a record is readable only once it is written (a failed write publishes nothing)
          if (topic.persisted) appendToDisk(topic, p, part, recs);
          part.nextOffset += recs.length;
          for (const r of recs) part.records.push(r);
          if (topic.compacted && part.records.length > part.compactAt) compact(topic, p, part);
          else if (part.segments.length > segments) retain(topic, p);
        }
      } finally {
        for (const g of groups.values()) for (const m of g.members) if (m.topics.includes(topicName)) m.wake();
      }
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
