import { isAddress } from 'viem';
import { z } from 'zod';
import { ChainSlug } from '../../schemas/common.ts';
import { ApiError } from '../../schemas/errors.ts';
import type { Replica } from '../replica.ts';
import type { SortKey } from '../../infra/page.ts';

/** `0x` + 40 hex; mixed case must pass the EIP-55 checksum; normalised to lowercase. */
export const ADDRESS_MESSAGE = 'must be a 0x-prefixed 20-byte hex address (mixed case must pass the EIP-55 checksum)';
/** whether `s` is an address the API accepts (ADDRESS_MESSAGE) */
export function isApiAddress(s: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(s) && isAddress(s, { strict: true });
}
export const AddressParam = z
  .string({ error: 'must be a string' })
  .refine(isApiAddress, {
    message: ADDRESS_MESSAGE,
    params: { apiCode: 'invalid_address' },
  })
  .transform((s) => s.toLowerCase())
  .meta({
    description: '0x-prefixed 20-byte hex address, lowercase; a mixed-case address is accepted too when it passes the EIP-55 checksum',
    example: '0x' + 'ab'.repeat(20),
    // the document states the form every client can produce; the checksum rule of mixed case
    // cannot be a pattern, so a generated mixed-case string would be refused against the document
    pattern: '^0x[0-9a-f]{40}$',
  });

export const ChainParam = ChainSlug.optional();

/** Query integers arrive as strings. */
export function queryInt(min: number, max: number, def: number, description: string) {
  return z.coerce
    .number({ error: 'must be an integer' })
    .int({ error: 'must be an integer' })
    .min(min, { error: `must be between ${min} and ${max}` })
    .max(max, { error: `must be between ${min} and ${max}` })
    .default(def)
    .meta({ description: `${description} (${min}..${max}, default ${def})` });
}

export function bodyNumber(min: number, max: number, def: number, description: string, int = false) {
  let n = z.number({ error: 'must be a number' });
  if (int) n = n.int({ error: 'must be an integer' });
  return n
    .min(min, { error: `must be between ${min} and ${max}` })
    .max(max, { error: `must be between ${min} and ${max}` })
    .default(def)
    .meta({ description: `${description} (${min}..${max}, default ${def})` });
}

export function refresh() {
  return z
    .enum(['0', '1'], { error: "must be 0 or 1" })
    .default('0')
    .transform((v) => v === '1')
    .meta({ description: '1 bypasses the 120-second cache' });
}

/** The latest snapshot of a token, or 404 not_a_token for a well-formed address never seen trade. */
export function tokenSnapshot<T>(replica: Replica, chain: string, token: string): T {
  const snap = replica.get<T>(`token:${chain}:${token}`);
  if (!snap) throw new ApiError('not_a_token', `${token} has never been seen trading on ${chain}`);
  return snap;
}

export function ageSeconds(asOfIso: string, now: number): number {
  return Math.max(0, Math.round((now - Date.parse(asOfIso)) / 1000));
}

/** A list's `cursor` parameter: the `next` of the previous page (infra/page.ts). */
export const CursorParam = z
  .string({ error: 'must be a string' })
  .max(1024, { error: 'is not a cursor of this list' })
  .optional()
  .meta({ description: 'the `next` of the previous page; omitted: the first page' });

/**
 * A page's `next`: the key of its last item, bound to the list it pages (`list` names the
 * operation and the parameters that choose the items), base64url of JSON: opaque to clients.
 */
export function encodeCursor(list: string, key: SortKey | null): string | null {
  return key === null ? null : Buffer.from(JSON.stringify([list, ...key])).toString('base64url');
}

/** The key a `cursor` continues after; 400 invalid_param for a cursor not handed out by this list. */
export function decodeCursor(list: string, cursor: string | undefined): SortKey | undefined {
  if (cursor === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed[0] !== list || parsed.length < 2 || !parsed.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)))) {
    throw new ApiError('invalid_param', "'cursor': is not a cursor of this list (pass the `next` of the previous page, with the same parameters)");
  }
  return parsed.slice(1) as SortKey;
}
