import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLog } from '../log/memory.ts';
import type { Log, LogRecord } from '../log/types.ts';
import { createEmbeddedStore } from '../store/embedded.ts';
import { StoreUnavailableError, Tables } from '../store/types.ts';
import type { Store } from '../store/types.ts';
import { createMetrics } from '../metrics.ts';
import type { Family } from '../metrics.ts';
import { waitFor } from '../../test/contract/wait.ts';
import { serveBridge } from './host.ts';
import { bridgedLog } from './log.ts';
import { bridgedStore } from './store.ts';
import { PortClosedError, Rpc } from './rpc.ts';

/**
 * What the contract suites do not cover of the port between `intel start`'s threads: errors keep
 * their class, the API thread's end stops what it consumed, and one scrape sees both registries.
 */
const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'bridge-'));
  dirs.push(d);
  return d;
}

describe('bridge between threads', () => {
  it('a store that cannot be reached is a StoreUnavailableError on the other side (the API answers 503)', async () => {
    const owned = await createEmbeddedStore({ dataDir: dir() });
    closers.push(() => owned.close());
    // the store with only `get` failing (its other methods, on the class's prototype, bound to it)
    const failing = new Proxy(owned, {
      get: (target, name: keyof Store) => {
        if (name === 'get') return async () => Promise.reject(new StoreUnavailableError('connect ECONNREFUSED 127.0.0.1:8123'));
        const v = target[name];
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as Store;
    const { port1, port2 } = new MessageChannel();
    const host = serveBridge(port1, { store: failing });
    closers.push(() => host.close());
    const store = bridgedStore(new Rpc(port2), 'embedded');
    const err = await store.get(Tables.meta, 'k').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).message).toBe('connect ECONNREFUSED 127.0.0.1:8123');
    // any other error keeps its name and message
    const other = await store.list('no_such_table' as never).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(Error);
    expect(other).toMatchObject({ name: 'Error', message: 'unknown table no_such_table' });
  });

  it('API thread ended: its pending calls reject, and the consumers it opened leave their group', async () => {
    const owned: Log = createMemoryLog({ dataDir: dir(), defaultPartitions: 2, idlePollMs: 10 });
    closers.push(() => owned.close());
    await owned.ensureTopic('events', { partitions: 2 });
    const { port1, port2 } = new MessageChannel();
    serveBridge(port1, { log: owned });
    const rpc = new Rpc(port2);
    const log = bridgedLog(rpc, 'memory');
    const seenThere: LogRecord[] = [];
    await log.consume({ groupId: 'g', topics: ['events'], eachBatch: async (b) => void seenThere.push(...b.records) });
    await owned.publish('events', [{ key: 'a', value: '1' }]);
    await waitFor(() => seenThere.length === 1, 'the record to cross the port');
    const pending = rpc.call('log.partitions', 'events');
    rpc.close();
    // closed before it answered: it rejects, never hangs
    await expect(pending).rejects.toBeInstanceOf(PortClosedError);
    await expect(rpc.call('log.partitions', 'events')).rejects.toBeInstanceOf(PortClosedError);
    // a member on this side takes both partitions once the closed thread's member left
    const seenHere: LogRecord[] = [];
    const assigned: number[][] = [];
    const c = await owned.consume({ groupId: 'g', topics: ['events'], eachBatch: async (b) => void seenHere.push(...b.records), onAssign: (a) => void assigned.push(a.map((x) => x.partition)) });
    closers.push(() => c.stop());
    await owned.publish('events', [{ key: 'b', value: '2' }, { key: 'c', value: '3' }, { key: 'd', value: '4' }]);
    await waitFor(() => seenHere.length === 3, 'every later record on this side');
    expect(assigned.at(-1)?.sort()).toEqual([0, 1]);
    expect(seenThere).toHaveLength(1);
  });

  it('one scrape renders both threads\' families: counters of one name sum, a family kept on one side once', async () => {
    const host = createMetrics({ intel_http_requests_total: 'API requests' });
    host.inc('intel_http_requests_total', { operation: 'tokenIntel', status: '200' }, 2);
    host.gauge('intel_engine_lag_records', 'records behind', ['worker'], () => [{ labels: { worker: 'token' }, value: 7 }]);
    const { port1, port2 } = new MessageChannel();
    const served = serveBridge(port1, { metrics: host });
    closers.push(() => served.close());
    const rpc = new Rpc(port2);
    const api = createMetrics({ intel_http_requests_total: 'API requests' });
    api.include(() => rpc.call<Family[]>('metrics.collect'));
    api.inc('intel_http_requests_total', { operation: 'tokenIntel', status: '200' }, 3);
    api.inc('intel_http_requests_total', { operation: 'tokenIntel', status: '429' });
    const text = await api.render();
    expect(text.match(/# TYPE intel_http_requests_total counter/g)).toHaveLength(1);
    expect(text).toContain('intel_http_requests_total{operation="tokenIntel",status="200"} 5');
    expect(text).toContain('intel_http_requests_total{operation="tokenIntel",status="429"} 1');
    expect(text).toContain('intel_engine_lag_records{worker="token"} 7');
    // a scrape is not a count: the next one renders the same sums
    expect(await api.render()).toBe(text);
  });
});
