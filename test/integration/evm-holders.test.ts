/**
 * Sells simulated as real holders, on the devnet with real contracts written to dodge a fresh
 * probe (test/fixtures/contracts/Adversary.sol): the contract read's probe round trip passes,
 * the holder's own sells, from its address at a later block, meet the trap; the honeypot flag
 * the engine derives from the read is red, with the reason. A plain token is the control.
 *
 * Own node on EVM_HOLDERS_DEVNET_PORT (default 18565).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { maxUint256, parseAbi, parseEther, type Address, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractFacts } from '../../schemas/events.ts';
import { createDevnetClient, deployUniswap, erc20Abi, factoryAbi, routerAbi, startDevnet, type Devnet, type DevnetClient, type UniswapDeployment } from '../../infra/devnet/index.ts';
import { devnetChainConfig } from '../../ingest/evm/chains.ts';
import type { Compiled } from '../../infra/devnet/solc.ts';
import { parseChainConfig } from '../../ingest/evm/config.ts';
import { createResolver } from '../../ingest/evm/resolver.ts';
import { createInspector } from '../../ingest/evm/contract/inspect.ts';
import type { Addr } from '../../ingest/evm/decode.ts';
import { simulatedHoneypot } from '../../engine/token/contract.ts';
import { compileStoryContracts, devnetTx, fullRangeV3 } from './devnet-tx.ts';

const root = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const port = Number(process.env.EVM_HOLDERS_DEVNET_PORT ?? 18565);
const DEADLINE = 4_000_000_000n;
const storyAbi = parseAbi(['function setPair(address p)']);
const v3FactoryAbi = parseAbi(['function getPool(address, address, uint24) view returns (address)']);
const v3RouterAbi = parseAbi([
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 deadline; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
]);

let devnet: Devnet;
let client: DevnetClient;
let d: UniswapDeployment;
let contracts: Record<string, Compiled>;

const tx = devnetTx(() => client, () => contracts);
const { send } = tx;
const deploy = (name: string, args: unknown[]) => tx.deploy(name, args, d.deployer);

/** launch (100 ETH against 1,000,000 tokens), name the pair, and let a holder buy `eth` worth in its own block */
async function story(name: string, args: unknown[], holder: Address, eth = '10'): Promise<{ token: Address; pair: Address }> {
  const token = await deploy(name, args);
  await send(d.deployer, token, erc20Abi, 'approve', [d.router, maxUint256]);
  await send(d.deployer, d.router, routerAbi, 'addLiquidityETH', [token, parseEther('1000000'), 0n, 0n, d.deployer, DEADLINE], parseEther('100'));
  const pair = (await client.readContract({ address: d.factory, abi: factoryAbi, functionName: 'getPair', args: [token, d.weth] })) as Address;
  if (name !== 'PlainToken') await send(d.deployer, token, storyAbi, 'setPair', [pair]);
  await send(holder, d.router, routerAbi, 'swapExactETHForTokens', [0n, [d.weth, token], holder, DEADLINE], parseEther(eth));
  // the holder comes back later: a block or two on
  await client.request({ method: 'evm_mine' as never, params: [] as never });
  return { token, pair };
}

async function read(token: Address, pair: Address, holders: Address[]): Promise<ContractFacts> {
  const chain = parseChainConfig(devnetChainConfig(d, devnet.rpcUrl));
  const pub = client as unknown as PublicClient;
  const inspector = createInspector({ client: pub, resolver: createResolver(pub), chain });
  const head = await client.getBlock({ blockTag: 'latest' });
  const block = { number: Number(head.number), hash: head.hash, timestamp: Number(head.timestamp) };
  const tokenAddr = token.toLowerCase() as Addr;
  return inspector.inspect({ token: tokenAddr, block, trigger: 'schedule', chain: 'devnet', knownPools: [pair.toLowerCase() as Addr], holders: holders.map((h) => h.toLowerCase() as Addr) });
}

beforeAll(async () => {
  contracts = compileStoryContracts(root, ['Adversary.sol', 'Stories.sol']);
  devnet = await startDevnet({ port });
  client = createDevnetClient(devnet.rpcUrl);
  d = await deployUniswap(client, { traders: 4 });
}, 240_000);

afterAll(async () => {
  await devnet?.stop();
});

const holder = (i: number) => d.traders[i] as Address;

describe('devnet: sells simulated as the holders, against tokens that dodge a fresh probe', () => {
  it('attacker: a probe-aware honeypot (sells pass in the buy block, from contracts, or relayed): the probe sells, the holder cannot; red', async () => {
    const { token, pair } = await story('ProbeAwareHoneypot', [parseEther('10000000')], holder(0));
    const f = await read(token, pair, [holder(0)]);
    expect(f.sim?.sell.ok).toBe(true);
    const sells = f.holderSims?.[0]?.sells ?? [];
    expect(sells.map((s) => s.ok)).toEqual([false, false, false]);
    // the router's TransferHelper words the token's refusal
    expect(sells[0]?.error).toMatch(/TRANSFER_FROM_FAILED/);
    const flag = simulatedHoneypot(f);
    expect(flag).toMatchObject({ flagged: true, severity: 'red' });
    expect(flag?.reason).toMatch(/cannot sell/);
  });

  it('attacker: a sell cap that lets the probe\'s small sell and a holder\'s sliver through: red, a sell cap', async () => {
    // the holder buys about 90,000 tokens; the cap lets 2,000 leave per sell
    const { token, pair } = await story('SellCapToken', [parseEther('10000000'), parseEther('2000')], holder(1));
    const f = await read(token, pair, [holder(1)]);
    expect(f.sim?.sell.ok).toBe(true);
    expect(f.holderSims?.[0]?.sells.map((s) => s.ok)).toEqual([true, false, false]);
    expect(simulatedHoneypot(f)?.reason).toMatch(/sell cap/);
  });

  it('attacker: a 60% tax on sells above 5,000 tokens, none below (the probe sells less): red, the loss at the size said', async () => {
    const { token, pair } = await story('SizeTaxToken', [parseEther('10000000'), parseEther('5000'), 60n], holder(2));
    const f = await read(token, pair, [holder(2)]);
    expect(f.sim?.sell.taxPct ?? 0).toBeLessThan(10);
    const sells = f.holderSims?.[0]?.sells ?? [];
    expect(sells[0]).toMatchObject({ ok: true, lossAtLeastPct: 0 });
    expect(sells[2]).toMatchObject({ ok: true, lossAtLeastPct: 50 });
    const flag = simulatedHoneypot(f);
    expect(flag).toMatchObject({ flagged: true, severity: 'red' });
    expect(flag?.reason).toMatch(/loses more than 50% to a tax/);
  });

  it('attacker: the same trap on a token whose only pool is Uniswap V3 (the probe speaks V2 and is skipped): the holder sells through the V3 SwapRouter and cannot; red', async () => {
    const v3 = d.v3 as NonNullable<UniswapDeployment['v3']>;
    const buyer = holder(0);
    const token = await deploy('ProbeAwareHoneypot', [parseEther('10000000')]);
    await fullRangeV3(send, d, d.deployer, token, parseEther('1000000'), parseEther('100'));
    const pool = (await client.readContract({ address: v3.factory, abi: v3FactoryAbi, functionName: 'getPool', args: [token, d.weth, 3000] })) as Address;
    await send(d.deployer, token, storyAbi, 'setPair', [pool]);
    await send(buyer, v3.router, v3RouterAbi, 'exactInputSingle', [{
      tokenIn: d.weth, tokenOut: token, fee: 3000, recipient: buyer, deadline: DEADLINE, amountIn: parseEther('5'), amountOutMinimum: 0n, sqrtPriceLimitX96: 0n,
    }], parseEther('5'));
    await client.request({ method: 'evm_mine' as never, params: [] as never });
    const f = await read(token, pool, [buyer]);
    expect(f.sim).toBeNull();
    expect(f.simSkipped).toMatch(/only on V3/);
    expect(f.holderSims?.[0]).toMatchObject({ router: v3.router.toLowerCase(), pool: pool.toLowerCase() });
    expect(f.holderSims?.[0]?.sells.map((s) => s.ok)).toEqual([false, false, false]);
    expect(simulatedHoneypot(f)).toMatchObject({ flagged: true, severity: 'red' });
  });

  it('the control: a plain token sells at every size as the holder, nothing lost: no flag; a contract or an empty wallet is not simulated', async () => {
    const { token, pair } = await story('PlainToken', ['PLN', parseEther('10000000')], holder(3));
    const f = await read(token, pair, [d.router, '0x00000000000000000000000000000000000fee11', holder(3)]);
    expect(f.holderSims).toHaveLength(1);
    expect(f.holderSims?.[0]?.holder).toBe(holder(3).toLowerCase());
    expect(f.holderSims?.[0]?.sells.every((s) => s.ok && s.lossAtLeastPct === 0)).toBe(true);
    expect(simulatedHoneypot(f)?.severity).toBe('none');
  });
});
