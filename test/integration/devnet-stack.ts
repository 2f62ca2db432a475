/**
 * The embedded default in the test process, pointed at a devnet (memory log, embedded store,
 * engine and ingest, as `npm start` runs them), with its log lines kept for assertions.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loadConfig } from '../../infra/config.ts';
import { startEngine, type EngineHandle } from '../../runtime/engine.ts';
import { startIngest, type IngestHandle } from '../../runtime/ingest.ts';
import { createServices, type Services } from '../../runtime/services.ts';
import type { Store } from '../../infra/store/types.ts';
import { waitFor } from '../contract/wait.ts';

export interface DevnetStack {
  services: Services;
  engine: EngineHandle;
  ingest: IngestHandle;
  logLines: Record<string, unknown>[];
  /** waits until the ingester published `block` and every engine worker has folded everything */
  settle(block: number): Promise<void>;
}

/** the environment of a stack that ingests the devnet at `rpcUrl` described by `deploymentFile` */
export function devnetEnv(dataDir: string, rpcUrl: string, deploymentFile: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    SIM_ENABLED: 'false',
    RPC_URL_DEVNET: rpcUrl,
    DEVNET_DEPLOYMENT_FILE: deploymentFile,
    INGEST_LAG_LOG_SECONDS: '1',
  };
}

export async function startDevnetStack(env: Record<string, string>): Promise<DevnetStack> {
  const logLines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString().split('\n')) if (line) logLines.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  const services = await createServices(loadConfig(env), pino({ level: 'info' }, sink));
  const engine = await startEngine(services);
  const ingest = await startIngest(services);
  return {
    services,
    engine,
    ingest,
    logLines,
    async settle(block) {
      await waitFor(() => (ingest.lag().devnet?.published ?? -1) >= block, `the ingester to publish block ${block}`);
      for (let stable = 0; stable < 3; ) {
        const lags = [...(await engine.token.lag()), ...(await engine.wallet.lag())];
        stable = lags.every((l) => l.lag === 0) ? stable + 1 : 0;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** the snapshot the engine wrote for a devnet token or wallet */
export async function devnetSnapshot<T>(store: Store, kind: 'token' | 'wallet', address: string): Promise<T> {
  const row = await store.get('snapshots', `${kind}:devnet:${address.toLowerCase()}`);
  if (!row) throw new Error(`no ${kind} snapshot of ${address}`);
  return JSON.parse(row.body) as T;
}

export const devnetTokenSnapshot = <T>(store: Store, token: string): Promise<T> => devnetSnapshot<T>(store, 'token', token);
