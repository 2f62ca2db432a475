import type { Row } from './types.ts';

/**
 * A row as the embedded store keeps it: a fixed head (version, flags, expiresAt) then the body's
 * UTF-8 bytes. The version and expiry are read from the head without decoding the body, so
 * comparing a checkpoint's version (megabytes of body) costs no more than a small row's.
 */
const HEAD = 17;
const DELETED = 1;
const EXPIRES = 2;

export function encodeRow(r: Row): Buffer {
  const body = Buffer.from(r.body, 'utf8');
  const out = Buffer.allocUnsafe(HEAD + body.length);
  out.writeDoubleLE(r.version, 0);
  out[8] = (r.deleted ? DELETED : 0) | (r.expiresAt !== undefined ? EXPIRES : 0);
  out.writeDoubleLE(r.expiresAt ?? 0, 9);
  body.copy(out, HEAD);
  return out;
}

export function decodeRow(key: string, buf: Uint8Array): Row {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const row: Row = { key, version: b.readDoubleLE(0), body: b.toString('utf8', HEAD) };
  if ((b[8] as number) & DELETED) row.deleted = true;
  const expiresAt = expiryOf(b);
  if (expiresAt !== undefined) row.expiresAt = expiresAt;
  return row;
}

export function versionOf(buf: Uint8Array): number {
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).readDoubleLE(0);
}

export function expiryOf(buf: Uint8Array): number | undefined {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  return (b[8] as number) & EXPIRES ? b.readDoubleLE(9) : undefined;
}
