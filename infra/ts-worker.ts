import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running a TypeScript module: tsx's loader is registered in that thread first
 * (Node 20 runs `--import` hooks in the main thread only, so a worker started on a .ts file would
 * not load it); tsx is resolved from here, so the process may run from any working directory.
 */
export function tsWorker(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const entry = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(entry, { ...options, eval: true });
}
