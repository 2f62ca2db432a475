/**
 * Reads a token's contract at a block, as GoPlus, honeypot.is and Birdeye's security reads do
 * (docs/intelligence.md "On real chains"): a trade simulated by eth_call with the trade probe
 * placed by a state override (buy, second buy, transfer, sell, a larger buy), the owner and the
 * powers its code holds (selectors in the bytecode, an EIP-1967 proxy), and every pool of the
 * token on the configured routers' factories with its LP custody. The result is one
 * `ContractFacts` event; the engine only folds it.
 */
import { decodeFunctionResult, encodeFunctionData, numberToHex, parseAbi, parseEther, toFunctionSelector, type Abi, type Hex, type PublicClient } from 'viem';
import type { ContractFacts, HolderSim, PoolFacts, SimStep } from '../../../schemas/events.ts';
import { poolLiquidityUsd, type Addr } from '../decode.ts';
import type { EvmChainConfig } from '../config.ts';
import type { Resolver } from '../resolver.ts';
import { reservesOf } from '../processor.ts';
import { LRUCache } from 'lru-cache';
import { isRetryable } from '../rpc.ts';
import { TRADE_PROBE_ABI, TRADE_PROBE_RUNTIME } from './probe-code.ts';
import { revertReason } from './revert.ts';
import { v3CustodyOf } from './positions.ts';
import { V3_EXACT_INPUT_SINGLE, createHolderSimulator, type HolderPool } from './holders.ts';
import { lockedBy, readLocks, type ViewCall } from './locks.ts';
import { createHoldingsReader } from './holdings.ts';

export const ZERO: Addr = '0x0000000000000000000000000000000000000000';
export const DEAD: Addr = '0x000000000000000000000000000000000000dead';

/** EIP-1967 storage slots */
const SLOT = {
  implementation: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  admin: '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103',
  beacon: '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50',
} as const;

const abi = parseAbi([
  'function owner() view returns (address)',
  'function getOwner() view returns (address)',
  'function implementation() view returns (address)',
  'function factory() view returns (address)',
  'function getPair(address, address) view returns (address)',
  'function getPool(address, address, uint24) view returns (address)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function fee() view returns (uint24)',
]);

/** Function signatures whose presence in a contract's code gives its owner a power. */
export const POWER_SIGNATURES: Record<ContractFacts['powers'][number], string[]> = {
  mint: ['mint(address,uint256)', 'mint(uint256)', 'mintTo(address,uint256)', 'issue(uint256)'],
  blacklist: [
    'blacklist(address)', 'addToBlacklist(address)', 'setBlacklist(address,bool)', 'blacklistAddress(address,bool)', 'addBlackList(address)',
    'setBlacklisted(address,bool)', 'updateBlacklist(address,bool)', 'setBots(address[],bool)', 'addBots(address[])', 'blockBots(address[])',
    'setBot(address,bool)', 'setIsBot(address,bool)', 'manageBlacklist(address[],bool)',
  ],
  pause: ['pause()', 'setPaused(bool)', 'setTradingEnabled(bool)', 'disableTrading()', 'setTradingPaused(bool)'],
  fees: [
    'setFee(uint256)', 'setFees(uint256,uint256)', 'setTaxFee(uint256)', 'setSellFee(uint256)', 'setBuyFee(uint256)', 'setSellTax(uint256)',
    'setBuyTax(uint256)', 'setTaxes(uint256,uint256)', 'updateFees(uint256,uint256)', 'setTax(uint256)', 'setFeePercent(uint256)',
    'setTaxFeePercent(uint256)', 'setLiquidityFeePercent(uint256)', 'updateSellFees(uint256,uint256,uint256)', 'updateBuyFees(uint256,uint256,uint256)',
    'setMarketingFee(uint256)', 'setFees(uint256,uint256,uint256)',
  ],
  upgrade: ['upgradeTo(address)', 'upgradeToAndCall(address,bytes)'],
};

const POWER_SELECTORS: [ContractFacts['powers'][number], Set<string>][] = Object.entries(POWER_SIGNATURES).map(([k, sigs]) => [
  k as ContractFacts['powers'][number],
  new Set(sigs.map((s) => toFunctionSelector(s).slice(2))),
]);

/** the immediates of the PUSH instructions of `code` with their widths in bytes */
function pushes(code: Hex): { n: number; hex: string }[] {
  const out: { n: number; hex: string }[] = [];
  const hex = code.startsWith('0x') ? code.slice(2) : code;
  for (let i = 0; i < hex.length; i += 2) {
    const op = parseInt(hex.slice(i, i + 2), 16);
    if (op >= 0x60 && op <= 0x7f) {
      const n = op - 0x5f;
      out.push({ n, hex: hex.slice(i + 2, i + 2 + 2 * n).toLowerCase() });
      i += 2 * n;
    }
  }
  return out;
}

/** the 4-byte immediates of PUSH4 instructions (how a Solidity dispatcher names its functions) */
export function pushedSelectors(code: Hex): Set<string> {
  return new Set(pushes(code).filter((p) => p.n === 4).map((p) => p.hex));
}

/**
 * Addresses the code names: PUSH20 immediates (address constants) and PUSH32 immediates with 12
 * leading zero bytes (immutables, which Solidity writes into the code at deployment).
 */
export function pushedAddresses(code: Hex): Set<Addr> {
  const out = new Set<Addr>();
  for (const p of pushes(code)) {
    const a = p.n === 20 ? p.hex : p.n === 32 && p.hex.startsWith('0'.repeat(24)) ? p.hex.slice(24) : null;
    if (a && a.length === 40 && !/^0{40}$/.test(a) && !/^f{40}$/.test(a)) out.add(`0x${a}` as Addr);
  }
  return out;
}

export function powersOf(selectors: Set<string>): ContractFacts['powers'] {
  return POWER_SELECTORS.filter(([, set]) => [...set].some((s) => selectors.has(s))).map(([k]) => k);
}

export { revertReason };

/** the node keeps no state at that block (a pruned, non-archive node) */
export function isStateUnavailable(err: unknown): boolean {
  const m = String((err as { details?: string; message?: string })?.details ?? (err as Error)?.message ?? err).toLowerCase();
  return /missing trie node|header not found|state (is )?not available|historical state|pruned|state histor|unknown block/.test(m);
}

export interface InspectInput {
  token: Addr;
  block: { number: number; hash: Hex; timestamp: number };
  trigger: ContractFacts['trigger'];
  chain: string;
  /** the token's deployer, when known (LP custody) */
  deployer?: Addr;
  /** pools already known for the token (from its logs) */
  knownPools: Addr[];
  /** recent buyers of the token, newest first: the holders its sells are simulated as */
  holders?: Addr[];
  /** whoever first supplied each of its pools' liquidity: deployer side, like the pair's creator (LP custody) */
  providers?: Addr[];
  /** the token's largest receivers: the contracts among them are read for what they hold for others (holdings.ts) */
  receivers?: Addr[];
  /** wallets the deployer funded: deployer side for a V3 pool's positions (an NFT moves without a trace in the pool) */
  funded?: Addr[];
}

/** holders a read simulates sells as (each costs a dozen calls or so) */
export const HOLDERS_SIMULATED = 2;

export interface InspectDeps {
  client: PublicClient;
  /** quote assets' metadata (decimals, symbol) */
  resolver: Resolver;
  chain: Pick<EvmChainConfig, 'quotes' | 'wethUsd' | 'routers' | 'v3Factories' | 'v3PositionManagers' | 'contracts'>;
}

/** Uniswap V3's fee tiers (hundredths of a basis point) */
const V3_FEE_TIERS = [100, 500, 3000, 10000] as const;

/** the address the probe code is placed at, and the caller of the simulation (fresh, never used on a chain) */
const PROBE: Addr = '0x7e570000000000000000000000000000000e5701';
const CALLER: Addr = '0x7e570000000000000000000000000000000ca11e';

interface Pool {
  pool: Addr;
  quote: Addr;
  router: Addr | null;
  /** in the quote asset's units */
  reserveQuote: number;
  facts: PoolFacts;
}

export function createInspector(deps: InspectDeps) {
  const { client, resolver } = deps;
  const { contracts } = deps.chain;
  const quotes = { weth: deps.chain.quotes.weth as Addr, stables: deps.chain.quotes.stables as Addr[], wethSymbol: deps.chain.quotes.wethSymbol };
  const { weth, stables } = quotes;
  const factories = new Map<Addr, Promise<Addr | null>>();
  const holderSim = createHolderSimulator(client, weth);

  /** a read that reverts or is not there is null; a transient RPC failure throws */
  async function definitive<T>(p: Promise<T>): Promise<T | null> {
    try {
      return await p;
    } catch (err) {
      if (isRetryable(err) || isStateUnavailable(err)) throw err;
      return null;
    }
  }

  /** a view call at a block (the latest when none) */
  const read = <T>(address: Addr, functionName: string, args: unknown[], blockNumber?: bigint) =>
    definitive(client.readContract({ address, abi, functionName, args, ...(blockNumber !== undefined ? { blockNumber } : {}) } as never) as Promise<T>);
  const readWith: ViewCall = <T>(address: Addr, abiOf: Abi, functionName: string, args: unknown[], blockNumber: bigint) =>
    definitive(client.readContract({ address, abi: abiOf, functionName, args, blockNumber } as never) as Promise<T>);

  function factoryOf(router: Addr): Promise<Addr | null> {
    let f = factories.get(router);
    if (!f) {
      // a router's factory never changes; a failed read is asked again next time
      f = read<Addr>(router, 'factory', []).then((a) => (a ? (a.toLowerCase() as Addr) : null));
      f.catch(() => factories.delete(router));
      factories.set(router, f);
    }
    return f;
  }

  /** USD per WETH at the block: the fixed price, or the WETH/stablecoin reference pool's (0 when it has no reserves then) */
  async function wethUsdAt(blockNumber: bigint): Promise<number> {
    const w = deps.chain.wethUsd;
    if ('fixed' in w) return w.fixed;
    const r = await reservesOf(resolver, quotes, w.pool as Addr, blockNumber);
    return r?.quotePerToken ?? 0;
  }

  async function slotAddress(token: Addr, slot: Hex, blockNumber: bigint): Promise<Addr | null> {
    const v = await definitive(client.getStorageAt({ address: token, slot, blockNumber }));
    if (!v || BigInt(v) === 0n) return null;
    return `0x${v.slice(-40)}`.toLowerCase() as Addr;
  }

  async function poolsOf(input: InspectInput, blockNumber: bigint, owner: Addr | null, wethUsd: number): Promise<Pool[]> {
    const candidates = new Map<Addr, Addr | null>(); // pool → router whose factory made it
    for (const p of input.knownPools) candidates.set(p, null);
    const quoteList = [weth, ...stables].filter((q) => q !== input.token);
    // every factory and quote at once: a dozen independent reads
    const [v2, v3] = await Promise.all([
      Promise.all(
        (deps.chain.routers as Addr[]).map(async (router) => {
          const factory = await factoryOf(router);
          if (!factory) return [];
          const pairs = await Promise.all(quoteList.map((quote) => read<Addr>(factory, 'getPair', [input.token, quote], blockNumber)));
          return pairs.map((pair) => [pair, router] as const);
        }),
      ),
      Promise.all(
        (deps.chain.v3Factories as Addr[]).flatMap((factory) =>
          quoteList.flatMap((quote) => V3_FEE_TIERS.map((fee) => read<Addr>(factory, 'getPool', [input.token, quote, fee], blockNumber))),
        ),
      ),
    ]);
    for (const [pair, router] of v2.flat()) if (pair && BigInt(pair) !== 0n) candidates.set(pair.toLowerCase() as Addr, router);
    for (const pool of v3) if (pool && BigInt(pool) !== 0n && !candidates.has(pool.toLowerCase() as Addr)) candidates.set(pool.toLowerCase() as Addr, null);
    const read1 = async ([pool, router]: [Addr, Addr | null]): Promise<Pool | undefined> => {
      // pool tokens and metadata from the resolver's cache; only the reserves and the LP supply are read at the block
      const r = await reservesOf(resolver, quotes, pool, blockNumber);
      if (!r?.reserves || r.token !== input.token) return undefined;
      const quote = r.quote as Addr;
      const reserveQuote = r.reserves.quote;
      const liquidityUsd = poolLiquidityUsd(r.reserves.token, reserveQuote, r.quotePerToken, quote === weth ? wethUsd : 1, r.dex);
      // a V3 pool's liquidity is held as positions (NFTs of a position manager), not an LP token (positions.ts)
      const lpSupply = r.dex === 'v2' ? await read<bigint>(pool, 'totalSupply', [], blockNumber) : null;
      const lp = r.dex === 'v3'
        ? await v3CustodyOf(readWith, deps.chain.v3PositionManagers as Addr[], pool, { side: [...deployerSide(input), ...(input.funded ?? [])], owner }, blockNumber)
        : lpSupply && lpSupply > 0n ? await lpCustodyOf(input, pool, lpSupply, owner, blockNumber) : null;
      // the trade probe speaks a V2 router: V3 pools are measured, not traded through
      return { pool, quote, router: r.dex === 'v2' ? router : null, reserveQuote, facts: { pool, dex: r.dex, quote: resolver.peekMeta(quote)?.symbol ?? '', liquidityUsd, lp } };
    };
    // in the candidates' order (the first read wins a tie downstream)
    return (await Promise.all([...candidates].map(read1))).filter((p): p is Pool => p !== undefined);
  }

  /**
   * Who holds a V2 pool's LP tokens: burned, locked (only by locks read from a configured locker
   * and still ahead), the deployer side (the pair's creator and the first liquidity providers: an
   * attacker adds the liquidity from a fresh wallet), the owner
   */
  /** the deployer and the pools' first liquidity providers */
  const deployerSide = (input: InspectInput): Addr[] => [...new Set([...(input.deployer ? [input.deployer] : []), ...(input.providers ?? [])])];

  async function lpCustodyOf(input: InspectInput, pool: Addr, lpSupply: bigint, owner: Addr | null, blockNumber: bigint): Promise<PoolFacts['lp']> {
    const bal = (who: Addr) => read<bigint>(pool, 'balanceOf', [who], blockNumber).then((b) => b ?? 0n);
    const side = deployerSide(input);
    const [zero, dead, ownerBal, sideBals, locks] = await Promise.all([
      bal(ZERO),
      bal(DEAD),
      owner && !side.includes(owner) ? bal(owner) : Promise.resolve(0n),
      Promise.all(side.map(bal)),
      Promise.all((contracts.lpLockers as Addr[]).map(async (locker) => {
        const held = await bal(locker);
        return held > 0n ? lockedBy(await readLocks(readWith, locker, pool, blockNumber), held, input.block.timestamp) : [];
      })),
    ]);
    const pct = (x: bigint) => Math.round((10_000 * Number(x)) / Number(lpSupply)) / 100;
    const held = sideBals.reduce((a, b) => a + b, 0n);
    const ahead = locks.flat();
    return {
      burnedPct: pct(zero + dead),
      lockedPct: pct(ahead.reduce((a, l) => a + l.amount, 0n)),
      deployerPct: pct(held),
      ownerPct: owner && side.includes(owner) ? pct(sideBals[side.indexOf(owner)] ?? 0n) : pct(ownerBal),
      locks: ahead.map((l) => ({ pct: pct(l.amount), until: l.until })),
    };
  }

  async function simulate(input: InspectInput, pools: Pool[], blockNumber: bigint, wethUsd: number): Promise<{ sim: ContractFacts['sim']; skipped: string | null }> {
    const best = pools
      .filter((p) => p.router !== null && p.reserveQuote > 0)
      .sort((a, b) => b.facts.liquidityUsd - a.facts.liquidityUsd)[0];
    if (!best || !best.router) {
      const skipped = pools.length === 0
        ? 'no pool of the token on a known router'
        : pools.every((p) => p.facts.dex === 'v3')
          ? 'the token trades only on V3 pools; the trade probe trades through a V2 router'
          : 'no pool with liquidity on a known router';
      return { sim: null, skipped };
    }
    const router = best.router;
    let path: Addr[];
    if (best.quote === weth) path = [weth, input.token];
    else {
      const factory = await factoryOf(router);
      const hop = factory ? await read<Addr>(factory, 'getPair', [weth, best.quote], blockNumber) : null;
      if (!hop || BigInt(hop) === 0n) return { sim: null, skipped: `no WETH pool for ${best.facts.quote} on the router` };
      path = [weth, best.quote, input.token];
    }
    const quoteReserveUsd = best.facts.liquidityUsd / 2;
    const usdToWei = (usd: number) => parseEther(String(Math.max(1e-9, wethUsd > 0 ? usd / wethUsd : 0).toFixed(18)));
    const buyUsd = quoteReserveUsd * contracts.buyShare;
    const largeUsd = quoteReserveUsd * contracts.largeBuyShare;
    const stateOverride = [{ address: PROBE, code: TRADE_PROBE_RUNTIME as Hex, balance: parseEther('1000000') }];
    // one call: the larger buy (undone inside the probe), then buy, second buy, transfer, sell
    const data = encodeFunctionData({ abi: TRADE_PROBE_ABI, functionName: 'probe', args: [router, path, usdToWei(buyUsd), usdToWei(largeUsd)] });
    const out = await client.call({ account: CALLER, to: PROBE, data, blockNumber, stateOverride, gas: 15_000_000n });
    const [r, largeOk, largeErr] = decodeFunctionResult({ abi: TRADE_PROBE_ABI, functionName: 'probe', data: out.data ?? '0x' }) as unknown as [unknown, boolean, Hex];
    const res = r as {
      buyOk: boolean; buyQuote: bigint; bought: bigint; buyError: Hex; rebuyOk: boolean; rebuyError: Hex;
      transferOk: boolean; sent: bigint; arrived: bigint; transferError: Hex; sellOk: boolean; sellQuote: bigint; sold: bigint; sellError: Hex;
    };
    const tax = (got: bigint, expected: bigint) => (expected > 0n ? Math.max(0, Math.round(10_000 * (1 - Number(got) / Number(expected))) / 100) : null);
    const step = (ok: boolean, taxPct: number | null, err: Hex): SimStep => ({ ok, taxPct: ok ? taxPct : null, error: ok ? null : revertReason(err) });
    return {
      sim: {
        router,
        pool: best.pool,
        path,
        buyUsd: Math.round(buyUsd * 100) / 100,
        buy: step(res.buyOk, tax(res.bought, res.buyQuote), res.buyError),
        rebuy: res.buyOk ? step(res.rebuyOk, null, res.rebuyError) : { ok: false, taxPct: null, error: 'not tried: the first buy failed' },
        transfer: res.buyOk ? step(res.transferOk, tax(res.arrived, res.sent), res.transferError) : { ok: false, taxPct: null, error: 'not tried: the buy failed' },
        sell: res.buyOk ? step(res.sellOk, tax(res.sold, res.sellQuote), res.sellError) : { ok: false, taxPct: null, error: 'not tried: the buy failed' },
        largeBuy: { usd: Math.round(largeUsd * 100) / 100, ok: largeOk, error: largeOk ? null : revertReason(largeErr) },
      },
      skipped: null,
    };
  }

  /** storage slots whose address-shaped values are dependency candidates (state variables come first) */
  const DEPENDENCY_SLOTS = 16;
  /** candidates checked for code per read */
  const DEPENDENCIES_CHECKED = 16;

  /**
   * Contracts the token's code or its first storage slots name, other than what it is expected to
   * name (itself, its pools, the quote assets, the routers and their factories, the lockers): a
   * guard or fee manager whose owner can change what a transfer does without a call to the token.
   */
  async function dependenciesOf(input: InspectInput, code: Hex, pools: Pool[], owner: Addr | null, blockNumber: bigint): Promise<NonNullable<ContractFacts['dependencies']>> {
    const candidates = new Set<Addr>(pushedAddresses(code));
    const slots = await Promise.all(
      Array.from({ length: DEPENDENCY_SLOTS }, (_, i) => definitive(client.getStorageAt({ address: input.token, slot: numberToHex(i, { size: 32 }), blockNumber }))),
    );
    for (const v of slots) if (v && /^0x0{24}[0-9a-f]{40}$/i.test(v) && BigInt(v) !== 0n) candidates.add(`0x${v.slice(-40)}`.toLowerCase() as Addr);
    const routers = deps.chain.routers as Addr[];
    const expected = new Set<string>([
      input.token, weth, ...stables, ...routers, ...(deps.chain.v3Factories as Addr[]), ...(contracts.lpLockers as Addr[]), ...pools.map((p) => p.pool), ZERO, DEAD, ...(owner ? [owner] : []),
      ...(await Promise.all(routers.map(factoryOf))).filter((f): f is Addr => f !== null),
    ].map((a) => a.toLowerCase()));
    const out: NonNullable<ContractFacts['dependencies']> = [];
    for (const address of [...candidates].filter((a) => !expected.has(a)).slice(0, DEPENDENCIES_CHECKED)) {
      if (!(await hasCode(address, blockNumber))) continue;
      const depOwner = await read<Addr>(address, 'owner', [], blockNumber);
      out.push({ address, owner: depOwner && BigInt(depOwner) !== 0n ? (depOwner.toLowerCase() as Addr) : null });
    }
    return out;
  }

  /** the deepest pool of each kind the holders' sells go through: V2 through its router, V3 through a SwapRouter of its factory */
  async function holderPools(pools: Pool[], blockNumber: bigint): Promise<HolderPool[]> {
    const deepest = (dex: 'v2' | 'v3') =>
      pools.filter((p) => p.facts.dex === dex && p.reserveQuote > 0 && (dex === 'v3' || p.router !== null)).sort((a, b) => b.facts.liquidityUsd - a.facts.liquidityUsd)[0];
    const out: HolderPool[] = [];
    const v2 = deepest('v2');
    if (v2?.router) out.push({ pool: v2.pool, router: v2.router, quote: v2.quote });
    const v3 = deepest('v3');
    if (v3) {
      const [fee, factory] = await Promise.all([read<number>(v3.pool, 'fee', [], blockNumber), read<Addr>(v3.pool, 'factory', [], blockNumber)]);
      const router = fee !== null && factory ? await v3RouterOf(factory.toLowerCase() as Addr) : null;
      if (router && fee !== null) out.push({ pool: v3.pool, router, quote: v3.quote, v3Fee: Number(fee) });
    }
    return out;
  }

  /**
   * Whether an address holds code, asked of the node once per address that does: code stays. An
   * address without code is asked again (a contract may be deployed at a named address later).
   */
  const withCode = new LRUCache<Addr, true>({ max: 10_000 });
  async function hasCode(address: Addr, blockNumber: bigint): Promise<boolean> {
    if (withCode.has(address)) return true;
    const code = await definitive(client.getCode({ address, blockNumber }));
    if (!code || code === '0x') return false;
    withCode.set(address, true);
    return true;
  }

  const holdingsReader = createHoldingsReader({ client, definitive, hasCode });

  /** per V3 factory, the configured router that is its SwapRouter (configuration does not change while running) */
  const v3Routers = new Map<Addr, Promise<Addr | null>>();
  function v3RouterOf(factory: Addr): Promise<Addr | null> {
    let r = v3Routers.get(factory);
    if (!r) {
      r = findV3Router(factory);
      r.catch(() => v3Routers.delete(factory));
      v3Routers.set(factory, r);
    }
    return r;
  }

  /** a configured router that is a V3 SwapRouter of `factory` (its code names exactInputSingle) */
  async function findV3Router(factory: Addr): Promise<Addr | null> {
    for (const router of deps.chain.routers as Addr[]) {
      if ((await factoryOf(router)) !== factory) continue;
      const code = await definitive(client.getCode({ address: router }));
      if (code && pushedSelectors(code).has(V3_EXACT_INPUT_SINGLE)) return router;
    }
    return null;
  }

  /** sells as the token's recent buyers that are accounts (not contracts), on every pool kind it trades */
  async function simulateHolders(input: InspectInput, pools: Pool[], blockNumber: bigint): Promise<HolderSim[]> {
    const targets = await holderPools(pools, blockNumber);
    if (targets.length === 0) return [];
    const deadline = BigInt(input.block.timestamp + 3600);
    const out: HolderSim[] = [];
    let holders = 0;
    for (const holder of input.holders ?? []) {
      if (holders >= HOLDERS_SIMULATED) break;
      if (await hasCode(holder, blockNumber)) continue;
      const sims = await Promise.all(targets.map((p) => holderSim.simulate(input.token, holder, p, blockNumber, deadline)));
      const held = sims.filter((x): x is HolderSim => x !== null);
      if (held.length > 0) holders += 1;
      out.push(...held);
    }
    return out;
  }

  return {
    async inspect(input: InspectInput): Promise<ContractFacts> {
      const blockNumber = BigInt(input.block.number);
      const code = await client.getCode({ address: input.token, blockNumber });
      const origin = {
        chain: input.chain,
        block: input.block.number,
        blockHash: input.block.hash.toLowerCase(),
        tx: input.block.hash.toLowerCase(),
        logIndex: 0,
        timestamp: input.block.timestamp,
      };
      const base = { ...origin, type: 'contract' as const, token: input.token, trigger: input.trigger };
      if (!code || code === '0x') {
        return { ...base, isContract: false, owner: null, renounced: false, proxy: null, powers: [], sim: null, simSkipped: 'no code at the address', pools: [] };
      }
      const [impl, beacon, admin, ownerA, ownerB] = await Promise.all([
        slotAddress(input.token, SLOT.implementation, blockNumber),
        slotAddress(input.token, SLOT.beacon, blockNumber),
        slotAddress(input.token, SLOT.admin, blockNumber),
        read<Addr>(input.token, 'owner', [], blockNumber),
        read<Addr>(input.token, 'getOwner', [], blockNumber),
      ]);
      let proxy: ContractFacts['proxy'] = null;
      if (impl) proxy = { kind: 'eip1967', implementation: impl, admin };
      else if (beacon) {
        const bi = await read<Addr>(beacon, 'implementation', [], blockNumber);
        if (bi) proxy = { kind: 'beacon', implementation: bi.toLowerCase() as Addr, admin: beacon };
      }
      const selectors = pushedSelectors(code);
      if (proxy) {
        const implCode = await client.getCode({ address: proxy.implementation as Addr, blockNumber });
        if (implCode) for (const s of pushedSelectors(implCode)) selectors.add(s);
      }
      const powers = powersOf(selectors);
      if (proxy && !powers.includes('upgrade')) powers.push('upgrade');
      const ownerRaw = ownerA ?? ownerB;
      const owner = ownerRaw ? (ownerRaw.toLowerCase() as Addr) : null;
      const renounced = owner === ZERO || owner === DEAD;
      const wethUsd = await wethUsdAt(blockNumber);
      const pools = await poolsOf(input, blockNumber, owner, wethUsd);
      let sim: ContractFacts['sim'] = null;
      let simSkipped: string | null = null;
      try {
        ({ sim, skipped: simSkipped } = await simulate(input, pools, blockNumber, wethUsd));
      } catch (err) {
        if (isRetryable(err)) throw err;
        simSkipped = `the simulation call failed: ${String((err as Error).message ?? err).split('\n')[0]}`;
      }
      const holderSims = await simulateHolders(input, pools, blockNumber);
      const dependencies = await dependenciesOf(input, code, pools, owner, blockNumber);
      const side = [...new Set([input.deployer, owner].filter((a): a is Addr => !!a && a !== ZERO && a !== DEAD))];
      const holdings = await holdingsReader.classify(input.token, input.receivers ?? [], side, blockNumber, input.block.timestamp);
      return { ...base, isContract: true, owner, renounced, proxy, powers, sim, simSkipped, pools: pools.map((p) => p.facts), holderSims, dependencies, holdings };
    },
  };
}
export type Inspector = ReturnType<typeof createInspector>;
