import { decodeErrorResult, type Hex } from 'viem';

/** the revert reason of a failed step, readable */
export function revertReason(data: Hex | undefined): string | null {
  if (!data || data === '0x') return data === '0x' ? 'reverted without a reason' : null;
  try {
    const e = decodeErrorResult({ data });
    if (e.errorName === 'Error') return String(e.args?.[0] ?? '');
    if (e.errorName === 'Panic') return `panic ${String(e.args?.[0] ?? '')}`;
  } catch {
    // a custom error: its selector says which
  }
  return `custom error ${data.slice(0, 10)}`;
}
