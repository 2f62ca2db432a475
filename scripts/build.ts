/**
 * The service as plain JavaScript, for `npm start` and a production start: `dist/bin/intel.js`
 * (and the API thread's `dist/runtime/api-worker.js`), with source maps. Why: a process started
 * from the sources with tsx sends every module it loads, ours and the packages' alike, through
 * tsx's hooks, which Node 20 runs on a thread of their own, one round trip per resolve and per
 * load; viem alone is about 400 files. Measured on a 10-day data dir: `intel start` listened
 * 2.1-2.5 s after its spawn from the sources and 1.0-1.3 s from the build.
 *
 * esbuild (what tsx compiles with) bundles our modules into chunks (a dynamic import stays a
 * chunk loaded when asked for: a venue's SDK, the Kafka client); packages stay imports, except
 * the pure ES-module libraries listed in INLINE, bundled so that only what we call of them loads.
 * `import.meta.dirname`/`url`/`filename` in our modules keep naming the source file, so a module
 * finds its files beside it (the console's pages, the recorded OpenAPI examples); a worker thread
 * spawned on a source module (infra/ts-worker.ts) runs its built entry.
 *
 *   node --import tsx scripts/build.ts [--if-stale] [--out DIR]
 *
 * `--if-stale` builds only when a source file, the lockfile or the repository's place changed
 * since the last build (`dist/build.json`); `npm start` runs it so, then the build.
 */
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(import.meta.dirname, '..');
export const DIST = resolve(ROOT, 'dist');
/** the entries: the command, and every module a worker thread runs (infra/ts-worker.ts) */
const ENTRIES = ['bin/intel.ts', 'runtime/api-worker.ts'];
/** packages published as ES modules without side effects, bundled (only what is used loads) */
const INLINE = new Set(['viem', 'ox', 'abitype', '@noble/hashes', '@noble/curves', '@scure/base', '@scure/bip32', '@scure/bip39', 'zod']);
/** the built CLI, and how `npm start` runs it (package.json's start script says the same) */
export const INTEL_BUILT = resolve(DIST, 'bin/intel.js');
export const INTEL_NODE_ARGS = ['--enable-source-maps'];
/** besides the inputs: a change here means other packages */
const LOCKS = ['package.json', 'package-lock.json'];

interface BuildRecord {
  root: string;
  builtAt: number;
  inputs: string[];
}

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));

/** every package import stays an import, except those in INLINE */
const externals: Plugin = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('node:') || !INLINE.has(packageOf(args.path)) ? { path: args.path, external: true } : undefined));
  },
};

/** our modules' `import.meta` paths name their source file, not the chunk they end up in */
const sourcePaths: Plugin = {
  name: 'source-paths',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      let text = await readFile(args.path, 'utf8');
      if (text.includes('import.meta.')) {
        text = text
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path))
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      }
      return { contents: text, loader: 'ts' };
    });
  },
};

function readRecord(out: string): BuildRecord | undefined {
  try {
    return JSON.parse(readFileSync(resolve(out, 'build.json'), 'utf8')) as BuildRecord;
  } catch {
    return undefined;
  }
}

/** why the build in `out` is stale, or undefined when it is current */
export function staleness(out = DIST): string | undefined {
  const record = readRecord(out);
  if (!record) return 'no build yet';
  if (record.root !== ROOT) return `built for ${record.root}`;
  for (const f of [...LOCKS, ...record.inputs]) {
    const path = resolve(ROOT, f);
    if (!existsSync(path)) return `${f} is gone`;
    if (statSync(path).mtimeMs > record.builtAt) return `${f} changed`;
  }
  return undefined;
}

/** builds into `out` (a folder inside the repository, so that packages resolve): into a fresh folder first, then swapped in */
export async function buildIntel(out = DIST): Promise<{ inputs: number; ms: number }> {
  const t0 = Date.now();
  const next = `${out}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: next,
    outbase: '.',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [externals, sourcePaths],
    // infra/ts-worker.ts: a source module's built file is out/<its path>.js
    define: { INTEL_BUILD: JSON.stringify({ root: pathToFileURL(`${ROOT}/`).href, out: pathToFileURL(`${out}/`).href }) },
  });
  // files only (esbuild also lists its virtual modules, such as `<define:...>`)
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('<'));
  const record: BuildRecord = { root: ROOT, builtAt: t0, inputs };
  writeFileSync(resolve(next, 'build.json'), JSON.stringify(record));
  const old = `${out}.old-${process.pid}`;
  if (existsSync(out)) renameSync(out, old);
  try {
    renameSync(next, out);
  } catch (err) {
    // another build (a second `npm start`) landed its folder in between: of the same sources
    if (!existsSync(out)) throw err;
    rmSync(next, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  return { inputs: inputs.length, ms: Date.now() - t0 };
}

/** builds into `out` when it is stale (or always, `force`); what was built and why, or undefined when it was current */
export async function buildIfStale(out = DIST, force = false): Promise<string | undefined> {
  const why = staleness(out);
  if (!force && why === undefined) return undefined;
  const { inputs, ms } = await buildIntel(out);
  return `built ${out} (${why ?? 'asked for'}): ${inputs} modules in ${ms} ms`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 && args[outAt + 1] ? resolve(args[outAt + 1] as string) : DIST;
  const built = await buildIfStale(out, !args.includes('--if-stale'));
  if (built) process.stderr.write(`${built}\n`);
}
