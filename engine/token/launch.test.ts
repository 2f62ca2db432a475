import { describe, expect, it } from 'vitest';
import { LAUNCH, earlyWallets, foldEarly, launchBuyers, type EarlyBuys } from './launch.ts';

const CREATED = 100;
const DEPLOYER = 'dep';

function buys(list: [number, string][]): EarlyBuys {
  const early: EarlyBuys = {};
  for (const [block, wallet] of list) foldEarly(early, CREATED, block, wallet, 1);
  return early;
}
const balances = (b: Record<string, number>) => (w: string) => b[w] ?? 0;

describe('launch buyers: snipers and same-block bundles', () => {
  it('attacker: three wallets buy in the creation block, two more a block later, each once: a bundle of three and five snipers, with what they hold of the supply now', () => {
    const early = buys([[100, 'a'], [100, 'b'], [100, 'c'], [101, 'd'], [101, 'e'], [100, DEPLOYER], [110, 'late']]);
    const got = launchBuyers(early, CREATED, DEPLOYER, balances({ a: 50, b: 50, c: 100, d: 25, e: 25, late: 500, [DEPLOYER]: 1000 }), 1000);
    expect(got.snipers).toEqual({ wallets: 5, supplySharePct: 25 });
    expect(got.bundles).toEqual({ count: 1, wallets: 3, supplySharePct: 20, blocks: [100] });
  });

  it('attacker: spreading the sniping over the first blocks, two wallets a block, makes no bundle but every one is a sniper', () => {
    const early = buys([[100, 'a'], [100, 'b'], [101, 'c'], [101, 'd'], [102, 'e'], [102, 'f']]);
    const got = launchBuyers(early, CREATED, DEPLOYER, () => 10, 100);
    expect(got.snipers.wallets).toBe(6);
    expect(got.bundles.count).toBe(0);
  });

  it('a wallet that buys again in a later block counts at its first buy; busy blocks after the early window are not bundles; a wallet sold out holds no share', () => {
    const early = buys([[100, 'a'], [105, 'a'], [105, 'b'], [105, 'c'], [CREATED + LAUNCH.bundleBlocks, 'x'], [CREATED + LAUNCH.bundleBlocks, 'y'], [CREATED + LAUNCH.bundleBlocks, 'z']]);
    const got = launchBuyers(early, CREATED, DEPLOYER, balances({ b: 10, c: 10 }), 100);
    expect(got.snipers).toEqual({ wallets: 1, supplySharePct: 0 });
    expect(got.bundles).toEqual({ count: 0, wallets: 0, supplySharePct: 0, blocks: [] });
  });

  it('a retraction takes a buy back exactly (folding out restores the state); without a known creation block nothing is kept', () => {
    const early = buys([[100, 'a'], [100, 'a'], [101, 'b']]);
    const before = structuredClone(early);
    foldEarly(early, CREATED, 102, 'c', 1);
    foldEarly(early, CREATED, 102, 'c', -1);
    expect(early).toEqual(before);
    foldEarly(early, CREATED, 100, 'a', -1);
    expect(early).toEqual({ '100:a': 1, '101:b': 1 });
    expect(earlyWallets(early)).toEqual(['a', 'b']);
    const none: EarlyBuys = {};
    foldEarly(none, null, 100, 'a', 1);
    expect(none).toEqual({});
  });

  it('attacker: an airdrop of thousands of early buyers keeps the record bounded', () => {
    const early: EarlyBuys = {};
    for (let i = 0; i < 3 * LAUNCH.kept; i++) foldEarly(early, CREATED, 100 + (i % 5), `w${i}`, 1);
    expect(Object.keys(early)).toHaveLength(LAUNCH.kept);
  });
});
