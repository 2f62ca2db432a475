/**
 * A writer process for the crash tests (store-crash.test.ts), over the data dir argv[2]:
 * - `write`: writes rows, history versions, usage and checkpoints until it is killed, printing
 *   `acked <i>` once write i resolved;
 * - `hold`: takes LMDB's write lock (a write transaction that never ends), prints `holding`, and
 *   stays there, a row written, until it is killed: a process killed in the middle of a write.
 */
import { join } from 'node:path';
import { open } from 'lmdb';
import { createEmbeddedStore } from './embedded.ts';
import { encodeRow } from './row-codec.ts';
import { Tables } from './types.ts';

const [dataDir, mode] = process.argv.slice(2) as [string, string];

/** checkpoint i: a large body whose content says its version */
export const checkpointBody = (i: number): string => JSON.stringify({ i, states: Array.from({ length: 5_000 }, (_, k) => `s${k}-${i}`) });

async function write(): Promise<void> {
  const store = await createEmbeddedStore({ dataDir });
  for (let i = 0; ; i++) {
    await Promise.all([
      store.upsert(Tables.cursors, [{ key: `c${i % 20}`, version: i, body: JSON.stringify({ i }) }]),
      store.upsert(Tables.snapshotHistory, [{ key: 'token:1:0xa', version: i, body: `v${i}` }]),
      store.addUsage([{ id: `req-${i}`, day: '2026-03-01', keyId: 'key', orgId: 'org', operation: 'tokenIntel', units: 1, requests: 1 }]),
      i % 10 === 0 ? store.upsert(Tables.checkpoints, [{ key: 'engine:0', version: i, body: checkpointBody(i) }]) : undefined,
    ]);
    process.stdout.write(`acked ${i}\n`);
  }
}

function hold(): void {
  const root = open({ path: join(dataDir, 'store.mdb'), maxDbs: 64 });
  const orgs = root.openDB<Buffer, string>(Tables.orgs, { encoding: 'binary' });
  root.transactionSync(() => {
    orgs.putSync('o-held', encodeRow({ key: 'o-held', version: 1, body: '{}' }));
    process.stdout.write('holding\n');
    for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000);
  });
}

if (process.argv[1] === import.meta.filename) {
  if (mode === 'hold') hold();
  else await write();
}
