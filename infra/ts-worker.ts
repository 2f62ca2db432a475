import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';

/** set by scripts/build.ts in the built code: the repository's and the build's directories (file URLs) */
declare const INTEL_BUILD: { root: string; out: string } | undefined;

/**
 * A worker thread running a TypeScript module. From the sources, tsx's loader is registered in
 * that thread first (Node 20 runs `--import` hooks in the main thread only, so a worker started
 * on a .ts file would not load it); tsx is resolved from here, so the process may run from any
 * working directory. From the build (scripts/build.ts), the module's built file, plain JavaScript.
 */
export function tsWorker(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (typeof INTEL_BUILD !== 'undefined' && module.href.startsWith(INTEL_BUILD.root)) {
    return new Worker(new URL(module.href.slice(INTEL_BUILD.root.length).replace(/\.ts$/, '.js'), INTEL_BUILD.out), options);
  }
  const entry = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(entry, { ...options, eval: true });
}
