import { describe, expect, it } from 'vitest';
import { decodeEventLog, encodeAbiParameters, encodeEventTopics, parseUnits, type AbiEvent, type Hex } from 'viem';
import { Swap as SwapSchema, Sync as SyncSchema, TokenEvent } from '../../schemas/events.ts';
import { decodeLog, eventAbis, mapLog, orient, TOPICS, type Addr, type BlockContext, type MapContext, type RawLog, type TokenMeta, type V3PoolState } from './decode.ts';

const WETH = '0x00000000000000000000000000000000000000e1' as Addr;
const USDC = '0x00000000000000000000000000000000000000c6' as Addr;
const TOKEN = '0x00000000000000000000000000000000000000aa' as Addr;
const POOL = '0x00000000000000000000000000000000000000b0' as Addr;
const USDC_POOL = '0x00000000000000000000000000000000000000b1' as Addr;
const V3_POOL = '0x00000000000000000000000000000000000000b3' as Addr;
const ROUTER = '0x00000000000000000000000000000000000000f0' as Addr;
const TRADER = '0x00000000000000000000000000000000000000d1' as Addr;
const SENDER = '0x00000000000000000000000000000000000000d2' as Addr;
const TX = `0x${'ab'.repeat(32)}` as Hex;

function raw(address: Addr, topics: Hex[], data: Hex, logIndex = 1): RawLog {
  return { address, topics, data, blockNumber: 10n, blockHash: `0x${'11'.repeat(32)}`, transactionHash: TX, logIndex };
}

function v2SwapLog(pool: Addr, a0In: bigint, a1In: bigint, a0Out: bigint, a1Out: bigint, to: Addr): RawLog {
  const topics = encodeEventTopics({ abi: [eventAbis.v2Swap], eventName: 'Swap', args: { sender: ROUTER, to } }) as Hex[];
  return raw(pool, topics, encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }], [a0In, a1In, a0Out, a1Out]), 2);
}

function syncLog(pool: Addr, r0: bigint, r1: bigint): RawLog {
  const topics = encodeEventTopics({ abi: [eventAbis.v2Sync], eventName: 'Sync' }) as Hex[];
  return raw(pool, topics, encodeAbiParameters([{ type: 'uint112' }, { type: 'uint112' }], [r0, r1]), 1);
}

const metas: Record<string, TokenMeta> = {
  [WETH]: { symbol: 'WETH', decimals: 18, totalSupply: 0n },
  [USDC]: { symbol: 'USDC', decimals: 6, totalSupply: 0n },
  [TOKEN]: { symbol: 'TOK', decimals: 9, totalSupply: parseUnits('1000000', 9) },
};
const pools: Record<string, { token0: Addr; token1: Addr }> = {
  [POOL]: { token0: TOKEN, token1: WETH }, // token is token0
  [USDC_POOL]: { token0: USDC, token1: TOKEN }, // token is token1, 6-decimal quote
  [V3_POOL]: { token0: TOKEN, token1: USDC },
};

function ctx(wethUsd = 2000, v3Bases: Record<string, V3PoolState> = {}): MapContext {
  return {
    chain: 'devnet',
    quotes: { weth: WETH, stables: [USDC], wethSymbol: 'WETH' },
    routers: [ROUTER],
    pool: (a) => pools[a],
    meta: (a) => metas[a],
    v3Base: (a) => v3Bases[a],
    state: { wethUsd, reserves: {}, v3: {} },
  };
}

const block: BlockContext = { number: 10, hash: `0x${'11'.repeat(32)}`, timestamp: 1_700_000_000, txFrom: { [TX]: TRADER } };

describe('decodeLog', () => {
  it('indexes every decoder by topic0', () => {
    expect(TOPICS).toHaveLength(15);
    expect(new Set(TOPICS).size).toBe(15);
  });

  it('decodes a V2 swap and ignores an ERC-721 Transfer (4 topics)', () => {
    const d = decodeLog(v2SwapLog(POOL, 0n, 5n, 7n, 0n, TRADER));
    expect(d).toMatchObject({ kind: 'v2Swap', pool: POOL, to: TRADER, amount1In: 5n, amount0Out: 7n });
    const nft = encodeEventTopics({ abi: [{ ...eventAbis.transfer, inputs: [...eventAbis.transfer.inputs.slice(0, 2), { ...eventAbis.transfer.inputs[2], indexed: true }] }], eventName: 'Transfer', args: { from: TRADER, to: SENDER, value: 1n } as never }) as Hex[];
    expect(decodeLog(raw(TOKEN, nft, '0x'))).toBeUndefined();
  });
});

describe('decodeLog against viem', () => {
  it('every event we decode reads as viem\'s strict decodeEventLog reads it, negative ints and full-width values included', () => {
    const rnd = (bits: number, signed: boolean, i: number): bigint => {
      const max = 2n ** BigInt(bits) - 1n;
      const v = [0n, 1n, max, max / 3n + BigInt(i)][i % 4] as bigint;
      return signed ? BigInt.asIntN(bits, v) : v;
    };
    for (const abi of Object.values(eventAbis) as AbiEvent[]) {
      for (let i = 0; i < 4; i++) {
        const args: Record<string, unknown> = {};
        abi.inputs.forEach((p, k) => {
          const m = /^(u?int)(\d*)$/.exec(p.type);
          args[p.name as string] = p.type === 'address' ? `0x${(k + i + 1).toString(16).padStart(40, 'a')}` : rnd(Number(m?.[2] || 256), m?.[1] === 'int', i + k);
        });
        const topics = encodeEventTopics({ abi: [abi], eventName: abi.name, args: Object.fromEntries(abi.inputs.filter((p) => p.indexed).map((p) => [p.name, args[p.name as string]])) } as never) as Hex[];
        const data = encodeAbiParameters(abi.inputs.filter((p) => !p.indexed), abi.inputs.filter((p) => !p.indexed).map((p) => args[p.name as string]) as never);
        const log = raw(POOL, topics, data);
        const ours = decodeLog(log);
        const theirs = decodeEventLog({ abi: [abi], topics: topics as [Hex, ...Hex[]], data, strict: true }).args as Record<string, unknown>;
        expect(ours, abi.name).toBeDefined();
        for (const [k, v] of Object.entries(ours as Record<string, unknown>)) {
          if (k in theirs) expect(typeof v === 'string' ? v.toLowerCase() : v, `${abi.name}.${k}`).toEqual(typeof theirs[k] === 'string' ? (theirs[k] as string).toLowerCase() : typeof theirs[k] === 'number' ? v : theirs[k]);
        }
      }
    }
  });
});

describe('orient', () => {
  const q = { weth: WETH, stables: [USDC], wethSymbol: 'WETH' };
  it('puts the non-quote token first and prefers a stablecoin as quote', () => {
    expect(orient(q, { token0: TOKEN, token1: WETH })).toEqual({ token: TOKEN, quote: WETH, tokenIs0: true });
    expect(orient(q, { token0: USDC, token1: TOKEN })).toEqual({ token: TOKEN, quote: USDC, tokenIs0: false });
    expect(orient(q, { token0: USDC, token1: WETH })).toEqual({ token: WETH, quote: USDC, tokenIs0: false });
    expect(orient(q, { token0: TOKEN, token1: SENDER })).toBeUndefined();
  });
});

describe('mapLog', () => {
  it('a buy through the router to the trader, priced from the Sync right before it', () => {
    const c = ctx();
    // pool after swap: 1,000,000 TOK / 500 WETH -> 0.0005 WETH = $1
    const sync = syncLog(POOL, parseUnits('1000000', 9), parseUnits('500', 18));
    expect(mapLog(decodeLog(sync)!, sync, block, c)).toEqual([
      expect.objectContaining({ type: 'sync', token: TOKEN, reserveToken: 1_000_000, reserveQuote: 500, liquidityUsd: 2_000_000 }),
    ]);
    const log = v2SwapLog(POOL, 0n, parseUnits('1.5', 18), parseUnits('2990', 9), 0n, TRADER);
    const [e] = mapLog(decodeLog(log)!, log, block, c);
    expect(SwapSchema.parse(e)).toEqual({
      chain: 'devnet', block: 10, blockHash: block.hash, tx: TX, logIndex: 2, timestamp: block.timestamp,
      type: 'swap', token: TOKEN, pool: POOL, trader: TRADER, side: 'buy', amountToken: 2990, amountQuote: 1.5, usd: 3000, priceUsd: 1,
    });
  });

  it('a sell whose WETH goes to the router is attributed to tx.from', () => {
    const log = v2SwapLog(POOL, parseUnits('100', 9), 0n, 0n, parseUnits('0.05', 18), ROUTER);
    const [e] = mapLog(decodeLog(log)!, log, block, ctx(3000));
    expect(e).toMatchObject({ side: 'sell', trader: TRADER, amountToken: 100, amountQuote: 0.05, usd: 150, priceUsd: 1.5 });
  });

  it('a 6-decimal stablecoin quote on token1 side', () => {
    const log = v2SwapLog(USDC_POOL, parseUnits('250', 6), 0n, 0n, parseUnits('500', 9), SENDER);
    const [e] = mapLog(decodeLog(log)!, log, block, ctx());
    expect(e).toMatchObject({ side: 'buy', trader: SENDER, token: TOKEN, amountToken: 500, amountQuote: 250, usd: 250, priceUsd: 0.5 });
  });

  it('a Uniswap V3 swap: negative pool delta is what the trader received', () => {
    const topics = encodeEventTopics({ abi: [eventAbis.v3Swap], eventName: 'Swap', args: { sender: ROUTER, recipient: SENDER } }) as Hex[];
    // price 2 USDC per TOK: sqrtPriceX96 = sqrt(2 * 10^(6-9)) * 2^96
    const sqrtP = BigInt(Math.round(Math.sqrt(2e-3) * 2 ** 96));
    const data = encodeAbiParameters(
      [{ type: 'int256' }, { type: 'int256' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }],
      [-parseUnits('10', 9), parseUnits('20', 6), sqrtP, 1n, 0],
    );
    const log = raw(V3_POOL, topics, data);
    const [e] = mapLog(decodeLog(log)!, log, block, ctx());
    expect(e).toMatchObject({ type: 'swap', side: 'buy', trader: SENDER, amountToken: 10, amountQuote: 20, usd: 20 });
    expect((e as { priceUsd: number }).priceUsd).toBeCloseTo(2, 9);
  });

  it('a Uniswap V3 pool: created empty, Mint, Swap and Collect move its balances into syncs; Burn names who removed; a pool first seen mid-history starts from its read balances', () => {
    const sqrtP = BigInt(Math.round(Math.sqrt(2e-3) * 2 ** 96)); // 2 USDC per TOK, TOK is token0
    const c = ctx();
    const at = (log: RawLog) => mapLog(decodeLog(log)!, log, block, c);
    const created = raw(ROUTER, encodeEventTopics({ abi: [eventAbis.v3PoolCreated], eventName: 'PoolCreated', args: { token0: TOKEN, token1: USDC, fee: 3000 } }) as Hex[], encodeAbiParameters([{ type: 'int24' }, { type: 'address' }], [60, V3_POOL]));
    expect(at(created)).toEqual([expect.objectContaining({ type: 'pool_created', token: TOKEN, pool: V3_POOL, quote: 'USDC' })]);
    expect(at(raw(V3_POOL, encodeEventTopics({ abi: [eventAbis.v3Initialize], eventName: 'Initialize' }) as Hex[], encodeAbiParameters([{ type: 'uint160' }, { type: 'int24' }], [sqrtP, 0])))).toEqual([]);
    const mintTopics = encodeEventTopics({ abi: [eventAbis.v3Mint], eventName: 'Mint', args: { owner: ROUTER, tickLower: -600, tickUpper: 600 } }) as Hex[];
    const mint = at(raw(V3_POOL, mintTopics, encodeAbiParameters([{ type: 'address' }, { type: 'uint128' }, { type: 'uint256' }, { type: 'uint256' }], [ROUTER, 1n, parseUnits('1000', 9), parseUnits('2000', 6)])));
    expect(mint).toEqual([
      expect.objectContaining({ type: 'liquidity', action: 'add', provider: TRADER, amountToken: 1000, amountQuote: 2000 }),
      expect.objectContaining({ type: 'sync', pool: V3_POOL, reserveToken: 1000, reserveQuote: 2000 }),
    ]);
    // each side at the pool's price: 1,000 TOK × 2 + 2,000 USDC
    expect((mint[1] as { liquidityUsd: number }).liquidityUsd).toBeCloseTo(4000, 6);
    const swapTopics = encodeEventTopics({ abi: [eventAbis.v3Swap], eventName: 'Swap', args: { sender: ROUTER, recipient: SENDER } }) as Hex[];
    const swap = at(raw(V3_POOL, swapTopics, encodeAbiParameters(
      [{ type: 'int256' }, { type: 'int256' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }],
      [-parseUnits('10', 9), parseUnits('20', 6), sqrtP, 1n, 0],
    )));
    expect(swap).toEqual([
      expect.objectContaining({ type: 'swap', side: 'buy', amountToken: 10 }),
      expect.objectContaining({ type: 'sync', reserveToken: 990, reserveQuote: 2020 }),
    ]);
    const burnTopics = encodeEventTopics({ abi: [eventAbis.v3Burn], eventName: 'Burn', args: { owner: ROUTER, tickLower: -600, tickUpper: 600 } }) as Hex[];
    const burn = (a0: bigint, a1: bigint) => at(raw(V3_POOL, burnTopics, encodeAbiParameters([{ type: 'uint128' }, { type: 'uint256' }, { type: 'uint256' }], [1n, a0, a1])));
    expect(burn(parseUnits('900', 9), parseUnits('1800', 6))).toEqual([expect.objectContaining({ type: 'liquidity', action: 'remove', provider: TRADER, amountToken: 900, amountQuote: 1800 })]);
    expect(burn(0n, 0n)).toEqual([]); // a poke that only updates fees
    const collectTopics = encodeEventTopics({ abi: [eventAbis.v3Collect], eventName: 'Collect', args: { owner: ROUTER, tickLower: -600, tickUpper: 600 } }) as Hex[];
    const collect = at(raw(V3_POOL, collectTopics, encodeAbiParameters([{ type: 'address' }, { type: 'uint128' }, { type: 'uint128' }], [TRADER, parseUnits('900', 9), parseUnits('1800', 6)])));
    expect(collect).toEqual([expect.objectContaining({ type: 'sync', reserveToken: 90, reserveQuote: 220 })]);

    // seen first at a swap: the balances read before it are the start
    const later = ctx(2000, { [V3_POOL]: { balance0: parseUnits('500', 9), balance1: parseUnits('1000', 6), sqrtPriceX96: sqrtP } });
    const log = raw(V3_POOL, swapTopics, encodeAbiParameters(
      [{ type: 'int256' }, { type: 'int256' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }],
      [parseUnits('5', 9), -parseUnits('10', 6), sqrtP, 1n, 0],
    ));
    expect(mapLog(decodeLog(log)!, log, block, later)).toEqual([
      expect.objectContaining({ type: 'swap', side: 'sell', amountToken: 5, amountQuote: 10 }),
      expect.objectContaining({ type: 'sync', reserveToken: 505, reserveQuote: 990 }),
    ]);
  });

  it('a Sync of the WETH/USD reference pool moves the WETH price', () => {
    const ref = '0x00000000000000000000000000000000000000b9' as Addr;
    pools[ref] = { token0: USDC, token1: WETH };
    const c = ctx(1000);
    c.state.refPool = ref;
    const log = syncLog(ref, parseUnits('3000000', 6), parseUnits('1000', 18));
    const [e] = mapLog(decodeLog(log)!, log, block, c);
    expect(c.state.wethUsd).toBe(3000);
    expect(SyncSchema.parse(e)).toMatchObject({ token: WETH, reserveToken: 1000, reserveQuote: 3_000_000, liquidityUsd: 6_000_000 });
  });

  it('transfers of tokens with decimals; quote assets and LP tokens are not followed', () => {
    const t = (token: Addr) => {
      const topics = encodeEventTopics({ abi: [eventAbis.transfer], eventName: 'Transfer', args: { from: TRADER, to: SENDER } }) as Hex[];
      const log = raw(token, topics, encodeAbiParameters([{ type: 'uint256' }], [parseUnits('12.5', 9)]));
      return mapLog(decodeLog(log)!, log, block, ctx());
    };
    const [e] = t(TOKEN);
    expect(TokenEvent.parse(e)).toMatchObject({ type: 'transfer', token: TOKEN, from: TRADER, to: SENDER, amount: 12.5 });
    expect(t(WETH)).toEqual([]);
    expect(t(POOL)).toEqual([]);
  });

  it('PairCreated carries the token metadata and the deployer', () => {
    const topics = encodeEventTopics({ abi: [eventAbis.pairCreated], eventName: 'PairCreated', args: { token0: TOKEN, token1: WETH } }) as Hex[];
    const log = raw(ROUTER, topics, encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [POOL, 1n]));
    const [e] = mapLog(decodeLog(log)!, log, block, ctx());
    expect(TokenEvent.parse(e)).toMatchObject({ type: 'pool_created', token: TOKEN, pool: POOL, symbol: 'TOK', decimals: 9, quote: 'WETH', deployer: TRADER, totalSupply: 1_000_000 });
  });
});
