/**
 * The blocks in which an address sent transactions, found by its nonce: eth_getTransactionCount at
 * a block counts the transactions it sent up to that block, so bisecting a range where the count
 * grows finds each block with log2(range) calls, and only those blocks are read. A backfill reads
 * only blocks with logs; a deployer's native-ETH payments to its insiders before a launch usually
 * sit in blocks without any, and this is how the backfill finds them (live following reads every
 * block). Newest first, at most `max` blocks.
 */
import type { PublicClient } from 'viem';
import type { Addr, BlockContext } from './decode.ts';
import { fetchBlock } from './processor.ts';

export async function blocksSentFrom(client: PublicClient, address: Addr, lo: number, hi: number, max = 32): Promise<BlockContext[]> {
  if (hi < lo) return [];
  const nonceAt = (b: number) => (b < 0 ? Promise.resolve(0) : client.getTransactionCount({ address, blockNumber: BigInt(b) }));
  const found: number[] = [];
  async function walk(from: number, to: number, before: number, after: number): Promise<void> {
    if (after <= before || found.length >= max) return;
    if (from === to) {
      found.push(from);
      return;
    }
    const mid = Math.floor((from + to) / 2);
    const atMid = await nonceAt(mid);
    await walk(mid + 1, to, atMid, after);
    await walk(from, mid, before, atMid);
  }
  const [before, after] = await Promise.all([nonceAt(lo - 1), nonceAt(hi)]);
  await walk(lo, hi, before, after);
  const blocks = await Promise.all(found.map((n) => fetchBlock(client, { number: n })));
  return blocks.map((b) => ({ ...b, calls: (b.calls ?? []).filter((c) => c.from === address), created: (b.created ?? []).filter((c) => c.from === address) }));
}

