/**
 * A Log adapter for a thread that does not own the log: every call goes over the port to the
 * thread that does (infra/bridge/host.ts), which runs the consumers and hands their batches over.
 * It passes the log contract suite like the adapters it fronts.
 *
 * `startOffset` is read here, once per partition, when the consumer is created (the host cannot
 * call into this thread synchronously): what it answers must not change afterwards, which holds
 * for offsets fixed before consuming (the replica's 0, the usage view's marks read from the store).
 */
import type { Consumer, ConsumeOptions, Log, LogBatch } from '../log/types.ts';
import type { BridgedConsume } from './host.ts';
import { plainOptions } from './host.ts';
import type { Rpc } from './rpc.ts';

export function bridgedLog(rpc: Rpc, kind: Log['kind']): Log {
  let nextId = 1;
  const open = new Set<Consumer>();

  const partitions = (topic: string) => rpc.call<number>('log.partitions', topic);

  return {
    kind,
    ensureTopic: (topic, opts) => rpc.call<void>('log.ensureTopic', topic, opts),
    publish: (topic, records) => rpc.call<void>('log.publish', topic, records),
    partitions,

    async consume(o: ConsumeOptions): Promise<Consumer> {
      const id = nextId++;
      let starts: Record<string, number> | undefined;
      if (o.startOffset) {
        starts = {};
        for (const topic of o.topics) {
          const n = await partitions(topic);
          for (let p = 0; p < n; p++) {
            const s = o.startOffset(topic, p);
            if (s !== undefined) starts[`${topic}:${p}`] = s;
          }
        }
      }
      const { onAssign } = o;
      rpc.handle(`consumer.${id}.batch`, (batch: LogBatch) => o.eachBatch(batch));
      if (onAssign) rpc.handle(`consumer.${id}.assign`, (assigned: { topic: string; partition: number }[]) => onAssign(assigned));
      const unhandle = () => {
        rpc.unhandle(`consumer.${id}.batch`);
        rpc.unhandle(`consumer.${id}.assign`);
      };
      const spec: BridgedConsume = {
        groupId: o.groupId,
        topics: o.topics,
        ...plainOptions(o),
        ...(starts ? { starts } : {}),
        onAssign: onAssign !== undefined,
      };
      try {
        await rpc.call<void>('log.consume', id, spec);
      } catch (err) {
        unhandle();
        throw err;
      }
      let stopped: Promise<void> | undefined;
      const consumer: Consumer = {
        stop() {
          stopped ??= (async () => {
            open.delete(consumer);
            try {
              // the port closed: the host stopped this consumer when it did
              if (!rpc.isClosed) await rpc.call<void>('consumer.stop', id);
            } finally {
              unhandle();
            }
          })();
          return stopped;
        },
        lag: () => rpc.call('consumer.lag', id),
        release(topic, partition, offset) {
          // fire and forget, as on the adapters it fronts (a lost release keeps segments a little longer)
          rpc.call<void>('consumer.release', id, topic, partition, offset).catch(() => undefined);
        },
      };
      open.add(consumer);
      return consumer;
    },

    /** ends this thread's use of the log: its consumers stop; the log itself stays open (its owner closes it) */
    async close() {
      await Promise.all([...open].map((c) => c.stop()));
    },
  };
}
