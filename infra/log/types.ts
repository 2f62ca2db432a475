/**
 * The log: topics split into partitions, records appended with a key, consumed by groups that
 * commit offsets. Two adapters (in-process, Kafka) pass one contract suite; nothing above infra/
 * knows which one runs.
 */
export interface LogRecordIn {
  key: string;
  value: string;
  /** ms since epoch; defaults to now at publish */
  timestamp?: number;
}

export interface LogRecord {
  topic: string;
  partition: number;
  offset: number;
  key: string;
  value: string;
  timestamp: number;
}

export interface LogBatch {
  topic: string;
  partition: number;
  records: LogRecord[];
  /** offset of the last record in the partition at fetch time (for lag) */
  highWatermark: number;
}

export interface ConsumeOptions {
  groupId: string;
  topics: string[];
  /** where a group with no committed offset starts */
  fromBeginning?: boolean;
  /**
   * Called with records of one partition, in offset order. When it resolves, the consumer commits
   * `lastOffset + 1` for that partition (so a handler flushes its sink before it returns).
   */
  eachBatch: (batch: LogBatch) => Promise<void>;
  /** called when this member gains or loses partitions (so workers can drop state) */
  onAssign?: (assigned: { topic: string; partition: number }[]) => void | Promise<void>;
  maxBatchSize?: number;
  /**
   * Where to start reading an assigned partition, overriding the committed offset (external
   * offset storage, as with kafkajs' seek on group join). The engine returns 0 to restore its
   * in-memory state by replaying its partitions: the source topic is its changelog.
   */
  startOffset?: (topic: string, partition: number) => number | undefined;
  /**
   * The group needs records until it releases them (`Consumer.release`), not merely until it
   * commits them: a worker restores its state from a checkpoint and replays the records after the
   * checkpoint's offset, so those must outlive the commit. Logs that drop covered records (the
   * embedded log) keep every record a released-mode group has not released.
   */
  retainUntilReleased?: boolean;
}

export interface Consumer {
  /** stop fetching, wait for the in-flight batch, commit, leave the group */
  stop(): Promise<void>;
  /** per partition: high watermark minus committed offset */
  lag(): Promise<{ topic: string; partition: number; lag: number }[]>;
  /**
   * Records of the partition below `offset` are no longer needed by this group (a checkpoint
   * covers them). The embedded log drops segments every group released; Kafka drops records by
   * the topics' retention time and ignores this.
   */
  release(topic: string, partition: number, offset: number): void;
}

export interface Log {
  readonly kind: 'memory' | 'kafka';
  /**
   * `compacted`: the latest record per key is kept. `rebuildable`: its readers rebuild it from the
   * store at start (the snapshots topic), so the embedded log may keep it in memory only.
   */
  ensureTopic(topic: string, opts?: { partitions?: number; compacted?: boolean; rebuildable?: boolean }): Promise<void>;
  /** appends in order per key; resolves when durable */
  publish(topic: string, records: LogRecordIn[]): Promise<void>;
  consume(opts: ConsumeOptions): Promise<Consumer>;
  /** number of partitions of a topic (after ensureTopic) */
  partitions(topic: string): Promise<number>;
  close(): Promise<void>;
}

/** Stable partitioner shared by both adapters' callers: the same key lands on the same partition. */
export function partitionFor(key: string, partitions: number): number {
  // FNV-1a 32-bit
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % partitions;
}
