import { describe, expect, it } from 'vitest';
import type { ContractFacts, SimStep } from '../../schemas/events.ts';
import { contractFlag, contractSummary, lpCustody, lpLockedUntil, lpRugFlag, simulatedHoneypot } from './contract.ts';
import { contractWithHolders, foldTokenEvent, initialTokenState, latestContract } from './state.ts';

const TOKEN = `0x${'ab'.repeat(20)}`;
const OWNER = `0x${'0c'.repeat(20)}`;
const ok = (taxPct = 0): SimStep => ({ ok: true, taxPct, error: null });
const reverted = (error = 'TRANSFER_FAILED'): SimStep => ({ ok: false, taxPct: null, error });

function facts(over: Partial<ContractFacts> = {}, block = 100): ContractFacts {
  const hash = `0x${block.toString(16).padStart(64, '0')}`;
  return {
    chain: 'devnet', block, blockHash: hash, tx: hash, logIndex: 0, timestamp: 1_700_000_000 + block, type: 'contract', token: TOKEN, trigger: 'launch',
    isContract: true, owner: OWNER, renounced: false, proxy: null, powers: [],
    sim: { router: OWNER, pool: OWNER, path: [OWNER, TOKEN], buyUsd: 100, buy: ok(), rebuy: ok(), transfer: ok(), sell: ok(), largeBuy: { usd: 2000, ok: true, error: null } },
    simSkipped: null,
    pools: [],
    ...over,
  };
}
const withSim = (s: Partial<NonNullable<ContractFacts['sim']>>) => facts({ sim: { ...(facts().sim as NonNullable<ContractFacts['sim']>), ...s } });

describe('contract reads: sells simulated as holders', () => {
  const HOLDER = `0x${'4b'.repeat(20)}`;
  const sells = (...xs: [boolean, number | null, string | null][]) => xs.map(([ok, loss, error], i) => ({ sharePct: [1, 25, 100][i] as number, ok, lossAtLeastPct: loss, error }));
  const holder = (s: ReturnType<typeof sells>) => ({ holderSims: [{ holder: HOLDER, router: OWNER, pool: OWNER, sells: s }] });
  it('attacker: the probe round trip is clean, the holder cannot sell: the worst wins, red', () => {
    const f = simulatedHoneypot(facts(holder(sells([false, null, 'not a fresh buyer'], [false, null, 'x'], [false, null, 'x']))));
    expect(f).toMatchObject({ flagged: true, severity: 'red' });
    expect(f?.reason).toMatch(/holder 0x4b4b4b.*cannot sell/);
    expect(f?.reason).toMatch(/not a fresh buyer/);
  });
  it('attacker: a sliver sells, a quarter of the balance reverts: a sell cap, red', () => {
    expect(simulatedHoneypot(facts(holder(sells([true, 0, null], [false, null, 'MAX_SELL'], [false, null, 'MAX_SELL']))))?.reason).toMatch(/sell cap/);
  });
  it('attacker: small sells pass untaxed, the whole balance loses more than half: red, the size said', () => {
    const f = simulatedHoneypot(facts(holder(sells([true, 0, null], [true, 3, null], [true, 50, null]))));
    expect(f).toMatchObject({ severity: 'red' });
    expect(f?.reason).toMatch(/sell of 100% of its balance loses more than 50%/);
  });
  it('only the whole balance at once fails: a warning; every size clean: none; no holder simulated: the probe alone', () => {
    expect(simulatedHoneypot(facts(holder(sells([true, 0, null], [true, 0, null], [false, null, 'max tx']))))?.severity).toBe('warning');
    expect(simulatedHoneypot(facts(holder(sells([true, 0, null], [true, 0, null], [true, 0, null]))))?.severity).toBe('none');
    expect(simulatedHoneypot(facts({ holderSims: [] }))?.reason).toMatch(/buy, transfer and sell went through/);
    // a V3-only token: no probe, the holders speak alone
    expect(simulatedHoneypot(facts({ sim: null, simSkipped: 'v3', ...holder(sells([false, null, 'STF'], [false, null, 'STF'], [false, null, 'STF'])) }))?.severity).toBe('red');
  });
});

describe('contract reads: contracts the token names', () => {
  it('attacker: a renounced token whose transfers ask a guard someone still owns: the contract flag warns and names both', () => {
    const f = contractFlag(facts({ owner: null, renounced: true, dependencies: [{ address: `0x${'9a'.repeat(20)}`, owner: OWNER }] }));
    expect(f).toMatchObject({ severity: 'warning' });
    expect(f.reason).toMatch(/ownership is renounced, it names contract 0x9a9a9a.*whose owner 0x0c0c0c/i);
    // a named contract nobody owns (a library, an ownerless router) is no warning
    expect(contractFlag(facts({ owner: null, renounced: true, dependencies: [{ address: `0x${'9a'.repeat(20)}`, owner: null }] })).severity).toBe('none');
  });
});

describe('contract reads: holders\' evidence across reads', () => {
  const sims = (holder: string, ok: boolean) => ({
    holderSims: [{ holder, router: OWNER, pool: OWNER, sells: [1, 25, 100].map((sharePct) => ({ sharePct, ok, lossAtLeastPct: ok ? 0 : null, error: ok ? null : 'TRANSFER_FAILED' })) }],
  });
  const victim = `0x${'5a'.repeat(20)}`;
  const decoy = `0x${'de'.repeat(20)}`;
  it('attacker: decoys buy last so the next read simulates them: what the read before found for a holder still stands', () => {
    const s = initialTokenState('devnet', TOKEN);
    foldTokenEvent(s, facts(sims(victim, false), 100));
    foldTokenEvent(s, facts(sims(decoy, true), 110));
    expect(latestContract(s)?.holderSims?.[0]?.holder).toBe(decoy);
    const f = simulatedHoneypot(contractWithHolders(s) as ContractFacts);
    expect(f).toMatchObject({ flagged: true, severity: 'red' });
    expect(f?.reason).toMatch(/holder 0x5a5a5a/);
  });
  it('the same holder selling again later clears it; evidence older than a day does not count', () => {
    const s = initialTokenState('devnet', TOKEN);
    foldTokenEvent(s, facts(sims(victim, false), 100));
    foldTokenEvent(s, facts(sims(victim, true), 120));
    expect(simulatedHoneypot(contractWithHolders(s) as ContractFacts)?.severity).toBe('none');
    const t = initialTokenState('devnet', TOKEN);
    foldTokenEvent(t, facts(sims(victim, false), 100));
    foldTokenEvent(t, { ...facts(sims(decoy, true), 200), timestamp: 1_700_000_100 + 2 * 86_400 });
    expect(simulatedHoneypot(contractWithHolders(t) as ContractFacts)?.severity).toBe('none');
  });
});

describe('contract reads: the honeypot flag from the simulation', () => {
  it('a sell that reverts after a buy that went through is red, with the reason and the block', () => {
    const f = simulatedHoneypot(withSim({ sell: reverted() }));
    expect(f).toMatchObject({ flagged: true, severity: 'red', block: 100, source: 'contract' });
    expect(f?.reason).toMatch(/TRANSFER_FAILED/);
    expect(f?.measuredAt).toBe(new Date((1_700_000_000 + 100) * 1000).toISOString());
  });

  it('a 30 % sell tax is red; 12 % a warning; a 35 % buy and a 24 % sell together lose half: red', () => {
    expect(simulatedHoneypot(withSim({ sell: ok(30) }))?.severity).toBe('red');
    expect(simulatedHoneypot(withSim({ sell: ok(12) }))).toMatchObject({ severity: 'warning' });
    expect(simulatedHoneypot(withSim({ buy: ok(35), sell: ok(24) }))?.severity).toBe('red');
  });

  it('a buy that reverts, a second buy that reverts, a large buy that reverts are warnings that say so', () => {
    expect(simulatedHoneypot(withSim({ buy: reverted('trading not open'), rebuy: reverted(), transfer: reverted(), sell: reverted() }))?.reason).toMatch(/buy reverted \(trading not open\)/);
    expect(simulatedHoneypot(withSim({ rebuy: reverted('cooldown') }))?.reason).toMatch(/cooldown/);
    expect(simulatedHoneypot(withSim({ largeBuy: { usd: 2000, ok: false, error: 'max tx' } }))?.reason).toMatch(/max-transaction/);
  });

  it('a clean round trip is none; no simulation is no flag', () => {
    expect(simulatedHoneypot(facts())?.severity).toBe('none');
    expect(simulatedHoneypot(facts({ sim: null, simSkipped: 'no pool' }))).toBeNull();
  });
});

describe('contract reads: owner powers and LP custody', () => {
  it('a live owner with powers warns and names them; renounced, it does not; a proxy always warns', () => {
    expect(contractFlag(facts({ powers: ['mint', 'blacklist'] }))).toMatchObject({ severity: 'warning', flagged: false });
    expect(contractFlag(facts({ powers: ['mint', 'blacklist'] })).reason).toMatch(/mint new tokens, blacklist wallets/);
    expect(contractFlag(facts({ powers: ['mint'], owner: '0x000000000000000000000000000000000000dead', renounced: true })).severity).toBe('none');
    expect(contractFlag(facts({ proxy: { kind: 'eip1967', implementation: OWNER, admin: null }, powers: ['upgrade'], renounced: true })).reason).toMatch(/upgradeable proxy/);
    expect(contractFlag(null).reason).toMatch(/not been read/);
  });

  it('LP custody is weighted by each pool\'s liquidity', () => {
    const pools: ContractFacts['pools'] = [
      { pool: OWNER, dex: 'v2', quote: 'WETH', liquidityUsd: 300, lp: { burnedPct: 100, lockedPct: 0, deployerPct: 0, ownerPct: 0 } },
      { pool: TOKEN, dex: 'v2', quote: 'USDC', liquidityUsd: 100, lp: { burnedPct: 0, lockedPct: 0, deployerPct: 100, ownerPct: 0 } },
    ];
    expect(lpCustody(facts({ pools }))).toEqual({ burnedPct: 75, lockedPct: 0, heldPct: 25, pools: 2 });
    expect(lpCustody(facts())).toBeNull();
  });
});

describe('contract reads in the token state', () => {
  it('the latest read by block stands, whatever the arrival order; a retraction falls back to the read before; reads never move the position', () => {
    const s = initialTokenState('devnet', TOKEN);
    foldTokenEvent(s, facts({ trigger: 'launch' }, 100));
    foldTokenEvent(s, facts({ trigger: 'owner' }, 120));
    foldTokenEvent(s, facts({ trigger: 'head' }, 110)); // a late read of an older block
    expect(latestContract(s)?.trigger).toBe('owner');
    expect(s.lastPosition).toBe(-1);
    foldTokenEvent(s, { ...facts({ trigger: 'owner' }, 120), removed: true });
    expect(latestContract(s)?.trigger).toBe('head');
    foldTokenEvent(s, facts({ trigger: 'owner' }, 120)); // the same read again: once
    foldTokenEvent(s, facts({ trigger: 'owner' }, 120));
    expect(s.contract?.map((c) => c.block)).toEqual([100, 110, 120]);
  });
});

describe('LP locks as they come due', () => {
  const HOUR = 3600;
  const at = 1_700_000_100;
  const locked = (locks?: { pct: number; until: number }[]) =>
    facts({ pools: [{ pool: OWNER, dex: 'v2', quote: 'WETH', liquidityUsd: 1000, lp: { burnedPct: 0, lockedPct: 95, deployerPct: 5, ownerPct: 0, ...(locks ? { locks } : {}) } }] });

  it('attacker: a lock expiring in an hour is locked until then, with its unlock time said; past it, nothing is locked though nobody read the locker again', () => {
    const f = locked([{ pct: 95, until: at + HOUR }]);
    expect(lpCustody(f, at)?.lockedPct).toBe(95);
    expect(lpLockedUntil(f, at)).toBe(at + HOUR);
    expect(lpRugFlag(f, at)?.reason).toMatch(/burned or locked, locked until 2023-11-14T23:15:00.000Z/);
    expect(contractSummary(f, at)?.lpLockedUntil).toBe('2023-11-14T23:15:00.000Z');
    expect(lpCustody(f, at + HOUR)?.lockedPct).toBe(0);
    expect(lpLockedUntil(f, at + HOUR)).toBeNull();
    expect(lpRugFlag(f, at + HOUR)).toBeNull();
    expect(contractSummary(f, at + HOUR)?.lpLockedUntil).toBeNull();
  });

  it('of two locks, the one still ahead counts; a read without lock detail keeps its figure', () => {
    const f = locked([{ pct: 45, until: at + HOUR }, { pct: 50, until: at + 30 * 24 * HOUR }]);
    expect(lpCustody(f, at + 2 * HOUR)?.lockedPct).toBe(50);
    expect(lpLockedUntil(f, at + 2 * HOUR)).toBe(at + 30 * 24 * HOUR);
    expect(lpCustody(locked(), at + 365 * 24 * HOUR)?.lockedPct).toBe(95);
  });
});
