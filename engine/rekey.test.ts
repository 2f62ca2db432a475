import { describe, expect, it } from 'vitest';
import type { Swap, Transfer } from '../schemas/events.ts';
import { firstFundingOf, foldWalletMessage } from './rekey.ts';
import { createFundingTable } from './tables.ts';
import { ZERO_ADDRESS, initialTokenState } from './token/state.ts';
import { addr } from './token/testkit.ts';
import { initialWalletState } from './wallet/state.ts';

describe('funding', () => {
  it('records the first funder and lists the deployer-funded wallets', () => {
    const weth = addr('weth');
    const dep = addr('deployer');
    const mk = (from: string, to: string, i: number): Transfer => ({
      type: 'transfer',
      chain: 'sim',
      block: 1,
      blockHash: `0x${'1'.repeat(64)}`,
      tx: `0x${i.toString(16).padStart(64, '0')}`,
      logIndex: i,
      timestamp: 1,
      token: weth,
      from,
      to,
      amount: 1,
    });
    // the quote asset (a token without a pool) publishes each wallet's first funding; the table folds them
    const asset = initialTokenState('sim', weth);
    const f = createFundingTable();
    const transfers = [mk(dep, addr(1), 1), mk(dep, addr(2), 2), mk(addr(3), addr(1), 3) /* not the first funder */, mk(ZERO_ADDRESS, addr(4), 4) /* a mint is not funding */];
    const records = transfers.map((t) => firstFundingOf(asset, t));
    // the asset itself publishes only firsts (the table would also keep the earliest, so check the records)
    expect(records.map((r) => r?.wallet)).toEqual([addr(1), addr(2), undefined, undefined]);
    for (const r of records) if (r) f.apply(r);
    expect(f.fundedBy('sim', dep).sort()).toEqual([addr(1), addr(2)]);
    expect(f.funderOf('sim', addr(1))).toBe(dep);
    expect(f.funderOf('sim', addr(4))).toBeNull();
    expect(f.fundedBy('sim', null)).toEqual([]);
  });

  it('a wallet funded by two quote assets keeps the earliest funding, whatever order the records arrive in', () => {
    const f = createFundingTable();
    const later = { chain: 'sim', wallet: addr(1), asset: addr('usdc'), funder: addr(8), position: 200 };
    const earlier = { chain: 'sim', wallet: addr(1), asset: addr('weth'), funder: addr(9), position: 100 };
    expect(f.apply(later)).toEqual([addr(8)]);
    expect(f.apply(earlier)).toEqual([addr(9), addr(8)]);
    expect(f.apply(later)).toEqual([]);
    expect(f.funderOf('sim', addr(1))).toBe(addr(9));
    expect(f.fundedBy('sim', addr(8))).toEqual([]);
  });
});

describe('funding through hops', () => {
  let position = 0;
  const fund = (f: ReturnType<typeof createFundingTable>, funder: string, wallet: string) =>
    f.apply({ chain: 'sim', wallet, asset: addr('weth'), funder, position: ++position });

  it("attacker: the deployer funds snipers through one or two fresh hops: they are in the deployer's tree, nearest hop first", () => {
    const f = createFundingTable();
    const dep = addr('deployer');
    fund(f, dep, addr('hop1'));
    fund(f, addr('hop1'), addr('hop2'));
    for (let i = 0; i < 3; i++) fund(f, addr('hop2'), addr(100 + i));
    fund(f, dep, addr('direct'));
    expect(f.fundedBy('sim', dep)).toEqual([addr('hop1'), addr('direct')]);
    expect(f.fundedWithin('sim', dep)).toEqual([addr('hop1'), addr('direct'), addr('hop2'), addr(100), addr(101), addr(102)]);
    expect(f.fundedWithin('sim', dep, 2)).toEqual([addr('hop1'), addr('direct'), addr('hop2')]);
    expect(f.fundingChain('sim', addr(101))).toEqual([addr('hop2'), addr('hop1'), dep]);
    expect(f.fundingChain('sim', addr(101), 1)).toEqual([addr('hop2')]);
  });

  it("a hub below the first hop (an exchange's hot wallet the deployer once paid) is kept, its hundreds of wallets are not the deployer's", () => {
    const f = createFundingTable();
    const dep = addr('deployer');
    const hub = addr('exchange');
    fund(f, dep, hub);
    for (let i = 0; i < 150; i++) fund(f, hub, addr(1000 + i));
    expect(f.fundedWithin('sim', dep)).toEqual([hub]);
    // the deployer's own fan-out is followed, however wide: a disperse of 150 wallets in one go
    const g = createFundingTable();
    for (let i = 0; i < 150; i++) fund(g, dep, addr(2000 + i));
    expect(g.fundedWithin('sim', dep)).toHaveLength(150);
  });

  it('a cycle of first fundings (seen out of order) ends the chain instead of looping', () => {
    const f = createFundingTable();
    f.apply({ chain: 'sim', wallet: addr('a'), asset: addr('weth'), funder: addr('b'), position: 1 });
    f.apply({ chain: 'sim', wallet: addr('b'), asset: addr('weth'), funder: addr('a'), position: 2 });
    expect(f.fundingChain('sim', addr('a'))).toEqual([addr('b')]);
    expect(f.fundedWithin('sim', addr('a'))).toEqual([addr('b')]);
  });
});

describe('the wallet fold of a swap message', () => {
  it('a swap delivered again (an ingest publishes again after an outage) leaves the size share of its first delivery', () => {
    const wallet = addr('trader');
    const token = addr('token');
    const swap: Swap = {
      type: 'swap',
      chain: 'sim',
      block: 10,
      blockHash: `0x${'1'.repeat(64)}`,
      tx: `0x${'2'.repeat(64)}`,
      logIndex: 3,
      timestamp: 120,
      token,
      pool: addr('pool'),
      trader: wallet,
      side: 'buy',
      amountToken: 100,
      amountQuote: 1,
      usd: 1_000,
      priceUsd: 10,
    };
    // the first delivery: 1,000 USD into a pool of 100,000 USD
    const s = foldWalletMessage(initialWalletState('sim', wallet), { kind: 'swap', swap, poolBlock: 1, liquidityUsd: 100_000 });
    expect(s.tokens[token]?.sizeShareMax).toBe(0.01);
    // the same swap again, re-keyed from the token's later state (its pool drained to 2,000 USD)
    const again = foldWalletMessage(s, { kind: 'swap', swap, poolBlock: 1, liquidityUsd: 2_000 });
    expect(again.counters.duplicates).toBe(1);
    expect(again.tokens[token]?.sizeShareMax).toBe(0.01);
  });
});
