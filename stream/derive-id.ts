import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The identity of the code the snapshots are derived by: a hash of the sources of the engine, the
 * schemas and the fold specs that join the engine's tables (tests aside). A checkpoint written by other code has every key derived again at the
 * restart (a new release's snapshots must not wait for each key's next event). Sources that cannot
 * be read give an identity of this process only: every restored key is then derived again.
 */
export function derivationCodeId(): string {
  const root = resolve(import.meta.dirname, '..');
  const hash = createHash('sha256');
  try {
    for (const dir of ['engine', 'schemas', 'stream/folds']) {
      const files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .sort();
      for (const f of files) hash.update(`${dir}/${f}\0`).update(readFileSync(join(root, dir, f))).update('\0');
    }
    return hash.digest('hex').slice(0, 16);
  } catch {
    return `process-${randomUUID()}`;
  }
}
