/**
 * eth_getLogs of the events we decode, and what to do when the RPC refuses an answer as too large
 * or too slow (rpc.ts isRangeRefusal): a range is split in halves (the backfill), a single block is
 * asked topic by topic (the backfill and live following by block hash), and a block refused even
 * then is a BlockRefusedError, never skipped.
 */
import type { Hex, PublicClient } from 'viem';
import { TOPICS, type RawLog } from './decode.ts';
import { isRangeRefusal } from './rpc.ts';

interface JsonRpcLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  transactionHash: Hex;
  logIndex: Hex;
}

/** the logs of a block range or of one block (by hash), with the given topics (default all we decode) */
export async function requestLogs(client: PublicClient, at: { fromBlock: Hex; toBlock: Hex } | { blockHash: Hex }, topics: readonly Hex[] = TOPICS): Promise<RawLog[]> {
  const logs = (await client.request({ method: 'eth_getLogs', params: [{ ...at, topics: [[...topics]] }] })) as JsonRpcLog[];
  return logs.map((l) => ({
    address: l.address,
    topics: l.topics,
    data: l.data,
    blockNumber: BigInt(l.blockNumber),
    blockHash: l.blockHash,
    transactionHash: l.transactionHash,
    logIndex: Number(l.logIndex),
  }));
}

/** Adaptive range sizing shared by the concurrent fetches. */
export function createRangeSizer(opts: { initial: number; min: number; max: number; targetLogs: number }) {
  let size = Math.max(opts.min, Math.min(opts.max, opts.initial));
  return {
    get: () => size,
    onTooLarge(span: number) {
      size = Math.max(opts.min, Math.floor(span / 2));
    },
    /**
     * sized in proportion to the logs the range held (the next range should hold about
     * targetLogs), moving at most 4× either way per answer; a range shorter than the current size
     * (the end of a backfill) does not grow it
     */
    onResult(span: number, logs: number) {
      const wanted = logs > 0 ? (span * opts.targetLogs) / logs : span * 4;
      if (logs > opts.targetLogs) size = Math.max(opts.min, Math.floor(Math.max(span / 4, wanted)));
      else if (logs < opts.targetLogs / 2 && span >= size) size = Math.min(opts.max, Math.floor(Math.min(span * 4, wanted)));
    },
  };
}
export type RangeSizer = ReturnType<typeof createRangeSizer>;

/** the RPC refuses one block's logs even alone and topic by topic: the chain cannot go past it safely */
export class BlockRefusedError extends Error {
  override readonly name = 'BlockRefusedError';
  constructor(
    readonly block: number,
    readonly topic: Hex,
    cause: unknown,
  ) {
    super(`eth_getLogs refuses block ${block} (topic ${topic}) even alone: ${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}`, { cause });
  }
}

/** eth_getLogs of the events we decode (TOPICS, or some of them) over a block range */
export type GetLogs = (from: number, to: number, topics?: readonly Hex[]) => Promise<RawLog[]>;

/**
 * getLogs over [from, to], split in halves while the RPC refuses the range (too large, or too
 * slow: rpc.ts isRangeRefusal). A single block it still refuses is asked for topic by topic; a
 * topic it refuses even then stops the range with a BlockRefusedError naming the block (skipping
 * it would lose its events silently).
 */
export async function getLogsAdaptive(getLogs: GetLogs, from: number, to: number, sizer: RangeSizer): Promise<RawLog[]> {
  try {
    const logs = await getLogs(from, to);
    sizer.onResult(to - from + 1, logs.length);
    return logs;
  } catch (err) {
    if (!isRangeRefusal(err)) throw err;
    if (from === to) return logsTopicByTopic(from, (topics) => getLogs(from, from, topics));
    sizer.onTooLarge(to - from + 1);
    const mid = from + Math.floor((to - from) / 2);
    const left = await getLogsAdaptive(getLogs, from, mid, sizer);
    const right = await getLogsAdaptive(getLogs, mid + 1, to, sizer);
    return left.concat(right);
  }
}

/** one block's logs asked topic by topic, in log order; a topic refused even alone is a BlockRefusedError */
export async function logsTopicByTopic(block: number, getLogs: (topics: readonly Hex[]) => Promise<RawLog[]>): Promise<RawLog[]> {
  const all: RawLog[] = [];
  for (const topic of TOPICS) {
    try {
      all.push(...(await getLogs([topic])));
    } catch (err) {
      if (isRangeRefusal(err)) throw new BlockRefusedError(block, topic, err);
      throw err;
    }
  }
  return all.sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0));
}
