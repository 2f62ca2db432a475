import { describe, expect, it } from 'vitest';
import type { Transfer } from '../schemas/events.ts';
import { firstFundingOf } from './rekey.ts';
import { createFundingTable } from './tables.ts';
import { ZERO_ADDRESS, initialTokenState } from './token/state.ts';
import { addr } from './token/testkit.ts';

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
