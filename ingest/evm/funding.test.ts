import { describe, expect, it } from 'vitest';
import type { ChainEvent } from '../../schemas/events.ts';
import type { Addr, BlockContext } from './decode.ts';
import { createFundingTracker } from './funding.ts';

const A = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Addr;
const WETH = A(0xeeee);
const [DEPLOYER, INSIDER, OTHER, STRANGER] = [A(1), A(2), A(3), A(4)];
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function block(n: number, calls: { from: Addr; to: Addr; eth: number }[]): BlockContext {
  return {
    number: n, hash: hash(n) as `0x${string}`, timestamp: 1_700_000_000 + n * 12, txFrom: {},
    calls: calls.map((c, i) => ({ hash: hash(n * 1000 + i), from: c.from, to: c.to, value: BigInt(c.eth) * 10n ** 18n })),
  };
}
const launch = (n: number): ChainEvent => ({
  chain: 'devnet', block: n, blockHash: hash(n), tx: hash(n * 1000 + 99), logIndex: 1, timestamp: 1_700_000_000 + n * 12,
  type: 'pool_created', token: A(0x70), pool: A(0x71), symbol: 'T', decimals: 18, quote: 'WETH', deployer: DEPLOYER, totalSupply: 1,
});

describe('funding by deployers', () => {
  it('a wallet the deployer funded before its launch goes out at the launch block; later fundings as they happen; nobody else\'s', () => {
    const f = createFundingTracker({ chain: 'devnet', weth: WETH });
    expect(f.eventsFor(block(10, [{ from: DEPLOYER, to: INSIDER, eth: 5 }, { from: STRANGER, to: OTHER, eth: 1 }]), [], [])).toEqual([]);
    const atLaunch = f.eventsFor(block(20, []), [launch(20)], []);
    expect(atLaunch).toHaveLength(1);
    expect(atLaunch[0]).toMatchObject({ type: 'transfer', token: WETH, from: DEPLOYER, to: INSIDER, amount: 5, block: 20, funding: true, tx: hash(10_000) });
    const later = f.eventsFor(block(30, [{ from: DEPLOYER, to: OTHER, eth: 2 }, { from: STRANGER, to: INSIDER, eth: 1 }]), [], []);
    expect(later).toHaveLength(1);
    expect(later[0]).toMatchObject({ from: DEPLOYER, to: OTHER, block: 30, funding: true });
  });

  it('a funding older than the window is not replayed at the launch', () => {
    const f = createFundingTracker({ chain: 'devnet', weth: WETH, windowSec: 60 });
    f.eventsFor(block(10, [{ from: DEPLOYER, to: INSIDER, eth: 5 }]), [], []);
    expect(f.eventsFor(block(20, []), [launch(20)], [])).toEqual([]);
  });

  it('attacker: the deployer pays a fresh hop that pays the snipers, before and after the launch: every payment down the tree goes out, three hops deep and no deeper', () => {
    const f = createFundingTracker({ chain: 'devnet', weth: WETH });
    const [HOP, SNIPER, DEEP1, DEEP2, DEEP3] = [A(10), A(11), A(12), A(13), A(14)];
    f.eventsFor(block(10, [{ from: DEPLOYER, to: HOP, eth: 5 }]), [], []);
    f.eventsFor(block(11, [{ from: HOP, to: SNIPER, eth: 1 }]), [], []);
    const atLaunch = f.eventsFor(block(20, []), [launch(20)], []);
    expect(atLaunch.map((e) => e.type === 'transfer' && [e.from, e.to])).toEqual([[DEPLOYER, HOP], [HOP, SNIPER]]);
    const later = f.eventsFor(block(30, [{ from: SNIPER, to: DEEP1, eth: 1 }, { from: DEEP1, to: DEEP2, eth: 1 }, { from: DEEP2, to: DEEP3, eth: 1 }, { from: STRANGER, to: OTHER, eth: 1 }]), [], []);
    // the sniper is two hops down: its payment goes out (the third hop), the third hop's own does not
    expect(later.map((e) => e.type === 'transfer' && [e.from, e.to])).toEqual([[SNIPER, DEEP1]]);
    // what a cursor keeps brings the tree back
    const g = createFundingTracker({ chain: 'devnet', weth: WETH });
    g.restoreDeployers(f.deployers(), f.followed());
    expect(g.eventsFor(block(40, [{ from: HOP, to: OTHER, eth: 1 }]), [], [])).toHaveLength(1);
  });
});

describe("traders' funders", () => {
  const swap = (n: number, trader: Addr): ChainEvent => ({
    chain: 'devnet', block: n, blockHash: hash(n), tx: hash(n * 1000 + 98), logIndex: 2, timestamp: 1_700_000_000 + n * 12,
    type: 'swap', token: A(0x70), pool: A(0x71), trader, side: 'buy', amountToken: 1, amountQuote: 1, usd: 1, priceUsd: 1,
  });

  it("attacker: a farm's root pays a hop that pays the loser, no deployer in sight: at the loser's first swap its funders go out, three hops up, once", () => {
    const f = createFundingTracker({ chain: 'devnet', weth: WETH });
    const [ROOT, HOP, LOSER, TOP] = [A(20), A(21), A(22), A(19)];
    f.eventsFor(block(5, [{ from: TOP, to: ROOT, eth: 9 }, { from: ROOT, to: HOP, eth: 5 }, { from: HOP, to: LOSER, eth: 4 }, { from: STRANGER, to: LOSER, eth: 1 }]), [], []);
    const first = f.eventsFor(block(9, []), [swap(9, LOSER)], []);
    expect(first.map((e) => e.type === 'transfer' && [e.from, e.to, e.funding])).toEqual([[HOP, LOSER, true], [ROOT, HOP, true], [TOP, ROOT, true]]);
    expect(f.eventsFor(block(10, []), [swap(10, LOSER)], [])).toEqual([]);
    // a trader nobody paid sends nothing
    expect(f.eventsFor(block(11, []), [swap(11, OTHER)], [])).toEqual([]);
  });
});
