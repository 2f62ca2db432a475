import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, docs/architecture.md "Decisions"): three
 * headers, `webhook-id` (the message id, the same on every retry so receivers dedupe),
 * `webhook-timestamp` (unix seconds of the attempt) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64-decoded bytes of the
 * secret after its `whsec_` prefix; several space-separated signatures may be sent during a
 * secret rotation). Written on node:crypto rather than the npm `standardwebhooks` package: that
 * package's verify reads the wall clock (no injectable time, fixed tolerance) and hashes in pure
 * JavaScript; the scheme is these few lines, checked against the specification's test vector.
 */

export const SECRET_PREFIX = 'whsec_';
/** receivers refuse timestamps further than this from their clock (the specification's 5 minutes) */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export type WebhookHeaders = { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };

/** a fresh endpoint secret: `whsec_` and 32 random bytes in base64 */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** the HMAC key of a secret (with or without its `whsec_` prefix) */
function secretKey(secret: string): Buffer {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!BASE64.test(text)) throw new Error('a webhook secret is `whsec_` followed by base64');
  return Buffer.from(text, 'base64');
}

function hmac(key: Buffer, id: string, timestamp: number, body: string | Buffer): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

/** the `webhook-signature` value of a message: `v1,<base64>` */
export function signWebhook(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  return `v1,${hmac(secretKey(secret), id, timestamp, body).toString('base64')}`;
}

/** the three headers of a message sent at `timestamp` (unix seconds) */
export function webhookHeaders(secret: string, id: string, timestamp: number, body: string | Buffer): WebhookHeaders {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, id, timestamp, body) };
}

export type VerifyFailure = 'missing_headers' | 'bad_timestamp' | 'timestamp_too_old' | 'timestamp_too_new' | 'bad_signature';
export type VerifyResult = { ok: true; id: string; timestamp: number } | { ok: false; reason: VerifyFailure };

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : bag[key];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The receiver's check of a delivery: the raw body as received, its headers, the endpoint's
 * secret. The timestamp must be within `toleranceSeconds` of `now` (unix seconds; default the
 * wall clock); one of the `v1` signatures must match, compared in constant time.
 */
export function verifyWebhook(
  secret: string,
  body: string | Buffer,
  headers: HeaderBag,
  opts: { now?: number; toleranceSeconds?: number } = {},
): VerifyResult {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const sig = header(headers, 'webhook-signature');
  if (!id || !ts || !sig) return { ok: false, reason: 'missing_headers' };
  if (!/^\d{1,12}$/.test(ts)) return { ok: false, reason: 'bad_timestamp' };
  const timestamp = Number(ts);
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (now - timestamp > tolerance) return { ok: false, reason: 'timestamp_too_old' };
  if (timestamp - now > tolerance) return { ok: false, reason: 'timestamp_too_new' };
  const expected = hmac(secretKey(secret), id, timestamp, body);
  for (const part of sig.split(' ')) {
    const comma = part.indexOf(',');
    if (comma < 0 || part.slice(0, comma) !== 'v1') continue;
    const given = part.slice(comma + 1);
    if (!BASE64.test(given)) continue;
    const bytes = Buffer.from(given, 'base64');
    // the length is public (32 bytes for every v1 signature); the bytes are compared in constant time
    if (bytes.length === expected.length && timingSafeEqual(bytes, expected)) return { ok: true, id, timestamp };
  }
  return { ok: false, reason: 'bad_signature' };
}
