import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveSessionKey, sessionKeysFrom } from './session-keys.ts';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe('session keys derived from the master secret', () => {
  it('are HMAC-SHA256(secret, agentId) reduced into [1, n-1]: the same agent gets the same key, another agent or secret another', () => {
    const k = deriveSessionKey('secret', 'agent-1');
    expect(k).toMatch(/^0x[0-9a-f]{64}$/);
    expect(deriveSessionKey('secret', 'agent-1')).toBe(k);
    expect(deriveSessionKey('secret', 'agent-2')).not.toBe(k);
    expect(deriveSessionKey('other', 'agent-1')).not.toBe(k);
    const h = BigInt(`0x${createHmac('sha256', 'secret').update('agent-1').digest('hex')}`);
    expect(BigInt(k)).toBe((h % (N - 1n)) + 1n);
    for (let i = 0; i < 200; i++) {
      const v = BigInt(deriveSessionKey('secret', `agent-${i}`));
      expect(v >= 1n && v < N).toBe(true);
    }
  });

  it('give the venue a local signer per agent, and refuse an empty secret', () => {
    const keyFor = sessionKeysFrom('secret');
    expect(keyFor('agent-1').address).toBe(keyFor('agent-1').address);
    expect(keyFor('agent-1').address).not.toBe(keyFor('agent-2').address);
    expect(() => deriveSessionKey('', 'agent-1')).toThrow(/empty secret/);
  });
});
