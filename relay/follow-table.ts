import { randomUUID } from 'node:crypto';
import type { Consumer, Log } from '../infra/log/types.ts';
import type { TopicDef } from '../infra/topics.ts';
import { ensureTopic } from '../infra/topics.ts';

/** folds a compacted table topic from its start into an in-memory table, in this process */
export async function followTable<T>(log: Log, def: TopicDef<T>, apply: (record: T) => void): Promise<Consumer> {
  await ensureTopic(log, def);
  return log.consume({
    groupId: `ephemeral-copy-${def.name}-${randomUUID()}`,
    topics: [def.name],
    startOffset: () => 0,
    eachBatch: async (b) => {
      for (const r of b.records) {
        const v = def.codec.decode(r.value);
        if (v !== undefined) apply(v);
      }
    },
  });
}
