/**
 * Contracts that hold a token's supply, read the way a concentration measure needs them: staking,
 * vesting and timelock contracts hold supply for others and are no whale, yet a contract the
 * deployer side can empty at will is the deployer side's. Strict by construction: a contract
 * counts as locked only when every function its dispatcher offers belongs to its kind (an
 * `emergencyWithdraw`, a `recoverERC20` or any function of unknown purpose counts it as a
 * holder), it is no proxy, and its own accounting covers what it holds: a staking contract's
 * stakes (less the deployer's and owner's own), a vesting wallet's unvested part, a timelock's
 * balance before its release time.
 */
import { parseAbi, toFunctionSelector, type Hex, type PublicClient } from 'viem';
import { LRUCache } from 'lru-cache';
import type { ContractFacts } from '../../../schemas/events.ts';
import type { Addr } from '../decode.ts';

export type Holding = NonNullable<ContractFacts['holdings']>[number];

const abi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function stakingToken() view returns (address)',
  'function releasable(address) view returns (uint256)',
  'function owner() view returns (address)',
  'function end() view returns (uint256)',
  'function token() view returns (address)',
  'function releaseTime() view returns (uint256)',
  'function beneficiary() view returns (address)',
]);

const sel = (sigs: string[]) => new Set(sigs.map((s) => toFunctionSelector(s).slice(2)));
const OWNERSHIP = ['owner()', 'transferOwnership(address)', 'renounceOwnership()', 'supportsInterface(bytes4)'];

/** each kind: the functions that name it, and every function it may offer (none moves what it holds for others) */
const KINDS = {
  staking: {
    required: sel(['stake(uint256)', 'withdraw(uint256)']),
    allowed: sel([
      ...OWNERSHIP, 'stake(uint256)', 'withdraw(uint256)', 'balanceOf(address)', 'totalSupply()', 'stakingToken()', 'getReward()', 'exit()', 'earned(address)',
      'rewardsToken()', 'rewardRate()', 'rewardPerToken()', 'rewardPerTokenStored()', 'lastTimeRewardApplicable()', 'lastUpdateTime()', 'periodFinish()',
      'rewardsDuration()', 'userRewardPerTokenPaid(address)', 'rewards(address)', 'getRewardForDuration()', 'notifyRewardAmount(uint256)',
    ]),
  },
  vesting: {
    required: sel(['release(address)', 'releasable(address)']),
    allowed: sel([
      ...OWNERSHIP, 'start()', 'duration()', 'end()', 'released()', 'released(address)', 'releasable()', 'releasable(address)', 'release()', 'release(address)',
      'vestedAmount(uint64)', 'vestedAmount(address,uint64)',
    ]),
  },
  locker: {
    required: sel(['release()', 'releaseTime()', 'token()']),
    allowed: sel([...OWNERSHIP, 'release()', 'releaseTime()', 'token()', 'beneficiary()']),
  },
} as const;
type Kind = keyof typeof KINDS;

/** EIP-1967's implementation slot, and the runtime prefix of an EIP-1167 minimal proxy */
const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const MINIMAL_PROXY = '363d3d373d3d3d363d73';

/**
 * The selectors a Solidity dispatcher compares the call's selector with: a PUSH4 followed by EQ
 * (or DUP2 then EQ). Error selectors and interface ids are pushed too, but never compared so.
 */
export function dispatchedSelectors(code: Hex): Set<string> {
  const hex = code.startsWith('0x') ? code.slice(2) : code;
  const out = new Set<string>();
  for (let i = 0; i < hex.length; i += 2) {
    const op = parseInt(hex.slice(i, i + 2), 16);
    if (op < 0x60 || op > 0x7f) continue;
    const n = op - 0x5f;
    const next = hex.slice(i + 2 + 2 * n, i + 6 + 2 * n);
    if (n === 4 && (next.startsWith('14') || next === '8114')) out.add(hex.slice(i + 2, i + 10).toLowerCase());
    i += 2 * n;
  }
  return out;
}

/** the kind a contract's functions name, and what it offers beyond that kind (empty when nothing) */
export function kindOf(selectors: Set<string>): { kind: Kind; extra: string[] } | null {
  for (const [kind, k] of Object.entries(KINDS) as [Kind, (typeof KINDS)[Kind]][]) {
    if (![...k.required].every((s) => selectors.has(s))) continue;
    return { kind, extra: [...selectors].filter((s) => !k.allowed.has(s)).sort() };
  }
  return null;
}

interface HoldingsDeps {
  client: PublicClient;
  /** a view call that is null when it reverts (a transient failure throws) */
  definitive: <T>(p: Promise<T>) => Promise<T | null>;
  /** whether the address holds code (the inspector's, which asks once per contract) */
  hasCode: (address: Addr, blockNumber: bigint) => Promise<boolean>;
}

const short = (a: string) => `${a.slice(0, 8)}…`;
const iso = (ts: bigint) => new Date(Number(ts) * 1000).toISOString().slice(0, 10);

export function createHoldingsReader({ client, definitive, hasCode }: HoldingsDeps) {
  /** code never changes at an address with code: its dispatcher's selectors, kept */
  const kinds = new LRUCache<Addr, { kind: ReturnType<typeof kindOf>; proxy: boolean }>({ max: 10_000 });
  const read = <T>(address: Addr, functionName: string, args: unknown[], blockNumber: bigint) =>
    definitive(client.readContract({ address, abi, functionName, args, blockNumber } as never) as Promise<T>);

  async function shapeOf(address: Addr, blockNumber: bigint): Promise<{ kind: ReturnType<typeof kindOf>; proxy: boolean }> {
    let s = kinds.get(address);
    if (!s) {
      const [code, slot] = await Promise.all([definitive(client.getCode({ address, blockNumber })), definitive(client.getStorageAt({ address, slot: IMPLEMENTATION_SLOT, blockNumber }))]);
      const hex = (code ?? '0x') as Hex;
      const proxy = hex.slice(2).toLowerCase().startsWith(MINIMAL_PROXY) || (slot !== null && slot !== undefined && BigInt(slot) !== 0n);
      s = { kind: kindOf(dispatchedSelectors(hex)), proxy };
      kinds.set(address, s);
    }
    return s;
  }

  /** the part of `balance` the contract's own accounting holds for others, with the why */
  async function locked(kind: Kind, token: Addr, address: Addr, balance: bigint, side: Addr[], blockNumber: bigint, now: number): Promise<{ locked: bigint; detail: string }> {
    if (kind === 'staking') {
      const [stakingToken, staked, ...sideStakes] = await Promise.all([
        read<Addr>(address, 'stakingToken', [], blockNumber),
        read<bigint>(address, 'totalSupply', [], blockNumber),
        ...side.map((a) => read<bigint>(address, 'balanceOf', [a], blockNumber)),
      ]);
      if (stakingToken?.toLowerCase() !== token || staked === null) return { locked: 0n, detail: 'its stakes are not of this token' };
      const own = sideStakes.reduce<bigint>((s, x) => s + (x ?? 0n), 0n);
      const held = (staked < balance ? staked : balance) - own;
      // tokens sent to it without a stake behind them are nobody's stake: whoever can take them is unknown
      const unstaked = staked * 10n < balance * 9n ? ', though it holds more than its stakes' : '';
      return { locked: held > 0n ? held : 0n, detail: `stakes its stakers can withdraw${own > 0n ? ', less the deployer\u2019s own' : ''}${unstaked}` };
    }
    if (kind === 'vesting') {
      const [releasable, beneficiary, end] = await Promise.all([
        read<bigint>(address, 'releasable', [token], blockNumber),
        read<Addr>(address, 'owner', [], blockNumber),
        read<bigint>(address, 'end', [], blockNumber),
      ]);
      if (releasable === null) return { locked: 0n, detail: 'its schedule does not answer' };
      const left = balance - releasable;
      return { locked: left > 0n ? left : 0n, detail: `vesting to ${beneficiary ? short(beneficiary) : 'its beneficiary'}${end !== null ? ` until ${iso(end)}` : ''}` };
    }
    const [lockedToken, releaseTime] = await Promise.all([read<Addr>(address, 'token', [], blockNumber), read<bigint>(address, 'releaseTime', [], blockNumber)]);
    if (lockedToken?.toLowerCase() !== token || releaseTime === null) return { locked: 0n, detail: 'it locks another token' };
    return releaseTime > BigInt(now) ? { locked: balance, detail: `locked until ${iso(releaseTime)}` } : { locked: 0n, detail: `released since ${iso(releaseTime)}` };
  }

  return {
    /**
     * The contracts among `holders` (those with code) and what of their balance of `token` is
     * held for others; `side` are the deployer and the token's owner, whose own stakes count.
     */
    async classify(token: Addr, holders: Addr[], side: Addr[], blockNumber: bigint, now: number): Promise<Holding[]> {
      const out: Holding[] = [];
      for (const address of holders) {
        if (!(await hasCode(address, blockNumber))) continue;
        const balance = (await read<bigint>(token, 'balanceOf', [address], blockNumber)) ?? 0n;
        if (balance === 0n) continue;
        const { kind, proxy } = await shapeOf(address, blockNumber);
        const counted = (k: Holding['kind'], detail: string): Holding => ({ address, kind: k, lockedShare: 0, detail });
        if (proxy) out.push(counted(kind?.kind ?? 'contract', 'an upgradeable proxy: its code can be replaced'));
        else if (!kind) out.push(counted('contract', 'not a staking, vesting or timelock contract'));
        else if (kind.extra.length > 0) out.push(counted(kind.kind, `its code offers functions a ${kind.kind} contract does not need (0x${kind.extra.slice(0, 3).join(', 0x')})`));
        else {
          const l = await locked(kind.kind, token, address, balance, side, blockNumber, now);
          const share = Number((l.locked * 10_000n) / balance) / 10_000;
          out.push({ address, kind: kind.kind, lockedShare: share, detail: l.detail });
        }
      }
      return out;
    },
  };
}
export type HoldingsReader = ReturnType<typeof createHoldingsReader>;
