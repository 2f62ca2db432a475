import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createEmbeddedStore } from './embedded.ts';
import type { EmbeddedStoreOptions } from './embedded.ts';
import type { Store } from './types.ts';

/** For the embedded store's tests: temporary data dirs and the stores opened on them, closed and removed after each test. */
export function embeddedStores(prefix: string, defaults: Partial<EmbeddedStoreOptions> = {}) {
  const dirs: string[] = [];
  const stores: Store[] = [];
  const closeAll = async (): Promise<void> => {
    for (const s of stores.splice(0)) await s.close();
  };
  afterEach(async () => {
    await closeAll();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return {
    closeAll,
    tmp(): string {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    async open(dataDir: string, o: Partial<EmbeddedStoreOptions> = {}): Promise<Store> {
      const s = await createEmbeddedStore({ dataDir, ...defaults, ...o });
      stores.push(s);
      return s;
    },
  };
}
