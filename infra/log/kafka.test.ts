import { connect, type Socket } from 'node:net';
import kafkajs from 'kafkajs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createKafkaLog } from './kafka.ts';
import { partitionFor } from './types.ts';

// What the contract suite can't see: the broker-side effects of the Kafka adapter.
const brokers = inject('KAFKA_BROKERS').split(',');
const admin = new kafkajs.Kafka({ clientId: 'kafka-log-test', brokers, logLevel: kafkajs.logLevel.NOTHING }).admin();
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
afterAll(() => admin.disconnect());

describe('Kafka log on the broker', () => {
  it('creates compacted topics with cleanup.policy=compact and plain ones with delete', async () => {
    const log = createKafkaLog({ brokers, clientId: 'kafka-log-test' });
    await log.ensureTopic(`compact-${run}`, { partitions: 2, compacted: true });
    await log.ensureTopic(`plain-${run}`, { partitions: 3 });
    await admin.connect();
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [`compact-${run}`, `plain-${run}`].map((name) => ({
        type: kafkajs.ConfigResourceTypes.TOPIC,
        name,
        configNames: ['cleanup.policy'],
      })),
    });
    const policy = Object.fromEntries(
      configs.resources.map((r) => [r.resourceName, r.configEntries.find((e) => e.configName === 'cleanup.policy')?.configValue]),
    );
    expect(policy).toEqual({ [`compact-${run}`]: 'compact', [`plain-${run}`]: 'delete' });
    const meta = await admin.fetchTopicMetadata({ topics: [`plain-${run}`] });
    expect(meta.topics[0]?.partitions).toHaveLength(3);
    await log.close();
  });

  it('writes each key to the partition partitionFor chose, as the broker reports it', async () => {
    const log = createKafkaLog({ brokers, clientId: 'kafka-log-test' });
    const topic = `placement-${run}`;
    await log.ensureTopic(topic, { partitions: 5 });
    const keys = Array.from({ length: 50 }, (_, i) => `token:1:0x${i.toString(16)}`);
    await log.publish(topic, keys.map((key) => ({ key, value: key })));
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(topic);
    const expected = new Map<number, number>();
    for (const k of keys) expected.set(partitionFor(k, 5), (expected.get(partitionFor(k, 5)) ?? 0) + 1);
    for (const o of offsets) expect(Number(o.high)).toBe(expected.get(o.partition) ?? 0);
    await log.close();
  });

  it('publishing to a topic nobody ensured fails instead of auto-creating it', async () => {
    const log = createKafkaLog({ brokers, clientId: 'kafka-log-test' });
    await expect(log.publish(`missing-${run}`, [{ key: 'k', value: 'v' }])).rejects.toThrow(/unknown topic/);
    await log.close();
  });

  it('close() stops the consumers it started and leaves the group', async () => {
    const log = createKafkaLog({ brokers, clientId: 'kafka-log-test' });
    const topic = `close-${run}`;
    const groupId = `close-group-${run}`;
    await log.ensureTopic(topic, { partitions: 1 });
    let assigned = 0;
    await log.consume({ groupId, topics: [topic], eachBatch: async () => {}, onAssign: (a) => void (assigned = a.length) });
    const deadline = Date.now() + 20_000;
    while (assigned === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(assigned).toBe(1);
    await log.close();
    await admin.connect();
    const groups = await admin.describeGroups([groupId]);
    expect(groups.groups[0]?.members).toEqual([]);
  });

  it('a publish the broker stored but never answered, then failed: the next publish, of other records, is stored too (not taken for its duplicate)', async () => {
    // the network between the log and the broker: answers can be swallowed, connections cut and refused
    const net = faultyNetwork();
    const log = createKafkaLog({ brokers, clientId: 'kafka-log-test', socketFactory: net.factory, retries: 1 });
    const topic = `unanswered-${run}`;
    await log.ensureTopic(topic, { partitions: 1 });
    await log.publish(topic, [{ key: 'k', value: 'a1' }]);
    // the broker stores x1, x2; its answer never arrives; then the broker is unreachable
    net.swallow = true;
    const unanswered = log.publish(topic, [
      { key: 'k', value: 'x1' },
      { key: 'k', value: 'x2' },
    ]);
    await admin.connect();
    const high = async () => Number((await admin.fetchTopicOffsets(topic))[0]?.high);
    const deadline = Date.now() + 20_000;
    while ((await high()) < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await high()).toBe(3);
    net.cut();
    await expect(unanswered).rejects.toThrow();
    // the broker is reachable again; the caller goes on with other records (as many as the failed publish had)
    net.heal();
    await log.publish(topic, [
      { key: 'k', value: 'y1' },
      { key: 'k', value: 'y2' },
    ]);
    await log.close();
    expect(await high()).toBe(5);
    expect(await readValues(topic, 5)).toEqual(['a1', 'x1', 'x2', 'y1', 'y2']);
  }, 60_000);
});

/**
 * A kafkajs socket factory between the log and the broker: `swallow` drops the broker's answers
 * (requests still arrive), `cut` closes every connection and refuses new ones, `heal` ends both.
 */
function faultyNetwork() {
  const sockets = new Set<Socket>();
  const state = { swallow: false, refused: false };
  return {
    set swallow(v: boolean) {
      state.swallow = v;
    },
    cut() {
      state.refused = true;
      for (const s of sockets) s.destroy(new Error('connection cut'));
    },
    heal() {
      state.swallow = false;
      state.refused = false;
    },
    factory: ({ host, port, onConnect }: { host: string; port: number; onConnect: () => void }): Socket => {
      // port 1 on 127.0.0.1: nothing listens, the connection is refused
      const socket = connect({ host, port: state.refused ? 1 : port }, onConnect);
      const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
      socket.emit = ((event: string | symbol, ...args: unknown[]) => (event === 'data' && state.swallow ? true : emit(event, ...args))) as typeof socket.emit;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      return socket;
    },
  };
}

/** the values of a topic's first `count` records (one partition), read by a consumer of its own */
async function readValues(topic: string, count: number): Promise<string[]> {
  const consumer = new kafkajs.Kafka({ clientId: 'kafka-log-test-read', brokers, logLevel: kafkajs.logLevel.NOTHING }).consumer({ groupId: `read-${topic}` });
  const values: string[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${values.length} of ${count} records of ${topic}`)), 20_000);
      void consumer.run({
        eachMessage: async ({ message }) => {
          values.push(message.value?.toString() ?? '');
          if (values.length >= count) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
  return values;
}
