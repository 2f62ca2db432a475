/**
 * EVM chains as the configuration names them: the chains with an RPC URL, and each one's chain
 * config from the validated Config, over the defaults we are sure of (confirmations, quote assets,
 * routers) and, for `devnet`, the deployment file `devnet.sh deploy` writes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../infra/config.ts';
import { devnetRunDir } from '../../infra/devnet/node.ts';
import type { UniswapDeployment } from '../../infra/devnet/uniswap.ts';
import type { EvmChainSlug } from '../../schemas/chains.ts';
import { EvmChainSlugs } from '../../schemas/chains.ts';
import { parseChainConfig, type EvmChainConfig, type EvmChainConfigInput } from './config.ts';

interface ChainDefaults {
  confirmations: number;
  weth?: string;
  stables?: string[];
  wethUsdPool?: string;
  routers?: string[];
  /** Uniswap V3 factories */
  v3Factories?: string[];
  /** Uniswap V3 NonfungiblePositionManagers */
  v3PositionManagers?: string[];
  /** LP lock contracts (LP tokens they hold count as locked) */
  lpLockers?: string[];
}

/**
 * Confirmations per chain (a block is published once it is this deep) and, where we are sure of
 * them, the quote assets. Other chains need WETH_<CHAIN> and WETH_USD_POOL_<CHAIN> (or WETH_USD_<CHAIN>).
 */
export const EVM_CHAIN_DEFAULTS: Record<EvmChainSlug, ChainDefaults> = {
  ethereum: {
    confirmations: 3,
    weth: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    stables: ['0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', '0xdac17f958d2ee523a2206206994597c13d831ec7', '0x6b175474e89094c44da98b954eedeac495271d0f'],
    // Uniswap V2 USDC/WETH
    wethUsdPool: '0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc',
    // Uniswap V2 Router02; V3 SwapRouter, SwapRouter02 and the Universal Router
    routers: [
      '0x7a250d5630b4cf539739df2c5dacb4c659f2488d',
      '0xe592427a0aece92de3edee1f18e0157c05861564',
      '0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45',
      '0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad',
    ],
    v3Factories: ['0x1f98431c8ad98523631ae4a59f267346ea31f984'],
    v3PositionManagers: ['0xc36442b4a4522e871399cd717abdd847ab11fe88'],
    // UNCX's Uniswap V2 locker and Team Finance's lock
    lpLockers: ['0x663a5c229c09b049e36dcc11a9b0d4a8eb9db214', '0xe2fe530c047f2d85298b07d9333c05737f1435fb'],
  },
  base: { confirmations: 10 },
  arbitrum: { confirmations: 10 },
  optimism: { confirmations: 10 },
  polygon: { confirmations: 64 },
  bsc: { confirmations: 15 },
  devnet: { confirmations: 1 },
};

type Up = Uppercase<EvmChainSlug>;
function key<P extends string>(prefix: P, slug: EvmChainSlug): `${P}${Up}` {
  return `${prefix}${slug.toUpperCase() as Up}`;
}
const list = (s: string | undefined): string[] | undefined => (s === undefined ? undefined : s.split(',').map((x) => x.trim()).filter(Boolean));

export function isEvmChainSlug(s: string): s is EvmChainSlug {
  return (EvmChainSlugs as readonly string[]).includes(s);
}

/** chains with an RPC_URL_<CHAIN> */
export function configuredEvmChains(config: Config): EvmChainSlug[] {
  return EvmChainSlugs.filter((slug) => config[key('RPC_URL_', slug)] !== undefined);
}

/** where the devnet's deployment JSON is read from */
export function devnetDeploymentFile(config: Config): string {
  if (config.DEVNET_DEPLOYMENT_FILE) return config.DEVNET_DEPLOYMENT_FILE;
  const url = config.RPC_URL_DEVNET;
  const port = url ? Number(new URL(url).port || 80) : 18545;
  return join(devnetRunDir(port), 'deployment.json');
}

export function loadDeployment(file: string): UniswapDeployment {
  if (!existsSync(file)) {
    throw new Error(`devnet: no deployment file at ${file}; run \`infra/devnet/devnet.sh deploy\` (or set DEVNET_DEPLOYMENT_FILE)`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as UniswapDeployment;
}

/**
 * The chain config of one EVM chain from the Config: RPC URL, confirmations, start block and quote
 * assets (for `devnet`, from the deployment file). Throws a message naming the missing keys.
 */
export function evmChainConfig(config: Config, slug: EvmChainSlug, over: Partial<EvmChainConfigInput> = {}): EvmChainConfig {
  const rpcUrl = config[key('RPC_URL_', slug)];
  if (!rpcUrl) throw new Error(`${slug}: set RPC_URL_${slug.toUpperCase()} to ingest this chain`);
  const defaults = EVM_CHAIN_DEFAULTS[slug];
  const confirmations = config[key('CONFIRMATIONS_', slug)] ?? defaults.confirmations;
  const startBlock = config[key('START_BLOCK_', slug)];
  const weth = config[key('WETH_', slug)];
  const stables = list(config[key('STABLES_', slug)]);
  const pool = config[key('WETH_USD_POOL_', slug)];
  const fixed = config[key('WETH_USD_', slug)];
  const routers = list(config[key('ROUTERS_', slug)]);
  const v3Factories = list(config[key('V3_FACTORIES_', slug)]);
  const v3PositionManagers = list(config[key('V3_POSITION_MANAGERS_', slug)]);
  const lpLockers = list(config[key('LP_LOCKERS_', slug)]) ?? defaults.lpLockers ?? [];
  const contractReads = config[key('CONTRACT_READS_', slug)];
  const rps = config[key('RPC_RPS_', slug)];

  let input: EvmChainConfigInput;
  if (slug === 'devnet' && (!weth || (!pool && fixed === undefined))) {
    input = devnetChainConfig(loadDeployment(devnetDeploymentFile(config)), rpcUrl);
  } else {
    const w = weth ?? defaults.weth;
    const wethUsd = fixed !== undefined ? { fixed } : pool ? { pool } : defaults.wethUsdPool ? { pool: defaults.wethUsdPool } : undefined;
    if (!w || !wethUsd) {
      const S = slug.toUpperCase();
      throw new Error(`${slug}: set WETH_${S} and WETH_USD_POOL_${S} (a WETH/stablecoin Uniswap V2 pair or V3 pool) or WETH_USD_${S} to price swaps in USD`);
    }
    input = { slug, rpcUrl, quotes: { weth: w, stables: stables ?? defaults.stables ?? [] }, wethUsd, routers: routers ?? defaults.routers ?? [], v3Factories: defaults.v3Factories ?? [], v3PositionManagers: defaults.v3PositionManagers ?? [] };
  }
  if (v3Factories) input.v3Factories = v3Factories;
  if (v3PositionManagers) input.v3PositionManagers = v3PositionManagers;
  if (weth) input.quotes = { ...input.quotes, weth };
  if (stables) input.quotes = { ...input.quotes, stables };
  if (routers) input.routers = routers;
  if (pool) input.wethUsd = { pool };
  if (fixed !== undefined) input.wethUsd = { fixed };
  return parseChainConfig({
    ...input,
    confirmations,
    // without START_BLOCK (and outside the devnet, whose deployment names its first block) a chain starts at its head
    startBlock: startBlock ?? (slug === 'devnet' ? input.startBlock : undefined),
    contracts: { ...input.contracts, lpLockers, ...(contractReads !== undefined ? { enabled: contractReads } : {}) },
    // a local node takes what we send; a provider's plan says how much (RPC_RPS_<CHAIN>)
    rpc: { ...(slug === 'devnet' ? { maxConcurrency: 16, requestsPerSecond: 2000 } : {}), ...input.rpc, ...(rps !== undefined ? { requestsPerSecond: rps } : {}) },
    ...over,
  });
}

/** The devnet as an ingestible chain: its config from a deployment (written by `devnet.sh deploy`). */
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

/** true when the chain config named a start block (the gap to the head is backfilled) */
export function hasStartBlock(config: Config, slug: EvmChainSlug): boolean {
  return config[key('START_BLOCK_', slug)] !== undefined || slug === 'devnet';
}
