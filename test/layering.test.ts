import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Which folder may import which, read from the sources' import statements, type-only imports
 * included (a type a layer shares with another belongs in schemas/; the few exceptions are listed
 * with their reason). The API serves what the engine wrote: it imports no engine code on any path.
 * Tests are exempt: they may build real engine snapshots to feed a projection.
 */

const ROOT = resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** an import or re-export of ours: the path it names (relative to the repository), and whether only types come through it */
interface Import {
  target: string;
  typeOnly: boolean;
}

function importsOf(text: string, fromDir: string): Import[] {
  const out: Import[] = [];
  // import x from '…'; import { a } from '…'; export { a } from '…'; import '…'; await import('…')
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    const spec = (m[3] ?? m[4]) as string;
    if (!spec.startsWith('.')) continue;
    out.push({ target: relative(ROOT, resolve(fromDir, spec)), typeOnly: m[2] !== undefined });
  }
  return out;
}

function importsOfFile(file: string): Import[] {
  return importsOf(readFileSync(file, 'utf8'), dirname(file));
}

/** value imports and re-exports of a file, resolved to paths relative to the repository */
function valueImports(file: string): string[] {
  return valueImportsOf(readFileSync(file, 'utf8'), dirname(file));
}

function valueImportsOf(text: string, fromDir: string): string[] {
  return importsOf(text, fromDir)
    .filter((i) => !i.typeOnly)
    .map((i) => i.target);
}

/** the folders the rules know: every top-level folder of ours that code lives in */
const FOLDERS = ['schemas', 'infra', 'engine', 'ingest', 'stream', 'relay', 'api', 'venues', 'runtime', 'bin', 'scripts', 'bench', 'test', 'client', 'mcp'];

/**
 * What each folder may import besides itself, type-only imports included (docs/architecture.md "Layout");
 * every other folder of FOLDERS is forbidden. schemas depend on nothing; infra on schemas only;
 * the engine is pure folds and knows neither where events come from nor who reads its snapshots;
 * ingest knows nothing of the engine; stream/ runs the engine's folds over the log (engine yes;
 * api, ingest, venues, relay, runtime no); relay/ runs the engine's copy decisions and executes
 * them through the venues, following tables with stream/ (not the API or ingestion); the API selects what
 * the engine wrote and knows nothing of ingestion; venue adapters know only schemas and infra (the
 * API reaches them through a service runtime/ injects); only runtime/ (and bin/, bench/, scripts/,
 * test/) wire them; the client (client/) imports nothing of ours (a partner copies it). Amend a
 * folder's line here, and docs/architecture.md "Layout" with it.
 */
const MAY_IMPORT: Record<string, string[]> = {
  schemas: [],
  infra: ['schemas'],
  engine: ['schemas', 'infra'],
  ingest: ['schemas', 'infra'],
  stream: ['schemas', 'infra', 'engine'],
  relay: ['schemas', 'infra', 'engine', 'venues', 'stream'],
  api: ['schemas', 'infra'],
  venues: ['schemas', 'infra'],
  // the partners' client stands alone: what it knows of the API is the generated document types
  client: [],
  // the MCP server calls the API through the partners' client, as any agent would
  mcp: ['client'],
};

/** each folder's forbidden folders, from MAY_IMPORT */
const FORBIDDEN: Record<string, string[]> = Object.fromEntries(Object.entries(MAY_IMPORT).map(([folder, may]) => [folder, FOLDERS.filter((f) => f !== folder && !may.includes(f))]));

/**
 * Type-only imports across a rule, each with why its type belongs where it is. Kept small: a type
 * two layers share belongs in schemas/.
 */
const TYPE_ONLY_ALLOWED: { from: string; to: string; why: string }[] = [
  {
    from: 'api/routes/context.ts',
    to: 'engine/writer/index.ts',
    why: 'the routes are handed the model writer runtime/ builds, as a service: its interface, never its code',
  },
  ...['relay/agent-service.ts', 'relay/dry-run.ts', 'relay/entitlement.ts', 'relay/events.ts', 'relay/grant.ts'].map((from) => ({
    from,
    to: 'api/routes/agents.ts',
    why: 'the relay implements the agent operations the routes declare (their request and response shapes live with the routes until they move to schemas/)',
  })),
];

const allowed = (from: string, i: Import) => i.typeOnly && TYPE_ONLY_ALLOWED.some((a) => a.from === from && a.to === i.target);

/** `file -> target` for each import a file of `folder` makes of a forbidden folder (missing folders have none) */
function forbiddenImports(folder: string, forbidden: string[]): string[] {
  const offending: string[] = [];
  if (!existsSync(join(ROOT, folder))) return offending;
  for (const file of sources(join(ROOT, folder))) {
    const from = relative(ROOT, file);
    for (const i of importsOfFile(file)) {
      if (forbidden.includes(i.target.split('/')[0] as string) && !allowed(from, i)) offending.push(`${from} -> ${i.target}${i.typeOnly ? ' (type)' : ''}`);
    }
  }
  return offending;
}

/**
 * runtime/ wires processes and commands: its files import, of runtime/, only these (the services
 * every role is built on and the command-line helpers; the roles a command starts and the jobs an
 * API process schedules; the commands). A domain module here belongs in its layer.
 */
const RUNTIME_WIRING = [
  ...['runtime/services.ts', 'runtime/args.ts'],
  ...['runtime/api.ts', 'runtime/api-thread.ts', 'runtime/engine.ts', 'runtime/ingest.ts', 'runtime/jobs.ts'],
  ...['runtime/banner.ts', 'runtime/backfill.ts', 'runtime/eval.ts', 'runtime/status.ts'],
  // the copy role of an engine process and the venues it trades on, built from the configuration
  ...['runtime/copy.ts', 'runtime/execution.ts'],
];
/** runtime/ files that are not wiring yet and still have to leave for their layer: drop each from here as it leaves */
const RUNTIME_MOVING = ['runtime/resume.ts', 'runtime/venues.ts', 'runtime/trackrecord.ts'];

describe('layering', () => {
  it('the parser sees value imports, multi-line, dynamic and re-exports, and skips type-only imports', () => {
    const text = [
      "import { a } from '../engine/a.ts';",
      "import type { T } from '../engine/types.ts';",
      'import {',
      '  b,',
      '  c,',
      "} from '../engine/b.ts';",
      "export { d } from '../engine/d.ts';",
      "export type { E } from '../engine/e.ts';",
      "const m = await import('../engine/m.ts');",
      "import { z } from 'zod';",
      "import './side-effect.ts';",
    ].join('\n');
    expect(valueImportsOf(text, join(ROOT, 'api'))).toEqual(['engine/a.ts', 'engine/b.ts', 'engine/d.ts', 'engine/m.ts', 'api/side-effect.ts']);
  });

  it('the parser tells type-only imports from value imports', () => {
    const text = ["import type { T } from '../engine/types.ts';", "export type { E } from '../engine/e.ts';", "import { a } from '../engine/a.ts';"].join('\n');
    expect(importsOf(text, join(ROOT, 'api'))).toEqual([
      { target: 'engine/types.ts', typeOnly: true },
      { target: 'engine/e.ts', typeOnly: true },
      { target: 'engine/a.ts', typeOnly: false },
    ]);
  });

  it('each folder imports only the folders beneath it, type-only imports included (runtime/ is the only place that knows every layer)', () => {
    const offending: string[] = [];
    for (const [folder, forbidden] of Object.entries(FORBIDDEN)) offending.push(...forbiddenImports(folder, forbidden));
    expect(offending).toEqual([]);
  });

  it('a type-only import across a rule is forbidden unless the short list names it, and every name on that list is still such an import', () => {
    const seen = importsOf("import type { TokenState } from '../engine/token/state.ts';", join(ROOT, 'api'));
    expect(seen.filter((i) => FORBIDDEN.api?.includes(i.target.split('/')[0] as string) && !allowed('api/routes/x.ts', i))).toHaveLength(1);
    for (const a of TYPE_ONLY_ALLOWED) {
      expect(importsOfFile(join(ROOT, a.from)), `${a.from} no longer imports ${a.to}: drop it from TYPE_ONLY_ALLOWED`).toContainEqual({ target: a.to, typeOnly: true });
    }
  });

  it('stream/ runs the folds (engine/ yes) and knows neither the API, the sources, the venues, the relay nor the wiring', () => {
    expect(FORBIDDEN.stream).toEqual(expect.arrayContaining(['api', 'ingest', 'venues', 'relay', 'runtime']));
    expect(FORBIDDEN.stream).not.toContain('engine');
    expect(FORBIDDEN.engine).toContain('stream');
    expect(FORBIDDEN.relay).toEqual(expect.arrayContaining(['api', 'ingest', 'runtime']));
    expect(forbiddenImports('stream', FORBIDDEN.stream as string[])).toEqual([]);
  });

  it('runtime/ imports no infra/devnet/ (the devnet comes in through the configuration and ingest/evm/chains.ts)', () => {
    const offending: string[] = [];
    for (const file of sources(join(ROOT, 'runtime'))) {
      for (const i of importsOfFile(file)) if (i.target.startsWith('infra/devnet/')) offending.push(`${relative(ROOT, file)} -> ${i.target}`);
    }
    expect(offending).toEqual([]);
  });

  it('runtime/ files import, of runtime/, only the modules that wire processes', () => {
    const offending: string[] = [];
    for (const file of sources(join(ROOT, 'runtime'))) {
      for (const i of importsOfFile(file)) {
        if (i.target.startsWith('runtime/') && !RUNTIME_WIRING.includes(i.target) && !RUNTIME_MOVING.includes(i.target)) offending.push(`${relative(ROOT, file)} -> ${i.target}`);
      }
    }
    expect(offending).toEqual([]);
    // and the rule sees a domain module imported from runtime/
    const seen = importsOf("import { startFoldWorker } from './worker.ts';", join(ROOT, 'runtime')).map((i) => i.target);
    expect(seen.filter((t) => !RUNTIME_WIRING.includes(t))).toEqual(['runtime/worker.ts']);
  });

  it('the rule table is the one docs/architecture.md states and sees a forbidden import', () => {
    expect(FORBIDDEN.engine).toEqual(expect.arrayContaining(['ingest', 'api']));
    expect(FORBIDDEN.ingest).toContain('engine');
    expect(FORBIDDEN.api).toEqual(expect.arrayContaining(['ingest', 'engine']));
    const seen = valueImportsOf("import { startIngest } from '../runtime/ingest.ts';", join(ROOT, 'engine')).map((t) => t.split('/')[0]);
    expect(seen.filter((t) => FORBIDDEN.engine?.includes(t as string))).toEqual(['runtime']);
  });

  it('api/ imports no engine code (one verdict, computed once: the API selects what the engine wrote)', () => {
    const offending: string[] = [];
    for (const file of sources(join(ROOT, 'api'))) {
      for (const target of valueImports(file)) if (target.startsWith('engine/')) offending.push(`${relative(ROOT, file)} -> ${target}`);
    }
    expect(offending).toEqual([]);
  });

  it('schemas/ imports nothing of ours outside schemas/ (the one source of shapes depends on nothing)', () => {
    const offending: string[] = [];
    for (const file of sources(join(ROOT, 'schemas'))) {
      for (const target of valueImports(file)) if (!target.startsWith('schemas/')) offending.push(`${relative(ROOT, file)} -> ${target}`);
    }
    expect(offending).toEqual([]);
  });
});
