import { describe, expect, it } from 'vitest';
import type { ContractFacts, TokenEvent } from '../../schemas/events.ts';
import { TokenSnapshot } from '../../schemas/token.ts';
import { deriveTokenSnapshot } from './derive.ts';
import { holdingsView } from './holdings.ts';
import { foldTokenEvents, initialTokenState } from './state.ts';
import { Market, addr } from './testkit.ts';

const STAKING = addr('staking');
const VESTING = addr('vesting');
type Holding = NonNullable<ContractFacts['holdings']>[number];

/** a read of the token's contract at the market's clock, carrying what it found of the contracts holding supply */
function read(m: Market, holdings: Holding[]): ContractFacts {
  const hash = `0x${m.block.toString(16).padStart(64, '0')}`;
  return {
    chain: m.chain, block: m.block, blockHash: hash, tx: hash, logIndex: 0, timestamp: m.ts, type: 'contract', token: m.token, trigger: 'schedule',
    isContract: true, owner: null, renounced: true, proxy: null, powers: [], sim: null, simSkipped: 'no pool on a known router', pools: [], holdings,
  };
}

/** a fifth of the supply in the pool, 45% staked, 30% vesting, 5% left with the deployer; thirty wallets buy, ten sell half */
function lockedSupply(holdings: (m: Market) => Holding[]): TokenSnapshot {
  const m = new Market().launch(200_000, 0.2);
  m.advance(60).transfer(m.deployer, STAKING, 0.45 * m.supply);
  m.advance(60).transfer(m.deployer, VESTING, 0.3 * m.supply);
  for (let i = 0; i < 30; i++) m.advance(300).buy(addr(20_000 + i), 300);
  for (let i = 0; i < 10; i++) m.advance(300).sell(addr(20_000 + i), 150);
  const events: TokenEvent[] = [...m.events, read(m.advance(12), holdings(m))];
  return TokenSnapshot.parse(deriveTokenSnapshot(foldTokenEvents(initialTokenState(m.chain, m.token), events)));
}

describe('supply held by staking and vesting contracts', () => {
  it('a staking and a vesting contract holding three quarters of supply, read as locked: not counted, no red concentration, said with the reason', () => {
    const s = lockedSupply(() => [
      { address: STAKING, kind: 'staking', lockedShare: 1, detail: 'stakes its stakers can withdraw' },
      { address: VESTING, kind: 'vesting', lockedShare: 0.9, detail: 'vesting to 0x123456… until 2027-12-01' },
    ]);
    expect(s.risk.flags.concentration.severity).not.toBe('red');
    expect(s.risk.flags.concentration.reason).toMatch(/Not counted: staking contract 0x.* \(45% of supply: stakes its stakers can withdraw\); vesting contract 0x.* \(27% of supply: vesting to/);
    expect(s.verdict).not.toBe('avoid');
  });

  it('without the read, the same supply is a red concentration (the false alarm the read clears)', () => {
    const s = lockedSupply(() => []);
    expect(s.risk.flags.concentration).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.verdict).toBe('avoid');
  });

  it('attacker: a "staking" contract its owner can sweep, read as not locked: counted as a holder, red, avoid, the reason said', () => {
    const s = lockedSupply(() => [
      { address: STAKING, kind: 'staking', lockedShare: 0, detail: 'its code offers functions a staking contract does not need (0x6ff1c9bc)' },
      { address: VESTING, kind: 'vesting', lockedShare: 1, detail: 'vesting to 0x123456… until 2027-12-01' },
    ]);
    expect(s.risk.flags.concentration).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.concentration.reason).toMatch(/Counted as holders: staking contract 0x.* \(45%: its code offers functions/);
    expect(s.verdict).toBe('avoid');
  });
});

describe('holdingsView', () => {
  it('takes the locked share out of each contract\u2019s balance and leaves every other holder as it is', () => {
    const m = new Market();
    const v = holdingsView({ [STAKING]: 400, [VESTING]: 300, [addr('w')]: 50 }, read(m, [
      { address: STAKING, kind: 'staking', lockedShare: 0.75, detail: 'stakes' },
      { address: VESTING, kind: 'vesting', lockedShare: 1, detail: 'vesting' },
    ]), 1000);
    expect(v.balances).toEqual({ [STAKING]: 100, [VESTING]: 0, [addr('w')]: 50 });
    expect(holdingsView({ [STAKING]: 400 }, null, 1000)).toEqual({ balances: { [STAKING]: 400 }, note: '' });
  });
});
