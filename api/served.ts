import type { AnyOperation, CallContext } from './operations.ts';
import type { Replica, SnapshotEntry } from './replica.ts';

type Served = NonNullable<AnyOperation['served']>;

/**
 * Responses of the operations that project one snapshot, kept as bytes: per (operation, request)
 * the serialized response is split around its only time-dependent field, `ageSeconds`, and later
 * calls splice the current age into the cached bytes. The bytes are those JSON.stringify makes of
 * the view's object (checked when an entry is built), so a cached answer is identical to a
 * computed one. A new snapshot version rebuilds the entry; the oldest entries go first past
 * `maxEntries`.
 *
 * The request is the call's exact parameter text (a POST body, a GET query string): the same text
 * always parses to the same input, so a repeated call finds its answer without parsing, validating
 * or running the view, and the bytes of the current second are made once and shared.
 *
 * A cache hit runs no handler: the track record of the served value (one per subject and snapshot
 * hour) was made by the call that built the entry for that snapshot version.
 */
export interface ResponseCache {
  /** the answer to exactly this request text when its snapshot has not changed since it was built; no handler runs */
  hit(op: AnyOperation, request: string, nowMs: number): Buffer | undefined;
  /** the answer of a call of a served operation (computed, and cached under its request text) */
  serve(op: AnyOperation, input: unknown, ctx: CallContext, request?: string): Promise<Buffer>;
  size(): number;
}

const MARK = '\u0000ageSeconds\u0000';
const NEEDLE = `"ageSeconds":${JSON.stringify(MARK)}`;
const NAME = '"ageSeconds":';

/** head and tail of the response's JSON around the value of its top-level `ageSeconds`, when that is the only one */
export function splitAtAge(result: unknown, text: string): { head: string; tail: string } | undefined {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
  const age = (result as { ageSeconds?: unknown }).ageSeconds;
  if (typeof age !== 'number' || !Number.isFinite(age)) return undefined;
  const probe = JSON.stringify({ ...result, ageSeconds: MARK });
  const at = probe.indexOf(NEEDLE);
  if (at < 0 || probe.indexOf(NEEDLE, at + 1) >= 0) return undefined;
  const head = probe.slice(0, at + NAME.length);
  const tail = probe.slice(at + NEEDLE.length);
  return head + String(age) + tail === text ? { head, tail } : undefined;
}

interface CachedResponse {
  /** the replica key of the snapshot it projects, and that snapshot */
  key: string;
  snapshot: SnapshotEntry;
  head: string;
  tail: string;
  /** the age the bytes carry */
  age: number;
  bytes: Buffer;
}

export function createResponseCache(replica: Pick<Replica, 'entry'>, opts: { maxEntries?: number } = {}): ResponseCache {
  const maxEntries = opts.maxEntries ?? 50_000;
  const entries = new Map<string, CachedResponse>();

  function current(e: CachedResponse, served: Served, nowMs: number): Buffer {
    const age = served.ageSeconds(e.snapshot, nowMs);
    if (age !== e.age) {
      e.age = age;
      e.bytes = Buffer.from(e.head + String(age) + e.tail);
    }
    return e.bytes;
  }

  return {
    hit(op, request, nowMs) {
      const served = op.served;
      if (!served) return undefined;
      const e = entries.get(`${op.id}\u0000${request}`);
      if (!e || replica.entry(e.key) !== e.snapshot) return undefined;
      return current(e, served, nowMs);
    },
    async serve(op, input, ctx, request = JSON.stringify(input)) {
      const served = op.served;
      if (!served) return Buffer.from(JSON.stringify(await op.handler(input, ctx)));
      const key = served.snapshot(input);
      const snapshot = replica.entry(key);
      if (!snapshot) return Buffer.from(JSON.stringify(await op.handler(input, ctx))); // the handler answers (404)
      const id = `${op.id}\u0000${request}`;
      const found = entries.get(id);
      if (found && found.snapshot === snapshot) return current(found, served, ctx.now);

      const result: unknown = await op.handler(input, ctx);
      const text = JSON.stringify(result);
      const bytes = Buffer.from(text);
      const parts = splitAtAge(result, text);
      const age = served.ageSeconds(snapshot, ctx.now);
      // cached only when built from the snapshot still current, and the age rule is the view's
      if (parts && replica.entry(key) === snapshot && age === (result as { ageSeconds: unknown }).ageSeconds) {
        entries.delete(id);
        entries.set(id, { key, snapshot, ...parts, age, bytes });
        if (entries.size > maxEntries) {
          const oldest = entries.keys().next();
          if (!oldest.done) entries.delete(oldest.value);
        }
      }
      return bytes;
    },
    size: () => entries.size,
  };
}
