import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Which folder may import which, read from the sources' import statements. The API serves what
 * the engine wrote: it imports no engine code on any path (type-only imports carry no code and
 * are allowed). Tests are exempt: they may build real engine snapshots to feed a projection.
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

/** value imports and re-exports of a file, resolved to paths relative to the repository */
function valueImports(file: string): string[] {
  return valueImportsOf(readFileSync(file, 'utf8'), dirname(file));
}

function valueImportsOf(text: string, fromDir: string): string[] {
  const out: string[] = [];
  // import x from '…'; import { a } from '…'; export { a } from '…'; import '…'; await import('…')
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    if (m[2]) continue; // `import type` / `export type`
    const spec = (m[3] ?? m[4]) as string;
    if (!spec.startsWith('.')) continue;
    out.push(relative(ROOT, resolve(fromDir, spec)));
  }
  return out;
}

/**
 * Value imports each top-level folder may not make (DESIGN.md "Layout"): schemas depend on
 * nothing; infra on schemas only; the engine is pure folds and knows neither where events come
 * from nor who reads its snapshots; ingest knows nothing of the engine; the API selects what the
 * engine wrote and knows nothing of ingestion; venue adapters know only schemas and infra (the
 * API reaches them through a service runtime/ injects); only runtime/ (and bin/, bench/, test/)
 * wire them; the client (client/) imports nothing of ours (a partner copies it).
 */
const FORBIDDEN: Record<string, string[]> = {
  schemas: ['infra', 'engine', 'ingest', 'api', 'venues', 'runtime', 'bin'],
  infra: ['engine', 'ingest', 'api', 'venues', 'runtime', 'bin'],
  engine: ['ingest', 'api', 'venues', 'runtime', 'bin'],
  ingest: ['engine', 'api', 'venues', 'runtime', 'bin'],
  api: ['engine', 'ingest', 'venues', 'runtime', 'bin'],
  venues: ['engine', 'ingest', 'api', 'runtime', 'bin'],
  // the partners' client stands alone: what it knows of the API is the generated document types
  client: ['schemas', 'infra', 'engine', 'ingest', 'api', 'venues', 'runtime', 'bin', 'scripts', 'test'],
};

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

  it('each folder imports only the folders beneath it (runtime/ is the only place that knows every layer)', () => {
    const offending: string[] = [];
    for (const [folder, forbidden] of Object.entries(FORBIDDEN)) {
      for (const file of sources(join(ROOT, folder))) {
        for (const target of valueImports(file)) {
          const top = target.split('/')[0] as string;
          if (forbidden.includes(top)) offending.push(`${relative(ROOT, file)} -> ${target}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });

  it('the rule table is the one DESIGN.md states and sees a forbidden import', () => {
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
