import { describe, expect, it } from 'vitest';
import { encodeFunctionData, type Address } from 'viem';
import { DISPERSE_ABI, DISPERSE_FANOUT, DISPERSE_SELECTORS, disperseLegs } from './disperse.ts';

const A = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;

describe('Disperse calls: one transaction paying many wallets', () => {
  it('reads the ether legs and the token legs from the input, under the selectors a block read keeps', () => {
    const ether = encodeFunctionData({ abi: DISPERSE_ABI, functionName: 'disperseEther', args: [[A(1), A(2)], [5n, 7n]] });
    expect(DISPERSE_SELECTORS.has(ether.slice(0, 10))).toBe(true);
    expect(disperseLegs(ether)).toEqual([{ token: null, to: A(1), value: 5n }, { token: null, to: A(2), value: 7n }]);
    const token = encodeFunctionData({ abi: DISPERSE_ABI, functionName: 'disperseToken', args: [A(0xee), [A(3)], [9n]] });
    expect(disperseLegs(token)).toEqual([{ token: A(0xee), to: A(3), value: 9n }]);
  });

  it('attacker: an airdrop of thousands is bounded to the first legs; an input that is no Disperse call has none', () => {
    const many = Array.from({ length: 500 }, (_, i) => A(i + 1));
    const data = encodeFunctionData({ abi: DISPERSE_ABI, functionName: 'disperseEther', args: [many, many.map(() => 1n)] });
    expect(disperseLegs(data)).toHaveLength(DISPERSE_FANOUT);
    expect(disperseLegs('0xa9059cbb')).toBeNull();
    expect(disperseLegs(data.slice(0, 80) as `0x${string}`)).toBeNull();
  });
});
