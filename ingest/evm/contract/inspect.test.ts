import { encodeErrorResult, parseAbi, toFunctionSelector } from 'viem';
import { describe, expect, it } from 'vitest';
import { powersOf, pushedAddresses, pushedSelectors, revertReason } from './inspect.ts';

describe('contract reads: code and reverts', () => {
  it('PUSH4 immediates are read as selectors, skipping other pushes\' data', () => {
    const mint = toFunctionSelector('mint(address,uint256)').slice(2);
    // PUSH32 <data that contains 63 + mint>, then PUSH4 <pause()>
    const pause = toFunctionSelector('pause()').slice(2);
    const code = `0x7f63${mint}${'00'.repeat(27)}63${pause}56` as const;
    const sel = pushedSelectors(code);
    expect(sel.has(pause)).toBe(true);
    expect(sel.has(mint)).toBe(false);
    expect(powersOf(sel)).toEqual(['pause']);
  });

  it('revert data reads as the reason string, a panic, or a custom error\'s selector', () => {
    expect(revertReason(encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['TRANSFER_FAILED'] }))).toBe('TRANSFER_FAILED');
    expect(revertReason(encodeErrorResult({ abi: parseAbi(['error Panic(uint256)']), errorName: 'Panic', args: [17n] }))).toBe('panic 17');
    expect(revertReason('0xdeadbeef')).toBe('custom error 0xdeadbeef');
    expect(revertReason('0x')).toBe('reverted without a reason');
  });

  it('addresses named in code: PUSH20 constants and PUSH32 immutables with twelve zero bytes; not other words, not a PUSH20 inside another push', () => {
    const guard = 'ab'.repeat(20);
    const immutable = 'cd'.repeat(20);
    const word = 'ff'.repeat(32);
    const code = `0x73${guard}7f${'00'.repeat(12)}${immutable}7f${word}7f73${'ee'.repeat(20)}${'00'.repeat(11)}` as const;
    expect([...pushedAddresses(code)]).toEqual([`0x${guard}`, `0x${immutable}`]);
  });
});
