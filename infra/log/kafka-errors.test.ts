import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { isProducerFenced, isTransient, topicEnds } from './kafka.ts';

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

describe('isProducerFenced: the errors after which only a new idempotent producer is accepted', () => {
  // as kafkajs builds it from the broker's error code 45 (its protocol error table)
  const outOfOrder = new kafkajs.KafkaJSProtocolError({ message: 'The broker received an out of order sequence number', type: 'OUT_OF_ORDER_SEQUENCE_NUMBER', code: 45, retriable: false } as never);

  it('an out-of-order sequence number, bare or after kafkajs retried it (the faults test at a8e466e: every later publish refused)', () => {
    expect(outOfOrder.type).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(isProducerFenced(outOfOrder)).toBe(true);
    expect(isProducerFenced(new kafkajs.KafkaJSNumberOfRetriesExceeded(outOfOrder, { retryCount: 5, retryTime: 3000 }))).toBe(true);
  });

  it('not a connection loss or a metadata gap (the producer recovers from those itself)', () => {
    expect(isProducerFenced(unknownPartitionError())).toBe(false);
    expect(isProducerFenced(new kafkajs.KafkaJSConnectionError('Connection error: connect ECONNREFUSED'))).toBe(false);
    expect(isProducerFenced(undefined)).toBe(false);
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

function unknownPartitionError(): Error {
  return Object.assign(new kafkajs.KafkaJSProtocolError('This server does not host this topic-partition'), { type: 'UNKNOWN_TOPIC_OR_PARTITION', retriable: true });
}
