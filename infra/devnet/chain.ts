/** The devnet's deployment (written by `devnet.sh deploy`); its chain config is ingest/evm/chains.ts devnetChainConfig. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { devnetRunDir } from './node.ts';
import type { UniswapDeployment } from './uniswap.ts';

/** the deployment `devnet.sh deploy` saved for the node on this port, if any */
export function loadDevnetDeployment(port: number): UniswapDeployment | undefined {
  const file = join(devnetRunDir(port), 'deployment.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as UniswapDeployment) : undefined;
}
