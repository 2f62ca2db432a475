/**
 * The thread that owns the log and the store answers another thread's use of them over a port
 * (infra/bridge/log.ts and store.ts are that thread's adapters). The in-process log and the
 * embedded store belong to one thread each: `intel start` keeps them, the engine and the ingest
 * in its main thread and serves the API from a thread of its own (runtime/api-thread.ts), whose
 * heap and event loop then hold only what reads need.
 *
 * A consumer the other thread opens runs here; its batches are handed over and committed once the
 * other thread's handler resolved, exactly as a handler in this thread. When the port closes, the
 * consumers it opened stop.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Metrics } from '../metrics.ts';
import type { Consumer, ConsumeOptions, Log, LogBatch } from '../log/types.ts';
import type { Store } from '../store/types.ts';
import { Rpc } from './rpc.ts';

/** the consume options that are plain values (they cross the port as they are) */
type PlainOptions = Pick<ConsumeOptions, 'fromBeginning' | 'maxBatchSize' | 'retainUntilReleased'>;

/** the options of a consumer opened over the port: its functions stay in the other thread */
export interface BridgedConsume extends PlainOptions {
  groupId: string;
  topics: string[];
  /** `topic:partition` → start offset, read from the other thread's startOffset when it consumed */
  starts?: Record<string, number>;
  /** the other thread wants onAssign calls */
  onAssign: boolean;
}

export function plainOptions(o: PlainOptions): PlainOptions {
  const out: PlainOptions = {};
  if (o.fromBeginning !== undefined) out.fromBeginning = o.fromBeginning;
  if (o.maxBatchSize !== undefined) out.maxBatchSize = o.maxBatchSize;
  if (o.retainUntilReleased !== undefined) out.retainUntilReleased = o.retainUntilReleased;
  return out;
}

export const STORE_METHODS = ['migrate', 'upsert', 'get', 'list', 'history', 'expire', 'claim', 'addUsage', 'usage'] as const;

export interface BridgeHost {
  /** stops the consumers the other thread opened and closes the port */
  close(): Promise<void>;
}

export function serveBridge(port: MessagePort, deps: { log?: Log; store?: Store; metrics?: Metrics }): BridgeHost {
  const rpc = new Rpc(port);
  const consumers = new Map<number, Promise<Consumer>>();
  const { log, store, metrics } = deps;

  if (store) {
    for (const m of STORE_METHODS) rpc.handle(`store.${m}`, (...args: unknown[]) => (store[m] as (...a: unknown[]) => Promise<unknown>)(...args));
  }
  if (log) {
    rpc.handle('log.ensureTopic', (topic: string, opts?: Parameters<Log['ensureTopic']>[1]) => log.ensureTopic(topic, opts));
    rpc.handle('log.publish', (topic: string, records: Parameters<Log['publish']>[1]) => log.publish(topic, records));
    rpc.handle('log.partitions', (topic: string) => log.partitions(topic));
    rpc.handle('log.consume', async (id: number, o: BridgedConsume) => {
      const opts: ConsumeOptions = {
        groupId: o.groupId,
        topics: o.topics,
        ...plainOptions(o),
        ...(o.starts ? { startOffset: (topic: string, partition: number) => o.starts?.[`${topic}:${partition}`] } : {}),
        eachBatch: (batch: LogBatch) => rpc.call<void>(`consumer.${id}.batch`, batch),
        ...(o.onAssign ? { onAssign: (assigned: { topic: string; partition: number }[]) => rpc.call<void>(`consumer.${id}.assign`, assigned) } : {}),
      };
      const opened = log.consume(opts);
      consumers.set(id, opened);
      try {
        await opened;
      } catch (err) {
        consumers.delete(id);
        throw err;
      }
    });
    const consumer = async (id: number): Promise<Consumer> => {
      const c = consumers.get(id);
      if (!c) throw new Error(`no consumer ${id} on this side of the port`);
      return c;
    };
    rpc.handle('consumer.stop', async (id: number) => {
      const c = await consumer(id);
      consumers.delete(id);
      await c.stop();
    });
    rpc.handle('consumer.lag', async (id: number) => (await consumer(id)).lag());
    rpc.handle('consumer.release', async (id: number, topic: string, partition: number, offset: number) => (await consumer(id)).release(topic, partition, offset));
  }
  if (metrics) rpc.handle('metrics.collect', () => metrics.collect());

  const stopAll = async () => {
    const all = [...consumers.values()];
    consumers.clear();
    await Promise.all(all.map(async (c) => (await c.catch(() => undefined))?.stop()));
  };
  // the other thread ended (or closed its side): what it consumed stops here too
  port.on('close', () => void stopAll());
  return {
    async close() {
      await stopAll();
      rpc.close();
    },
  };
}
