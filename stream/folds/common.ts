import type { FoldSpec } from '../spec.ts';

/** a fold key `chain:subject` (`venue:account`) split at its first colon */
export function splitKey(key: string): [string, string] {
  const i = key.indexOf(':');
  return [key.slice(0, i), key.slice(i + 1)];
}

/** what every engine fold reports to the process running it */
export type FoldHooks = Pick<FoldSpec<unknown, unknown>, 'onGap' | 'onError' | 'onRestore' | 'onFlush'>;

/** what the engine's fold specs share: the identity of the derivation's code (FoldSpec.reads) and the hooks */
export interface FoldContext {
  deriveId: string;
  hooks: FoldHooks;
}

/**
 * The value last published per key: `differs` when a value is not the one remembered for its key,
 * `remember` once it is published (not before: a flush whose publish failed is retried, and must
 * publish the value again)
 */
export function publishedPerKey<V>(): { differs(key: string, value: V): boolean; remember(key: string, value: V): void } {
  const last = new Map<string, V>();
  return {
    differs: (key, value) => last.get(key) !== value,
    remember: (key, value) => void last.set(key, value),
  };
}
