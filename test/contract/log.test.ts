import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, inject } from 'vitest';
import { createKafkaLog } from '../../infra/log/kafka.ts';
import { createMemoryLog } from '../../infra/log/memory.ts';
import { logContract } from './log.contract.ts';

// one data dir for the suite: a second log instance over it is "another process" of the same log
const dataDir = mkdtempSync(join(tmpdir(), 'log-contract-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

logContract('memory', async () => createMemoryLog({ dataDir }), { shared: false });

logContract('kafka', async () =>
  createKafkaLog({ brokers: inject('KAFKA_BROKERS').split(','), clientId: 'log-contract' }),
  { shared: true },
);
