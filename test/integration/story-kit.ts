/**
 * The moves of a devnet story traded through the real Uniswap routers while the embedded stack
 * follows the chain live: launch a token, buy and sell through the V2 router or a V3 pool, and
 * read the snapshot the engine served once it folded up to the last block a move mined.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { maxUint256, parseAbi, parseEther, type Address } from 'viem';
import { createDevnetClient, deployUniswap, erc20Abi, factoryAbi, routerAbi, startDevnet, type Devnet, type DevnetClient, type UniswapDeployment } from '../../infra/devnet/index.ts';
import type { Compiled } from '../../infra/devnet/solc.ts';
import { devnetTokenSnapshot, type DevnetStack } from './devnet-stack.ts';
import { compileStoryContracts, startStoryStack, type devnetTx } from './devnet-tx.ts';

export const DEADLINE = 4_000_000_000n;

/** a risk flag as a story reads it from the served snapshot */
export interface StoryFlag {
  flagged: boolean;
  severity: 'none' | 'warning' | 'red';
  reason: string;
  source?: string;
}

/** a JSON-RPC request the stack sent to the node */
export interface RpcCall {
  method: string;
  /** its params as JSON, lowercased (an address appears in it however it is passed) */
  params: string;
}

/**
 * An HTTP proxy in front of the node that records every JSON-RPC request through it: the stack
 * talks to the node through it, the story's own transactions do not, so what it records is what
 * the stack asked.
 */
async function countingProxy(target: string): Promise<{ url: string; calls: RpcCall[]; close: () => Promise<void> }> {
  const calls: RpcCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const parsed = JSON.parse(body) as { method: string; params?: unknown } | { method: string; params?: unknown }[];
      for (const r of Array.isArray(parsed) ? parsed : [parsed]) calls.push({ method: r.method, params: JSON.stringify(r.params ?? []).toLowerCase() });
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (r) => {
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(await r.text());
        })
        .catch((err: unknown) => res.destroy(err as Error));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((ok) => server.close(() => ok())) };
}

export interface Story {
  /** every request the stack sent to the node */
  rpc: RpcCall[];
  devnet: Devnet;
  client: DevnetClient;
  d: UniswapDeployment;
  contracts: Record<string, Compiled>;
  stack: DevnetStack;
  stop: () => Promise<void>;
}

/** a node on `port` with Uniswap deployed, the story contracts of `files` compiled, and the stack following the node live */
export async function openStory(root: string, port: number, prefix: string, files: string[]): Promise<Story> {
  const contracts = compileStoryContracts(root, files);
  const devnet = await startDevnet({ port });
  const client = createDevnetClient(devnet.rpcUrl);
  const d = await deployUniswap(client, { traders: 2 });
  const proxy = await countingProxy(devnet.rpcUrl);
  const { stack, stop } = await startStoryStack(prefix, proxy.url, d);
  return {
    rpc: proxy.calls, devnet, client, d, contracts, stack,
    async stop() {
      await stop();
      await proxy.close();
      await devnet.stop();
    },
  };
}

const sellAbi = parseAbi(['function swapExactTokensForETHSupportingFeeOnTransferTokens(uint amountIn, uint amountOutMin, address[] path, address to, uint deadline)']);
const v3RouterAbi = parseAbi([
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 deadline; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
]);

interface KitDeps {
  client: () => DevnetClient;
  d: () => UniswapDeployment;
  stack: () => DevnetStack;
  tx: ReturnType<typeof devnetTx>;
}

export function storyKit({ client, d, stack, tx }: KitDeps) {
  const { send } = tx;
  const balanceOf = async (token: Address, who: Address) => (await client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })) as bigint;
  const v3 = () => d().v3 as NonNullable<UniswapDeployment['v3']>;
  return {
    balanceOf,
    /** 100 ETH against `tokens` (1,000,000) from `deployer`; returns the pair */
    async launch(token: Address, deployer: Address, tokens = '1000000'): Promise<Address> {
      await send(deployer, token, erc20Abi, 'approve', [d().router, maxUint256]);
      await send(deployer, d().router, routerAbi, 'addLiquidityETH', [token, parseEther(tokens), 0n, 0n, deployer, DEADLINE], parseEther('100'));
      return (await client().readContract({ address: d().factory, abi: factoryAbi, functionName: 'getPair', args: [token, d().weth] })) as Address;
    },
    buy: (who: Address, token: Address, eth: string) => send(who, d().router, routerAbi, 'swapExactETHForTokens', [0n, [d().weth, token], who, DEADLINE], parseEther(eth)),
    /** sells `share` percent of the balance through the V2 router */
    async sell(who: Address, token: Address, share: bigint): Promise<number> {
      const bal = await balanceOf(token, who);
      await send(who, token, erc20Abi, 'approve', [d().router, maxUint256]);
      return send(who, d().router, sellAbi, 'swapExactTokensForETHSupportingFeeOnTransferTokens', [(bal * share) / 100n, 0n, [token, d().weth], who, DEADLINE]);
    },
    /** buys with `eth` through the V3 SwapRouter (0.3 % pool), paying ether the router wraps */
    v3Buy: (who: Address, token: Address, eth: string) =>
      send(who, v3().router, v3RouterAbi, 'exactInputSingle', [{
        tokenIn: d().weth, tokenOut: token, fee: 3000, recipient: who, deadline: DEADLINE, amountIn: parseEther(eth), amountOutMinimum: 0n, sqrtPriceLimitX96: 0n,
      }], parseEther(eth)),
    /** sells `share` percent of the balance through the V3 SwapRouter for WETH */
    async v3Sell(who: Address, token: Address, share: bigint): Promise<number> {
      const bal = await balanceOf(token, who);
      await send(who, token, erc20Abi, 'approve', [v3().router, maxUint256]);
      return send(who, v3().router, v3RouterAbi, 'exactInputSingle', [{
        tokenIn: token, tokenOut: d().weth, fee: 3000, recipient: who, deadline: DEADLINE, amountIn: (bal * share) / 100n, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n,
      }]);
    },
    /** the snapshot served once the stack folded every block the story mined */
    async snap<T>(token: Address): Promise<T> {
      await stack().settle(tx.lastBlock());
      return devnetTokenSnapshot<T>(stack().services.store, token);
    },
    /** an account nobody funded: impersonated on the node, its ether set outright (no transfer names a funder) */
    async stranger(i: number): Promise<Address> {
      const who = `0x5ea1${i.toString(16).padStart(36, '0')}` as Address;
      await client().request({ method: 'hardhat_impersonateAccount' as never, params: [who] as never });
      await client().request({ method: 'hardhat_setBalance' as never, params: [who, `0x${parseEther('10000').toString(16)}`] as never });
      return who;
    },
  };
}
