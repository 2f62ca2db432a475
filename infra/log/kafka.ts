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

export function createKafkaLog(opts: KafkaLogOptions): Log {
  const kafka = new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    logLevel: levels[opts.logLevel ?? 'nothing'],
    retry: { initialRetryTime: 100, retries: opts.retries ?? 8 },
    ...(opts.socketFactory ? { socketFactory: opts.socketFactory } : {}),
  });
  const defaultPartitions = opts.defaultPartitions ?? 4;
  const prefix = opts.topicPrefix ?? '';
  const ext = (topic: string): string => prefix + topic;
  const bare = (topic: string): string => (prefix && topic.startsWith(prefix) ? topic.slice(prefix.length) : topic);
  const retryDelayMs = opts.retryDelayMs ?? 250;
  const maxRequestBytes = opts.maxRequestBytes ?? 512 * 1024;
  const topicReadyMs = opts.topicReadyMs ?? 30_000;
  const onError =
    opts.onError ??
    ((err, ctx) => console.error(`kafka log: ${ctx.what} failed`, { ...ctx, error: err instanceof Error ? err.message : err }));

  const admin = lazy<Admin>(() => kafka.admin());
  const producer = lazy<Producer>(() =>
    kafka.producer({
      idempotent: true,
      // one request in flight keeps per-partition order across retries
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    }),
  );
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
  let sending: Promise<unknown> = Promise.resolve();
  function sendSerially(send: (p: Producer) => Promise<unknown>): Promise<void> {
    const run = sending.then(async () => {
      const p = await producer.get();
      try {
        await send(p);
      } catch (err) {
        producer.reset();
        throw err;
      }
    });
    sending = run.catch(() => undefined);
    return run;
  }
  const partitionCounts = new Map<string, number>();
  const consumers = new Set<Consumer>();
  let closed = false;

  /**
   * Partitions of a topic (bare name), undefined when it does not exist. A topic another process
   * has just created is listed before every broker knows it and before its partitions have
   * leaders: wait (up to `topicReadyMs`) until they have, so a subscribe or send right after
   * does not meet UNKNOWN_TOPIC_OR_PARTITION / LEADER_NOT_AVAILABLE.
   */
  async function topicPartitions(topic: string): Promise<number | undefined> {
    const a = await admin.get();
    // listing asks for every topic's metadata, so it fails while any topic (ours or another
    // process's) is still being created: wait that out too
    const existing = await whenReady(topicReadyMs, () => a.listTopics());
    if (!existing.includes(ext(topic))) return undefined;
    return whenReady(
      topicReadyMs,
      async () => {
        const parts = (await a.fetchTopicMetadata({ topics: [ext(topic)] })).topics[0]?.partitions ?? [];
        return parts.length > 0 && parts.every((x) => x.leader >= 0) ? parts.length : undefined;
      },
      () => new Error(`topic ${topic}: not every partition has a leader after ${topicReadyMs} ms`),
    );
  }

  async function partitions(topic: string): Promise<number> {
    const cached = partitionCounts.get(topic);
    if (cached !== undefined) return cached;
    const n = await topicPartitions(topic);
    if (n === undefined) throw new Error(`unknown topic ${topic}: call ensureTopic first`);
    partitionCounts.set(topic, n);
    return n;
  }

  async function consume(o: ConsumeOptions): Promise<Consumer> {
    if (closed) throw new Error('log is closed');
    const groupId = ext(o.groupId);
    const maxBatch = o.maxBatchSize ?? 5000;
    const fromBeginning = o.fromBeginning ?? true;
    const consumer: KafkaConsumer = kafka.consumer({
      groupId,
      sessionTimeout: opts.sessionTimeout ?? 10_000,
      heartbeatInterval: opts.heartbeatInterval ?? 500,
      rebalanceTimeout: opts.rebalanceTimeout ?? 10_000,
      maxWaitTimeInMs: opts.maxWaitTimeInMs ?? 250,
      allowAutoTopicCreation: false,
    });
    let assigned: { topic: string; partition: number }[] = [];
    let stopping: Promise<void> | undefined;
    /** crashes kafkajs did not restart from since the last join, and the run waiting to restart it */
    let givenUp = 0;
    let restart: NodeJS.Timeout | undefined;

    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      givenUp = 0;
      const next: { topic: string; partition: number }[] = [];
      for (const [topic, parts] of Object.entries(event.payload.memberAssignment)) {
        for (const partition of parts) next.push({ topic: bare(topic), partition });
      }
      next.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
      assigned = next;
      if (o.startOffset) {
        for (const { topic, partition } of next) {
          const start = o.startOffset(topic, partition);
          if (start !== undefined) consumer.seek({ topic: ext(topic), partition, offset: String(start) });
        }
      }
      // kafkajs does not await listeners: the next fetch may start before onAssign settles
      Promise.resolve(o.onAssign?.(next)).catch((err: unknown) => onError(err, { groupId, what: 'onAssign' }));
    });
    consumer.on(consumer.events.CRASH, (event) => {
      onError(event.payload.error, { groupId, what: `consumer crash (restart: ${event.payload.restart})` });
      // kafkajs gives up on errors it deems not retriable, such as no group coordinator found while
      // the broker shuts down: the consumer then stopped for good (a table the engine follows
      // froze). Run it again, with a backoff, until the log stops it.
      if (event.payload.restart || stopping || closed) return;
      const wait = backoffMs(CONSUMER_RESTART, givenUp++);
      clearTimeout(restart);
      restart = setTimeout(() => {
        restart = undefined;
        if (stopping || closed) return;
        consumer.run(runOptions).catch((err: unknown) => onError(err, { groupId, what: 'consumer restart' }));
      }, wait);
    });

    async function eachBatch(p: EachBatchPayload): Promise<void> {
      const { batch } = p;
      const { partition } = batch;
      const topic = bare(batch.topic);
      const highWatermark = Number(batch.highWatermark) - 1;
      const all: LogRecord[] = batch.messages.map((m) => ({
        topic,
        partition,
        offset: Number(m.offset),
        key: m.key?.toString('utf8') ?? '',
        value: m.value?.toString('utf8') ?? '',
        timestamp: Number(m.timestamp),
      }));
      for (let i = 0; i < all.length; i += maxBatch) {
        if (!p.isRunning() || p.isStale()) return;
        const records = all.slice(i, i + maxBatch);
        const last = records[records.length - 1] as LogRecord;
        try {
          await o.eachBatch({ topic, partition, records, highWatermark });
        } catch (err) {
          // nothing resolved, nothing committed: kafkajs fetches from the last resolved offset again
          onError(err, { groupId, topic, partition, what: 'eachBatch handler' });
          await sleep(retryDelayMs);
          return;
        }
        try {
          await p.commitOffsetsIfNecessary({
            topics: [{ topic: ext(topic), partitions: [{ partition, offset: String(last.offset + 1) }] }],
          });
        } catch (err) {
          // typically a rebalance took the partition: its next owner starts at the last commit
          onError(err, { groupId, topic, partition, what: 'offset commit' });
          return;
        }
        p.resolveOffset(String(last.offset));
        await p.heartbeat();
      }
    }

    await consumer.connect();
    // the broker this consumer asks may not know a topic another process has just created
    const subscribe = async () => (await consumer.subscribe({ topics: o.topics.map(ext), fromBeginning }), true);
    await whenReady(topicReadyMs, subscribe).catch(async (err: unknown) => {
      await consumer.disconnect().catch(() => {});
      throw err;
    });
    const runOptions = { autoCommit: false, eachBatchAutoResolve: false, partitionsConsumedConcurrently: 1, eachBatch };
    await consumer.run(runOptions);

    const handle: Consumer = {
      stop() {
        clearTimeout(restart);
        // disconnect waits for the in-flight batch (which commits itself), then leaves the group
        stopping ??= consumer.disconnect().finally(() => {
          assigned = [];
          consumers.delete(handle);
        });
        return stopping;
      },
      async lag() {
        const a = await admin.get();
        const mine = assigned;
        const out: { topic: string; partition: number; lag: number }[] = [];
        for (const topic of [...new Set(mine.map((x) => x.topic))]) {
          // a broker that has just started answers 'not the leader' until its partitions are loaded
          // (kafkajs's own retries do not refresh its metadata): an engine starting then waited on
          // lag() and died with 'a role failed to start'
          const [ends, committed] = await whenReady(
            30_000,
            async () => {
              const [e, c] = await Promise.all([topicEnds(a, ext(topic)), a.fetchOffsets({ groupId, topics: [ext(topic)] })]);
              return e ? ([e, c] as const) : undefined;
            },
            () => new Error(`the ends of ${ext(topic)} were still unknown after 30 s (kafkajs's fetchTopicOffsets kept answering an empty list)`),
          );
          const committedBy = new Map<number, number>();
          for (const t of committed) for (const c of t.partitions) committedBy.set(c.partition, Number(c.offset));
          for (const { partition } of mine.filter((x) => x.topic === topic)) {
            const end = ends.find((e) => e.partition === partition);
            if (!end) continue;
            const high = Number(end.high);
            let at = committedBy.get(partition) ?? -1;
            if (at < 0) at = fromBeginning ? Number(end.low) : high;
            out.push({ topic, partition, lag: Math.max(0, high - at) });
          }
        }
        return out;
      },
      // the broker drops records by retention time (retentionMs), not by what groups released
      release() {},
    };
    consumers.add(handle);
    return handle;
  }

  const log: Log = {
    kind: 'kafka',

    async ensureTopic(topic, o = {}) {
      if (closed) throw new Error('log is closed');
      // like the in-process log, an existing topic keeps its partitions (growing them would move keys)
      if ((await topicPartitions(topic)) !== undefined) return;
      const a = await admin.get();
      const spec = {
        topic: ext(topic),
        numPartitions: o.partitions ?? defaultPartitions,
        replicationFactor: opts.replicationFactor ?? 1,
        configEntries: o.compacted
          ? [{ name: 'cleanup.policy', value: 'compact' }]
          : [{ name: 'retention.ms', value: String(opts.retentionMs ?? 7 * 86_400_000) }],
      };
      // Another process may create it between our check and our create, or the broker's metadata
      // of topics being created may not be settled yet (kafkajs' waitForLeaders then throws
      // UNKNOWN_TOPIC_OR_PARTITION): create until the topic shows with leaders.
      await whenReady(topicReadyMs, async () => {
        try {
          await a.createTopics({ waitForLeaders: true, topics: [spec] });
        } catch (err) {
          if (!isTransient(err) && (await topicPartitions(topic)) === undefined) throw err;
        }
        return (await topicPartitions(topic)) !== undefined ? true : undefined;
      });
    },

    async publish(topic, records: LogRecordIn[]) {
      if (closed) throw new Error('log is closed');
      if (records.length === 0) return;
      const n = await partitions(topic);
      const now = Date.now();
      // one request per chunk: a request's batch of a partition must stay under the broker's
      // message.max.bytes (1 MiB by default); chunks go one after the other, so order holds
      for (let i = 0; i < records.length; ) {
        let bytes = 0;
        let j = i;
        while (j < records.length && (j === i || bytes < maxRequestBytes)) {
          const r = records[j] as LogRecordIn;
          bytes += Buffer.byteLength(r.key) + Buffer.byteLength(r.value) + 64;
          j++;
        }
        const messages = records.slice(i, j).map((r) => ({
          key: r.key,
          value: r.value,
          partition: partitionFor(r.key, n),
          timestamp: String(r.timestamp ?? now),
        }));
        await sendSerially((p) => p.send({ topic: ext(topic), acks: -1, messages }));
        i = j;
      }
    },

    consume,
    partitions,

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...consumers].map((c) => c.stop()));
      await producer.current()?.disconnect();
      await admin.current()?.disconnect();
    },
  };
  return log;
}
