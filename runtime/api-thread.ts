/**
 * The API role in a thread of its own, for a process that also runs the engine or the ingest
 * (`intel start`). This thread keeps the log, the store, the engine and the ingest; the API's
 * thread (runtime/api-worker.ts) reaches the log and the store over a port (infra/bridge/), holds
 * the replica, the keys and the usage view in its own heap, and answers on its own event loop: a
 * fold, a checkpoint or a collection of the engine's heap never holds an answer back, and the
 * API's collections stay as small as what reads keep.
 *
 * Shutdown: the API thread drains first (its usage and track-record writers flush through the
 * port), then this thread's roles stop and the log and the store close.
 */
import { MessageChannel } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { Services } from './services.ts';
import { serveBridge } from '../infra/bridge/host.ts';
import { favourThread } from '../infra/priority.ts';
import { tsWorker } from '../infra/ts-worker.ts';

/** what the API thread tells this one */
export type ApiThreadMessage = { type: 'listening'; url: string; opsUrl: string; tid?: number } | { type: 'down' };

export interface ApiThreadData {
  port: MessagePort;
  logKind: Services['log']['kind'];
  storeKind: Services['store']['kind'];
}

/**
 * Starts the API thread; resolves once it listens. `onFailure` is told when the thread fails
 * after that (an error it did not handle, or it ended on its own).
 */
export async function startApiThread(services: Services, onFailure: (err: Error) => void): Promise<{ url: string; opsUrl: string }> {
  const { port1, port2 } = new MessageChannel();
  const bridge = serveBridge(port1, { log: services.log, store: services.store, metrics: services.metrics });
  const data: ApiThreadData = { port: port2, logKind: services.log.kind, storeKind: services.store.kind };
  // runtime/api-worker.ts, with tsx's loader registered in the thread
  const worker = tsWorker(new URL('./api-worker.ts', import.meta.url), { workerData: data, transferList: [port2] });
  let stopping = false;
  let listening: { url: string; opsUrl: string } | undefined;
  let down: () => void = () => undefined;
  let favoured: ReturnType<typeof favourThread> | undefined;
  const wentDown = new Promise<void>((r) => (down = r));

  const started = new Promise<{ url: string; opsUrl: string }>((resolve, reject) => {
    worker.on('message', (m: ApiThreadMessage) => {
      if (m.type === 'listening') {
        listening = { url: m.url, opsUrl: m.opsUrl };
        // reads first: this thread (the engine, the ingest), V8's helpers and libuv's pool run
        // BACKGROUND_NICE steps below the API's thread, and in SCHED_IDLE (infra/priority.ts)
        const steps = services.config.BACKGROUND_NICE;
        const idle = services.config.BACKGROUND_IDLE;
        const f = favourThread(m.tid, { steps, idle, onError: (err) => services.logger.warn({ err }, 'thread priorities not set') });
        favoured = f;
        void f.idled.then((idled) => {
          services.logger.info(
            { api_thread: m.tid ?? null, background_nice: steps, lowered: f.lowered, background_idle: idle, idled },
            m.tid === undefined ? 'thread priorities: not supported here' : 'thread priorities set',
          );
        });
        resolve(listening);
      } else if (m.type === 'down') down();
    });
    worker.on('error', (err) => {
      if (!listening) reject(err);
      else if (!stopping) onFailure(err);
    });
    worker.on('exit', (code) => {
      down();
      const err = new Error(`the API thread ended (exit code ${code})`);
      if (!listening) reject(err);
      else if (!stopping) onFailure(err);
    });
  });

  services.onShutdown(async () => {
    stopping = true;
    favoured?.stop();
    worker.postMessage({ type: 'shutdown' });
    // the thread's own shutdown is bounded by the process's (SHUTDOWN_TIMEOUT_MS in cli.ts)
    await wentDown;
    await bridge.close();
    await worker.terminate();
  });
  return started;
}
