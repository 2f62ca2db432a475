import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, inject } from 'vitest';
import { createKafkaLog } from '../../infra/log/kafka.ts';
import { createMemoryLog } from '../../infra/log/memory.ts';
import { logContract } from './log.contract.ts';
import { bridgedLog } from '../../infra/bridge/log.ts';
import { overPort } from './port.ts';

// one data dir for the suite: a second log instance over it is "another process" of the same log
const dataDir = mkdtempSync(join(tmpdir(), 'log-contract-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

logContract('memory', async () => createMemoryLog({ dataDir }), { shared: false });

// the API thread's log in `intel start` (runtime/api-thread.ts): the in-process log over a port
const portDir = mkdtempSync(join(tmpdir(), 'log-contract-port-'));
afterAll(() => rmSync(portDir, { recursive: true, force: true }));
logContract('memory over a port', async () => overPort({ log: createMemoryLog({ dataDir: portDir }) }, (rpc) => bridgedLog(rpc, 'memory')), { shared: false });

logContract('kafka', async () =>
  createKafkaLog({ brokers: inject('KAFKA_BROKERS').split(','), clientId: 'log-contract' }),
  { shared: true },
);
