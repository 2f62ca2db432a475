import { randomUUID } from 'node:crypto';
import type { Consumer, Log } from '../infra/log/types.ts';
import type { Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { Topics } from '../schemas/events.ts';

/**
 * The API's in-memory replica of the latest snapshots: key (`kind:chain:entity`) → parsed body.
 * Bootstrapped from the store, then fed by the compacted snapshots topic, so a token read is a
 * map lookup, fresh within milliseconds of the engine.
 */
export interface Replica {
  get<T = unknown>(key: string): T | undefined;
  /** every snapshot of a kind on a chain */
  list<T = unknown>(kind: string, chain: string): T[];
  size(): number;
  stop(): Promise<void>;
}

export async function createReplica(deps: { log: Log; store: Store }): Promise<Replica> {
  const byKey = new Map<string, { version: number; value: unknown }>();
  const byKindChain = new Map<string, Map<string, unknown>>();

  function put(key: string, version: number, value: unknown): void {
    const cur = byKey.get(key);
    if (cur && cur.version > version) return;
    byKey.set(key, { version, value });
    const [kind, chain, ...rest] = key.split(':');
    const idx = `${kind}:${chain}`;
    const m = byKindChain.get(idx) ?? new Map<string, unknown>();
    m.set(rest.join(':'), value);
    byKindChain.set(idx, m);
  }

  for (const row of await deps.store.list(Tables.snapshots)) put(row.key, row.version, JSON.parse(row.body));
  await deps.log.ensureTopic(Topics.snapshots, { compacted: true, rebuildable: true });
  const consumer: Consumer = await deps.log.consume({
    groupId: `ephemeral-replica-${randomUUID()}`,
    topics: [Topics.snapshots],
    startOffset: () => 0,
    eachBatch: async (batch) => {
      for (const r of batch.records) {
        const { version, body } = JSON.parse(r.value) as { version: number; body: unknown };
        put(r.key, version, body);
      }
    },
  });

  return {
    get<T>(key: string) {
      return byKey.get(key)?.value as T | undefined;
    },
    list<T>(kind: string, chain: string) {
      return [...(byKindChain.get(`${kind}:${chain}`)?.values() ?? [])] as T[];
    },
    size: () => byKey.size,
    stop: () => consumer.stop(),
  };
}
