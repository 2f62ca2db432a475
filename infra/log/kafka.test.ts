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
});
