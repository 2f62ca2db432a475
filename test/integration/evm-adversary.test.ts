/**
 * Devnet stories written from the attacker's side (test/fixtures/contracts/Adversary.sol), traded
 * through the real Uniswap V2 router while `npm start`'s embedded stack follows the chain live:
 * each dodges a rule the attacker read, and the story asserts what the engine serves. Beside them,
 * the legitimate story the old rules flagged (a crash with its liquidity in place).
 *
 * The tokens are deployed by a fresh account: the deployment's traders got their first stablecoins
 * from its deployer, so they would be that deployer's insiders. Own node on
 * EVM_ADVERSARY_DEVNET_PORT (default 18554).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { maxUint256, parseAbi, parseEther, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevnetClient, UniswapDeployment } from '../../infra/devnet/index.ts';
import type { Compiled } from '../../infra/devnet/solc.ts';
import type { DevnetStack } from './devnet-stack.ts';
import { devnetTx } from './devnet-tx.ts';
import { DEADLINE, openStory, storyKit, type Story, type StoryFlag } from './story-kit.ts';

const root = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const port = Number(process.env.EVM_ADVERSARY_DEVNET_PORT ?? 18554);

interface Snap {
  verdict: string;
  risk: {
    flags: { rug: StoryFlag; honeypot: StoryFlag; contract?: StoryFlag };
    signals: { largestLiquidityDropPct: number; nonInsiderSellers: number; insiders: number };
    contract: null | { sellable: boolean | null; holdersSimulated?: number; trigger: string; block: number };
  };
}

const storyAbi = parseAbi(['function setPair(address p)', 'function welcome(address[] who)']);
const renounceAbi = parseAbi(['function renounceOwnership()']);
const guardAbi = parseAbi(['function setSellsOpen(bool open)']);
const lpAbi = parseAbi(['function balanceOf(address) view returns (uint256)', 'function approve(address, uint256) returns (bool)']);
const wethAbi = parseAbi(['function deposit() payable', 'function transfer(address, uint256) returns (bool)']);
const removeAbi = parseAbi(['function removeLiquidityETH(address token, uint liquidity, uint amountTokenMin, uint amountETHMin, address to, uint deadline) returns (uint, uint)']);
const forwarderAbi = parseAbi(['function forward(address weth, address[] to, uint256 each)']);

let story: Story | undefined;
let client: DevnetClient;
let d: UniswapDeployment;
let stack: DevnetStack;
let contracts: Record<string, Compiled>;
let accounts: Address[];

const tx = devnetTx(() => client, () => contracts);
const { send, deploy, increaseTime } = tx;

const kit = storyKit({ client: () => client, d: () => d, stack: () => stack, tx });
const { launch, buy, sell } = kit;
const snap = (token: Address) => kit.snap<Snap>(token);

beforeAll(async () => {
  story = await openStory(root, port, 'intel-evm-adversary-', ['Adversary.sol', 'Stories.sol']);
  ({ client, d, stack, contracts } = story);
  accounts = await client.getAddresses();
}, 240_000);

afterAll(async () => {
  await story?.stop();
});

/** accounts no deployment step touched (the node has 40): first funded by nobody we know */
const fresh = (i: number) => accounts[10 + i] as Address;

describe('devnet stories from the attacker\u2019s side, through live ingest', () => {
  it('a honeypot that tells a simulation from a holder: the probe sells, the holders cannot; red from the holders\u2019 simulated sells, avoid', async () => {
    const dev = fresh(0);
    const token = await deploy('ProbeAwareHoneypot', [parseEther('10000000')], dev);
    const pair = await launch(token, dev);
    await send(dev, token, storyAbi, 'setPair', [pair]);
    // five buyers, each in a block of its own: the watch reads the token again (a cadence that follows its buyers)
    for (let i = 1; i <= 5; i++) await buy(fresh(i), token, '0.5');
    await expect(sell(fresh(1), token, 50n)).rejects.toThrow(); // the trap is real
    const s = await snap(token);
    expect(s.risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red', source: 'contract' });
    expect(s.risk.flags.honeypot.reason).toMatch(/simulated as holder .* holders cannot sell/);
    expect(s.risk.contract).toMatchObject({ sellable: false, holdersSimulated: 2 });
    expect(s.verdict).toBe('avoid');
  });

  it('decoy sellers funded through two hops keep the stuck-buyer rule quiet: the funding tree makes them insiders, nobody outside sold, red', async () => {
    const dev = fresh(6);
    const hop = fresh(7);
    const decoys = [fresh(8), fresh(9), fresh(10)];
    // the deployer pays a fresh hop in WETH, the hop pays the decoys: none of them is paid by the deployer directly
    await send(dev, d.weth, wethAbi, 'deposit', [], parseEther('30'));
    await send(dev, d.weth, wethAbi, 'transfer', [hop, parseEther('30')]);
    for (const x of decoys) await send(hop, d.weth, wethAbi, 'transfer', [x, parseEther('5')]);
    const token = await deploy('DecoyHoneypot', [parseEther('10000000')], dev);
    const pair = await launch(token, dev);
    await send(dev, token, storyAbi, 'setPair', [pair]);
    await send(dev, token, storyAbi, 'welcome', [decoys]);
    for (let i = 0; i < 12; i++) await buy(fresh(11 + i), token, '0.2');
    // the stuck-buyer rule waits for half an hour of trading
    await increaseTime(40 * 60);
    for (const x of decoys) await buy(x, token, '0.3');
    for (const x of decoys) await sell(x, token, 50n);
    const s = await snap(token);
    expect(s.risk.signals.insiders).toBeGreaterThanOrEqual(decoys.length);
    expect(s.risk.signals.nonInsiderSellers).toBe(0);
    expect(s.risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.verdict).toBe('avoid');
  });

  it('a switch outside the token: renounced, its transfers ask a guard whose owner turns sells off with a call to the guard alone; read again at that call, red', async () => {
    const dev = fresh(29);
    const guard = await deploy('SellGuard', [], dev);
    const token = await deploy('GuardedToken', [parseEther('10000000'), guard], dev);
    const pair = await launch(token, dev);
    await send(dev, token, storyAbi, 'setPair', [pair]);
    await send(dev, token, renounceAbi, 'renounceOwnership', []);
    for (let i = 1; i <= 5; i++) await buy(fresh(i), token, '0.3');
    const before = await snap(token);
    expect(before.risk.flags.honeypot.severity).not.toBe('red');
    expect(before.risk.flags.contract?.reason).toMatch(/ownership is renounced, it names contract 0x.*, whose owner 0x.* can still change it/i);
    const off = await send(dev, guard, guardAbi, 'setSellsOpen', [false]);
    const after = await snap(token);
    expect(after.risk.contract).toMatchObject({ trigger: 'dependency', block: off, sellable: false });
    expect(after.risk.flags.honeypot).toMatchObject({ flagged: true, severity: 'red' });
  });

  it('a drain too slow for the windowed rules: 5 % of the liquidity every four hours for three days: red, a slow drain', async () => {
    const dev = fresh(23);
    const token = await deploy('PlainToken', ['DRIP', parseEther('10000000')], dev);
    const pair = await launch(token, dev);
    for (let i = 0; i < 2; i++) await buy(fresh(24 + i), token, '1');
    await send(dev, pair, lpAbi, 'approve', [d.router, maxUint256]);
    for (let i = 0; i < 18; i++) {
      await increaseTime(4 * 3600);
      const lp = (await client.readContract({ address: pair, abi: lpAbi, functionName: 'balanceOf', args: [dev] })) as bigint;
      await send(dev, d.router, removeAbi, 'removeLiquidityETH', [token, lp / 20n, 0n, 0n, dev, DEADLINE]);
    }
    const s = await snap(token);
    expect(s.risk.signals.largestLiquidityDropPct).toBeLessThan(50);
    expect(s.risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.rug.reason).toMatch(/slow drain/);
    expect(s.verdict).toBe('avoid');
  });

  it('legitimate: a crash with the liquidity in place (buyers pile in, then all sell) is a price crash, never a rug', async () => {
    const dev = fresh(26);
    const token = await deploy('PlainToken', ['BOOM', parseEther('10000000')], dev);
    await launch(token, dev);
    const crowd = [27, 28].map(fresh);
    for (const x of crowd) await buy(x, token, '120');
    for (const x of crowd) await sell(x, token, 100n);
    const s = await snap(token);
    expect(s.risk.signals.largestLiquidityDropPct).toBeGreaterThan(50);
    expect(s.risk.flags.rug.severity).not.toBe('red');
    expect(s.risk.flags.rug.reason).toMatch(/price crash/);
  });

  it('a third party\u2019s payment contract the deployer once paid WETH into is no funder: a buyer it pays later and who sells is no insider', async () => {
    const dev = fresh(24);
    const operator = fresh(25);
    // the router itself was first paid by the devnet's own deployment, so a contract of the story's own stands for it
    const service = await deploy('Forwarder', [], operator);
    await send(dev, d.weth, wethAbi, 'deposit', [], parseEther('10'));
    await send(dev, d.weth, wethAbi, 'transfer', [service, parseEther('10')]);
    const token = await deploy('PlainToken', ['SERV', parseEther('10000000')], dev);
    await launch(token, dev);
    const customer = fresh(22);
    await send(operator, service, forwarderAbi, 'forward', [d.weth, [customer], parseEther('1')]);
    await buy(customer, token, '1');
    await sell(customer, token, 50n);
    const s = await snap(token);
    expect(s.risk.signals.nonInsiderSellers).toBe(1);
  });

  it('attacker: the deployer funds snipers in WETH through a forwarder contract he deployed: the forwarder is deployer side, the snipers insiders', async () => {
    const dev = fresh(21);
    const snipers = [fresh(19), fresh(20)];
    const forwarder = await deploy('Forwarder', [], dev);
    await send(dev, d.weth, wethAbi, 'deposit', [], parseEther('10'));
    await send(dev, d.weth, wethAbi, 'transfer', [forwarder, parseEther('10')]);
    await send(dev, forwarder, forwarderAbi, 'forward', [d.weth, snipers, parseEther('5')]);
    const token = await deploy('PlainToken', ['FWD', parseEther('10000000')], dev);
    await launch(token, dev);
    for (const x of snipers) await buy(x, token, '1');
    for (const x of snipers) await sell(x, token, 50n);
    const s = await snap(token);
    expect(s.risk.signals.insiders).toBeGreaterThanOrEqual(snipers.length);
    expect(s.risk.signals.nonInsiderSellers).toBe(0);
  });
});
