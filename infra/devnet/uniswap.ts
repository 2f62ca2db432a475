/**
 * Deploys the real Uniswap V2 contracts (factory, WETH9, router02) from the artifacts shipped in
 * @uniswap/v2-core and @uniswap/v2-periphery, Uniswap V3's (factory, position manager, swap
 * router) from @uniswap/v3-core and @uniswap/v3-periphery, test ERC-20 tokens, pairs and liquidity, and drives
 * trades from many accounts through the router. All accounts are the node's unlocked accounts, so
 * transactions go out as eth_sendTransaction; automine makes every transaction its own block.
 */
import { createRequire } from 'node:module';
import {
  createTestClient,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  publicActions,
  walletActions,
  type Address,
  type Hash,
  type Hex,
} from 'viem';
import { hardhat } from 'viem/chains';
import type { ExecutionDeployment } from './execution.ts';

const require = createRequire(import.meta.url);

interface Artifact {
  abi: unknown[];
  bytecode: string;
}

function artifact(path: string): { abi: unknown[]; bytecode: Hex } {
  const a = require(path) as Artifact;
  const code = a.bytecode.startsWith('0x') ? a.bytecode : `0x${a.bytecode}`;
  return { abi: a.abi, bytecode: code as Hex };
}

export const artifacts = {
  factory: () => artifact('@uniswap/v2-core/build/UniswapV2Factory.json'),
  pair: () => artifact('@uniswap/v2-core/build/UniswapV2Pair.json'),
  router: () => artifact('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
  weth: () => artifact('@uniswap/v2-periphery/build/WETH9.json'),
  erc20: () => artifact('@uniswap/v2-periphery/build/ERC20.json'),
  v3Factory: () => artifact('@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'),
  v3PositionManager: () => artifact('@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json'),
  v3Router: () => artifact('@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json'),
};

export const erc20Abi = parseAbi([
  'function approve(address spender, uint256 value) returns (bool)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
]);

export const factoryAbi = parseAbi([
  'function getPair(address tokenA, address tokenB) view returns (address)',
  'function createPair(address tokenA, address tokenB) returns (address)',
]);

export const routerAbi = parseAbi([
  'function addLiquidity(address tokenA, address tokenB, uint amountADesired, uint amountBDesired, uint amountAMin, uint amountBMin, address to, uint deadline) returns (uint amountA, uint amountB, uint liquidity)',
  'function addLiquidityETH(address token, uint amountTokenDesired, uint amountTokenMin, uint amountETHMin, address to, uint deadline) payable returns (uint amountToken, uint amountETH, uint liquidity)',
  'function swapExactETHForTokens(uint amountOutMin, address[] path, address to, uint deadline) payable returns (uint[] amounts)',
  'function swapExactTokensForETH(uint amountIn, uint amountOutMin, address[] path, address to, uint deadline) returns (uint[] amounts)',
  'function swapExactTokensForTokens(uint amountIn, uint amountOutMin, address[] path, address to, uint deadline) returns (uint[] amounts)',
  'function getAmountsOut(uint amountIn, address[] path) view returns (uint[] amounts)',
]);

export function createDevnetClient(rpcUrl: string) {
  return createTestClient({
    mode: 'hardhat',
    chain: { ...hardhat, rpcUrls: { default: { http: [rpcUrl] } } },
    transport: http(rpcUrl, { retryCount: 0 }),
    cacheTime: 0,
    pollingInterval: 50,
  })
    .extend(publicActions)
    .extend(walletActions);
}
export type DevnetClient = ReturnType<typeof createDevnetClient>;

export type DevnetTokenSymbol = 'TKA' | 'TKB' | 'TKC' | 'USDC';

export interface UniswapDeployment {
  chainId: number;
  deployer: Address;
  weth: Address;
  factory: Address;
  router: Address;
  tokens: Record<DevnetTokenSymbol, Address>;
  pairs: { tkaWeth: Address; tkbWeth: Address; tkcUsdc: Address; wethUsdc: Address };
  /** accounts funded with tokens and approvals, ready to trade */
  traders: Address[];
  /** the WETH price in USD that the WETH/USDC reference pool was seeded at */
  wethUsd: number;
  /** first block of the deployment */
  startBlock: number;
  /** Uniswap V3: factory, NonfungiblePositionManager and SwapRouter (absent in deployments written before V3 was added) */
  v3?: { factory: Address; positionManager: Address; router: Address };
  /** copy-trading execution: EntryPoint v0.8, session validator, account factory (deployed by `devnet.sh deploy` through deployExecutionContracts) */
  execution?: ExecutionDeployment;
}

const DEADLINE = 4_000_000_000n;
const GAS = 6_000_000n;
/** V3's factory and position manager take more than 6M gas to deploy */
const DEPLOY_GAS = 16_000_000n;

/** the receipt of a transaction that succeeded; throws when it reverted */
export async function mined(client: DevnetClient, hash: Hash) {
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== 'success') throw new Error(`devnet: transaction ${hash} reverted`);
  return receipt;
}

/** deploys a contract from `from` and returns its address once mined */
export async function deploy(client: DevnetClient, from: Address, a: { abi: readonly unknown[]; bytecode: Hex }, args: unknown[] = []): Promise<Address> {
  const hash = await client.deployContract({ abi: a.abi, bytecode: a.bytecode, args, account: from, chain: client.chain, gas: DEPLOY_GAS });
  const receipt = await mined(client, hash);
  if (!receipt.contractAddress) throw new Error('devnet: deployment without contract address');
  return receipt.contractAddress;
}

export interface DeployOptions {
  /** how many accounts (after the deployer) get tokens and approvals; default 12 */
  traders?: number;
}

export async function deployUniswap(client: DevnetClient, opts: DeployOptions = {}): Promise<UniswapDeployment> {
  const accounts = await client.getAddresses();
  const deployer = accounts[0];
  if (!deployer) throw new Error('devnet: node has no unlocked accounts');
  const traders = accounts.slice(1, 1 + (opts.traders ?? 12));
  const startBlock = Number(await client.getBlockNumber()) + 1;
  const chainId = await client.getChainId();

  const weth = await deploy(client, deployer, artifacts.weth());
  const factory = await deploy(client, deployer, artifacts.factory(), [deployer]);
  const router = await deploy(client, deployer, artifacts.router(), [factory, weth]);
  const v3Factory = await deploy(client, deployer, artifacts.v3Factory());
  // the token descriptor only renders tokenURI: any address serves
  const v3 = {
    factory: v3Factory,
    positionManager: await deploy(client, deployer, artifacts.v3PositionManager(), [v3Factory, weth, deployer]),
    router: await deploy(client, deployer, artifacts.v3Router(), [v3Factory, weth]),
  };

  const supply = parseEther('1000000000');
  const tokens = {
    TKA: await deploy(client, deployer, artifacts.erc20(), [supply]),
    TKB: await deploy(client, deployer, artifacts.erc20(), [supply]),
    TKC: await deploy(client, deployer, artifacts.erc20(), [supply]),
    USDC: await deploy(client, deployer, artifacts.erc20(), [supply]),
  } satisfies Record<DevnetTokenSymbol, Address>;

  const send = async (account: Address, address: Address, abi: typeof erc20Abi | typeof routerAbi, functionName: string, args: unknown[], value?: bigint) =>
    mined(
      client,
      await client.writeContract({ address, abi, functionName, args, account, chain: client.chain, gas: GAS, value } as never),
    );

  for (const t of Object.values(tokens)) await send(deployer, t, erc20Abi, 'approve', [router, maxUint256]);

  const wethUsd = 2000;
  // TKA = 0.0005 WETH ($1), TKB = 0.002 WETH ($4), WETH = 2000 USDC, TKC = 0.5 USDC
  await send(deployer, router, routerAbi, 'addLiquidityETH', [tokens.TKA, parseEther('1000000'), 0n, 0n, deployer, DEADLINE], parseEther('500'));
  await send(deployer, router, routerAbi, 'addLiquidityETH', [tokens.TKB, parseEther('50000'), 0n, 0n, deployer, DEADLINE], parseEther('100'));
  await send(deployer, router, routerAbi, 'addLiquidityETH', [tokens.USDC, parseEther('2000000'), 0n, 0n, deployer, DEADLINE], parseEther('1000'));
  await send(deployer, router, routerAbi, 'addLiquidity', [tokens.TKC, tokens.USDC, parseEther('100000'), parseEther('50000'), 0n, 0n, deployer, DEADLINE]);

  for (const trader of traders) {
    for (const t of Object.values(tokens)) {
      await send(deployer, t, erc20Abi, 'transfer', [trader, parseEther(t === tokens.USDC ? '100000' : '20000')]);
      await send(trader, t, erc20Abi, 'approve', [router, maxUint256]);
    }
  }

  const pair = (a: Address, b: Address) => client.readContract({ address: factory, abi: factoryAbi, functionName: 'getPair', args: [a, b] });
  const pairs = {
    tkaWeth: await pair(tokens.TKA, weth),
    tkbWeth: await pair(tokens.TKB, weth),
    tkcUsdc: await pair(tokens.TKC, tokens.USDC),
    wethUsdc: await pair(weth, tokens.USDC),
  };
  return { chainId, deployer, weth, factory, router, tokens, pairs, traders, wethUsd, startBlock, v3 };
}

export interface TradeRecord {
  hash: Hash;
  block: number;
  trader: Address;
  token: Address;
  quote: Address;
  side: 'buy' | 'sell';
  /** raw amounts (wei) of what went in and what came out, as quoted by the router right before */
  amountIn: bigint;
  amountOut: bigint;
}

export interface TradeOptions {
  count: number;
  /** PRNG seed: same seed, same trades on the same chain state */
  seed?: number;
  /** defaults to deployment.traders */
  traders?: Address[];
}

/** mulberry32: small deterministic PRNG */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Makes `count` swaps through the router from the traders, one block each (automine): ETH buys and
 * sells of TKA/TKB, USDC buys and sells of TKC.
 */
export async function makeTrades(client: DevnetClient, d: UniswapDeployment, opts: TradeOptions): Promise<TradeRecord[]> {
  const rnd = prng(opts.seed ?? 1);
  const traders = opts.traders ?? d.traders;
  if (traders.length === 0) throw new Error('devnet: no traders');
  const out: TradeRecord[] = [];
  for (let i = 0; i < opts.count; i++) {
    const trader = traders[Math.floor(rnd() * traders.length)] as Address;
    const kind = Math.floor(rnd() * 4);
    const token = kind === 3 ? d.tokens.TKC : rnd() < 0.5 ? d.tokens.TKA : d.tokens.TKB;
    const quote = kind === 3 ? d.tokens.USDC : d.weth;
    const buy = kind === 3 ? rnd() < 0.5 : kind === 0 || kind === 2;
    let amountIn: bigint;
    let path: Address[];
    if (buy) {
      amountIn = kind === 3 ? parseEther(String(10 + Math.floor(rnd() * 500))) : parseEther(String((1 + Math.floor(rnd() * 200)) / 100));
      path = [quote, token];
    } else {
      amountIn = parseEther(String(10 + Math.floor(rnd() * 400)));
      path = [token, quote];
    }
    const amounts = await client.readContract({ address: d.router, abi: routerAbi, functionName: 'getAmountsOut', args: [amountIn, path] });
    const amountOut = amounts[amounts.length - 1] ?? 0n;
    let hash: Hash;
    const base = { address: d.router, abi: routerAbi, account: trader, chain: client.chain, gas: 500_000n } as const;
    if (quote === d.weth && buy) {
      hash = await client.writeContract({ ...base, functionName: 'swapExactETHForTokens', args: [0n, path, trader, DEADLINE], value: amountIn });
    } else if (quote === d.weth) {
      hash = await client.writeContract({ ...base, functionName: 'swapExactTokensForETH', args: [amountIn, 0n, path, trader, DEADLINE] });
    } else {
      hash = await client.writeContract({ ...base, functionName: 'swapExactTokensForTokens', args: [amountIn, 0n, path, trader, DEADLINE] });
    }
    const receipt = await mined(client, hash);
    out.push({ hash, block: Number(receipt.blockNumber), trader: lower(trader), token: lower(token), quote: lower(quote), side: buy ? 'buy' : 'sell', amountIn, amountOut });
  }
  return out;
}

function lower(a: Address): Address {
  return a.toLowerCase() as Address;
}
