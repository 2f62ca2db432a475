import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { isTransient, topicEnds } from './kafka.ts';

describe('isTransient: which kafkajs errors the log waits out while a topic is being created', () => {
  const unknownPartition = new kafkajs.KafkaJSProtocolError('This server does not host this topic-partition');
  Object.assign(unknownPartition, { type: 'UNKNOWN_TOPIC_OR_PARTITION', retriable: true });

  it('a metadata gap, bare or wrapped by kafkajs after its own retries ran out', () => {
    expect(isTransient(unknownPartition)).toBe(true);
    const exhausted = new kafkajs.KafkaJSNumberOfRetriesExceeded(unknownPartition, { retryCount: 5, retryTime: 3000 });
    expect(exhausted.retriable).toBe(false);
    expect(isTransient(exhausted)).toBe(true);
  });

  it('not a real failure', () => {
    expect(isTransient(new kafkajs.KafkaJSNonRetriableError('topic authorization failed'))).toBe(false);
    expect(isTransient(new Error('boom'))).toBe(false);
    expect(isTransient(undefined)).toBe(false);
  });
});

describe('topicEnds: the ends of a topic, or "not yet"', () => {
  it('kafkajs\'s TypeError on an empty answer while the topic settles (tulios/kafkajs#461) is "not yet"; a real failure is not', async () => {
    // what kafkajs 2.2 throws from admin.fetchTopicOffsets when fetchTopicsOffset answers []
    const settling = { fetchTopicOffsets: async () => Promise.reject(new TypeError("Cannot destructure property 'partitions' of 'low.pop(...)' as it is undefined.")) };
    expect(await topicEnds(settling, 'token-events')).toBeUndefined();
    const ends = [{ partition: 0, offset: '5', high: '5', low: '0' }];
    expect(await topicEnds({ fetchTopicOffsets: async () => ends }, 'token-events')).toBe(ends);
    const refused = new kafkajs.KafkaJSNonRetriableError('topic authorization failed');
    await expect(topicEnds({ fetchTopicOffsets: async () => Promise.reject(refused) }, 'token-events')).rejects.toBe(refused);
  });
});
