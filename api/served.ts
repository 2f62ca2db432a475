import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { AnyOperation, CallContext, ServedSource } from './operations.ts';
import type { Replica } from './replica.ts';

type Served = NonNullable<AnyOperation['served']>;

/**
 * Responses of the operations that project one snapshot, kept as bytes: per (operation, request)
 * the serialized response is split around its time-dependent fields, the `ageSeconds` of the
 * snapshot (at any depth: a bundle carries one per slot), and later calls splice the current age
 * into the cached parts. An entry is kept only when a second rendering at a time with another age
 * differs from the first in exactly those places: a cached answer is byte for byte the one the
 * view computes, given the operations' contract (operations.ts `served`: nothing else in the
 * answer depends on the time), which the second rendering checks. A new snapshot version
 * rebuilds the entry; the least recently used entries go first past `maxEntries`. An operation that keeps what it
 * projects itself (a board, computed into its own cache for a while: `served.source`) is cached
 * the same way over that object, until it expires or is replaced; a call the operation says must
 * be computed (`served.cacheable`: a refresh) always runs its handler.
 *
 * The request is the call's exact parameter text (a POST body, a GET query string): the same text
 * always parses to the same input, so a repeated call finds its answer without parsing, validating
 * or running the view, and the bytes of the current second are made once and shared.
 *
 * A cache hit runs no handler: the track record of the served value (one per subject and snapshot
 * hour) was made by the call that built the entry for that snapshot version.
 *
 * An answer that projects a snapshot carries a weak ETag made once, when its entry is built: the
 * operation, the request text and the snapshot's version (answers of one snapshot version differ
 * only in their age, so they are equivalent, not identical: a weak validator). Its compressed
 * bytes (br, gzip) are made at most once per encoding and age, on the first call that asks.
 */
export interface ResponseCache {
  /** the answer to exactly this request text when its snapshot has not changed since it was built; no handler runs */
  hit(op: AnyOperation, request: string, nowMs: number): ServedAnswer | undefined;
  /** the answer of a call of a served operation (computed, and cached under its request text) */
  serve(op: AnyOperation, input: unknown, ctx: CallContext, request?: string): Promise<ServedAnswer>;
  size(): number;
}

export type Encoding = 'br' | 'gzip';

/** An answer of a served operation: its JSON bytes, its validator, and the bytes in an encoding. */
export interface ServedAnswer {
  readonly bytes: Buffer;
  /** a weak ETag (W/"…") when the answer projects a snapshot; none when the handler answered without one */
  readonly etag: string | undefined;
  encoded(encoding: Encoding): Buffer;
}

function compress(bytes: Buffer, encoding: Encoding): Buffer {
  // brotli's default quality (11) costs milliseconds a kilobyte; 5 is within a few percent of its size
  return encoding === 'br' ? brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }) : gzipSync(bytes);
}

/** an answer that is not cached: encoded on demand */
function plainAnswer(bytes: Buffer, etag?: string): ServedAnswer {
  return { bytes, etag, encoded: (e) => compress(bytes, e) };
}

/** the weak ETag of the answers to one request text over one snapshot version */
function etagOf(op: AnyOperation, request: string, key: string, version: number): string {
  return `W/"${createHash('sha256').update(`${op.id}\u0000${request}\u0000${key}\u0000${version}`).digest('base64url').slice(0, 32)}"`;
}

const AGE = '"ageSeconds":';

/**
 * The response's JSON cut at the value of every `ageSeconds` field equal to `age`:
 * `parts.join(String(age))` is the text again. Only keys match (a quote inside a JSON string is
 * escaped), and only whole numbers (17 does not match 170). Undefined when there is none.
 */
export function splitAtAges(text: string, age: number): string[] | undefined {
  const needle = AGE + String(age);
  const parts: string[] = [];
  let from = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    const next = text[at + needle.length];
    if (next !== ',' && next !== '}') continue;
    parts.push(text.slice(from, at + AGE.length));
    from = at + needle.length;
  }
  if (parts.length === 0) return undefined;
  parts.push(text.slice(from));
  return parts;
}

interface CachedResponse extends ServedAnswer {
  /** the key of what it projects, and what the key held (the replica's snapshot, or the operation's `served.source`) */
  key: string;
  snapshot: ServedSource;
  /** the response's text cut at its ages */
  parts: string[];
  /** the age the bytes carry */
  age: number;
  bytes: Buffer;
  etag: string;
  /** the bytes of this age in the encodings asked so far */
  br: Buffer | undefined;
  gzip: Buffer | undefined;
}

function cachedResponse(fields: Pick<CachedResponse, 'key' | 'snapshot' | 'parts' | 'age' | 'bytes' | 'etag'>): CachedResponse {
  const e: CachedResponse = {
    ...fields,
    br: undefined,
    gzip: undefined,
    encoded(encoding) {
      return (e[encoding] ??= compress(e.bytes, encoding));
    },
  };
  return e;
}

export function createResponseCache(replica: Pick<Replica, 'entry'>, opts: { maxEntries?: number } = {}): ResponseCache {
  // lru-cache: a hit moves the entry in its own list, not in the Map (a Map re-insert per hit grew the old generation: see api/keys.ts)
  const entries = new LRUCache<string, CachedResponse>({ max: opts.maxEntries ?? 50_000 });
  /** what the key of an answer holds now: the operation's own source, or the replica's snapshot */
  const sourceOf = (served: Served, key: string, nowMs: number): ServedSource | undefined => (served.source ? served.source(key, nowMs) : replica.entry(key));

  /** the entry's bytes at this time; undefined when the answer has no age then (computed instead) */
  function current(e: CachedResponse, served: Served, nowMs: number): CachedResponse | undefined {
    const age = served.ageSeconds(e.snapshot, nowMs);
    if (age === null) return undefined;
    if (age !== e.age) {
      e.age = age;
      e.bytes = Buffer.from(e.parts.join(String(age)));
      e.br = undefined;
      e.gzip = undefined;
    }
    return e;
  }

  return {
    hit(op, request, nowMs) {
      const served = op.served;
      if (!served) return undefined;
      const e = entries.get(`${op.id}\u0000${request}`);
      if (!e || sourceOf(served, e.key, nowMs) !== e.snapshot) return undefined;
      return current(e, served, nowMs);
    },
    async serve(op, input, ctx, request = JSON.stringify(input)) {
      const served = op.served;
      if (!served) return plainAnswer(Buffer.from(JSON.stringify(await op.handler(input, ctx))));
      const key = served.snapshot(input);
      const snapshot = sourceOf(served, key, ctx.now);
      // nothing to project: the handler answers (a 404, or the first computation of a board); a
      // call that asks to recompute is answered by the handler and not cached
      if (!snapshot || (served.cacheable && !served.cacheable(input))) return plainAnswer(Buffer.from(JSON.stringify(await op.handler(input, ctx))));
      const id = `${op.id}\u0000${request}`;
      const found = entries.get(id);
      const hit = found && found.snapshot === snapshot ? current(found, served, ctx.now) : undefined;
      if (hit) return hit;

      const text = JSON.stringify(await op.handler(input, ctx));
      const bytes = Buffer.from(text);
      const age = served.ageSeconds(snapshot, ctx.now);
      const etag = etagOf(op, request, key, snapshot.version);
      // no age (a board over no token yet) is nothing to splice: answered, not cached
      if (age === null) return plainAnswer(bytes, etag);
      const parts = splitAtAges(text, age);
      if (!parts) return plainAnswer(bytes, etag);
      // the first time at which the snapshot has another age: rendered then, the answer must
      // differ only at the ages found, and the snapshot must still be current. A source that
      // expires is rendered again only before it does (the handler would make a new one after).
      const expiresAt = snapshot.expiresAt ?? Infinity;
      const until = Math.min(ctx.now + 3_600_000, expiresAt);
      let later = ctx.now + 1000;
      while (served.ageSeconds(snapshot, later) === age && later < until) later += 1000;
      const laterAge = served.ageSeconds(snapshot, later);
      if (laterAge === age || laterAge === null || later >= expiresAt) return plainAnswer(bytes, etag);
      const check = JSON.stringify(await op.handler(input, { ...ctx, now: later }));
      if (check === parts.join(String(laterAge)) && sourceOf(served, key, ctx.now) === snapshot) {
        const entry = cachedResponse({ key, snapshot, parts, age, bytes, etag });
        entries.set(id, entry);
        return entry;
      }
      return plainAnswer(bytes, etag);
    },
    size: () => entries.size,
  };
}
