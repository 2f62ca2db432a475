import type { AnyOperation, CallContext } from './operations.ts';
import type { Replica } from './replica.ts';

/**
 * Responses of the operations that project one snapshot, kept as bytes: per (operation, snapshot
 * key, snapshot version, parameters) the serialized response is split around its only
 * time-dependent field, `ageSeconds`, and later calls splice the current age into the cached
 * bytes. The bytes are those JSON.stringify makes of the view's object (checked when an entry is
 * built), so a cached answer is identical to a computed one. A new snapshot version is a new
 * entry; the oldest entries go first past `maxEntries`.
 *
 * A cache hit runs no handler: the track record of the served value (one per subject and snapshot
 * hour) was made by the call that built the entry for that snapshot version.
 */
export interface ResponseCache {
  /** the response of a call of a served operation, as JSON text */
  serve(op: AnyOperation, input: unknown, ctx: CallContext): Promise<string>;
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

export function createResponseCache(replica: Pick<Replica, 'entry'>, opts: { maxEntries?: number } = {}): ResponseCache {
  const maxEntries = opts.maxEntries ?? 50_000;
  const entries = new Map<string, { snapshot: object; head: string; tail: string }>();

  return {
    async serve(op, input, ctx) {
      const served = op.served;
      if (!served) return JSON.stringify(await op.handler(input, ctx));
      const key = served.snapshot(input);
      const snapshot = replica.entry(key);
      if (!snapshot) return JSON.stringify(await op.handler(input, ctx)); // the handler answers (404)
      const id = `${op.id}\u0000${key}\u0000${JSON.stringify(input)}`;
      const hit = entries.get(id);
      if (hit && hit.snapshot === snapshot) return hit.head + String(served.ageSeconds(snapshot, ctx.now)) + hit.tail;

      const result: unknown = await op.handler(input, ctx);
      const text = JSON.stringify(result);
      const parts = splitAtAge(result, text);
      // cached only when built from the snapshot still current, and the age rule is the view's
      if (
        parts &&
        replica.entry(key) === snapshot &&
        served.ageSeconds(snapshot, ctx.now) === (result as { ageSeconds: number }).ageSeconds
      ) {
        entries.delete(id);
        entries.set(id, { snapshot, ...parts });
        if (entries.size > maxEntries) {
          const oldest = entries.keys().next();
          if (!oldest.done) entries.delete(oldest.value);
        }
      }
      return text;
    },
    size: () => entries.size,
  };
}
