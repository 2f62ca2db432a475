/**
 * The API role in a thread of its own, for a process that also runs the engine or the ingest
 * (`intel start`). This thread keeps the log, the store, the engine and the ingest; the API's
 * thread (runtime/api-worker.ts) reaches the log and the store over a port (infra/bridge/), holds
 * the replica, the keys and the usage view in its own heap, and answers on its own event loop: a
 * fold, a checkpoint or a collection of the engine's heap never holds an answer back, and the
 * API's collections stay as small as what reads keep.
 *
 * The thread loads its code, then waits for its port (the `start` message). `intel start` spawns
 * it first thing (bin/intel.ts, `spawnApiThreadEarly`), so that its code loads while this thread
 * loads its own and opens the log and the store.
 *
 * Shutdown: the API thread drains first (its usage and track-record writers flush through the
 * port), then this thread's roles stop and the log and the store close.
 */
import { MessageChannel } from 'node:worker_threads';
import type { MessagePort, Worker } from 'node:worker_threads';
import type { Services } from './services.ts';
import { serveBridge } from '../infra/bridge/host.ts';
import { favourThread } from '../infra/priority.ts';
import { tsWorker } from '../infra/ts-worker.ts';

/** what the API thread tells this one */
export type ApiThreadMessage = { type: 'thread'; tid?: number } | { type: 'listening'; url: string; opsUrl: string } | { type: 'down' };

export interface ApiThreadData {
  port: MessagePort;
  logKind: Services['log']['kind'];
  storeKind: Services['store']['kind'];
}

/** what this thread tells the API thread: its port and the kinds first, then when to stop */
export type ApiThreadCommand = { type: 'start'; data: ApiThreadData } | { type: 'shutdown' };

/**
 * the thread, loading its code until `startApiThread` sends it `start`; its id (Linux), told
 * first thing; what ended it meanwhile
 */
interface Spawned {
  worker: Worker;
  tid: Promise<number | undefined>;
  ended?: Error;
}

/** runtime/api-worker.ts (from the sources, with tsx's loader registered in the thread) */
function spawnApiThread(): Spawned {
  const worker = tsWorker(new URL('./api-worker.ts', import.meta.url));
  const tid = new Promise<number | undefined>((resolve) => {
    const first = (m: ApiThreadMessage) => {
      if (m.type !== 'thread') return;
      worker.off('message', first);
      resolve(m.tid);
    };
    worker.on('message', first);
  });
  const s: Spawned = { worker, tid };
  worker.on('error', (err) => (s.ended ??= err));
  worker.on('exit', (code) => (s.ended ??= new Error(`the API thread ended (exit code ${code})`)));
  return s;
}

/** the thread spawned by `spawnApiThreadEarly`, until `startApiThread` takes it */
let early: Spawned | undefined;

/**
 * Spawns the API thread before this thread has loaded its own code and opened the log and the
 * store (bin/intel.ts, for `intel start`): its code loads meanwhile (about a second of a
 * restart) and it waits for `startApiThread` to give it the port.
 */
export function spawnApiThreadEarly(): void {
  early ??= spawnApiThread();
}

/**
 * Starts the API thread; resolves once it listens. `onFailure` is told when the thread fails
 * after that (an error it did not handle, or it ended on its own).
 */
export async function startApiThread(services: Services, onFailure: (err: Error) => void): Promise<{ url: string; opsUrl: string }> {
  // spawned early, or now
  const spawned = early ?? spawnApiThread();
  early = undefined;
  if (spawned.ended) throw spawned.ended;
  const { worker } = spawned;
  const { port1, port2 } = new MessageChannel();
  const bridge = serveBridge(port1, { log: services.log, store: services.store, metrics: services.metrics });
  const data: ApiThreadData = { port: port2, logKind: services.log.kind, storeKind: services.store.kind };
  worker.postMessage({ type: 'start', data } satisfies ApiThreadCommand, [port2]);
  let stopping = false;
  let listening: { url: string; opsUrl: string } | undefined;
  let down: () => void = () => undefined;
  let favoured: ReturnType<typeof favourThread> | undefined;
  const wentDown = new Promise<void>((r) => (down = r));

  // reads first, from the API thread's start on (its code loading, then its answers): this thread
  // (the engine, the ingest), V8's helpers and libuv's pool run BACKGROUND_NICE steps below the
  // API's thread, and in SCHED_IDLE (infra/priority.ts)
  void spawned.tid.then((tid) => {
    if (stopping) return;
    const steps = services.config.BACKGROUND_NICE;
    const idle = services.config.BACKGROUND_IDLE;
    const f = favourThread(tid, { steps, idle, onError: (err) => services.logger.warn({ err }, 'thread priorities not set') });
    favoured = f;
    void f.idled.then((idled) => {
      services.logger.info(
        { api_thread: tid ?? null, background_nice: steps, lowered: f.lowered, background_idle: idle, idled },
        tid === undefined ? 'thread priorities: not supported here' : 'thread priorities set',
      );
    });
  });
  const started = new Promise<{ url: string; opsUrl: string }>((resolve, reject) => {
    worker.on('message', (m: ApiThreadMessage) => {
      if (m.type === 'listening') {
        listening = { url: m.url, opsUrl: m.opsUrl };
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
    worker.postMessage({ type: 'shutdown' } satisfies ApiThreadCommand);
    // the thread's own shutdown is bounded by the process's (SHUTDOWN_TIMEOUT_MS in cli.ts)
    await wentDown;
    await bridge.close();
    await worker.terminate();
  });
  return started;
}
