/** The devnet as an ingestible chain: config from a deployment (written by `devnet.sh deploy`). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvmChainConfigInput } from '../../ingest/evm/config.ts';
import { devnetRunDir } from './node.ts';
import type { UniswapDeployment } from './uniswap.ts';

export function devnetChainConfig(d: UniswapDeployment, rpcUrl: string, over: Partial<EvmChainConfigInput> = {}): EvmChainConfigInput {
  return {
    slug: 'devnet',
    rpcUrl,
    confirmations: 1,
    startBlock: d.startBlock,
    quotes: { weth: d.weth, stables: [d.tokens.USDC] },
    wethUsd: { pool: d.pairs.wethUsdc },
    routers: d.v3 ? [d.router, d.v3.router] : [d.router],
    v3Factories: d.v3 ? [d.v3.factory] : [],
    v3PositionManagers: d.v3 ? [d.v3.positionManager] : [],
    pollIntervalMs: 250,
    rpc: { maxConcurrency: 16, requestsPerSecond: 2000 },
    ...over,
  };
}

/** the deployment `devnet.sh deploy` saved for the node on this port, if any */
export function loadDevnetDeployment(port: number): UniswapDeployment | undefined {
  const file = join(devnetRunDir(port), 'deployment.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as UniswapDeployment) : undefined;
}
