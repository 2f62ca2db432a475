/**
 * The local EVM devnet for the integration suites (hardhat 2's node on 127.0.0.1:DEVNET_PORT,
 * default 18545). As a vitest globalSetup it starts the node unless one answers, provides its
 * URL (`inject('DEVNET_RPC_URL')`, and process.env.RPC_URL_DEVNET), and at teardown stops by PID
 * only a node it started. Suites also call `ensureDevnet()` in beforeAll, so they run when this
 * globalSetup is not configured.
 */
import type { TestProject } from 'vitest/node';
import { devnetPort, isDevnetUp, startDevnet, type Devnet } from '../../infra/devnet/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** http://127.0.0.1:<port> of the devnet node */
    DEVNET_RPC_URL: string;
  }
}

/** starts the node unless it answers; `stop` stops it only when this call started it */
export async function ensureDevnet(): Promise<Devnet> {
  const port = devnetPort();
  const url = `http://127.0.0.1:${port}`;
  if (await isDevnetUp(url)) return { rpcUrl: url, wsUrl: `ws://127.0.0.1:${port}`, pid: undefined, stop: async () => {} };
  return startDevnet({ port });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const t0 = Date.now();
  const devnet = await ensureDevnet();
  if (devnet.pid !== undefined) console.log(`[devnet] started at ${devnet.rpcUrl} (pid ${devnet.pid}) in ${Date.now() - t0} ms`);
  process.env.RPC_URL_DEVNET = devnet.rpcUrl;
  project.provide('DEVNET_RPC_URL', devnet.rpcUrl);
  return async () => {
    if (process.env.KEEP_SERVICES === '1') return;
    await devnet.stop();
  };
}
