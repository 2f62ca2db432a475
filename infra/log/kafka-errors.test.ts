import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { isTransient } from './kafka.ts';

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
