/**
 * Transactions for devnet story tests: send, deploy and wait, remembering the last block mined so
 * a test can wait for the stack to fold up to it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { maxUint256, parseAbi, type Abi, type Address, type Hash } from 'viem';
import { afterAll, beforeAll } from 'vitest';
import { createDevnetClient, deployUniswap, erc20Abi, startDevnet, type Devnet, type DevnetClient, type UniswapDeployment } from '../../infra/devnet/index.ts';
import { compileSolidity, type Compiled } from '../../infra/devnet/solc.ts';
import { devnetEnv, startDevnetStack, type DevnetStack } from './devnet-stack.ts';

export const GAS = 6_000_000n;

export function devnetTx(client: () => DevnetClient, contracts: () => Record<string, Compiled>) {
  let lastBlock = 0;
  async function mined(hash: Hash): Promise<number> {
    const r = await client().waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (r.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    lastBlock = Math.max(lastBlock, Number(r.blockNumber));
    return Number(r.blockNumber);
  }
  return {
    mined,
    /** the highest block a transaction of this kit was mined in */
    lastBlock: () => lastBlock,
    async send(from: Address, to: Address, abi: Abi, functionName: string, args: unknown[], value?: bigint): Promise<number> {
      const c = client();
      return mined(await c.writeContract({ address: to, abi, functionName, args, account: from, chain: c.chain, gas: GAS, value } as never));
    },
    async deploy(name: string, args: unknown[], from: Address): Promise<Address> {
      const c = client();
      const k = contracts()[name] as Compiled;
      const hash = await c.deployContract({ abi: k.abi, bytecode: k.bytecode, args, account: from, chain: c.chain, gas: GAS });
      await mined(hash);
      return (await c.getTransactionReceipt({ hash })).contractAddress as Address;
    },
    /** moves the chain's clock on and mines a block */
    async increaseTime(seconds: number): Promise<void> {
      await client().request({ method: 'evm_increaseTime' as never, params: [seconds] as never });
      await client().request({ method: 'evm_mine' as never, params: [] as never });
    },
  };
}

/** the story contracts of test/fixtures/contracts, compiled together (solc from npm) */
export function compileStoryContracts(root: string, files: string[]): Record<string, Compiled> {
  return compileSolidity(Object.fromEntries(files.map((f) => [f, readFileSync(join(root, 'test/fixtures/contracts', f), 'utf8')])), { evmVersion: 'cancun' });
}

/**
 * `npm start`'s embedded stack following the devnet that `d` was deployed on, in a temporary data
 * dir, with `env` over the devnet's settings; `stop` shuts it down and removes the dir
 */
export async function startStoryStack(prefix: string, rpcUrl: string, d: UniswapDeployment, env: Record<string, string> = {}): Promise<{ stack: DevnetStack; stop: () => Promise<void> }> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const deploymentFile = join(work, 'deployment.json');
  writeFileSync(deploymentFile, JSON.stringify(d));
  const stack = await startDevnetStack({ ...devnetEnv(join(work, 'data'), rpcUrl, deploymentFile), ...env });
  return {
    stack,
    async stop() {
      await stack.services.shutdown();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

export interface StoryDevnet {
  devnet: Devnet;
  client: DevnetClient;
  d: UniswapDeployment;
  stack: DevnetStack;
  contracts: Record<string, Compiled>;
  /** the node's accounts; from the tenth on, no deployment step touched them */
  accounts: Address[];
}

/**
 * A story suite's own node on `port` with Uniswap deployed (two traders), its accounts and
 * `npm start`'s embedded stack following it: started before the suite's tests, stopped after
 */
export function storyDevnet(root: string, prefix: string, port: number, files: string[]): StoryDevnet {
  const h = {} as StoryDevnet;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    h.contracts = compileStoryContracts(root, files);
    h.devnet = await startDevnet({ port });
    h.client = createDevnetClient(h.devnet.rpcUrl);
    h.d = await deployUniswap(h.client, { traders: 2 });
    h.accounts = await h.client.getAddresses();
    ({ stack: h.stack, stop } = await startStoryStack(prefix, h.devnet.rpcUrl, h.d));
  }, 240_000);
  afterAll(async () => {
    await stop?.();
    await h.devnet?.stop();
  });
  return h;
}

const positionsAbi = parseAbi([
  'struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function createAndInitializePoolIfNecessary(address token0, address token1, uint24 fee, uint160 sqrtPriceX96) payable returns (address pool)',
  'function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
]);
const wethAbi = parseAbi(['function deposit() payable']);
type Send = (from: Address, to: Address, abi: Abi, functionName: string, args: unknown[], value?: bigint) => Promise<number>;

/**
 * A Uniswap V3 pool of `token` against WETH (0.3 %) at 0.0001 WETH per token, and `owner`'s
 * full-range position of `tokens` and `weth` in it (the WETH wrapped from `owner`'s ether)
 */
export async function fullRangeV3(send: Send, d: UniswapDeployment, owner: Address, token: Address, tokens: bigint, weth: bigint): Promise<void> {
  const v3 = d.v3 as NonNullable<UniswapDeployment['v3']>;
  const [token0, token1] = BigInt(token) < BigInt(d.weth) ? [token, d.weth] : [d.weth, token];
  const sqrtPriceX96 = BigInt(token0 === token ? 0.01 * 2 ** 96 : 100 * 2 ** 96);
  await send(owner, d.weth, wethAbi, 'deposit', [], weth);
  await send(owner, d.weth, erc20Abi, 'approve', [v3.positionManager, maxUint256]);
  await send(owner, token, erc20Abi, 'approve', [v3.positionManager, maxUint256]);
  await send(owner, v3.positionManager, positionsAbi, 'createAndInitializePoolIfNecessary', [token0, token1, 3000, sqrtPriceX96]);
  const [amount0, amount1] = token0 === token ? [tokens, weth] : [weth, tokens];
  const params = { token0, token1, fee: 3000, tickLower: -887220, tickUpper: 887220, amount0Desired: amount0, amount1Desired: amount1, amount0Min: 0n, amount1Min: 0n, recipient: owner, deadline: 4_000_000_000n };
  await send(owner, v3.positionManager, positionsAbi, 'mint', [params]);
}
