import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What the code cites resolves in this repository: a `docs/<page>.md` citation names a page that
 * exists and, when it quotes a section (`docs/api.md "Limits and hardening"`), a heading of that
 * page that starts so. Nothing cites a design file outside the repository, and no comment or test
 * name carries an issue number (the history says which change did what).
 */

const ROOT = resolve(import.meta.dirname, '..');
const GENERATED = ['client/schema.ts', 'clients/'];

function trackedSources(): string[] {
  const out = execFileSync('git', ['ls-files', '*.ts', '*.js', '*.sh', '*.sol'], { cwd: ROOT, encoding: 'utf8' });
  return out
    .split('\n')
    .filter((f) => f && !GENERATED.some((g) => f.startsWith(g)) && existsSync(join(ROOT, f)));
}

/** `docs/x.md` and the quoted section after it, if any, as `[page, section?]` */
export function citationsOf(text: string): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  for (const m of text.matchAll(/docs\/([a-z-]+\.md)(?:'s)?,?\s*(?:\*\s*)?(?:"([^"]+)")?/g)) out.push([m[1] as string, m[2]]);
  return out;
}

function headingsOf(page: string): string[] {
  return readFileSync(join(ROOT, 'docs', page), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('#'))
    .map((l) => l.replace(/^#+\s*/, ''));
}

describe('docs the code cites', () => {
  it('the citation reader finds a page and its quoted section, also across a comment line', () => {
    expect(citationsOf('see (docs/api.md "Limits and hardening") and docs/console.md.')).toEqual([
      ['api.md', 'Limits and hardening'],
      ['console.md', undefined],
    ]);
    expect(citationsOf(' * (docs/architecture.md\n * "Decisions": chains)')).toEqual([['architecture.md', 'Decisions']]);
  });

  it('every docs/ page a source file cites exists, with the section it quotes', () => {
    const broken: string[] = [];
    for (const file of trackedSources()) {
      if (file === 'test/docs.test.ts') continue;
      for (const [page, section] of citationsOf(readFileSync(join(ROOT, file), 'utf8'))) {
        if (!existsSync(join(ROOT, 'docs', page))) broken.push(`${file}: docs/${page} does not exist`);
        else if (section && !headingsOf(page).some((h) => h.startsWith(section))) broken.push(`${file}: docs/${page} has no section "${section}"`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no source cites a design file outside the repository or an issue number', () => {
    const offending: string[] = [];
    for (const file of trackedSources()) {
      if (file === 'test/docs.test.ts') continue;
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/DESIGN\.md|shared\/(SPEC|DESIGN|INTELLIGENCE)\.md|\bissue \d+/i.test(line)) offending.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
        });
    }
    expect(offending).toEqual([]);
  });
});
