/**
 * Class 7, a sybil farm graded smart, from the attacker's side through live ingest: a farm of
 * wallets funded through hops wins round trips against a loser of its own cluster (the cluster
 * loses what its farm wallets win); beside it, a wallet that won every round trip it closed
 * against outsiders, graded before the full sample with its confidence stated. Plain tokens traded
 * through the real Uniswap V2 router while `npm start`'s embedded stack follows the chain.
 *
 * Own node on EVM_SYBIL_DEVNET_PORT (default 18567).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { maxUint256, parseAbi, parseEther, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { erc20Abi, routerAbi } from '../../infra/devnet/index.ts';
import { devnetSnapshot } from './devnet-stack.ts';
import { devnetTx, storyDevnet } from './devnet-tx.ts';

const root = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const port = Number(process.env.EVM_SYBIL_DEVNET_PORT ?? 18567);
const DEADLINE = 4_000_000_000n;
const sellAbi = parseAbi(['function swapExactTokensForETHSupportingFeeOnTransferTokens(uint amountIn, uint amountOutMin, address[] path, address to, uint deadline)']);

interface Grade {
  grade: string;
  reasons: string[];
  sample: { closedRoundTrips: number; met: boolean };
}

const h = storyDevnet(root, 'intel-evm-sybil-', port, ['Stories.sol']);
const tx = devnetTx(() => h.client, () => h.contracts);
const { send, deploy, increaseTime } = tx;

/** accounts no deployment step touched (the node has 40): first funded by nobody we know */
const fresh = (i: number) => h.accounts[10 + i] as Address;

/** plain tokens from `dev`, each with 100 ETH against 1,000,000 tokens, past their launch window */
async function plainTokens(dev: Address, symbols: string[]): Promise<Address[]> {
  const out: Address[] = [];
  for (const sym of symbols) {
    const token = await deploy('PlainToken', [sym, parseEther('10000000')], dev);
    await send(dev, token, erc20Abi, 'approve', [h.d.router, maxUint256]);
    await send(dev, h.d.router, routerAbi, 'addLiquidityETH', [token, parseEther('1000000'), 0n, 0n, dev, DEADLINE], parseEther('100'));
    out.push(token);
  }
  await h.client.mine({ blocks: 5 });
  return out;
}

const buy = (who: Address, token: Address, eth: string) => send(who, h.d.router, routerAbi, 'swapExactETHForTokens', [0n, [h.d.weth, token], who, DEADLINE], parseEther(eth));

async function sellAll(who: Address, token: Address): Promise<void> {
  const bal = (await h.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })) as bigint;
  await send(who, token, erc20Abi, 'approve', [h.d.router, maxUint256]);
  await send(who, h.d.router, sellAbi, 'swapExactTokensForETHSupportingFeeOnTransferTokens', [bal, 0n, [token, h.d.weth], who, DEADLINE]);
}

/** native ether from one wallet to another: a first funding the ingest follows */
const pay = async (from: Address, to: Address, eth: string) => tx.mined(await h.client.sendTransaction({ account: from, to, value: parseEther(eth), chain: h.client.chain }));

async function grade(w: Address): Promise<Grade> {
  await h.stack.settle(tx.lastBlock());
  return devnetSnapshot<Grade>(h.stack.services.store, 'wallet', w);
}

describe('class 7: a sybil farm graded smart, through live ingest', () => {
  it('attacker: farm wallets funded through hops win round trips over eight days against their own cluster\u2019s loser: avoid, never mirror-worthy', async () => {
    const [dev, farmRoot, hop, loserHop, loser] = [0, 1, 2, 3, 4].map(fresh) as [Address, Address, Address, Address, Address];
    const farm = [5, 6, 7].map(fresh);
    // the money: one root pays a hop that pays the farm; it pays the loser through a hop of its own
    await pay(farmRoot, hop, '50');
    for (const w of farm) await pay(hop, w, '10');
    await pay(farmRoot, loserHop, '500');
    await pay(loserHop, loser, '400');
    const tokens = await plainTokens(dev, ['FRMA', 'FRMB', 'FRMC']);
    for (let round = 0; round < 12; round++) {
      const token = tokens[round % 3] as Address;
      for (const w of farm) await buy(w, token, '1');
      await increaseTime(600);
      await buy(loser, token, '25'); // pays the price up
      await increaseTime(600);
      for (const w of farm) await sellAll(w, token); // into the loser's buy
      await increaseTime(1200);
      await sellAll(loser, token); // lower: the cluster's loss is the farm's wins
      await increaseTime(16 * 3600);
    }
    for (const w of farm) {
      const g = await grade(w);
      expect(g.grade, g.reasons.join('; ')).toBe('avoid');
      expect(g.reasons.join(' ')).toMatch(/against its own cluster/);
    }
    expect((await grade(loser)).grade).not.toBe('mirror-worthy');
  }, 600_000);

  it('a wallet that won every round trip it closed, on three tokens over three days, against outsiders: graded early, its confidence stated', async () => {
    const dev = fresh(8);
    const skilled = fresh(9);
    const crowd = [10, 11, 12].map(fresh);
    const tokens = await plainTokens(dev, ['SKA', 'SKB', 'SKC']);
    for (let round = 0; round < 6; round++) {
      const token = tokens[round % 3] as Address;
      await buy(skilled, token, '2'); // ahead of the crowd
      await increaseTime(1800);
      for (const w of crowd) await buy(w, token, '3');
      await increaseTime(3600);
      await sellAll(skilled, token); // into their buys
      for (const w of crowd) await sellAll(w, token);
      await increaseTime(12 * 3600);
    }
    const g = await grade(skilled);
    expect(g.sample.closedRoundTrips).toBe(6);
    expect(g.sample.met).toBe(true);
    expect(g.grade, g.reasons.join('; ')).toBe('mirror-worthy');
    expect(g.reasons[0]).toMatch(/graded early, confidence low: won all 6 round trips on 3 tokens against outside counterparties/);
    for (const w of crowd) expect((await grade(w)).grade).not.toBe('mirror-worthy');
  }, 600_000);
});
