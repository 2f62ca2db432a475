/**
 * Who holds a Uniswap V3 pool's liquidity. Its positions are NFTs of a position manager, so they
 * are found through the manager's enumeration of the holders that matter (the deployer side, the
 * owner, the dead address) and weighed by their liquidity against the pool's in-range liquidity.
 * A position in a wallet can be pulled by it; one sent to the dead address is burned. No V3 locker
 * is read, so nothing counts as locked: a locker's word is not taken without its unlock time.
 */
import { parseAbi } from 'viem';
import type { PoolFacts } from '../../../schemas/events.ts';
import type { Addr } from '../decode.ts';
import type { ViewCall } from './locks.ts';

export const POSITIONS_ABI = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)',
  'function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)',
]);
const POOL_ABI = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function fee() view returns (uint24)',
  'function liquidity() view returns (uint128)',
]);

/** positions read per holder and manager, its newest: the dead address holds every project's burned positions */
export const POSITIONS_READ = 16;

const DEAD = '0x000000000000000000000000000000000000dead' as Addr;

type Position = readonly [bigint, Addr, Addr, Addr, number, number, number, bigint, bigint, bigint, bigint, bigint];

export interface V3Holders {
  /** the deployer side: the deployer and the pools' first liquidity providers */
  side: Addr[];
  owner: Addr | null;
}

/** the liquidity `holder`'s positions in the pool hold, over the configured managers */
async function heldBy(read: ViewCall, managers: readonly Addr[], holder: Addr, pool: { token0: Addr; token1: Addr; fee: number }, at: bigint): Promise<bigint> {
  let sum = 0n;
  for (const manager of managers) {
    const n = Number((await read<bigint>(manager, POSITIONS_ABI, 'balanceOf', [holder], at)) ?? 0n);
    const indexes = Array.from({ length: Math.min(n, POSITIONS_READ) }, (_, i) => n - 1 - i);
    const ids = await Promise.all(indexes.map((i) => read<bigint>(manager, POSITIONS_ABI, 'tokenOfOwnerByIndex', [holder, BigInt(i)], at)));
    const positions = await Promise.all(ids.map((id) => (id === null ? null : read<Position>(manager, POSITIONS_ABI, 'positions', [id], at))));
    for (const p of positions) {
      if (p && p[2].toLowerCase() === pool.token0 && p[3].toLowerCase() === pool.token1 && Number(p[4]) === pool.fee) sum += p[7];
    }
  }
  return sum;
}

/** a V3 pool's custody in V2's terms (shares of its in-range liquidity), or null when the pool has none */
export async function v3CustodyOf(read: ViewCall, managers: readonly Addr[], address: Addr, holders: V3Holders, at: bigint): Promise<PoolFacts['lp']> {
  if (managers.length === 0) return null;
  const [token0, token1, fee, liquidity] = await Promise.all([
    read<Addr>(address, POOL_ABI, 'token0', [], at),
    read<Addr>(address, POOL_ABI, 'token1', [], at),
    read<number>(address, POOL_ABI, 'fee', [], at),
    read<bigint>(address, POOL_ABI, 'liquidity', [], at),
  ]);
  if (!token0 || !token1 || fee === null || !liquidity) return null;
  const pool = { token0: token0.toLowerCase() as Addr, token1: token1.toLowerCase() as Addr, fee: Number(fee) };
  const side = [...new Set(holders.side)];
  const owner = holders.owner && !side.includes(holders.owner) ? holders.owner : null;
  const [dead, sideHeld, ownerHeld] = await Promise.all([
    heldBy(read, managers, DEAD, pool, at),
    Promise.all(side.map((h) => heldBy(read, managers, h, pool, at))),
    owner ? heldBy(read, managers, owner, pool, at) : Promise.resolve(0n),
  ]);
  // an out-of-range position is not in the pool's liquidity: a share is capped at the whole
  const pct = (x: bigint) => Math.min(100, Math.round((10_000 * Number(x)) / Number(liquidity)) / 100);
  const held = sideHeld.reduce((a, b) => a + b, 0n);
  const ownerInSide = holders.owner ? side.indexOf(holders.owner) : -1;
  return { burnedPct: pct(dead), lockedPct: 0, deployerPct: pct(held), ownerPct: ownerInSide >= 0 ? pct(sideHeld[ownerInSide] ?? 0n) : pct(ownerHeld), locks: [] };
}
