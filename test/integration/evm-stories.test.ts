/**
 * Devnet stories with real contracts (test/fixtures/contracts/Stories.sol, compiled with solc from
 * npm, OpenZeppelin's ERC-20, Ownable and ERC1967Proxy): each token carries one trap real tokens
 * carry, traded through the real Uniswap V2 router while `npm start`'s embedded stack follows the
 * chain live. Each story asserts what the engine serves: the flag, its reason, when it was measured.
 *
 * Own node on EVM_STORIES_DEVNET_PORT (default 18551).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeFunctionData, maxUint256, parseAbi, parseEther, type Abi, type Address, type Hash, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnetClient, deployUniswap, erc20Abi, factoryAbi, routerAbi, startDevnet, type Devnet, type DevnetClient, type UniswapDeployment } from '../../infra/devnet/index.ts';
import { compileSolidity, type Compiled } from '../../infra/devnet/solc.ts';
import { devnetEnv, devnetSnapshot, devnetTokenSnapshot, startDevnetStack, type DevnetStack } from './devnet-stack.ts';
import { fullRangeV3 } from './devnet-tx.ts';

const root = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const port = Number(process.env.EVM_STORIES_DEVNET_PORT ?? 18551);
const DEADLINE = 4_000_000_000n;
const GAS = 6_000_000n;

interface Flag {
  flagged: boolean;
  severity: 'none' | 'warning' | 'red';
  reason: string;
  measuredAt?: string | null;
  happenedAt?: string;
  block?: number | null;
  source?: string;
}
interface Snap {
  verdict: string;
  signal: { value: string };
  risk: {
    flags: { rug: Flag; honeypot: Flag; concentration: Flag; contract?: Flag };
    contract: null | {
      block: number;
      trigger: string;
      measuredAt: string;
      owner: string | null;
      renounced: boolean;
      proxy: { kind: string } | null;
      powers: string[];
      sellable: boolean | null;
      sellTaxPct: number | null;
      buyTaxPct: number | null;
      lpBurnedPct: number | null;
      lpHeldByDeployerPct: number | null;
      maxTxLimited: boolean | null;
    };
  };
  exit: { band: string };
}
interface RiskSignals {
  risk: { signals: { largestLiquidityDropPct: number; liquidityBand: string } };
}

const storyAbi = parseAbi([
  'function setPair(address p)',
  'function setSellTax(uint256 t)',
  'function renounceOwnership()',
  'function initialize(string symbol_, uint256 supply, address owner_)',
]);
const pairAbi = parseAbi(['function balanceOf(address) view returns (uint256)', 'function approve(address, uint256) returns (bool)', 'function transfer(address, uint256) returns (bool)']);
const positionsAbi = parseAbi([
  'struct DecreaseLiquidityParams { uint256 tokenId; uint128 liquidity; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }',
  'struct CollectParams { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }',
  'function decreaseLiquidity(DecreaseLiquidityParams params) payable returns (uint256 amount0, uint256 amount1)',
  'function collect(CollectParams params) payable returns (uint256 amount0, uint256 amount1)',
  'function balanceOf(address owner) view returns (uint256)',
  'function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)',
  'function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)',
]);
const v3RouterAbi = parseAbi([
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 deadline; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
]);
const routerFeeAbi = parseAbi([
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint amountIn, uint amountOutMin, address[] path, address to, uint deadline)',
  'function removeLiquidityETH(address token, uint liquidity, uint amountTokenMin, uint amountETHMin, address to, uint deadline) returns (uint, uint)',
]);

let devnet: Devnet;
let client: DevnetClient;
let d: UniswapDeployment;
let work: string;
let stack: DevnetStack;
let contracts: Record<string, Compiled>;
let lastBlock = 0;

async function mined(hash: Hash): Promise<number> {
  const r = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (r.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  lastBlock = Math.max(lastBlock, Number(r.blockNumber));
  return Number(r.blockNumber);
}

async function send(from: Address, to: Address, abi: Abi, functionName: string, args: unknown[], value?: bigint): Promise<number> {
  return mined(await client.writeContract({ address: to, abi, functionName, args, account: from, chain: client.chain, gas: GAS, value } as never));
}

async function deploy(name: string, args: unknown[], from: Address = d.deployer): Promise<Address> {
  const c = contracts[name] as Compiled;
  const hash = await client.deployContract({ abi: c.abi, bytecode: c.bytecode, args, account: from, chain: client.chain, gas: GAS });
  await mined(hash);
  const r = await client.getTransactionReceipt({ hash });
  return r.contractAddress as Address;
}

/** the deployer adds liquidity (100 ETH against 1,000,000 tokens); returns the pair */
async function launch(token: Address, deployer: Address = d.deployer): Promise<Address> {
  await send(deployer, token, erc20Abi, 'approve', [d.router, maxUint256]);
  await send(deployer, d.router, routerAbi, 'addLiquidityETH', [token, parseEther('1000000'), 0n, 0n, deployer, DEADLINE], parseEther('100'));
  return (await client.readContract({ address: d.factory, abi: factoryAbi, functionName: 'getPair', args: [token, d.weth] })) as Address;
}

async function buy(trader: Address, token: Address, eth: string): Promise<number> {
  return send(trader, d.router, routerAbi, 'swapExactETHForTokens', [0n, [d.weth, token], trader, DEADLINE], parseEther(eth));
}

async function trySell(trader: Address, token: Address): Promise<boolean> {
  const bal = (await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [trader] })) as bigint;
  await send(trader, token, erc20Abi, 'approve', [d.router, maxUint256]);
  try {
    await send(trader, d.router, routerFeeAbi, 'swapExactTokensForETHSupportingFeeOnTransferTokens', [bal / 2n, 0n, [token, d.weth], trader, DEADLINE]);
    return true;
  } catch {
    return false;
  }
}

async function sellAll(trader: Address, token: Address): Promise<void> {
  const bal = (await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [trader] })) as bigint;
  await send(trader, token, erc20Abi, 'approve', [d.router, maxUint256]);
  await send(trader, d.router, routerFeeAbi, 'swapExactTokensForETHSupportingFeeOnTransferTokens', [bal, 0n, [token, d.weth], trader, DEADLINE]);
}

async function snap(token: Address): Promise<Snap> {
  await stack.settle(lastBlock);
  return devnetTokenSnapshot<Snap>(stack.services.store, token);
}

beforeAll(async () => {
  const source = readFileSync(join(root, 'test/fixtures/contracts/Stories.sol'), 'utf8');
  contracts = compileSolidity(
    { 'Stories.sol': source, 'Proxy.sol': 'pragma solidity ^0.8.20; import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";' },
    { evmVersion: 'cancun' },
  );
  devnet = await startDevnet({ port });
  client = createDevnetClient(devnet.rpcUrl);
  d = await deployUniswap(client, { traders: 6 });
  work = mkdtempSync(join(tmpdir(), 'intel-evm-stories-'));
  const deploymentFile = join(work, 'deployment.json');
  writeFileSync(deploymentFile, JSON.stringify(d));
  stack = await startDevnetStack(devnetEnv(join(work, 'data'), devnet.rpcUrl, deploymentFile));
}, 240_000);

afterAll(async () => {
  await stack?.services.shutdown();
  await devnet?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const [a, b, c] = [1, 2, 3];
const trader = (i: number) => d.traders[i] as Address;

describe('devnet stories: contract reads and liquidity, as served', () => {
  it('a honeypot (sells revert once the owner names the pair): red from the simulated sell, with the block it was measured at', async () => {
    const token = await deploy('HoneypotToken', [parseEther('10000000')]);
    const pair = await launch(token);
    const named = await send(d.deployer, token, storyAbi, 'setPair', [pair]);
    await buy(trader(a), token, '1');
    expect(await trySell(trader(a), token)).toBe(false); // the trap is real
    const s = await snap(token);
    expect(s.risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red', source: 'contract' });
    expect(s.risk.flags.honeypot.reason).toMatch(/sell right after a buy reverted/);
    expect(s.risk.flags.honeypot.block).toBeGreaterThanOrEqual(named);
    expect(s.risk.contract).toMatchObject({ sellable: false });
    expect(s.verdict).toBe('avoid');
    expect(s.signal.value).toBe('AVOID');
    expect(s.exit.band).toBe('extreme');
  });

  it('a max-transaction limit: the larger simulated buy reverts (undone inside the probe), the small trades go through, the honeypot flag warns and is not red', async () => {
    // 1,000,000 tokens against 100 ETH: the probe's buy (0.1 % of the quote reserve) takes ~1,000, its larger buy (2 %) ~19,600
    const token = await deploy('MaxTxToken', ['MAXTX', parseEther('10000000'), parseEther('5000')]);
    const pair = await launch(token);
    await send(d.deployer, token, storyAbi, 'setPair', [pair]);
    await buy(trader(a), token, '0.2');
    const s = await snap(token);
    expect(s.risk.contract).toMatchObject({ sellable: true, sellTaxPct: 0, maxTxLimited: true });
    expect(s.risk.flags.honeypot).toMatchObject({ flagged: false, severity: 'warning', source: 'contract' });
    expect(s.risk.flags.honeypot.reason).toMatch(/buy reverted \(a max-transaction or max-wallet limit\)/);
    expect(s.risk.flags.honeypot.reason).not.toMatch(/second buy|sell/); // the undone larger buy left the pool as it was
  });

  it('a 90 % sell tax: red, with the tax the simulation measured', async () => {
    const token = await deploy('TaxToken', ['TAX90', parseEther('10000000'), 90n]);
    const pair = await launch(token);
    await send(d.deployer, token, storyAbi, 'setPair', [pair]);
    await buy(trader(b), token, '1');
    const s = await snap(token);
    expect(s.risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red', source: 'contract' });
    expect(s.risk.contract?.sellTaxPct).toBeGreaterThan(85);
    expect(s.risk.contract?.sellTaxPct).toBeLessThanOrEqual(90);
    expect(s.risk.flags.contract?.reason).toMatch(/change the taxes/);
  });

  it('a tax switched on after launch: clean while trading, red from the block the owner switched it on', async () => {
    const token = await deploy('TaxToken', ['LATE', parseEther('10000000'), 0n]);
    const pair = await launch(token);
    await send(d.deployer, token, storyAbi, 'setPair', [pair]);
    await buy(trader(a), token, '2');
    await buy(trader(b), token, '1');
    expect(await trySell(trader(a), token)).toBe(true);
    const before = await snap(token);
    expect(before.risk.flags.honeypot.severity).not.toBe('red');
    expect(before.risk.contract?.sellTaxPct).toBeLessThan(1);

    const switched = await send(d.deployer, token, storyAbi, 'setSellTax', [90n]); // a call with no log: seen as the owner's transaction
    const after = await snap(token);
    expect(after.risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red', source: 'contract' });
    expect(after.risk.contract).toMatchObject({ trigger: 'owner', block: switched });
    expect(after.risk.contract?.sellTaxPct).toBeGreaterThan(85);
  });

  it('a blacklist, a mint power and an upgradeable proxy: the contract flag names each, the honeypot flag stays clear', async () => {
    const black = await deploy('BlacklistToken', [parseEther('10000000')]);
    await launch(black);
    const mint = await deploy('MintableToken', [parseEther('10000000')]);
    await launch(mint);
    const impl = await deploy('UpgradeableTokenV1', []);
    const init = encodeFunctionData({ abi: storyAbi, functionName: 'initialize', args: ['PROXY', parseEther('10000000'), d.deployer] });
    const proxy = await deploy('ERC1967Proxy', [impl, init as Hex]);
    await launch(proxy);
    for (const t of [black, mint, proxy]) await buy(trader(c), t, '0.5');

    const sb = await snap(black);
    expect(sb.risk.flags.contract).toMatchObject({ severity: 'warning', source: 'contract' });
    expect(sb.risk.flags.contract?.reason).toMatch(/blacklist wallets/);
    expect(sb.risk.contract?.powers).toContain('blacklist');
    expect(sb.risk.flags.honeypot.severity).toBe('none');

    const sm = await snap(mint);
    expect(sm.risk.flags.contract?.reason).toMatch(/mint new tokens/);
    expect(sm.risk.contract?.powers).toEqual(['mint']);

    const sp = await snap(proxy);
    expect(sp.risk.flags.contract?.reason).toMatch(/upgradeable proxy/);
    expect(sp.risk.contract?.proxy).toMatchObject({ kind: 'eip1967' });
    expect(sp.risk.contract?.sellable).toBe(true);
  });

  it('LP burned versus LP the deployer holds; a renounced plain token has no owner powers', async () => {
    const burned = await deploy('PlainToken', ['BURN', parseEther('10000000')]);
    const burnedPair = await launch(burned);
    const lp = (await client.readContract({ address: burnedPair, abi: pairAbi, functionName: 'balanceOf', args: [d.deployer] })) as bigint;
    await send(d.deployer, burnedPair, pairAbi, 'transfer', ['0x000000000000000000000000000000000000dEaD', lp]);
    await send(d.deployer, burned, storyAbi, 'renounceOwnership', []);
    const held = await deploy('PlainToken', ['HELD', parseEther('10000000')]);
    await launch(held);
    await buy(trader(a), burned, '0.5');
    await buy(trader(a), held, '0.5');

    const sb = await snap(burned);
    expect(sb.risk.contract?.lpBurnedPct).toBeGreaterThan(99);
    expect(sb.risk.flags.rug).toMatchObject({ severity: 'none', source: 'contract' });
    expect(sb.risk.flags.rug.reason).toMatch(/burned or locked/);
    expect(sb.risk.contract).toMatchObject({ renounced: true, powers: [] });
    expect(sb.risk.flags.contract?.severity).toBe('none');

    const sh = await snap(held);
    expect(sh.risk.contract?.lpHeldByDeployerPct).toBeGreaterThan(99);
    expect(sh.risk.flags.rug).toMatchObject({ severity: 'warning', source: 'contract' });
    expect(sh.risk.flags.rug.reason).toMatch(/holds 100% of the LP tokens/);
  });

  it('a pull by removeLiquidityETH through Router02: red, naming the deployer', async () => {
    const token = await deploy('PlainToken', ['PULL', parseEther('10000000')]);
    const pair = await launch(token);
    for (const i of [a, b, c]) await buy(trader(i), token, '1');
    const lp = (await client.readContract({ address: pair, abi: pairAbi, functionName: 'balanceOf', args: [d.deployer] })) as bigint;
    await send(d.deployer, pair, pairAbi, 'approve', [d.router, maxUint256]);
    await send(d.deployer, d.router, routerFeeAbi, 'removeLiquidityETH', [token, lp, 0n, 0n, d.deployer, DEADLINE]);
    const s = await snap(token);
    expect(s.risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.rug.reason).toMatch(/pulled by the deployer/);
    expect(Date.parse(s.risk.flags.rug.happenedAt ?? '')).toBeGreaterThan(0);
    expect(s.verdict).toBe('avoid');
  });

  it('a token with two pools (WETH and USDC): liquidity is their sum, and trading on both is no rug', async () => {
    const token = await deploy('PlainToken', ['TWO', parseEther('10000000')]);
    await launch(token);
    await send(d.deployer, d.router, routerAbi, 'addLiquidity', [token, d.tokens.USDC, parseEther('100000'), parseEther('20000'), 0n, 0n, d.deployer, DEADLINE]);
    for (let i = 0; i < 3; i++) {
      await buy(trader(a), token, '0.5');
      await send(trader(b), d.router, routerAbi, 'swapExactTokensForTokens', [parseEther('500'), 0n, [d.tokens.USDC, token], trader(b), DEADLINE]);
    }
    const s = await snap(token);
    expect(s.risk.contract).toMatchObject({ pools: 2 });
    expect(s.risk.flags.rug.severity).not.toBe('red');
    const signals = s as unknown as RiskSignals;
    expect(signals.risk.signals.largestLiquidityDropPct).toBeLessThan(10);
  });

  it('insiders funded before the launch: native ETH from the deployer makes the wallet an insider of the token and disqualifies it', async () => {
    const accounts = await client.getAddresses();
    const [deployer, insider, outsider] = [accounts[10], accounts[11], accounts[12]] as [Address, Address, Address];
    // funded before anyone knows the sender will deploy
    await mined(await client.sendTransaction({ account: deployer, to: insider, value: parseEther('5'), chain: client.chain }));
    const token = await deploy('PlainToken', ['INSD', parseEther('10000000')], deployer);
    await launch(token, deployer);
    await buy(insider, token, '2');
    await buy(outsider, token, '1');
    const s = (await snap(token)) as unknown as { risk: { signals: { insiders: number } } };
    expect(s.risk.signals.insiders).toBeGreaterThanOrEqual(2); // the deployer and the wallet it funded
    const w = await devnetSnapshot<{ disqualifiers: { insider: boolean; reasons: string[] } }>(stack.services.store, 'wallet', insider);
    expect(w.disqualifiers.insider).toBe(true);
    expect(w.disqualifiers.reasons.join(' ')).toMatch(/funded by the deployer/);
    const o = await devnetSnapshot<{ disqualifiers: { insider: boolean } }>(stack.services.store, 'wallet', outsider);
    expect(o.disqualifiers.insider).toBe(false);
  });

  it('a smart wallet that wins across three tokens over eight days is mirror-worthy; the crowd it trades ahead of and the deployer are not', async () => {
    const accounts = await client.getAddresses();
    const smart = accounts[13] as Address;
    const crowd = [accounts[14], accounts[15], accounts[16]] as Address[];
    const tokens: Address[] = [];
    for (const sym of ['SMA', 'SMB', 'SMC']) {
      const t = await deploy('PlainToken', [sym, parseEther('10000000')]);
      await launch(t);
      tokens.push(t);
    }
    await client.mine({ blocks: 5 }); // past the launch window
    const balance = (w: Address, t: Address) => client.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [w] }) as Promise<bigint>;
    for (let round = 0; round < 12; round++) {
      const token = tokens[round % 3] as Address;
      await buy(smart, token, '2'); // ahead of the crowd
      // the deployer trades its own token just as well: a deployer is never mirror-worthy
      const held = await balance(d.deployer, token);
      await buy(d.deployer, token, '1');
      const bought = (await balance(d.deployer, token)) - held;
      await client.increaseTime({ seconds: 1800 });
      for (const w of crowd) await buy(w, token, '3');
      await client.increaseTime({ seconds: 5400 });
      await sellAll(smart, token); // after the rise
      await send(d.deployer, d.router, routerFeeAbi, 'swapExactTokensForETHSupportingFeeOnTransferTokens', [bought, 0n, [token, d.weth], d.deployer, DEADLINE]);
      for (const w of [...crowd].reverse()) await sellAll(w, token); // the crowd exits lower, last in first out
      await client.increaseTime({ seconds: 14 * 3600 });
      await client.mine({ blocks: 1 });
    }
    await snap(tokens[0] as Address);
    const grade = (w: Address) => devnetSnapshot<{ grade: string; reasons: string[] }>(stack.services.store, 'wallet', w);
    const g = await grade(smart);
    expect(g.grade, g.reasons.join('; ')).toBe('mirror-worthy');
    for (const w of crowd) expect((await grade(w)).grade, `crowd ${w}: ${(await grade(w)).reasons.join('; ')}`).not.toBe('mirror-worthy');
    const dep = await grade(d.deployer);
    expect(dep.grade).not.toBe('mirror-worthy');
    expect(dep.grade, dep.reasons.join('; ')).toBe('avoid');
  });

  it('a slow drain: the deployer removes a tenth of its LP every 40 minutes; no single step is a pull, the drain over hours is red', async () => {
    const token = await deploy('PlainToken', ['DRAIN', parseEther('10000000')]);
    const pair = await launch(token);
    for (const i of [a, b, c]) await buy(trader(i), token, '1');
    await send(d.deployer, pair, pairAbi, 'approve', [d.router, maxUint256]);
    let lastRemoval = 0;
    for (let step = 0; step < 8; step++) {
      await client.increaseTime({ seconds: 2400 });
      await client.mine({ blocks: 1 });
      const lp = (await client.readContract({ address: pair, abi: pairAbi, functionName: 'balanceOf', args: [d.deployer] })) as bigint;
      lastRemoval = await send(d.deployer, d.router, routerFeeAbi, 'removeLiquidityETH', [token, lp / 10n, 0n, 0n, d.deployer, DEADLINE]);
      if (step === 1) {
        const early = await snap(token);
        expect(early.risk.flags.rug.severity).not.toBe('red'); // a fifth gone: not yet
      }
    }
    const s = await snap(token);
    expect(s.risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.rug.reason).toMatch(/fell \d+% over [3-5] h of removals, pulled by the deployer/);
    const removedAt = Number((await client.getBlock({ blockNumber: BigInt(lastRemoval) })).timestamp);
    expect(s.risk.flags.rug.happenedAt).toBe(new Date(removedAt * 1000).toISOString());
  });

  it('a token with a V2 pair and a V3 pool: liquidity is their sum; the V2 pair pulled while V3 holds most is no rug, the V3 position pulled too is red', async () => {
    const v3 = d.v3 as NonNullable<UniswapDeployment['v3']>;
    const token = await deploy('PlainToken', ['VTHREE', parseEther('10000000')]);
    await launch(token); // V2: 100 ETH against 1,000,000 tokens
    // V3, 0.3 %, full range at the same price (0.0001 WETH per token), three times the depth
    await fullRangeV3(send, d, d.deployer, token, parseEther('3000000'), parseEther('300'));
    const owned = (await client.readContract({ address: v3.positionManager, abi: positionsAbi, functionName: 'balanceOf', args: [d.deployer] })) as bigint;
    const tokenId = (await client.readContract({ address: v3.positionManager, abi: positionsAbi, functionName: 'tokenOfOwnerByIndex', args: [d.deployer, owned - 1n] })) as bigint;
    // buys on both: through the V3 SwapRouter (paying ETH) and the V2 router
    for (const i of [a, b]) {
      await send(trader(i), v3.router, v3RouterAbi, 'exactInputSingle', [{
        tokenIn: d.weth, tokenOut: token, fee: 3000, recipient: trader(i), deadline: DEADLINE, amountIn: parseEther('1'), amountOutMinimum: 0n, sqrtPriceLimitX96: 0n,
      }], parseEther('1'));
    }
    await buy(trader(c), token, '1');

    const both = await snap(token);
    const wethUsd = d.wethUsd;
    const basis = (both as unknown as { basis: { liquidityUsd: number } }).basis;
    // V2 ≈ 2 × 101 ETH, V3 ≈ 2 × 302 ETH
    expect(basis.liquidityUsd / wethUsd).toBeGreaterThan(780);
    expect(basis.liquidityUsd / wethUsd).toBeLessThan(840);
    expect(both.risk.contract).toMatchObject({ pools: 2 });
    expect(both.risk.flags.rug.severity).not.toBe('red');
    // three buyers of 1 ETH each, two of them on the V3 pool, each attributed to its wallet and priced
    const recent = (both as unknown as { smartMoney: { recent: { usd: number }[] } }).smartMoney.recent;
    expect(recent).toHaveLength(3);
    for (const r of recent) expect(r.usd / wethUsd).toBeCloseTo(1, 1);

    // the V2 pair pulled: a quarter of the depth, the V3 pool still stands
    const pair = (await client.readContract({ address: d.factory, abi: factoryAbi, functionName: 'getPair', args: [token, d.weth] })) as Address;
    const lp = (await client.readContract({ address: pair, abi: pairAbi, functionName: 'balanceOf', args: [d.deployer] })) as bigint;
    await send(d.deployer, pair, pairAbi, 'approve', [d.router, maxUint256]);
    await send(d.deployer, d.router, routerFeeAbi, 'removeLiquidityETH', [token, lp, 0n, 0n, d.deployer, DEADLINE]);
    const half = await snap(token);
    expect(half.risk.flags.rug.severity).not.toBe('red');

    // then the V3 position: decreaseLiquidity (Burn) and collect (Collect) in one multicall's worth of calls
    const position = (await client.readContract({ address: v3.positionManager, abi: positionsAbi, functionName: 'positions', args: [tokenId] })) as readonly unknown[];
    await send(d.deployer, v3.positionManager, positionsAbi, 'decreaseLiquidity', [{ tokenId, liquidity: position[7] as bigint, amount0Min: 0n, amount1Min: 0n, deadline: DEADLINE }]);
    await send(d.deployer, v3.positionManager, positionsAbi, 'collect', [{ tokenId, recipient: d.deployer, amount0Max: 2n ** 128n - 1n, amount1Max: 2n ** 128n - 1n }]);
    const s = await snap(token);
    expect(s.risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.rug.reason).toMatch(/pulled by the deployer/);
    expect((s as unknown as { basis: { liquidityUsd: number } }).basis.liquidityUsd).toBeLessThan(0.01 * basis.liquidityUsd);
  });
});
