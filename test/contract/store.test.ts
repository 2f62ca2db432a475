import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, inject } from 'vitest';
import { createClickHouseStore, dropClickHouseDatabase } from '../../infra/store/clickhouse.ts';
import { createEmbeddedStore } from '../../infra/store/embedded.ts';
import { storeContract } from './store.contract.ts';
import { uniqueSuffix } from './wait.ts';
import { bridgedStore } from '../../infra/bridge/store.ts';
import { overPort } from './port.ts';

storeContract('embedded', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'store-contract-'));
  return {
    open: () => createEmbeddedStore({ dataDir }),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
});

// the API thread's store in `intel start` (runtime/api-thread.ts): the embedded store over a port
storeContract('embedded over a port', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'store-contract-port-'));
  return {
    open: async () => overPort({ store: await createEmbeddedStore({ dataDir }) }, (rpc) => bridgedStore(rpc, 'embedded')),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
});

const url = inject('CLICKHOUSE_URL');
// one database per run, a table suffix per test: runs and tests never see each other's rows
const database = `contract_${uniqueSuffix()}`;
let n = 0;
afterAll(() => dropClickHouseDatabase(url, database));

storeContract('clickhouse', async () => {
  const tableSuffix = `_t${++n}`;
  return { open: () => createClickHouseStore({ url, database, tableSuffix }) };
});
