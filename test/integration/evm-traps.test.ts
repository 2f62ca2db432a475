/**
 * Devnet stories through live ingest, beside evm-adversary.test.ts: the traps a fresh probe
 * misses (a token traded only on Uniswap V3, limits and taxes that depend on the sell's size) and
 * the legitimate moves the old rules flagged (liquidity moved to a new pool, supply held by
 * staking and vesting contracts), each with the attacker's way around the rule that clears it.
 *
 * Every account a story trades from is a stranger: impersonated on the node with its ether set
 * outright, so no transfer makes it anyone's insider. Own node on EVM_TRAPS_DEVNET_PORT (default 18567).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { maxUint128, maxUint256, parseAbi, parseEther, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi, type DevnetClient, type UniswapDeployment } from '../../infra/devnet/index.ts';
import type { Compiled } from '../../infra/devnet/solc.ts';
import type { DevnetStack } from './devnet-stack.ts';
import { devnetTx, fullRangeV3 } from './devnet-tx.ts';
import { DEADLINE, openStory, storyKit, type Story, type StoryFlag } from './story-kit.ts';

const root = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const port = Number(process.env.EVM_TRAPS_DEVNET_PORT ?? 18567);

interface Snap {
  verdict: string;
  risk: {
    flags: { rug: StoryFlag; honeypot: StoryFlag; concentration: StoryFlag };
    signals: { nonInsiderSellers: number; largestLiquidityDropPct: number };
    contract: null | { simSkipped: string | null; holdersSimulated?: number };
  };
}

const storyAbi = parseAbi(['function setPair(address p)', 'function welcome(address[] who)']);
const v3FactoryAbi = parseAbi(['function getPool(address, address, uint24) view returns (address)']);
const lpAbi = parseAbi(['function balanceOf(address) view returns (uint256)', 'function approve(address, uint256) returns (bool)']);
const removeAbi = parseAbi(['function removeLiquidityETH(address token, uint liquidity, uint amountTokenMin, uint amountETHMin, address to, uint deadline) returns (uint, uint)']);
const positionsAbi = parseAbi([
  'function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)',
  'function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 g0, uint256 g1, uint128 owed0, uint128 owed1)',
  'struct DecreaseLiquidityParams { uint256 tokenId; uint128 liquidity; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }',
  'function decreaseLiquidity(DecreaseLiquidityParams params) payable returns (uint256 amount0, uint256 amount1)',
  'struct CollectParams { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }',
  'function collect(CollectParams params) payable returns (uint256 amount0, uint256 amount1)',
]);

let story: Story;
let client: DevnetClient;
let d: UniswapDeployment;
let stack: DevnetStack;
let contracts: Record<string, Compiled>;

const tx = devnetTx(() => client, () => contracts);
const { send, deploy, increaseTime } = tx;
const kit = storyKit({ client: () => client, d: () => d, stack: () => stack, tx });
const { launch, buy, sell, v3Buy, v3Sell, stranger } = kit;
const snap = (token: Address) => kit.snap<Snap>(token);
const strangers = (from: number, n: number) => Promise.all(Array.from({ length: n }, (_, i) => stranger(from + i)));

/** the token's 0.3 % V3 pool against WETH */
const v3Pool = async (token: Address) =>
  (await client.readContract({ address: (d.v3 as NonNullable<UniswapDeployment['v3']>).factory, abi: v3FactoryAbi, functionName: 'getPool', args: [token, d.weth, 3000] })) as Address;

/** the deployer takes all its liquidity out of the V2 pair and puts every token it holds into a new full-range V3 pool at the launch price */
async function migrateToV3(dev: Address, token: Address, pair: Address): Promise<void> {
  await send(dev, pair, lpAbi, 'approve', [d.router, maxUint256]);
  const lp = (await client.readContract({ address: pair, abi: lpAbi, functionName: 'balanceOf', args: [dev] })) as bigint;
  await send(dev, d.router, removeAbi, 'removeLiquidityETH', [token, lp, 0n, 0n, dev, DEADLINE]);
  const tokens = await kit.balanceOf(token, dev);
  await fullRangeV3(send, d, dev, token, tokens, tokens / 10_000n);
}

/** the owner's first V3 position taken out whole: its liquidity decreased to nothing, then collected */
async function pullV3(owner: Address): Promise<void> {
  const pm = (d.v3 as NonNullable<UniswapDeployment['v3']>).positionManager;
  const id = (await client.readContract({ address: pm, abi: positionsAbi, functionName: 'tokenOfOwnerByIndex', args: [owner, 0n] })) as bigint;
  const position = (await client.readContract({ address: pm, abi: positionsAbi, functionName: 'positions', args: [id] })) as readonly unknown[];
  await send(owner, pm, positionsAbi, 'decreaseLiquidity', [{ tokenId: id, liquidity: position[7], amount0Min: 0n, amount1Min: 0n, deadline: DEADLINE }]);
  await send(owner, pm, positionsAbi, 'collect', [{ tokenId: id, recipient: owner, amount0Max: maxUint128, amount1Max: maxUint128 }]);
}

beforeAll(async () => {
  story = await openStory(root, port, 'intel-evm-traps-', ['Adversary.sol', 'Stories.sol', 'Holdings.sol']);
  ({ client, d, stack, contracts } = story);
}, 240_000);

afterAll(async () => {
  await story?.stop();
});

describe('devnet traps a fresh probe misses, through live ingest', () => {
  /**
   * A token launched on V2 whose trap depends on the sell's size; five strangers buy 10 ETH each,
   * three of them sell 1% for real (under the trap's size): the trades see outside sellers, and
   * the served snapshot must still be red from the holders' simulated larger sells.
   */
  async function sizeStory(first: number, name: string, args: unknown[]): Promise<Snap> {
    const [dev, ...buyers] = (await strangers(first, 6)) as [Address, ...Address[]];
    const token = await deploy(name, args, dev);
    await send(dev, token, storyAbi, 'setPair', [await launch(token, dev)]);
    for (const b of buyers) await buy(b, token, '10');
    for (const b of buyers.slice(0, 3)) await sell(b, token, 1n);
    const s = await snap(token);
    expect(s.risk.signals.nonInsiderSellers).toBe(3);
    expect(s.risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red' });
    return s;
  }

  it('attacker: a trap on a token whose only pool is Uniswap V3, decoys selling to keep the stuck-buyer rule quiet: no probe on V3, the holders\u2019 simulated V3 sells revert: red, avoid', async () => {
    const [dev, ...rest] = await strangers(100, 10);
    const decoys = rest.slice(0, 3);
    const buyers = rest.slice(3);
    const token = await deploy('DecoyHoneypot', [parseEther('10000000')], dev as Address);
    await fullRangeV3(send, d, dev as Address, token, parseEther('1000000'), parseEther('100'));
    await send(dev as Address, token, storyAbi, 'setPair', [await v3Pool(token)]);
    await send(dev as Address, token, storyAbi, 'welcome', [decoys]);
    for (const b of buyers) await v3Buy(b, token, '0.5');
    await expect(v3Sell(buyers[0] as Address, token, 50n)).rejects.toThrow(); // the trap is real
    await increaseTime(40 * 60);
    for (const x of decoys) await v3Buy(x, token, '0.3');
    for (const x of decoys) await v3Sell(x, token, 50n);
    const s = await snap(token);
    // strangers to the deployer (a pool's WETH legs fund nobody): outside sellers, the trades' rule stays quiet
    expect(s.risk.signals.nonInsiderSellers).toBe(decoys.length);
    expect(s.risk.contract?.simSkipped).toMatch(/only on V3/);
    expect(s.risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.honeypot.reason).toMatch(/simulated as holder .* holders cannot sell/);
    expect(s.verdict).toBe('avoid');
  });

  it('attacker: a sell cap (only 2,000 tokens may leave per sell) that lets the probe and the buyers\u2019 small real sells through: red, a sell cap, avoid', async () => {
    const s = await sizeStory(120, 'SellCapToken', [parseEther('10000000'), parseEther('2000')]);
    expect(s.risk.flags.honeypot.reason).toMatch(/reverts .* while a sliver sells .*: a sell cap/);
    expect(s.verdict).toBe('avoid');
  });

  it('attacker: a 60% tax only on sells above 5,000 tokens, the probe and the small real sells untaxed: red, the loss at the size served, avoid', async () => {
    const s = await sizeStory(130, 'SizeTaxToken', [parseEther('10000000'), parseEther('5000'), 60n]);
    expect(s.risk.flags.honeypot.reason).toMatch(/sell of (25|100)% of its balance loses more than 50% to a tax/);
    expect(s.verdict).toBe('avoid');
  });
});

describe('devnet: liquidity moved to a new pool of the token, through live ingest', () => {
  /** a token whose whole supply but 10,000 goes into its V2 pair, bought by three strangers, then moved to V3 by its deployer */
  async function migrated(first: number): Promise<{ dev: Address; buyers: Address[]; token: Address }> {
    const [dev, ...buyers] = (await strangers(first, 4)) as [Address, ...Address[]];
    const token = await deploy('PlainToken', ['MOVE', parseEther('1010000')], dev);
    const pair = await launch(token, dev);
    for (const b of buyers) await buy(b, token, '1');
    await migrateToV3(dev, token, pair);
    return { dev, buyers, token };
  }

  it('legitimate: the team takes its liquidity out of the V2 pair and puts it in a new V3 pool minutes later: a migration, not a rug; holders sell in the new pool', async () => {
    const { buyers, token } = await migrated(140);
    for (const b of buyers.slice(0, 2)) await v3Sell(b, token, 50n);
    const s = await snap(token);
    expect(s.risk.signals.largestLiquidityDropPct).toBeGreaterThan(50);
    // no rug; the team still holds the new V3 position, so the held-liquidity warning stands, never red
    expect(s.risk.flags.rug.flagged).toBe(false);
    expect(s.risk.flags.rug.severity).not.toBe('red');
    expect(s.risk.flags.rug.reason).toMatch(/migration/);
    expect(s.verdict).not.toBe('avoid');
  });

  it('attacker: a migration to launder a pull: the team moves to V3, then takes the V3 position out two hours later: red, pulled by the deployer, avoid', async () => {
    const { dev, token } = await migrated(150);
    await increaseTime(2 * 3600);
    await pullV3(dev);
    const s = await snap(token);
    expect(s.risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.rug.reason).toMatch(/pulled by the deployer/);
    expect(s.verdict).toBe('avoid');
  });
});

describe('devnet: supply held by staking and vesting contracts, through live ingest', () => {
  const stakeAbi = parseAbi(['function stake(uint256 amount)']);
  /**
   * 10,000,000 tokens: 5,500,000 in the pool, 3,000,000 in the team's vesting wallet (a year),
   * 1,500,000 left with the deployer; eight strangers buy 25 ETH each (two sell 1%) and stake all
   * they hold in `staking`; an hour on, a buy reads the token again with the stakes in place.
   */
  async function staked(first: number, staking: string): Promise<{ s: Snap; stakes: Address; vest: Address }> {
    const sent = story.rpc.length;
    const [dev, late, ...stakers] = (await strangers(first, 10)) as [Address, Address, ...Address[]];
    const token = await deploy('PlainToken', ['STK', parseEther('10000000')], dev);
    await launch(token, dev, '5500000');
    const start = (await client.getBlock()).timestamp;
    const vest = await deploy('TeamVesting', [dev, start, 365n * 86400n], dev);
    await send(dev, token, erc20Abi, 'transfer', [vest, parseEther('3000000')]);
    const stakes = await deploy(staking, [token], dev);
    for (const x of stakers) await buy(x, token, '25');
    for (const x of stakers.slice(0, 2)) await sell(x, token, 1n);
    for (const x of stakers) {
      await send(x, token, erc20Abi, 'approve', [stakes, maxUint256]);
      await send(x, stakes, stakeAbi, 'stake', [await kit.balanceOf(token, x)]);
    }
    await increaseTime(3700);
    await buy(late, token, '0.1');
    const s = await snap(token);
    const cost = holdingsCost(token, [stakes, vest], sent);
    console.log(`[holdings] ${staking}: ${cost.reads} reads of the token, ${cost.naming} requests naming the two contracts, ${cost.all} requests in all`);
    // a read asks of each contract holder its code and proxy slot once, then its balance and its kind's three reads or so
    expect(cost.naming).toBeLessThanOrEqual(2 * (2 + 6 * cost.reads));
    return { s, stakes, vest };
  }

  /** the stack's requests since `from`: reads of the token (each begins with its code), those naming the contracts, all */
  function holdingsCost(token: Address, contracts: Address[], from: number): { reads: number; naming: number; all: number } {
    const calls = story.rpc.slice(from);
    const hex = contracts.map((c) => c.slice(2).toLowerCase());
    return {
      reads: calls.filter((c) => c.method === 'eth_getCode' && c.params.includes(token.toLowerCase())).length,
      naming: calls.filter((c) => hex.some((h) => c.params.includes(h))).length,
      all: calls.length,
    };
  }

  it('legitimate: an ownerless staking contract holding eight buyers\u2019 stakes and the team\u2019s vesting wallet hold two thirds of supply: not counted, with the reason; no red concentration, not avoid', async () => {
    const { s, stakes, vest } = await staked(170, 'SimpleStaking');
    const reason = s.risk.flags.concentration.reason;
    expect(reason).toContain(`staking contract ${stakes.toLowerCase().slice(0, 8)}`);
    expect(reason).toContain(`vesting contract ${vest.toLowerCase().slice(0, 8)}`);
    expect(reason).toMatch(/Not counted: .*stakes its stakers can withdraw.*vesting to 0x.* until \d{4}-/);
    expect(s.risk.flags.concentration.severity).not.toBe('red');
    expect(s.verdict).not.toBe('avoid');
  });

  it('attacker: the same stakes in a "staking" contract whose owner can sweep them (emergencyWithdraw): counted as a holder, with the reason; red concentration, avoid', async () => {
    const { s, stakes } = await staked(190, 'SweepableStaking');
    expect(s.risk.flags.concentration).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.concentration.reason).toMatch(new RegExp(`Counted as holders: staking contract ${stakes.toLowerCase().slice(0, 8)}.*functions a staking contract does not need`));
    expect(s.verdict).toBe('avoid');
  });

  it('attacker: the deployer parks 55% of supply in an ownerless staking contract without staking it: more than its stakes, counted as a holder, red', async () => {
    const [dev, ...buyers] = (await strangers(210, 6)) as [Address, ...Address[]];
    const token = await deploy('PlainToken', ['PARK', parseEther('10000000')], dev);
    await launch(token, dev, '4000000');
    const stakes = await deploy('SimpleStaking', [token], dev);
    await send(dev, token, erc20Abi, 'transfer', [stakes, parseEther('5500000')]);
    for (const x of buyers) await buy(x, token, '1');
    const s = await snap(token);
    expect(s.risk.flags.concentration).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.concentration.reason).toMatch(new RegExp(`Counted as holders: staking contract ${stakes.toLowerCase().slice(0, 8)}.*more than its stakes`));
  });
});
