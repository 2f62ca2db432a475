/**
 * Supply held by contracts for others (schemas/events.ts ContractFacts `holdings`, read at the
 * ingest by ingest/evm/contract/holdings.ts): a staking contract's stakes, a vesting wallet's
 * unvested part, a timelock's balance before its release are no whale, and the concentration
 * measures leave them out, saying so. What the read could not verify stays a holder, said too:
 * a contract the deployer side can empty at will is the deployer side's. Pure.
 */
import type { ContractFacts } from '../../schemas/events.ts';

export interface HoldingsView {
  /** the holders' balances less what contracts hold locked for others */
  balances: Record<string, number>;
  /** what was left out and what was counted, for the concentration flag's reason ('' when no contract holds much) */
  note: string;
}

const KIND_TEXT = { staking: 'staking contract', vesting: 'vesting contract', locker: 'timelock', contract: 'contract' } as const;
const short = (a: string) => `${a.slice(0, 8)}…`;

/**
 * The balances a concentration measure reads: each classified contract's balance less its locked
 * share; `supply` words each one's share in the note.
 */
export function holdingsView(balances: Record<string, number>, facts: ContractFacts | null, supply: number): HoldingsView {
  const holdings = facts?.holdings ?? [];
  if (holdings.length === 0) return { balances, note: '' };
  const out = { ...balances };
  const left: string[] = [];
  const counted: string[] = [];
  const pct = (x: number) => (supply > 0 ? `${Math.round((100 * x) / supply)}%` : 'some');
  for (const h of holdings) {
    const held = balances[h.address] ?? 0;
    if (held <= 0) continue;
    const locked = held * h.lockedShare;
    const what = `${KIND_TEXT[h.kind]} ${short(h.address)}`;
    if (locked > 0) {
      out[h.address] = held - locked;
      left.push(`${what} (${pct(locked)} of supply: ${h.detail})`);
    } else counted.push(`${what} (${pct(held)}: ${h.detail})`);
  }
  const parts: string[] = [];
  if (left.length > 0) parts.push(`Not counted: ${left.join('; ')}.`);
  if (counted.length > 0) parts.push(`Counted as holders: ${counted.join('; ')}.`);
  return { balances: out, note: parts.join(' ') };
}
