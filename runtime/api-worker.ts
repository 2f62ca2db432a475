/**
 * The API thread's entry (started by runtime/api-thread.ts): the API role over the log and the
 * store of the thread that started it, reached over the port it was given. Its `/metrics` include
 * that thread's families (the engine's lag, the ingest's cursors), so one scrape sees the process.
 *
 * It tells its thread id before it loads the rest of its code (hence the dynamic imports): the
 * process then runs its other threads below this one (infra/priority.ts) while both load, so a
 * restart's checkpoint restore and simulator resume do not slow the API's start.
 */
import { parentPort } from 'node:worker_threads';
import type { Family } from '../infra/metrics.ts';
import { currentThreadId } from '../infra/priority.ts';
import type { ApiThreadCommand, ApiThreadData, ApiThreadMessage } from './api-thread.ts';

const parent = parentPort;
if (!parent) throw new Error('runtime/api-worker.ts runs as the API thread of runtime/api-thread.ts');
const tell = (m: ApiThreadMessage) => parent.postMessage(m);
tell({ type: 'thread', tid: currentThreadId() });
// the port and the kinds come when the starting thread has opened the log and the store
// (runtime/api-thread.ts startApiThread); a message waits in the port until it is listened for
const started = new Promise<ApiThreadData>((resolve) => {
  const first = (m: ApiThreadCommand) => {
    if (m.type !== 'start') return;
    parent.off('message', first);
    resolve(m.data);
  };
  parent.on('message', first);
});

const [{ loadConfig }, { Rpc }, { bridgedLog }, { bridgedStore }, { createLogger, servicesOf }, { startApi }, { announceApi }] = await Promise.all([
  import('../infra/config.ts'),
  import('../infra/bridge/rpc.ts'),
  import('../infra/bridge/log.ts'),
  import('../infra/bridge/store.ts'),
  import('./services.ts'),
  import('./api.ts'),
  import('./banner.ts'),
]);
const data = await started;

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
tell({ type: 'listening', url: api.url, opsUrl: api.opsUrl });
await announceApi(services, api);
