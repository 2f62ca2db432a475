import { describe, expect, it } from 'vitest';
import type { ChainEvent } from '../../schemas/events.ts';
import type { Addr, BlockContext } from './decode.ts';
import { CODE_READS_PER_BLOCK, FUNDED_NAMED, createFundingTracker } from './funding.ts';
import type { PreparedLog } from './processor.ts';
import { encodeFunctionData, type Hex } from 'viem';
import { DISPERSE_ABI } from './disperse.ts';

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
  it('attacker: a flood of payments from fresh senders before the launch stays within maxRemembered, and the deployer who paid its insider since still has it replayed', () => {
    const f = createFundingTracker({ chain: 'devnet', weth: WETH, maxRemembered: 50 });
    for (let b = 0; b < 10; b++) f.eventsFor(block(100 + b, Array.from({ length: 10 }, (_, i) => ({ from: A(0x1000 + b * 10 + i), to: OTHER, eth: 1 }))), [], []);
    // the deployer pays last: the flood's senders paid less recently go first
    f.eventsFor(block(111, [{ from: DEPLOYER, to: INSIDER, eth: 5 }]), [], []);
    f.eventsFor(block(112, Array.from({ length: 40 }, (_, i) => ({ from: A(0x2000 + i), to: OTHER, eth: 1 }))), [], []);
    const atLaunch = f.eventsFor(block(120, []), [launch(120)], []);
    expect(atLaunch.map((e) => e.type === 'transfer' && [e.from, e.to])).toEqual([[DEPLOYER, INSIDER]]);
    // 50 kept: a flood sender from the first blocks was dropped, its later launch replays nothing
    const early = A(0x1000);
    const g = createFundingTracker({ chain: 'devnet', weth: WETH, maxRemembered: 50 });
    g.eventsFor(block(10, [{ from: early, to: INSIDER, eth: 1 }]), [], []);
    g.eventsFor(block(11, Array.from({ length: 50 }, (_, i) => ({ from: A(0x3000 + i), to: OTHER, eth: 1 }))), [], []);
    expect(g.eventsFor(block(20, []), [{ ...launch(20), deployer: early } as ChainEvent], [])).toEqual([]);
  });

  it('a sender paying more than maxRemembered alone is not kept whole: its launch replays nothing rather than memory growing', () => {
    const f = createFundingTracker({ chain: 'devnet', weth: WETH, maxRemembered: 5 });
    f.eventsFor(block(10, Array.from({ length: 6 }, (_, i) => ({ from: DEPLOYER, to: A(0x500 + i), eth: 1 }))), [], []);
    expect(f.eventsFor(block(20, []), [launch(20)], [])).toEqual([]);
    const g = createFundingTracker({ chain: 'devnet', weth: WETH, maxRemembered: 5 });
    g.eventsFor(block(10, Array.from({ length: 5 }, (_, i) => ({ from: DEPLOYER, to: A(0x500 + i), eth: 1 }))), [], []);
    expect(g.eventsFor(block(20, []), [launch(20)], [])).toHaveLength(5);
  });
});

describe('funding through a Disperse contract', () => {
  const DISPERSE = A(0xd15e);
  const [SNIPER1, SNIPER2] = [A(21), A(22)];
  const etherCall = (n: number, from: Addr, to: Addr[], eth: number, i = 0) => ({
    hash: hash(n * 1000 + i), from, to: DISPERSE, value: BigInt(eth * to.length) * 10n ** 18n, selector: '0xe63d38ed',
    input: encodeFunctionData({ abi: DISPERSE_ABI, functionName: 'disperseEther', args: [to, to.map(() => BigInt(eth) * 10n ** 18n)] }),
  });
  const withCalls = (n: number, calls: NonNullable<BlockContext['calls']>): BlockContext => ({ ...block(n, []), calls });

  it('attacker: the deployer pays its snipers in one disperseEther call before the launch: each is funded by the deployer, not by the contract', () => {
    const f = createFundingTracker({ chain: 'devnet', weth: WETH });
    f.eventsFor(withCalls(10, [etherCall(10, DEPLOYER, [SNIPER1, SNIPER2], 2)]), [], []);
    const atLaunch = f.eventsFor(block(20, []), [launch(20)], []);
    expect(atLaunch.map((e) => e.type === 'transfer' && [e.from, e.to, e.amount])).toEqual([[DEPLOYER, SNIPER1, 2], [DEPLOYER, SNIPER2, 2]]);
    // after the launch, the same as it happens
    const later = f.eventsFor(withCalls(30, [etherCall(30, DEPLOYER, [OTHER], 1)]), [], []);
    expect(later.map((e) => e.type === 'transfer' && [e.from, e.to])).toEqual([[DEPLOYER, OTHER]]);
  });

  it('attacker: a stranger paying wallets through the same contract after the deployer did funds nobody on the deployer\u2019s side', () => {
    const f = createFundingTracker({ chain: 'devnet', weth: WETH });
    f.eventsFor(block(20, []), [launch(20)], []);
    expect(f.eventsFor(withCalls(21, [etherCall(21, DEPLOYER, [SNIPER1], 1)]), [], [])).toHaveLength(1);
    expect(f.eventsFor(withCalls(22, [etherCall(22, STRANGER, [SNIPER2, OTHER], 1)]), [], [])).toEqual([]);
    expect(f.followed()).toEqual({ [SNIPER1]: 1 });
  });

  it('a pool is no hop: the deployer\u2019s WETH into its pool (a liquidity add) and the pool\u2019s WETH to a seller are trades, and the seller is nobody\u2019s insider', () => {
    const f = createFundingTracker({ chain: 'devnet', weth: WETH });
    f.eventsFor(block(20, []), [launch(20)], []);
    const POOL = A(0x71);
    const weth = (from: Addr, to: Addr, n: number) => ({ log: { transactionHash: hash(n), logIndex: 0 }, decoded: { kind: 'transfer', token: WETH, from, to, value: 10n ** 18n } }) as never;
    const at = (n: number, type: 'liquidity' | 'swap') => ({ ...launch(n), type, pool: POOL }) as unknown as ChainEvent;
    expect(f.eventsFor(block(21, []), [at(21, 'liquidity')], [weth(DEPLOYER, POOL, 21)])).toEqual([]);
    expect(f.eventsFor(block(22, []), [at(22, 'swap')], [weth(POOL, STRANGER, 22)])).toEqual([]);
    expect(f.followed()).toEqual({});
    // the deployer paying a wallet itself still goes out
    expect(f.eventsFor(block(23, []), [], [weth(DEPLOYER, OTHER, 23)])).toHaveLength(1);
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

describe('funding through contracts', () => {
  const [ROUTER, SELLER, FORWARDER, SNIPER] = [A(0xa0), A(0xa1), A(0xa2), A(0xa3)];
  const wethTransfer = (n: number, from: Addr, to: Addr, eth: number, i = 0): PreparedLog => ({
    log: { address: WETH, transactionHash: hash(n * 1000 + 500 + i), logIndex: i, blockNumber: BigInt(n) } as unknown as PreparedLog['log'],
    decoded: { kind: 'transfer', token: WETH, from, to, value: BigInt(eth) * 10n ** 18n },
  });
  /** a node whose contracts are `contracts` (their code), counting the code reads */
  function node(contracts: Record<string, Hex>) {
    const reads: string[] = [];
    return { reads, code: async (a: Addr) => (reads.push(a), contracts[a]) };
  }
  async function step(f: ReturnType<typeof createFundingTracker>, b: BlockContext, events: ChainEvent[] = [], logs: PreparedLog[] = []) {
    await f.readRecipients(b, events, logs);
    return f.eventsFor(b, events, logs).map((e) => e.type === 'transfer' && [e.from, e.to]);
  }

  it('a router the deployer swapped ether through is no funder: the WETH it later pays a seller funds nobody', async () => {
    const n = node({ [ROUTER]: '0x6080604052' });
    const f = createFundingTracker({ chain: 'devnet', weth: WETH, code: n.code });
    await step(f, block(20, []), [launch(20)]);
    expect(await step(f, block(21, [{ from: DEPLOYER, to: ROUTER, eth: 1 }]))).toEqual([]);
    expect(await step(f, block(22, []), [], [wethTransfer(22, ROUTER, SELLER, 3)])).toEqual([]);
    expect(f.followed()).toEqual({});
    // one code read for the router, kept: a second swap reads nothing
    await step(f, block(23, [{ from: DEPLOYER, to: ROUTER, eth: 1 }]));
    expect(n.reads).toEqual([ROUTER]);
  });

  it('the same before the launch: a swap through the router is not replayed, and the router\u2019s payments are not followed', async () => {
    const n = node({ [ROUTER]: '0x6080604052' });
    const f = createFundingTracker({ chain: 'devnet', weth: WETH, code: n.code });
    await step(f, block(10, [{ from: DEPLOYER, to: ROUTER, eth: 1 }, { from: DEPLOYER, to: INSIDER, eth: 2 }]));
    await step(f, block(11, []), [], [wethTransfer(11, ROUTER, SELLER, 3)]);
    expect(await step(f, block(20, []), [launch(20)])).toEqual([[DEPLOYER, INSIDER]]);
  });

  it('a launch whose deployer once paid the router reads the router\u2019s code and not those of the many wallets the router paid', async () => {
    const n = node({ [ROUTER]: '0x6080604052' });
    const f = createFundingTracker({ chain: 'devnet', weth: WETH, code: n.code });
    await step(f, block(10, [{ from: DEPLOYER, to: ROUTER, eth: 1 }, { from: DEPLOYER, to: INSIDER, eth: 2 }]));
    await step(f, block(11, []), [], Array.from({ length: 40 }, (_, i) => wethTransfer(11, ROUTER, A(0x7000 + i), 1, i)));
    expect(await step(f, block(20, []), [launch(20)])).toEqual([[DEPLOYER, INSIDER]]);
    expect(n.reads.sort()).toEqual([INSIDER, ROUTER].sort());
  });

  it('attacker: the deployer deploys a forwarder and funds snipers through it in WETH, before and after the launch: the forwarder is deployer side', async () => {
    const n = node({ [FORWARDER]: '0x6080604052' });
    const f = createFundingTracker({ chain: 'devnet', weth: WETH, code: n.code });
    await step(f, { ...block(9, []), created: [{ from: DEPLOYER, address: FORWARDER }] });
    await step(f, block(10, [{ from: DEPLOYER, to: FORWARDER, eth: 5 }]));
    await step(f, block(11, []), [], [wethTransfer(11, FORWARDER, SNIPER, 1)]);
    expect(await step(f, block(20, []), [launch(20)])).toEqual([[DEPLOYER, FORWARDER], [FORWARDER, SNIPER]]);
    expect(await step(f, block(21, []), [], [wethTransfer(21, FORWARDER, OTHER, 1)])).toEqual([[FORWARDER, OTHER]]);
  });

  it('attacker: a forwarder deployed by a wallet the deployer funded forwards funding too; one deployed by a stranger does not', async () => {
    const [HOP, STRANGERS] = [A(0xb0), A(0xb1)];
    const n = node({ [FORWARDER]: '0x60', [STRANGERS]: '0x60' });
    const f = createFundingTracker({ chain: 'devnet', weth: WETH, code: n.code });
    await step(f, block(20, []), [launch(20)]);
    await step(f, block(21, [{ from: DEPLOYER, to: HOP, eth: 5 }]));
    await step(f, { ...block(22, []), created: [{ from: HOP, address: FORWARDER }, { from: STRANGER, address: STRANGERS }] });
    expect(await step(f, block(23, [{ from: HOP, to: FORWARDER, eth: 1 }, { from: DEPLOYER, to: STRANGERS, eth: 1 }]))).toEqual([[HOP, FORWARDER]]);
    expect(await step(f, block(24, []), [], [wethTransfer(24, FORWARDER, SNIPER, 1), wethTransfer(24, STRANGERS, OTHER, 1, 1)])).toEqual([[FORWARDER, SNIPER]]);
  });

  it('attacker: a wallet with an EIP-7702 delegation is a wallet, not a contract: it is funded and followed', async () => {
    const n = node({ [INSIDER]: `0xef0100${'11'.repeat(20)}` as Hex });
    const f = createFundingTracker({ chain: 'devnet', weth: WETH, code: n.code });
    await step(f, block(20, []), [launch(20)]);
    expect(await step(f, block(21, [{ from: DEPLOYER, to: INSIDER, eth: 1 }]))).toEqual([[DEPLOYER, INSIDER]]);
    expect(f.followed()).toEqual({ [INSIDER]: 1 });
  });

  it('attacker: a flood of the deployer\u2019s payments to fresh addresses reads at most CODE_READS_PER_BLOCK codes a block; the ones not read count as wallets', async () => {
    const n = node({});
    const f = createFundingTracker({ chain: 'devnet', weth: WETH, code: n.code });
    await step(f, block(20, []), [launch(20)]);
    const paid = await step(f, block(21, Array.from({ length: CODE_READS_PER_BLOCK + 10 }, (_, i) => ({ from: DEPLOYER, to: A(0x9000 + i), eth: 1 }))));
    expect(paid).toHaveLength(CODE_READS_PER_BLOCK + 10);
    expect(n.reads).toHaveLength(CODE_READS_PER_BLOCK);
  });
});

describe('the wallets a deployer funded, by name', () => {
  it('attacker: the deployer funds a hop that funds a fresh wallet: both are named for the deployer, at most FUNDED_NAMED, and a stranger\u2019s payments name nobody', () => {
    const f = createFundingTracker({ chain: 'devnet', weth: WETH });
    const [HOP, FRESH] = [A(30), A(31)];
    f.eventsFor(block(10, [{ from: DEPLOYER, to: HOP, eth: 2 }, { from: STRANGER, to: OTHER, eth: 1 }]), [], []);
    f.eventsFor(block(20, []), [launch(20)], []);
    f.eventsFor(block(21, [{ from: HOP, to: FRESH, eth: 1 }, { from: STRANGER, to: A(32), eth: 1 }]), [], []);
    expect(f.fundedBy(DEPLOYER)).toEqual([HOP, FRESH]);
    expect(f.fundedBy(STRANGER)).toEqual([]);
    f.eventsFor(block(22, Array.from({ length: FUNDED_NAMED + 5 }, (_, i) => ({ from: DEPLOYER, to: A(0x600 + i), eth: 1 }))), [], []);
    expect(f.fundedBy(DEPLOYER)).toHaveLength(FUNDED_NAMED);
  });
});

