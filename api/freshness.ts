import type { Replica, SnapshotEntry } from './replica.ts';

/** how fresh the answers are: per chain, the time of the newest event folded into a token snapshot */
export interface Freshness {
  /** unix seconds of the newest token snapshot's last event per chain (null: no snapshot yet) */
  newest(): Record<string, number | null>;
  /** seconds between `nowMs` and that, per chain (null: no snapshot yet) */
  ageSeconds(nowMs: number): Record<string, number | null>;
  /** the chains whose answers are older than `maxAgeSeconds` (or absent), with their age */
  stale(nowMs: number, maxAgeSeconds: number): { chain: string; ageSeconds: number | null }[];
  stop(): void;
}

/** `asOfTs` of a token snapshot read from its text, without parsing the body */
const AS_OF_TS = /"asOfTs":(\d+)/;

function asOfOf(e: SnapshotEntry): number | undefined {
  const m = AS_OF_TS.exec(e.text);
  return m ? Number(m[1]) : undefined;
}

/**
 * Follows the replica: the newest token snapshot per ingested chain, from the store's bootstrap
 * and then each snapshot the replica applies. The start banner, `/readyz` and the
 * `intel_snapshot_age_seconds` gauge read it: answers days old are not "ready".
 */
export function createFreshness(replica: Pick<Replica, 'entries' | 'onChange'>, chains: readonly string[]): Freshness {
  const newest = new Map<string, number>();
  const seen = (chain: string, ts: number | undefined) => {
    if (ts !== undefined && ts > (newest.get(chain) ?? -Infinity)) newest.set(chain, ts);
  };
  const stop = replica.onChange((key, _prev, next) => {
    if (!key.startsWith('token:')) return;
    const chain = key.slice(6, key.indexOf(':', 6));
    seen(chain, asOfOf(next));
  });
  for (const chain of chains) for (const e of replica.entries('token', chain)) seen(chain, asOfOf(e));
  const newestOf = () => Object.fromEntries(chains.map((c) => [c, newest.get(c) ?? null]));
  const ages = (nowMs: number) => Object.fromEntries(chains.map((c) => [c, newest.has(c) ? Math.max(0, Math.round(nowMs / 1000 - (newest.get(c) as number))) : null]));
  return {
    newest: newestOf,
    ageSeconds: ages,
    stale(nowMs, maxAgeSeconds) {
      return Object.entries(ages(nowMs))
        .filter(([, a]) => a === null || a > maxAgeSeconds)
        .map(([chain, ageSeconds]) => ({ chain, ageSeconds }));
    },
    stop,
  };
}
