/**
 * Sells simulated as real holders, as honeypot.is and GoPlus do beside a fresh probe: an eth_call
 * from the holder's own address (so tx.origin, msg.sender checks, blacklists, per-holder
 * cooldowns and holding-time rules all see the holder) through a pool's router (V2, or the V3
 * SwapRouter for a V3 pool), at a small
 * share, a typical share and all of its balance. The holder never approved the router, so the
 * call overrides the token's allowance slot for that pair (found once per token by trying the
 * usual mapping slots). What a sell lost to a tax is bounded from below by asking for a minimum
 * output under the router's quote and seeing which minimums the sell cannot meet.
 */
import { decodeFunctionResult, encodeAbiParameters, encodeFunctionData, keccak256, maxUint256, parseAbi, type Hex, type PublicClient } from 'viem';
import type { HolderSim } from '../../../schemas/events.ts';
import type { Addr } from '../decode.ts';
import { isRetryable } from '../rpc.ts';
import { revertReason } from './revert.ts';

const abi = parseAbi([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 deadline; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
]);

/** Uniswap V3 SwapRouter's exactInputSingle (the struct with a deadline): the holders' sells on a V3 pool */
export const V3_EXACT_INPUT_SINGLE = '414bf389';

/** shares of the balance sold, percent: a small sell, a typical one, all of it */
export const HOLDER_SELL_SHARES = [1, 25, 100] as const;
/** losses tried, percent: the sell is asked for the quote less each; the largest one it cannot meet bounds the loss from below */
const LOSS_STEPS = [3, 10, 25, 50] as const;
/** Solidity's mappings sit at small slots in the tokens seen (OpenZeppelin's ERC-20 keeps allowances at 1) */
const ALLOWANCE_SLOTS = 16;
const GAS = 5_000_000n;

export interface HolderPool {
  pool: Addr;
  router: Addr;
  quote: Addr;
  /** a V3 pool's fee tier: sold through the V3 SwapRouter (no quote is read: a V3 pool refuses a taxed transfer outright) */
  v3Fee?: number;
}

export function createHolderSimulator(client: PublicClient, weth: Addr) {
  /** token → the slot of its allowance mapping (null: none of the usual ones) */
  const slots = new Map<Addr, number | null>();

  function allowanceKey(slot: number, owner: Addr, spender: Addr): Hex {
    const inner = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [owner, BigInt(slot)]));
    return keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [spender, inner]));
  }

  const override = (token: Addr, slot: number, owner: Addr, spender: Addr) => [
    { address: token, stateDiff: [{ slot: allowanceKey(slot, owner, spender), value: `0x${maxUint256.toString(16).padStart(64, '0')}` as Hex }] },
  ];

  /** a call that reverts is its revert data; a transient RPC failure throws */
  async function attempt(args: Parameters<PublicClient['call']>[0]): Promise<{ ok: true; data: Hex } | { ok: false; error: string }> {
    try {
      const r = await client.call(args);
      return { ok: true, data: r.data ?? '0x' };
    } catch (err) {
      if (isRetryable(err)) throw err;
      return { ok: false, error: revertReason(revertData(err)) ?? reasonInDetails(err) ?? 'reverted' };
    }
  }

  async function allowanceSlot(token: Addr, owner: Addr, spender: Addr, blockNumber: bigint): Promise<number | null> {
    if (slots.has(token)) return slots.get(token) ?? null;
    const data = encodeFunctionData({ abi, functionName: 'allowance', args: [owner, spender] });
    for (let slot = 0; slot < ALLOWANCE_SLOTS; slot++) {
      const r = await attempt({ to: token, data, blockNumber, stateOverride: override(token, slot, owner, spender) });
      if (r.ok && r.data.length >= 66 && BigInt(r.data.slice(0, 66)) === maxUint256) {
        slots.set(token, slot);
        return slot;
      }
    }
    slots.set(token, null);
    return null;
  }

  /** one sell of `amount` from the holder with a minimum output; ok or the revert's reason */
  function sell(token: Addr, holder: Addr, p: HolderPool, slot: number, amount: bigint, minOut: bigint, blockNumber: bigint, deadline: bigint) {
    const data = p.v3Fee !== undefined
      ? encodeFunctionData({
          abi,
          functionName: 'exactInputSingle',
          args: [{ tokenIn: token, tokenOut: p.quote, fee: p.v3Fee, recipient: holder, deadline, amountIn: amount, amountOutMinimum: minOut, sqrtPriceLimitX96: 0n }],
        })
      : encodeFunctionData({
          abi,
          functionName: p.quote === weth ? 'swapExactTokensForETHSupportingFeeOnTransferTokens' : 'swapExactTokensForTokensSupportingFeeOnTransferTokens',
          args: [amount, minOut, [token, p.quote], holder, deadline],
        });
    return attempt({ account: holder, to: p.router, data, blockNumber, gas: GAS, stateOverride: override(token, slot, holder, p.router) });
  }

  async function quote(token: Addr, p: HolderPool, amount: bigint, blockNumber: bigint): Promise<bigint | null> {
    const r = await attempt({ to: p.router, data: encodeFunctionData({ abi, functionName: 'getAmountsOut', args: [amount, [token, p.quote]] }), blockNumber });
    if (!r.ok) return null;
    const out = decodeFunctionResult({ abi, functionName: 'getAmountsOut', data: r.data }) as readonly bigint[];
    return out[out.length - 1] ?? null;
  }

  /** the largest loss step the sell could not meet, a lower bound of what it lost (0: it met the smallest) */
  async function lossAtLeast(sellAt: (minOut: bigint) => ReturnType<typeof sell>, expected: bigint): Promise<number> {
    let bound = 0;
    for (const step of LOSS_STEPS) {
      if ((await sellAt((expected * BigInt(100 - step)) / 100n)).ok) return bound;
      bound = step;
    }
    return bound;
  }

  return {
    /** the holder's sells through the pool at each share of its balance; null when it holds nothing or the token's allowances cannot be set */
    async simulate(token: Addr, holder: Addr, p: HolderPool, blockNumber: bigint, deadline: bigint): Promise<HolderSim | null> {
      const balance = await attempt({ to: token, data: encodeFunctionData({ abi, functionName: 'balanceOf', args: [holder] }), blockNumber });
      const held = balance.ok && balance.data.length >= 66 ? BigInt(balance.data.slice(0, 66)) : 0n;
      if (held === 0n) return null;
      const slot = await allowanceSlot(token, holder, p.router, blockNumber);
      if (slot === null) return null;
      const sells: HolderSim['sells'] = [];
      for (const sharePct of HOLDER_SELL_SHARES) {
        const amount = (held * BigInt(sharePct)) / 100n || 1n;
        const r = await sell(token, holder, p, slot, amount, 0n, blockNumber, deadline);
        if (!r.ok) {
          sells.push({ sharePct, ok: false, lossAtLeastPct: null, error: r.error });
          continue;
        }
        const expected = p.v3Fee === undefined ? await quote(token, p, amount, blockNumber) : null;
        const sellAt = (minOut: bigint) => sell(token, holder, p, slot, amount, minOut, blockNumber, deadline);
        const loss = expected && expected > 0n ? await lossAtLeast(sellAt, expected) : null;
        sells.push({ sharePct, ok: true, lossAtLeastPct: loss, error: null });
      }
      return { holder, router: p.router, pool: p.pool, sells };
    },
  };
}

/** the revert data somewhere in the error's chain of causes (viem wraps the node's answer) */
function revertData(err: unknown): Hex | undefined {
  for (let e = err as { data?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 6; e = e.cause as typeof e, depth++) {
    const d = e.data as unknown;
    if (typeof d === 'string' && d.startsWith('0x')) return d as Hex;
    if (d && typeof d === 'object' && typeof (d as { data?: unknown }).data === 'string') return (d as { data: Hex }).data;
  }
  return undefined;
}

/** a node that answers the reason only in its message (hardhat's "reverted with reason string '…'") */
function reasonInDetails(err: unknown): string | null {
  const details = String((err as { details?: string }).details ?? (err as Error).message ?? '');
  return /reverted with reason string '([^']*)'/.exec(details)?.[1] ?? (/revert(ed)?/i.test(details) ? 'reverted without a reason' : null);
}

export type HolderSimulator = ReturnType<typeof createHolderSimulator>;
