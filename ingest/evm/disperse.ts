/**
 * One transaction paying many wallets through a contract, the Disperse contract's way
 * (disperse.app: disperseEther, disperseToken, disperseTokenSimple): the ether legs move inside
 * the contract, where no log or transaction shows them, so they are read from the call's input.
 * The recipients are funded by the caller, not by the contract (which pays for everyone who uses
 * it). At most DISPERSE_FANOUT legs of a call are taken: the rest of a larger airdrop is not.
 */
import { decodeFunctionData, parseAbi, toFunctionSelector, type Hex } from 'viem';
import type { Addr } from './decode.ts';

export const DISPERSE_ABI = parseAbi([
  'function disperseEther(address[] recipients, uint256[] values) payable',
  'function disperseToken(address token, address[] recipients, uint256[] values)',
  'function disperseTokenSimple(address token, address[] recipients, uint256[] values)',
]);

/** the selectors of the calls whose input a block read keeps (0x…) */
export const DISPERSE_SELECTORS = new Set<string>(DISPERSE_ABI.map((f) => toFunctionSelector(f)));

/** legs taken from one call: enough for a launch's snipers, bounded against an airdrop's thousands */
export const DISPERSE_FANOUT = 64;

export interface DisperseLeg {
  /** null for ether */
  token: Addr | null;
  to: Addr;
  value: bigint;
}

/** the legs of a Disperse call's input (at most DISPERSE_FANOUT); null when the input is not one */
export function disperseLegs(input: Hex): DisperseLeg[] | null {
  let call;
  try {
    call = decodeFunctionData({ abi: DISPERSE_ABI, data: input });
  } catch {
    return null;
  }
  const [token, recipients, values] = call.functionName === 'disperseEther' ? [null, ...call.args] : call.args;
  const n = Math.min(recipients.length, values.length, DISPERSE_FANOUT);
  const lower = (a: string) => a.toLowerCase() as Addr;
  return Array.from({ length: n }, (_, i) => ({ token: token ? lower(token) : null, to: lower(recipients[i] as string), value: values[i] as bigint }));
}
