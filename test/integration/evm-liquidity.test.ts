/**
 * Liquidity as it really leaves, on the devnet through live ingest, written from the attacker's
 * side: LP tokens in a lock count only for locks whose unlock time the read takes from a
 * configured locker (infra/devnet/contracts/LpLocker.sol, UNCX's shape) and that are still ahead;
 * the attacker's own "locker" (test/fixtures/contracts/Liquidity.sol) answers the same views and
 * locks nothing; whoever supplied a pool's liquidity is deployer side beside the pair's creator;
 * wallets paid in one call through a Disperse contract (infra/devnet/contracts/Disperse.sol) are
 * funded by its caller; the launch's snipers and same-block bundles are served in holders-insight
 * with their share of the supply.
 * Each story also counts what its rule costs the node in calls per read.
 *
 * Own node on EVM_LIQUIDITY_DEVNET_PORT (default 18567; a node already answering there is used).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, custom, maxUint256, parseAbi, parseEther, type Address, type Hash, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnetClient, deployUniswap, erc20Abi, factoryAbi, routerAbi, startDevnet, type Devnet, type DevnetClient, type UniswapDeployment } from '../../infra/devnet/index.ts';
import { devnetChainConfig } from '../../ingest/evm/chains.ts';
import { compileSolidity, type Compiled } from '../../infra/devnet/solc.ts';
import { parseChainConfig } from '../../ingest/evm/config.ts';
import { createResolver } from '../../ingest/evm/resolver.ts';
import { createInspector } from '../../ingest/evm/contract/inspect.ts';
import type { Addr } from '../../ingest/evm/decode.ts';
import { devnetTokenSnapshot, type DevnetStack } from './devnet-stack.ts';
import { tokenHoldersInsightView } from '../../api/views/token.ts';
import type { TokenSnapshot } from '../../schemas/token.ts';
import { devnetTx, fullRangeV3, startStoryStack } from './devnet-tx.ts';

const root = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const port = Number(process.env.EVM_LIQUIDITY_DEVNET_PORT ?? 18567);
const DEADLINE = 4_000_000_000n;
const HOUR = 3600;

interface Snap {
  risk: {
    flags: { rug: { flagged: boolean; severity: string; reason: string } };
    signals: { deployerLiquiditySharePct: number; nonInsiderSellers: number; insiders: number };
    contract: null | { lpLockedPct: number | null; lpLockedUntil?: string | null; lpHeldByDeployerPct: number | null; trigger: string; block: number };
  };
}

const lockAbi = parseAbi([
  'function lock(address token, uint256 amount, uint256 unlockTime)',
  'function withdraw(address token, uint256 index)',
  'function rescue(address token, uint256 amount)',
]);
const disperseAbi = parseAbi([
  'function disperseEther(address[] recipients, uint256[] values) payable',
  'function disperseToken(address token, address[] recipients, uint256[] values)',
]);
const wethAbi = parseAbi(['function deposit() payable']);
const sellAbi = parseAbi(['function swapExactTokensForETHSupportingFeeOnTransferTokens(uint amountIn, uint amountOutMin, address[] path, address to, uint deadline)']);
const lpAbi = parseAbi(['function balanceOf(address) view returns (uint256)', 'function approve(address, uint256) returns (bool)', 'function transfer(address, uint256) returns (bool)']);

let devnet: Devnet;
let client: DevnetClient;
let d: UniswapDeployment;
/** the configured locker (LP_LOCKERS_DEVNET) */
let locker: Address;
let story: { stack: DevnetStack; stop: () => Promise<void> } | undefined;
let contracts: Record<string, Compiled>;
let accounts: Address[];

const tx = devnetTx(() => client, () => contracts);
const { send, deploy, increaseTime } = tx;
const fresh = (i: number) => accounts[10 + i] as Address;
const lower = (a: string) => a.toLowerCase() as Addr;

/** a plain token of `dev`'s, 100 ETH against 1,000,000 tokens added by `provider` (the pair created in that call unless `createdBy` made it first) */
async function launch(dev: Address, provider: Address = dev, createdBy?: Address): Promise<{ token: Address; pair: Address }> {
  const token = await deploy('PlainToken', ['PLN', parseEther('10000000')], dev);
  if (createdBy) await send(createdBy, d.factory, factoryAbi, 'createPair', [token, d.weth]);
  if (provider !== dev) await send(dev, token, erc20Abi, 'transfer', [provider, parseEther('1000000')]);
  await send(provider, token, erc20Abi, 'approve', [d.router, maxUint256]);
  await send(provider, d.router, routerAbi, 'addLiquidityETH', [token, parseEther('1000000'), 0n, 0n, provider, DEADLINE], parseEther('100'));
  const pair = (await client.readContract({ address: d.factory, abi: factoryAbi, functionName: 'getPair', args: [token, d.weth] })) as Address;
  return { token, pair };
}

const buy = (who: Address, token: Address, eth: string) => send(who, d.router, routerAbi, 'swapExactETHForTokens', [0n, [d.weth, token], who, DEADLINE], parseEther(eth));
const lpOf = async (pair: Address, who: Address) => (await client.readContract({ address: pair, abi: lpAbi, functionName: 'balanceOf', args: [who] })) as bigint;
const now = async () => Number((await client.getBlock({ blockTag: 'latest' })).timestamp);

async function snap(token: Address): Promise<Snap> {
  const { stack } = story as NonNullable<typeof story>;
  await stack.settle(tx.lastBlock());
  return devnetTokenSnapshot<Snap>(stack.services.store, token);
}

/** the node's calls of one contract read of `token` at the head, by method, with `lockers` (and V3 `managers`) configured and `providers` named */
async function callsOfRead(token: Address, pair: Address, lockers: Address[], providers: Address[] = [], managers?: Address[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const counted = createPublicClient({
    transport: custom({
      request: async ({ method, params }: { method: string; params?: unknown }) => {
        counts[method] = (counts[method] ?? 0) + 1;
        return client.request({ method, params } as never);
      },
    }),
  }) as unknown as PublicClient;
  const chain = parseChainConfig(devnetChainConfig(d, devnet.rpcUrl, { contracts: { lpLockers: lockers }, ...(managers ? { v3PositionManagers: managers } : {}) } as never));
  const inspector = createInspector({ client: counted, resolver: createResolver(client as unknown as PublicClient), chain });
  const head = await client.getBlock({ blockTag: 'latest' });
  const block = { number: Number(head.number), hash: head.hash, timestamp: Number(head.timestamp) };
  await inspector.inspect({ token: lower(token), block, trigger: 'schedule', chain: 'devnet', knownPools: [lower(pair)], providers: providers.map(lower) });
  return counts;
}

beforeAll(async () => {
  const sources = {
    'LpLocker.sol': readFileSync(join(root, 'infra/devnet/contracts/LpLocker.sol'), 'utf8'),
    'Disperse.sol': readFileSync(join(root, 'infra/devnet/contracts/Disperse.sol'), 'utf8'),
    'Liquidity.sol': readFileSync(join(root, 'test/fixtures/contracts/Liquidity.sol'), 'utf8'),
    'Stories.sol': readFileSync(join(root, 'test/fixtures/contracts/Stories.sol'), 'utf8'),
  };
  contracts = compileSolidity(sources, { evmVersion: 'cancun' });
  devnet = await startDevnet({ port });
  client = createDevnetClient(devnet.rpcUrl);
  d = await deployUniswap(client, { traders: 2 });
  accounts = await client.getAddresses();
  locker = await deploy('LpLocker', [], d.deployer);
  story = await startStoryStack('intel-evm-liquidity-', devnet.rpcUrl, d, { LP_LOCKERS_DEVNET: locker });
}, 240_000);

afterAll(async () => {
  await story?.stop();
  await devnet?.stop();
});

describe('LP locks as they really hold, through live ingest', () => {
  it('attacker: the LP tokens sit in its own "locker" that answers the lockers\u2019 views with a year-off unlock; its owner takes them back at will: nothing is locked', async () => {
    const dev = fresh(0);
    const { token, pair } = await launch(dev);
    const fake = await deploy('OwnerLocker', [], dev);
    const lp = await lpOf(pair, dev);
    await send(dev, pair, lpAbi, 'approve', [fake, maxUint256]);
    await send(dev, fake, lockAbi, 'lock', [pair, lp, BigInt((await now()) + 365 * 24 * HOUR)]);
    await buy(fresh(1), token, '1');
    const s = await snap(token);
    expect(s.risk.contract).toMatchObject({ lpLockedPct: 0, lpLockedUntil: null });
    expect(s.risk.flags.rug.reason).not.toMatch(/locked/);
    // the "lock" was never one
    await send(dev, fake, lockAbi, 'rescue', [pair, lp]);
    expect(await lpOf(pair, dev)).toBe(lp);
  });

  it('attacker: a real lock that expires in an hour is locked until then, said with its unlock time; two hours on, nothing is locked, and the liquidity leaves', async () => {
    const dev = fresh(2);
    const { token, pair } = await launch(dev);
    const lp = await lpOf(pair, dev);
    const unlock = (await now()) + HOUR;
    await send(dev, pair, lpAbi, 'approve', [locker, maxUint256]);
    await send(dev, locker, lockAbi, 'lock', [pair, lp, BigInt(unlock)]);
    await buy(fresh(3), token, '1');
    const locked = await snap(token);
    expect(locked.risk.contract?.lpLockedPct).toBeGreaterThan(99);
    expect(locked.risk.contract?.lpLockedUntil).toBe(new Date(unlock * 1000).toISOString());
    expect(locked.risk.flags.rug).toMatchObject({ severity: 'none' });
    expect(locked.risk.flags.rug.reason).toContain(`locked until ${new Date(unlock * 1000).toISOString()}`);
    // a withdrawal before the unlock time fails: the lock is real
    await expect(send(dev, locker, lockAbi, 'withdraw', [pair, 0n])).rejects.toThrow();

    await tx.increaseTime(2 * HOUR);
    await buy(fresh(4), token, '0.5');
    const due = await snap(token);
    expect(due.risk.contract).toMatchObject({ lpLockedPct: 0, lpLockedUntil: null });
    await send(dev, locker, lockAbi, 'withdraw', [pair, 0n]);
    expect(await lpOf(pair, dev)).toBe(lp);

    // cost: the lock read adds the locker's LP balance, its lock count and its locks (at most LOCKS_READ) to a read
    const relock = (await now()) + 30 * 24 * HOUR;
    await send(dev, locker, lockAbi, 'lock', [pair, lp / 2n, BigInt(relock)]);
    const [withLocker, without] = [await callsOfRead(token, pair, [locker]), await callsOfRead(token, pair, [])];
    expect((withLocker.eth_call ?? 0) - (without.eth_call ?? 0)).toBe(1 + 1 + 2);
  });
});

describe('the deployer side of a pool, through live ingest', () => {
  it('attacker: the deployer creates the pair and a fresh wallet adds all the liquidity: its LP tokens are the deployer side\u2019s, and it can pull', async () => {
    const dev = fresh(6);
    const lpWallet = fresh(7);
    const { token, pair } = await launch(dev, lpWallet, dev);
    await buy(fresh(8), token, '1');
    const s = await snap(token);
    expect(s.risk.signals.deployerLiquiditySharePct).toBe(100);
    expect(s.risk.contract?.lpHeldByDeployerPct).toBeGreaterThan(99);
    expect(s.risk.flags.rug).toMatchObject({ severity: 'warning' });
    expect(s.risk.flags.rug.reason).toMatch(/holds 100% of the LP tokens and can pull/);
    // cost: one LP balance per provider named
    const [named, unnamed] = [await callsOfRead(token, pair, [], [lpWallet]), await callsOfRead(token, pair, [], [])];
    expect((named.eth_call ?? 0) - (unnamed.eth_call ?? 0)).toBe(1);
  });
});

describe('the deployer side of a pool: a dust add first', () => {
  it('attacker: the deployer adds a dust of liquidity first, a fresh wallet the bulk: both are deployer side, and together they can pull', async () => {
    const dev = fresh(24);
    const lpWallet = fresh(25);
    const token = await deploy('PlainToken', ['PLN', parseEther('10000000')], dev);
    await send(dev, token, erc20Abi, 'approve', [d.router, maxUint256]);
    await send(dev, d.router, routerAbi, 'addLiquidityETH', [token, parseEther('1000'), 0n, 0n, dev, DEADLINE], parseEther('0.1'));
    await send(dev, token, erc20Abi, 'transfer', [lpWallet, parseEther('1000000')]);
    await send(lpWallet, token, erc20Abi, 'approve', [d.router, maxUint256]);
    await send(lpWallet, d.router, routerAbi, 'addLiquidityETH', [token, parseEther('1000000'), 0n, 0n, lpWallet, DEADLINE], parseEther('100'));
    await buy(fresh(26), token, '1');
    const s = await snap(token);
    expect(s.risk.signals.deployerLiquiditySharePct).toBe(100);
    expect(s.risk.contract?.lpHeldByDeployerPct).toBeGreaterThan(99);
    expect(s.risk.flags.rug.reason).toMatch(/can pull/);
  });
});

describe('the money as it moves, through live ingest', () => {
  it('attacker: the deployer pays its sellers in one Disperse call each (ether, and WETH), not one payment each: they are its insiders; a stranger\u2019s use of the same contract funds nobody', async () => {
    const dev = fresh(9);
    const [s1, s2, s3] = [fresh(10), fresh(11), fresh(12)];
    const [o1, o2] = [fresh(13), fresh(14)];
    const disperse = await deploy('Disperse', [], fresh(15));
    await send(dev, disperse, disperseAbi, 'disperseEther', [[s1, s2], [parseEther('2'), parseEther('2')]], parseEther('4'));
    await send(dev, d.weth, wethAbi, 'deposit', [], parseEther('2'));
    await send(dev, d.weth, erc20Abi, 'approve', [disperse, maxUint256]);
    await send(dev, disperse, disperseAbi, 'disperseToken', [d.weth, [s3], [parseEther('2')]]);
    const stranger = fresh(16);
    await send(stranger, disperse, disperseAbi, 'disperseEther', [[o1, o2], [parseEther('1'), parseEther('1')]], parseEther('2'));
    const { token } = await launch(dev);
    for (const w of [s1, s2, s3, o1, o2]) await buy(w, token, '0.5');
    for (const w of [s1, s2, s3, o1, o2]) {
      const bal = (await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [w] })) as bigint;
      await send(w, token, erc20Abi, 'approve', [d.router, maxUint256]);
      await send(w, d.router, sellAbi, 'swapExactTokensForETHSupportingFeeOnTransferTokens', [bal / 2n, 0n, [token, d.weth], w, DEADLINE]);
    }
    const s = await snap(token);
    // the three the deployer paid are insiders; the two the stranger paid are the only outside sellers
    expect(s.risk.signals.nonInsiderSellers).toBe(2);
    expect(s.risk.signals.insiders).toBeGreaterThanOrEqual(3);
  });
});

describe('who bought at the launch, through live ingest', () => {
  it('attacker: three wallets\u2019 buys land in one block right after the launch, one more a block later, then the crowd: a bundle of three, four snipers, served with the share they hold', async () => {
    const dev = fresh(17);
    const { token } = await launch(dev);
    const bundle = [fresh(18), fresh(19), fresh(20)];
    await client.request({ method: 'evm_setAutomine' as never, params: [false] as never });
    const hashes: Hash[] = [];
    for (const w of bundle) {
      hashes.push(await client.writeContract({ address: d.router, abi: routerAbi, functionName: 'swapExactETHForTokens', args: [0n, [d.weth, token], w, DEADLINE], account: w, chain: client.chain, value: parseEther('1'), gas: 500_000n } as never));
    }
    await client.request({ method: 'evm_mine' as never, params: [] as never });
    await client.request({ method: 'evm_setAutomine' as never, params: [true] as never });
    const blocks = await Promise.all(hashes.map((h) => tx.mined(h)));
    expect(new Set(blocks).size).toBe(1);
    await buy(fresh(21), token, '1');
    await client.request({ method: 'evm_mine' as never, params: [] as never });
    for (const w of [fresh(22), fresh(23)]) await buy(w, token, '0.5');
    const snapshot = await snap(token) as unknown as TokenSnapshot;
    const served = tokenHoldersInsightView(snapshot, Math.floor(Date.now() / 1000));
    const held = async (ws: Address[]) => {
      const b = await Promise.all(ws.map((w) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [w] }) as Promise<bigint>));
      return Math.round(Number((1000n * b.reduce((a, x) => a + x, 0n)) / parseEther('10000000'))) / 10;
    };
    expect(served.launch?.bundles).toMatchObject({ count: 1, wallets: 3, blocks: [blocks[0]] });
    expect(served.launch?.bundles.supplySharePct).toBeCloseTo(await held(bundle), 0);
    expect(served.launch?.snipers.wallets).toBe(4);
    expect(served.launch?.snipers.supplySharePct).toBeCloseTo(await held([...bundle, fresh(21)]), 0);
  });
});

describe('V3 positions as liquidity, through live ingest', () => {
  const DEAD = '0x000000000000000000000000000000000000dEaD' as Address;
  const v3Abi = parseAbi([
    'function getPool(address, address, uint24) view returns (address)',
    'function balanceOf(address owner) view returns (uint256)',
    'function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)',
    'function transferFrom(address from, address to, uint256 tokenId)',
    'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 deadline; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
    'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
  ]);
  const v3 = () => d.v3 as NonNullable<UniswapDeployment['v3']>;
  const v3Buy = (who: Address, token: Address) =>
    send(who, v3().router, v3Abi, 'exactInputSingle', [{ tokenIn: d.weth, tokenOut: token, fee: 3000, recipient: who, deadline: DEADLINE, amountIn: parseEther('1'), amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }], parseEther('1'));

  it('a V3-only token whose deployer holds the position: held, and the rug rule warns; the position NFT sent to the dead address: burned, nothing held', async () => {
    const dev = fresh(27);
    const token = await deploy('PlainToken', ['VPOS', parseEther('10000000')], dev);
    await fullRangeV3(send, d, dev, token, parseEther('1000000'), parseEther('100'));
    const pool = (await client.readContract({ address: v3().factory, abi: v3Abi, functionName: 'getPool', args: [token, d.weth, 3000] })) as Address;
    const owned = (await client.readContract({ address: v3().positionManager, abi: v3Abi, functionName: 'balanceOf', args: [dev] })) as bigint;
    const tokenId = (await client.readContract({ address: v3().positionManager, abi: v3Abi, functionName: 'tokenOfOwnerByIndex', args: [dev, owned - 1n] })) as bigint;
    await v3Buy(fresh(28), token);
    const held = await snap(token);
    expect(held.risk.contract?.lpHeldByDeployerPct).toBeGreaterThan(99);
    expect(held.risk.flags.rug.reason).toMatch(/can pull/);

    await send(dev, v3().positionManager, v3Abi, 'transferFrom', [dev, DEAD, tokenId]);
    // read again when the token trades after the read interval
    await increaseTime(2 * HOUR);
    await v3Buy(fresh(29), token);
    const burned = await snap(token) as Snap & { risk: { contract: { lpBurnedPct: number | null } } };
    expect(burned.risk.contract?.lpHeldByDeployerPct).toBe(0);
    expect(burned.risk.contract?.lpBurnedPct).toBeGreaterThan(99);
    // cost: the pool's four views, per holder asked a balance, and per position it holds an index and the position
    // (here the owner, holding none now, and the dead address, holding this one)
    const [withManager, without] = [await callsOfRead(token, pool, [], [], [v3().positionManager]), await callsOfRead(token, pool, [], [], [])];
    expect((withManager.eth_call ?? 0) - (without.eth_call ?? 0)).toBe(4 + 1 + 3);
  });

  it('attacker: the deployer funds a fresh wallet and moves the position NFT to it: still the deployer side\u2019s, held', async () => {
    const dev = fresh(18);
    const hidden = fresh(19);
    const token = await deploy('PlainToken', ['VHID', parseEther('10000000')], dev);
    await fullRangeV3(send, d, dev, token, parseEther('1000000'), parseEther('100'));
    const owned = (await client.readContract({ address: v3().positionManager, abi: v3Abi, functionName: 'balanceOf', args: [dev] })) as bigint;
    const tokenId = (await client.readContract({ address: v3().positionManager, abi: v3Abi, functionName: 'tokenOfOwnerByIndex', args: [dev, owned - 1n] })) as bigint;
    await client.waitForTransactionReceipt({ hash: await client.sendTransaction({ account: dev, to: hidden, value: parseEther('1'), chain: client.chain }) });
    await v3Buy(fresh(22), token);
    await send(dev, v3().positionManager, v3Abi, 'transferFrom', [dev, hidden, tokenId]);
    // read again when the token trades after the read interval
    await increaseTime(2 * HOUR);
    await v3Buy(fresh(13), token);
    const s = await snap(token);
    expect(s.risk.contract?.lpHeldByDeployerPct).toBeGreaterThan(99);
    expect(s.risk.flags.rug.reason).toMatch(/can pull/);
  });
});

