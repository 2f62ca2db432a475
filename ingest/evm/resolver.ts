/**
 * Resolves pool -> (token0, token1) and token -> metadata (decimals, symbol, totalSupply) once per
 * address, cached (in-flight requests shared). A contract that does not answer is remembered as
 * "not a pool" / "not a token"; transient RPC failures are not cached and surface to the caller.
 */
import { hexToString, parseAbi, type PublicClient } from 'viem';
import type { Addr, PoolTokens, TokenMeta } from './decode.ts';
import { isRetryable } from './rpc.ts';

const poolAbi = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
]);
const balanceAbi = parseAbi(['function balanceOf(address) view returns (uint256)']);

/** a pool's reserves at a block: a V2 pair's, or a V3 pool's token balances with its price */
export interface PoolReservesRaw {
  dex: 'v2' | 'v3';
  reserve0: bigint;
  reserve1: bigint;
  /** V3 only */
  sqrtPriceX96?: bigint;
}
const tokenAbi = parseAbi([
  'function decimals() view returns (uint8)',
  'function symbol() view returns (string)',
  'function totalSupply() view returns (uint256)',
]);
const symbolBytes32Abi = parseAbi(['function symbol() view returns (bytes32)']);

export interface Resolver {
  /** resolves (or recalls) the addresses so that peekPool/peekMeta answer synchronously */
  ensure(pools: Addr[], tokens: Addr[]): Promise<void>;
  peekPool(addr: Addr): PoolTokens | undefined;
  peekMeta(addr: Addr): TokenMeta | undefined;
  /** a pool known from PairCreated needs no call */
  rememberPool(addr: Addr, tokens: PoolTokens): void;
  /** a V2 pair's getReserves, else a V3 pool's slot0 and balances; throws when the address is neither at that block */
  reservesAt(pool: Addr, blockNumber: bigint): Promise<PoolReservesRaw>;
}

export function createResolver(client: PublicClient): Resolver {
  const pools: Record<string, PoolTokens | null> = {};
  const metas: Record<string, TokenMeta | null> = {};
  const inflight: Record<string, Promise<void> | undefined> = {};

  async function definitive<T>(p: Promise<T>): Promise<T | null> {
    try {
      return await p;
    } catch (err) {
      if (isRetryable(err)) throw err;
      return null; // reverted / no such function / not a contract
    }
  }

  async function loadPool(addr: Addr): Promise<void> {
    const [t0, t1] = await Promise.all([
      definitive(client.readContract({ address: addr, abi: poolAbi, functionName: 'token0' })),
      definitive(client.readContract({ address: addr, abi: poolAbi, functionName: 'token1' })),
    ]);
    pools[addr] = t0 && t1 ? { token0: t0.toLowerCase() as Addr, token1: t1.toLowerCase() as Addr } : null;
  }

  async function loadMeta(addr: Addr): Promise<void> {
    const decimals = await definitive(client.readContract({ address: addr, abi: tokenAbi, functionName: 'decimals' }));
    if (decimals === null) {
      metas[addr] = null;
      return;
    }
    const [symbol, totalSupply] = await Promise.all([
      definitive(client.readContract({ address: addr, abi: tokenAbi, functionName: 'symbol' })).then(async (s) => {
        if (s !== null) return s;
        const b = await definitive(client.readContract({ address: addr, abi: symbolBytes32Abi, functionName: 'symbol' }));
        return b ? hexToString(b, { size: 32 }).replace(/\0+$/, '') : '';
      }),
      definitive(client.readContract({ address: addr, abi: tokenAbi, functionName: 'totalSupply' })),
    ]);
    metas[addr] = { decimals: Number(decimals), symbol: symbol ?? '', totalSupply: totalSupply ?? 0n };
  }

  function once(key: string, load: () => Promise<void>): Promise<void> {
    let p = inflight[key];
    if (!p) {
      p = load().finally(() => {
        delete inflight[key];
      });
      inflight[key] = p;
    }
    return p;
  }

  return {
    async ensure(poolAddrs, tokenAddrs) {
      const jobs: Promise<void>[] = [];
      for (const a of new Set(poolAddrs)) if (!(a in pools)) jobs.push(once(`p:${a}`, () => loadPool(a)));
      // transfers: the contract might be an LP token (a pool) rather than a token we follow
      for (const a of new Set(tokenAddrs)) {
        if (!(a in metas)) jobs.push(once(`m:${a}`, () => loadMeta(a)));
      }
      await Promise.all(jobs);
      // pools' tokens need metadata too
      const more: Addr[] = [];
      for (const a of poolAddrs) {
        const p = pools[a];
        if (p) for (const t of [p.token0, p.token1]) if (!(t in metas)) more.push(t);
      }
      if (more.length) await Promise.all([...new Set(more)].map((t) => once(`m:${t}`, () => loadMeta(t))));
    },
    peekPool: (a) => pools[a] ?? undefined,
    peekMeta: (a) => metas[a] ?? undefined,
    rememberPool(addr, tokens) {
      pools[addr] = tokens;
    },
    async reservesAt(pool, blockNumber) {
      try {
        const [reserve0, reserve1] = await client.readContract({ address: pool, abi: poolAbi, functionName: 'getReserves', blockNumber });
        return { dex: 'v2', reserve0, reserve1 };
      } catch (err) {
        const tokens = pools[pool];
        if (isRetryable(err) || !tokens) throw err;
        // no getReserves: a V3 pool holds its reserves as balances
        const [slot0, reserve0, reserve1] = await Promise.all([
          client.readContract({ address: pool, abi: poolAbi, functionName: 'slot0', blockNumber }),
          client.readContract({ address: tokens.token0, abi: balanceAbi, functionName: 'balanceOf', args: [pool], blockNumber }),
          client.readContract({ address: tokens.token1, abi: balanceAbi, functionName: 'balanceOf', args: [pool], blockNumber }),
        ]);
        return { dex: 'v3', reserve0, reserve1, sqrtPriceX96: slot0[0] };
      }
    },
  };
}
