import kafkajs from 'kafkajs';
import type { Admin } from 'kafkajs';

/**
 * What the test reads of the cluster from outside the processes under test (kafkajs admin):
 * consumer-group members and lag, end offsets; and the clean-up of one run's topics and groups.
 * Names are the full names on the cluster (TOPIC_PREFIX included).
 */
export interface ClusterView {
  admin: Admin;
  /** members of a group and its state ('Stable', 'PreparingRebalance', 'Empty', …) */
  group(groupId: string): Promise<{ state: string; members: string[] }>;
  /** Σ over partitions of (end offset − committed offset of the group) */
  lag(groupId: string, topic: string): Promise<number>;
  /** Σ of committed offsets of the group on the topic */
  committed(groupId: string, topic: string): Promise<number>;
  /** Σ of end offsets of a topic (0 when missing) */
  endOffsets(topic: string): Promise<number>;
  /** deletes every topic and group whose name starts with prefix */
  dropPrefix(prefix: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs a read of the cluster again while kafkajs reports an error of its own (for up to 60 s): a
 * broker that has just started answers 'This server is not the leader for that topic-partition'
 * until it has loaded its partitions, and kafkajs's own retries (a few, without refreshing its
 * metadata) can run out before that. A test reads the cluster around a broker restart on purpose.
 */
export async function settled<T>(read: () => Promise<T>, forMs = 60_000): Promise<T> {
  const deadline = Date.now() + forMs;
  for (;;) {
    try {
      return await read();
    } catch (err) {
      const kafkajsError = err instanceof Error && err.name.startsWith('KafkaJS');
      if (!kafkajsError || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

export async function clusterView(brokers: string): Promise<ClusterView> {
  const admin = new kafkajs.Kafka({
    clientId: 'integration-test',
    brokers: brokers.split(','),
    logLevel: kafkajs.logLevel.NOTHING,
    retry: { retries: 10, initialRetryTime: 100, maxRetryTime: 1000 },
  }).admin();
  await admin.connect();

  async function endOffsets(topic: string): Promise<number> {
    if (!(await settled(() => admin.listTopics())).includes(topic)) return 0;
    const ends = await settled(() => admin.fetchTopicOffsets(topic));
    return ends.reduce((a, e) => a + Number(e.high), 0);
  }

  async function perPartition(groupId: string, topic: string): Promise<{ high: number; low: number; committed: number }[]> {
    if (!(await settled(() => admin.listTopics())).includes(topic)) return [];
    const [ends, offsets] = await settled(() => Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId, topics: [topic] })]));
    const committed = new Map<number, number>();
    for (const t of offsets) for (const p of t.partitions) committed.set(p.partition, Number(p.offset));
    return ends.map((e) => ({ high: Number(e.high), low: Number(e.low), committed: committed.get(e.partition) ?? -1 }));
  }

  return {
    admin,
    async group(groupId) {
      const { groups } = await settled(() => admin.describeGroups([groupId]));
      const g = groups[0];
      return { state: g?.state ?? 'Dead', members: (g?.members ?? []).map((m) => m.memberId) };
    },
    async lag(groupId, topic) {
      const parts = await perPartition(groupId, topic);
      return parts.reduce((a, p) => a + Math.max(0, p.high - (p.committed < 0 ? p.low : p.committed)), 0);
    },
    async committed(groupId, topic) {
      const parts = await perPartition(groupId, topic);
      return parts.reduce((a, p) => a + Math.max(0, p.committed), 0);
    },
    endOffsets,
    async dropPrefix(prefix) {
      const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
      const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(prefix));
      if (groups.length > 0) await admin.deleteGroups(groups).catch(() => undefined);
      if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 30_000 });
    },
    close: () => admin.disconnect(),
  };
}
