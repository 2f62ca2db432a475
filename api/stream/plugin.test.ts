import { describe, expect, it } from 'vitest';
import { ApiError } from '../../schemas/errors.ts';
import { connectSubscription } from './plugin.ts';

const TOKEN = '0x' + 'ab'.repeat(20);

/** the error code a query is refused with, or 'accepted' */
function refusal(query: Record<string, string>): string {
  try {
    connectSubscription(query, ['sim'], 3);
    return 'accepted';
  } catch (e) {
    return e instanceof ApiError ? e.code : `not an ApiError: ${String(e)}`;
  }
}

describe('the stream’s connect query (?topics=…&since=…&stream=…)', () => {
  it('subscribes to its topics at once, normalised, once each, and resumes from since of a stream', () => {
    expect(connectSubscription({}, ['sim'], 3)).toBeUndefined();
    expect(connectSubscription({ topics: `board:sim,token:sim:${TOKEN},board:sim` }, ['sim'], 3)).toEqual({ type: 'subscribe', topics: ['board:sim', `token:sim:${TOKEN}`] });
    expect(connectSubscription({ topics: 'board:sim', since: '12', stream: 'abc' }, ['sim'], 3)).toEqual({ type: 'subscribe', topics: ['board:sim'], since: 12, stream: 'abc' });
  });

  it('refuses what a subscribe message would refuse, with the same codes, and a resume without topics', () => {
    expect(refusal({ topics: 'board:sim' })).toBe('accepted');
    expect(refusal({ topics: 'nonsense' })).toBe('invalid_param');
    expect(refusal({ topics: 'board:mars' })).toBe('invalid_chain');
    expect(refusal({ topics: 'board:base' })).toBe('invalid_chain');
    expect(refusal({ topics: 'token:sim:0x1234' })).toBe('invalid_address');
    expect(refusal({ topics: 'board:sim', since: '-1' })).toBe('invalid_param');
    expect(refusal({ topics: 'board:sim', since: 'x' })).toBe('invalid_param');
    expect(refusal({ since: '3' })).toBe('invalid_param');
    expect(refusal({ topics: '' })).toBe('invalid_param');
    expect(refusal({ topics: 'board:sim', colour: 'red' })).toBe('unknown_param');
    expect(refusal({ topics: `board:sim,token:sim:${TOKEN},wallet:sim:${TOKEN},token:sim:${'0x' + 'cd'.repeat(20)}` })).toBe('invalid_param');
  });
});
