import { resolve } from 'node:path';
import { toFunctionSelector } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Compiled } from '../../../infra/devnet/solc.ts';
import { compileStoryContracts } from '../../../test/integration/devnet-tx.ts';
import { dispatchedSelectors, kindOf } from './holdings.ts';

const sel = (sig: string) => toFunctionSelector(sig).slice(2);
let compiled: Record<string, Compiled>;
const shape = (name: string) => kindOf(dispatchedSelectors((compiled[name] as Compiled).deployedBytecode));

beforeAll(() => {
  compiled = compileStoryContracts(resolve(import.meta.dirname, '../../..'), ['Holdings.sol', 'Stories.sol']);
}, 120_000);

describe('contracts holding supply, told by the functions their dispatcher offers', () => {
  it('the dispatcher\u2019s selectors, not the error selectors or interface ids the code also pushes', () => {
    expect([...dispatchedSelectors((compiled.SimpleStaking as Compiled).deployedBytecode)].sort()).toEqual(
      ['stake(uint256)', 'withdraw(uint256)', 'balanceOf(address)', 'totalSupply()', 'stakingToken()'].map(sel).sort(),
    );
  });

  it('an ownerless staking contract and OpenZeppelin\u2019s vesting wallet are their kinds with nothing beyond; a plain token is neither', () => {
    expect(shape('SimpleStaking')).toEqual({ kind: 'staking', extra: [] });
    expect(shape('TeamVesting')).toEqual({ kind: 'vesting', extra: [] });
    expect(shape('PlainToken')).toBeNull();
  });

  it('attacker: staking with an owner-only sweep is staking with a function staking does not need: named, so the read counts it as a holder', () => {
    expect(shape('SweepableStaking')).toEqual({ kind: 'staking', extra: [sel('emergencyWithdraw(address)')] });
  });
});
