/**
 * The API thread's entry (started by runtime/api-thread.ts): the API role over the log and the
 * store of the thread that started it, reached over the port it was given. Its `/metrics` include
 * that thread's families (the engine's lag, the ingest's cursors), so one scrape sees the process.
 */
import { parentPort } from 'node:worker_threads';
import { loadConfig } from '../infra/config.ts';
import { Rpc } from '../infra/bridge/rpc.ts';
import { bridgedLog } from '../infra/bridge/log.ts';
import { bridgedStore } from '../infra/bridge/store.ts';
import type { Family } from '../infra/metrics.ts';
import { createLogger, servicesOf } from './services.ts';
import type { ApiThreadCommand, ApiThreadData, ApiThreadMessage } from './api-thread.ts';
import { startApi } from './api.ts';
import { announceApi } from './banner.ts';
import { currentThreadId } from '../infra/priority.ts';

const parent = parentPort;
if (!parent) throw new Error('runtime/api-worker.ts runs as the API thread of runtime/api-thread.ts');
const tell = (m: ApiThreadMessage) => parent.postMessage(m);
// the code above is loaded; the port and the kinds come now (runtime/api-thread.ts startApiThread)
const data = await new Promise<ApiThreadData>((resolve) => {
  const first = (m: ApiThreadCommand) => {
    if (m.type !== 'start') return;
    parent.off('message', first);
    resolve(m.data);
  };
  parent.on('message', first);
});

const config = loadConfig(process.env);
const rpc = new Rpc(data.port);
const services = servicesOf(config, createLogger(config), bridgedLog(rpc, data.logKind), bridgedStore(rpc, data.storeKind));
services.metrics.include(() => rpc.call<Family[]>('metrics.collect'));

parent.on('message', (m: ApiThreadCommand) => {
  if (m.type !== 'shutdown') return;
  void services.shutdown().finally(() => {
    tell({ type: 'down' });
    rpc.close();
    parent.close();
  });
});

const api = await startApi(services);
// the thread's id, so that the process runs its other threads at a lower priority (infra/priority.ts)
tell({ type: 'listening', url: api.url, opsUrl: api.opsUrl, tid: currentThreadId() });
await announceApi(services, api);
