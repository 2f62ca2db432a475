import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhook, verifyWebhook, webhookHeaders } from './signing.ts';

/** The Standard Webhooks specification's published test vector. */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const vectorHeaders = (over: Record<string, string> = {}) => ({
  'webhook-id': VECTOR.id,
  'webhook-timestamp': String(VECTOR.timestamp),
  'webhook-signature': VECTOR.signature,
  ...over,
});

describe('Standard Webhooks signing', () => {
  it("reproduces the specification's test vector, with or without the whsec_ prefix", () => {
    expect(signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
    expect(signWebhook(VECTOR.secret.slice('whsec_'.length), VECTOR.id, VECTOR.timestamp, Buffer.from(VECTOR.body))).toBe(VECTOR.signature);
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders(), { now: VECTOR.timestamp + 10 })).toEqual({ ok: true, id: VECTOR.id, timestamp: VECTOR.timestamp });
  });

  it('a fresh secret signs headers that verify, from a Headers object too', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const h = webhookHeaders(secret, 'evt_1', 1_700_000_000, '{"a":1}');
    expect(verifyWebhook(secret, '{"a":1}', new Headers(h), { now: 1_700_000_000 }).ok).toBe(true);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('refuses a tampered body, id or timestamp, and another secret', () => {
    const now = VECTOR.timestamp;
    expect(verifyWebhook(VECTOR.secret, '{"test": 2432232315}', vectorHeaders(), { now })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders({ 'webhook-id': 'msg_other' }), { now })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders({ 'webhook-timestamp': String(now + 1) }), { now })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhook(newWebhookSecret(), VECTOR.body, vectorHeaders(), { now })).toEqual({ ok: false, reason: 'bad_signature' });
    // a truncated signature, or one of another version, is no match
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders({ 'webhook-signature': VECTOR.signature.slice(0, 20) }), { now }).ok).toBe(false);
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders({ 'webhook-signature': VECTOR.signature.replace('v1,', 'v2,') }), { now }).ok).toBe(false);
  });

  it('refuses a timestamp older or newer than the tolerance (5 minutes by default)', () => {
    const ts = VECTOR.timestamp;
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders(), { now: ts + 300 }).ok).toBe(true);
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders(), { now: ts + 301 })).toEqual({ ok: false, reason: 'timestamp_too_old' });
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders(), { now: ts - 301 })).toEqual({ ok: false, reason: 'timestamp_too_new' });
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders(), { now: ts + 3600, toleranceSeconds: 7200 }).ok).toBe(true);
    // the wall clock by default: the 2021 vector is long past
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders())).toEqual({ ok: false, reason: 'timestamp_too_old' });
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders({ 'webhook-timestamp': '16142653.5' }), { now: ts })).toEqual({ ok: false, reason: 'bad_timestamp' });
  });

  it('accepts any matching v1 signature of several (a secret rotation) and needs all three headers', () => {
    const now = VECTOR.timestamp;
    const several = `v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= v2,abc ${VECTOR.signature}`;
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, vectorHeaders({ 'webhook-signature': several }), { now }).ok).toBe(true);
    const { 'webhook-id': _id, ...noId } = vectorHeaders();
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, noId, { now })).toEqual({ ok: false, reason: 'missing_headers' });
    // header names are case-insensitive
    const upper = { 'Webhook-Id': VECTOR.id, 'Webhook-Timestamp': String(now), 'Webhook-Signature': VECTOR.signature };
    expect(verifyWebhook(VECTOR.secret, VECTOR.body, upper, { now }).ok).toBe(true);
  });
});
