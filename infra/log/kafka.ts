import kafkajs from 'kafkajs';
import type { Admin, Consumer as KafkaConsumer, EachBatchPayload, ISocketFactory, Producer } from 'kafkajs';
import type { ConsumeOptions, Consumer, Log, LogRecord, LogRecordIn } from './types.ts';
import { partitionFor } from './types.ts';
import { backoffMs, doubling, retry, sleep } from '../retry.ts';
import type { Backoff } from '../retry.ts';

const { Kafka, Partitioners, logLevel: KafkaLogLevel } = kafkajs;

/**
 * The Kafka log (kafkajs). Keys are placed with `partitionFor` so a key lands on the same
 * partition as in the in-process log; the producer is idempotent with acks=all; consumers run
 * `eachBatch` with auto-resolve and auto-commit off and commit `lastOffset + 1` only after the
 * handler resolved. A handler that throws commits nothing: the same records are fetched again
 * after `retryDelayMs` (as the in-process log does), or by the next owner of the partition.
 */
export interface KafkaLogOptions {
  brokers: string[];
  clientId: string;
  /** partitions of a topic created without an explicit count (the in-process log's default) */
  defaultPartitions?: number;
  /** replication factor of created topics (1 for the single test broker) */
  replicationFactor?: number;
  /** kafkajs' own logging; its errors also surface as thrown errors or through onError */
  logLevel?: 'nothing' | 'error' | 'warn' | 'info' | 'debug';
  /** consumer group session timeout (the broker's minimum is 6000 ms) */
  sessionTimeout?: number;
  heartbeatInterval?: number;
  rebalanceTimeout?: number;
  /** how long a fetch waits for data; short so members notice rebalances quickly */
  maxWaitTimeInMs?: number;
  /** a publish is sent in requests of about this many bytes (keys and values; default 512 KiB) */
  maxRequestBytes?: number;
  /** how long ensureTopic waits for a topic's partitions to have leaders (default 30 s) */
  topicReadyMs?: number;
  /**
   * retention.ms of the topics it creates that are not compacted (default 7 days): workers restore
   * from checkpoints taken every few seconds, so they never need older records
   */
  retentionMs?: number;
  /** pause before the records of a failed handler are delivered again */
  retryDelayMs?: number;
  /**
   * namespace of this log on a shared cluster: prepended to every topic name and consumer group id
   * (callers keep using the bare names, e.g. Topics.*; records and lags report bare names)
   */
  topicPrefix?: string;
  /** how many times kafkajs retries a request before the call fails (default 8) */
  retries?: number;
  /** kafkajs's socket factory (default: plain TCP); the fault tests put a faulty network here */
  socketFactory?: ISocketFactory;
  /** handler failures, failed commits and consumer crashes (default: console.error) */
  onError?: (err: unknown, context: { groupId: string; topic?: string; partition?: number; what: string }) => void;
}

const levels = {
  nothing: KafkaLogLevel.NOTHING,
  error: KafkaLogLevel.ERROR,
  warn: KafkaLogLevel.WARN,
  info: KafkaLogLevel.INFO,
  debug: KafkaLogLevel.DEBUG,
} as const;

/** how often a topic's readiness is asked again */
const READY_POLL: Backoff = { cap: () => 100 };
/** the waits before a consumer kafkajs gave up on is run again */
const CONSUMER_RESTART: Backoff = { cap: doubling(500, 30_000) };

type KafkaError = { retriable?: boolean; type?: string; cause?: unknown; originalError?: unknown };

/**
 * whether `err`, or an error it wraps (kafkajs's `cause` / `originalError`, up to 3 levels:
 * KafkaJSNumberOfRetriesExceeded carries the last error so), passes `test`
 */
function anyInChain(err: unknown, test: (e: KafkaError) => boolean, depth = 0): boolean {
  const e = err as KafkaError | null;
  if (!e || typeof e !== 'object') return false;
  if (test(e)) return true;
  return depth < 3 && (anyInChain(e.cause, test, depth + 1) || anyInChain(e.originalError, test, depth + 1));
}

/**
 * an error kafkajs marks retriable, or the metadata gap of a topic that is being created; also
 * when kafkajs wraps one after its own retries ran out (KafkaJSNumberOfRetriesExceeded carries
 * the last error as `cause` / `originalError`, and is itself not retriable)
 */
export function isTransient(err: unknown): boolean {
  return anyInChain(err, (e) => e.retriable === true || e.type === 'UNKNOWN_TOPIC_OR_PARTITION' || e.type === 'LEADER_NOT_AVAILABLE');
}

/**
 * The ends of a topic's partitions, or undefined ("not yet") when kafkajs cannot tell: its
 * fetchTopicOffsets throws a TypeError (`Cannot destructure property 'partitions' of 'low.pop(...)'`)
 * when the broker's answer for the topic comes back empty, as while a topic's metadata settles
 * (tulios/kafkajs#461, open). An engine starting then died with 'a role failed' (CI at 876e8e6).
 */
export async function topicEnds(a: Pick<Admin, 'fetchTopicOffsets'>, topic: string): Promise<Awaited<ReturnType<Admin['fetchTopicOffsets']>> | undefined> {
  try {
    return await a.fetchTopicOffsets(topic);
  } catch (err) {
    if (err instanceof TypeError) return undefined;
    throw err;
  }
}

/**
 * Calls `attempt` until it answers a value, retrying (every 100 ms, for up to `ms`) while it
 * answers undefined ("not yet") or throws a transient error; then throws the last reason.
 */
async function whenReady<T>(ms: number, attempt: () => Promise<T | undefined>, notYet = () => new Error(`not ready after ${ms} ms`)): Promise<T> {
  const deadline = Date.now() + ms;
  let notReady: Error | undefined;
  const answered = async () => {
    const v = await attempt();
    if (v === undefined) throw (notReady = notYet());
    return v;
  };
  return retry(answered, { backoff: READY_POLL, shouldRetry: (err) => (err === notReady || isTransient(err)) && Date.now() <= deadline });
}

/** `connect()` once, shared by every caller, retried on the next call if it failed */
function lazy<T extends { connect(): Promise<void>; disconnect(): Promise<void> }>(make: () => T): { get(): Promise<T>; current(): T | undefined; reset(): void } {
  let client: T | undefined;
  let connecting: Promise<T> | undefined;
  return {
    /** drops the client (disconnected in the background): the next get() makes a new one */
    reset() {
      const old = client;
      client = undefined;
      connecting = undefined;
      void old?.disconnect().catch(() => undefined);
    },
    get() {
      if (!connecting) {
        const c = make();
        connecting = c.connect().then(
          () => (client = c),
          (err: unknown) => {
            connecting = undefined;
            throw err;
          },
        );
      }
      return connecting;
    },
    current: () => client,
  };
}

/** the options with their defaults, and what every part of the log shares: state in one place */
interface KafkaContext {
  kafka: InstanceType<typeof Kafka>;
  admin: ReturnType<typeof lazy<Admin>>;
  /** the topic (or group id) on the cluster, with the namespace's prefix */
  ext(topic: string): string;
  /** the bare name of a topic on the cluster */
  bare(topic: string): string;
  onError: NonNullable<KafkaLogOptions['onError']>;
  defaultPartitions: number;
  retryDelayMs: number;
  maxRequestBytes: number;
  topicReadyMs: number;
  opts: KafkaLogOptions;
  /** set by close(): nothing starts or restarts after it */
  closed: boolean;
}

function contextOf(opts: KafkaLogOptions): KafkaContext {
  const kafka = new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    logLevel: levels[opts.logLevel ?? 'nothing'],
    retry: { initialRetryTime: 100, retries: opts.retries ?? 8 },
    ...(opts.socketFactory ? { socketFactory: opts.socketFactory } : {}),
  });
  const prefix = opts.topicPrefix ?? '';
  return {
    kafka,
    admin: lazy<Admin>(() => kafka.admin()),
    ext: (topic) => prefix + topic,
    bare: (topic) => (prefix && topic.startsWith(prefix) ? topic.slice(prefix.length) : topic),
    onError: opts.onError ?? ((err, ctx) => console.error(`kafka log: ${ctx.what} failed`, { ...ctx, error: err instanceof Error ? err.message : err })),
    defaultPartitions: opts.defaultPartitions ?? 4,
    retryDelayMs: opts.retryDelayMs ?? 250,
    maxRequestBytes: opts.maxRequestBytes ?? 512 * 1024,
    topicReadyMs: opts.topicReadyMs ?? 30_000,
    opts,
    closed: false,
  };
}

export function createKafkaLog(opts: KafkaLogOptions): Log {
  return new KafkaLog(contextOf(opts));
}

/**
 * The records of a publish in requests of about `maxBytes` (keys and values): a request's batch
 * of a partition must stay under the broker's message.max.bytes
 */
function* requestChunks(records: LogRecordIn[], maxBytes: number): Generator<LogRecordIn[]> {
  for (let i = 0; i < records.length; ) {
    let bytes = 0;
    let j = i;
    while (j < records.length && (j === i || bytes < maxBytes)) {
      const r = records[j] as LogRecordIn;
      bytes += Buffer.byteLength(r.key) + Buffer.byteLength(r.value) + 64;
      j++;
    }
    yield records.slice(i, j);
    i = j;
  }
}

class KafkaLog implements Log {
  readonly kind = 'kafka' as const;
  private readonly producer: ReturnType<typeof lazy<Producer>>;
  /** the send in flight: sends go one at a time (sendSerially) */
  private sending: Promise<unknown> = Promise.resolve();
  private readonly partitionCounts = new Map<string, number>();
  private readonly members = new Set<GroupMember>();

  constructor(private readonly ctx: KafkaContext) {
    this.producer = lazy<Producer>(() =>
      ctx.kafka.producer({
        idempotent: true,
        // one request in flight keeps per-partition order across retries
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
      }),
    );
  }

  private checkOpen(): void {
    if (this.ctx.closed) throw new Error('log is closed');
  }

  async ensureTopic(topic: string, o: Parameters<Log['ensureTopic']>[1] = {}): Promise<void> {
    this.checkOpen();
    // like the in-process log, an existing topic keeps its partitions (growing them would move keys)
    if ((await this.topicPartitions(topic)) !== undefined) return;
    const { ctx } = this;
    const a = await ctx.admin.get();
    const spec = {
      topic: ctx.ext(topic),
      numPartitions: o.partitions ?? ctx.defaultPartitions,
      replicationFactor: ctx.opts.replicationFactor ?? 1,
      configEntries: o.compacted
        ? [{ name: 'cleanup.policy', value: 'compact' }]
        : [{ name: 'retention.ms', value: String(ctx.opts.retentionMs ?? 7 * 86_400_000) }],
    };
    // Another process may create it between our check and our create, or the broker's metadata
    // of topics being created may not be settled yet (kafkajs' waitForLeaders then throws
    // UNKNOWN_TOPIC_OR_PARTITION): create until the topic shows with leaders.
    await whenReady(ctx.topicReadyMs, async () => {
      try {
        await a.createTopics({ waitForLeaders: true, topics: [spec] });
      } catch (err) {
        if (!isTransient(err) && (await this.topicPartitions(topic)) === undefined) throw err;
      }
      return (await this.topicPartitions(topic)) !== undefined ? true : undefined;
    });
  }

  async publish(topic: string, records: LogRecordIn[]): Promise<void> {
    this.checkOpen();
    if (records.length === 0) return;
    const n = await this.partitions(topic);
    const now = Date.now();
    // one request per chunk; chunks go one after the other, so order holds
    for (const chunk of requestChunks(records, this.ctx.maxRequestBytes)) {
      const messages = chunk.map((r) => ({ key: r.key, value: r.value, partition: partitionFor(r.key, n), timestamp: String(r.timestamp ?? now) }));
      await this.sendSerially((p) => p.send({ topic: this.ctx.ext(topic), acks: -1, messages }));
    }
  }

  /**
   * Sends go one at a time, each through the producer current when it starts, and a send that
   * failed retires its producer before the next one starts. The broker may have stored a failed
   * send all the same (its answer lost as the connection dropped); kafkajs then takes back the
   * sequence numbers it had given it, and the next send through that producer carries them again,
   * which the broker takes for a retry of the stored one: it answers success and stores nothing
   * (other records published after a failure were lost so; test: infra/log/kafka.test.ts). A new
   * producer has a new id and sequences from 0, so nothing it sends can be taken for an earlier
   * send; what the failed send had stored comes twice when the caller publishes again, which every
   * reader of the log tolerates. The same producer after an out-of-order sequence answer is also
   * refused for good (tulios/kafkajs#598). kafkajs's own retries inside one send resend the same
   * records with the same numbers, which is what the broker's deduplication is for.
   */
  private sendSerially(send: (p: Producer) => Promise<unknown>): Promise<void> {
    const run = this.sending.then(async () => {
      const p = await this.producer.get();
      try {
        await send(p);
      } catch (err) {
        this.producer.reset();
        throw err;
      }
    });
    this.sending = run.catch(() => undefined);
    return run;
  }

  async consume(o: ConsumeOptions): Promise<Consumer> {
    this.checkOpen();
    const member = new GroupMember(this.ctx, o, () => this.members.delete(member));
    await member.start();
    this.members.add(member);
    return member;
  }

  async partitions(topic: string): Promise<number> {
    const cached = this.partitionCounts.get(topic);
    if (cached !== undefined) return cached;
    const n = await this.topicPartitions(topic);
    if (n === undefined) throw new Error(`unknown topic ${topic}: call ensureTopic first`);
    this.partitionCounts.set(topic, n);
    return n;
  }

  /**
   * Partitions of a topic (bare name), undefined when it does not exist. A topic another process
   * has just created is listed before every broker knows it and before its partitions have
   * leaders: wait (up to `topicReadyMs`) until they have, so a subscribe or send right after
   * does not meet UNKNOWN_TOPIC_OR_PARTITION / LEADER_NOT_AVAILABLE.
   */
  private async topicPartitions(topic: string): Promise<number | undefined> {
    const { ctx } = this;
    const a = await ctx.admin.get();
    // listing asks for every topic's metadata, so it fails while any topic (ours or another
    // process's) is still being created: wait that out too
    const existing = await whenReady(ctx.topicReadyMs, () => a.listTopics());
    if (!existing.includes(ctx.ext(topic))) return undefined;
    return whenReady(
      ctx.topicReadyMs,
      async () => {
        const parts = (await a.fetchTopicMetadata({ topics: [ctx.ext(topic)] })).topics[0]?.partitions ?? [];
        return parts.length > 0 && parts.every((x) => x.leader >= 0) ? parts.length : undefined;
      },
      () => new Error(`topic ${topic}: not every partition has a leader after ${ctx.topicReadyMs} ms`),
    );
  }

  async close(): Promise<void> {
    if (this.ctx.closed) return;
    this.ctx.closed = true;
    await Promise.all([...this.members].map((c) => c.stop()));
    await this.producer.current()?.disconnect();
    await this.ctx.admin.current()?.disconnect();
  }
}

type Assignment = { topic: string; partition: number }[];

/**
 * One consumer of a group: `eachBatch` with auto-resolve and auto-commit off, committing
 * `lastOffset + 1` only after the handler resolved; run again after a crash kafkajs gave up on.
 */
class GroupMember implements Consumer {
  private readonly consumer: KafkaConsumer;
  private readonly groupId: string;
  private readonly fromBeginning: boolean;
  private readonly runOptions = { autoCommit: false, eachBatchAutoResolve: false, partitionsConsumedConcurrently: 1, eachBatch: (p: EachBatchPayload) => this.eachBatch(p) };
  private assigned: Assignment = [];
  private stopping: Promise<void> | undefined;
  /** crashes kafkajs did not restart from since the last join, and the run waiting to restart it */
  private givenUp = 0;
  private restart: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: KafkaContext,
    private readonly o: ConsumeOptions,
    private readonly forget: () => void,
  ) {
    const { opts } = ctx;
    this.groupId = ctx.ext(o.groupId);
    this.fromBeginning = o.fromBeginning ?? true;
    this.consumer = ctx.kafka.consumer({
      groupId: this.groupId,
      sessionTimeout: opts.sessionTimeout ?? 10_000,
      heartbeatInterval: opts.heartbeatInterval ?? 500,
      rebalanceTimeout: opts.rebalanceTimeout ?? 10_000,
      maxWaitTimeInMs: opts.maxWaitTimeInMs ?? 250,
      allowAutoTopicCreation: false,
    });
    this.consumer.on(this.consumer.events.GROUP_JOIN, (event) => this.onJoin(event.payload.memberAssignment));
    this.consumer.on(this.consumer.events.CRASH, (event) => this.onCrash(event.payload.error, event.payload.restart));
  }

  async start(): Promise<void> {
    const { consumer, ctx } = this;
    await consumer.connect();
    // the broker this consumer asks may not know a topic another process has just created
    const subscribe = async () => (await consumer.subscribe({ topics: this.o.topics.map(ctx.ext), fromBeginning: this.fromBeginning }), true);
    await whenReady(ctx.topicReadyMs, subscribe).catch(async (err: unknown) => {
      await consumer.disconnect().catch(() => {});
      throw err;
    });
    await consumer.run(this.runOptions);
  }

  private onJoin(memberAssignment: Record<string, number[]>): void {
    this.givenUp = 0;
    const next: Assignment = [];
    for (const [topic, parts] of Object.entries(memberAssignment)) {
      for (const partition of parts) next.push({ topic: this.ctx.bare(topic), partition });
    }
    next.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
    this.assigned = next;
    const { startOffset, onAssign } = this.o;
    if (startOffset) {
      for (const { topic, partition } of next) {
        const start = startOffset(topic, partition);
        if (start !== undefined) this.consumer.seek({ topic: this.ctx.ext(topic), partition, offset: String(start) });
      }
    }
    // kafkajs does not await listeners: the next fetch may start before onAssign settles
    Promise.resolve(onAssign?.(next)).catch((err: unknown) => this.ctx.onError(err, { groupId: this.groupId, what: 'onAssign' }));
  }

  /**
   * kafkajs gives up on errors it deems not retriable, such as no group coordinator found while
   * the broker shuts down: the consumer then stopped for good (a table the engine follows froze).
   * Run it again, with a backoff, until the log stops it.
   */
  private onCrash(error: Error, restarting: boolean): void {
    const { groupId } = this;
    this.ctx.onError(error, { groupId, what: `consumer crash (restart: ${restarting})` });
    if (restarting || this.stopping || this.ctx.closed) return;
    const wait = backoffMs(CONSUMER_RESTART, this.givenUp++);
    clearTimeout(this.restart);
    this.restart = setTimeout(() => {
      this.restart = undefined;
      if (this.stopping || this.ctx.closed) return;
      this.consumer.run(this.runOptions).catch((err: unknown) => this.ctx.onError(err, { groupId, what: 'consumer restart' }));
    }, wait);
  }

  private async eachBatch(p: EachBatchPayload): Promise<void> {
    const { batch } = p;
    const topic = this.ctx.bare(batch.topic);
    const all: LogRecord[] = batch.messages.map((m) => ({
      topic,
      partition: batch.partition,
      offset: Number(m.offset),
      key: m.key?.toString('utf8') ?? '',
      value: m.value?.toString('utf8') ?? '',
      timestamp: Number(m.timestamp),
    }));
    const maxBatch = this.o.maxBatchSize ?? 5000;
    for (let i = 0; i < all.length; i += maxBatch) {
      if (!p.isRunning() || p.isStale()) return;
      if (!(await this.handle(p, all.slice(i, i + maxBatch)))) return;
    }
  }

  /** hands `records` (one partition's, in order) to the handler and commits after them; false when it did not */
  private async handle(p: EachBatchPayload, records: LogRecord[]): Promise<boolean> {
    const { groupId, ctx } = this;
    const { topic, partition } = records[0] as LogRecord;
    const last = records[records.length - 1] as LogRecord;
    try {
      await this.o.eachBatch({ topic, partition, records, highWatermark: Number(p.batch.highWatermark) - 1 });
    } catch (err) {
      // nothing resolved, nothing committed: kafkajs fetches from the last resolved offset again
      ctx.onError(err, { groupId, topic, partition, what: 'eachBatch handler' });
      await sleep(ctx.retryDelayMs);
      return false;
    }
    try {
      await p.commitOffsetsIfNecessary({ topics: [{ topic: ctx.ext(topic), partitions: [{ partition, offset: String(last.offset + 1) }] }] });
    } catch (err) {
      // typically a rebalance took the partition: its next owner starts at the last commit
      ctx.onError(err, { groupId, topic, partition, what: 'offset commit' });
      return false;
    }
    p.resolveOffset(String(last.offset));
    await p.heartbeat();
    return true;
  }

  stop(): Promise<void> {
    clearTimeout(this.restart);
    // disconnect waits for the in-flight batch (which commits itself), then leaves the group
    this.stopping ??= this.consumer.disconnect().finally(() => {
      this.assigned = [];
      this.forget();
    });
    return this.stopping;
  }

  async lag(): Promise<{ topic: string; partition: number; lag: number }[]> {
    const mine = this.assigned;
    const out: { topic: string; partition: number; lag: number }[] = [];
    for (const topic of [...new Set(mine.map((x) => x.topic))]) {
      const [ends, committed] = await this.endsAndCommits(topic);
      const committedBy = new Map<number, number>();
      for (const t of committed) for (const c of t.partitions) committedBy.set(c.partition, Number(c.offset));
      for (const { partition } of mine.filter((x) => x.topic === topic)) {
        const end = ends.find((e) => e.partition === partition);
        if (!end) continue;
        const high = Number(end.high);
        let at = committedBy.get(partition) ?? -1;
        if (at < 0) at = this.fromBeginning ? Number(end.low) : high;
        out.push({ topic, partition, lag: Math.max(0, high - at) });
      }
    }
    return out;
  }

  /**
   * A topic's partition ends and this group's commits on it. A broker that has just started
   * answers 'not the leader' until its partitions are loaded (kafkajs's own retries do not
   * refresh its metadata): an engine starting then waited on lag() and died with 'a role failed
   * to start'.
   */
  private async endsAndCommits(topic: string) {
    const a = await this.ctx.admin.get();
    const ext = this.ctx.ext(topic);
    return whenReady(
      30_000,
      async () => {
        const [e, c] = await Promise.all([topicEnds(a, ext), a.fetchOffsets({ groupId: this.groupId, topics: [ext] })]);
        return e ? ([e, c] as const) : undefined;
      },
      () => new Error(`the ends of ${ext} were still unknown after 30 s (kafkajs's fetchTopicOffsets kept answering an empty list)`),
    );
  }

  // the broker drops records by retention time (retentionMs), not by what groups released
  release(): void {}
}
