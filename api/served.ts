import type { AnyOperation, CallContext } from './operations.ts';
import type { Replica, SnapshotEntry } from './replica.ts';

type Served = NonNullable<AnyOperation['served']>;

/**
 * Responses of the operations that project one snapshot, kept as bytes: per (operation, request)
 * the serialized response is split around its time-dependent fields, the `ageSeconds` of the
 * snapshot (at any depth: a bundle carries one per slot), and later calls splice the current age
 * into the cached parts. An entry is kept only when a second rendering at a time with another age
 * differs from the first in exactly those places: a cached answer is byte for byte the one the
 * view computes, given the operations' contract (operations.ts `served`: nothing else in the
 * answer depends on the time), which the second rendering checks. A new snapshot version
 * rebuilds the entry; the oldest entries go first past `maxEntries`.
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

interface CachedResponse {
  /** the replica key of the snapshot it projects, and that snapshot */
  key: string;
  snapshot: SnapshotEntry;
  /** the response's text cut at its ages */
  parts: string[];
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
      e.bytes = Buffer.from(e.parts.join(String(age)));
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

      const text = JSON.stringify(await op.handler(input, ctx));
      const bytes = Buffer.from(text);
      const age = served.ageSeconds(snapshot, ctx.now);
      const parts = splitAtAges(text, age);
      if (!parts) return bytes;
      // the first time at which the snapshot has another age: rendered then, the answer must
      // differ only at the ages found, and the snapshot must still be current
      let later = ctx.now + 1000;
      while (served.ageSeconds(snapshot, later) === age && later < ctx.now + 3_600_000) later += 1000;
      const laterAge = served.ageSeconds(snapshot, later);
      const check = JSON.stringify(await op.handler(input, { ...ctx, now: later }));
      if (laterAge !== age && check === parts.join(String(laterAge)) && replica.entry(key) === snapshot) {
        entries.delete(id);
        entries.set(id, { key, snapshot, parts, age, bytes });
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
