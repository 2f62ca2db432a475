/**
 * Backfill of a block range with eth_getLogs in adaptive ranges: halve on "too many results" /
 * size errors, grow while sparse. Ranges are fetched concurrently (the RPC limiter caps requests
 * and requests per second) and yielded strictly in block order, so the output, and the cursor, are
 * the same whatever the concurrency. Resumable from a cursor; re-running a range yields the same
 * events (same identities), so downstream upserts make it idempotent.
 */
import type { PublicClient } from 'viem';
import type { SourceItem, Source } from '../types.ts';
import type { EvmChainConfig } from './config.ts';
import type { BlockContext } from './decode.ts';
import { createRangeSizer, getLogsAdaptive, requestLogs, type GetLogs } from './getlogs.ts';
import { createProcessor, fetchBlock, type PreparedLog, type Processor } from './processor.ts';
import { createResolver, type Resolver } from './resolver.ts';
import type { ContractWatch } from './contract/watch.ts';
import type { FundingTracker } from './funding.ts';
import { createLimiter, createRpcClient } from './rpc.ts';

/** Where a backfill stands: every block <= `done` has been yielded. Persist it, resume from it. */
export interface BackfillCursor {
  chain: string;
  from: number;
  to: number;
  /** last block fully yielded; from - 1 before the first range */
  done: number;
}

export interface BackfillProgress {
  chain: string;
  from: number;
  to: number;
  done: number;
  blocksDone: number;
  blocksTotal: number;
  events: number;
  elapsedSeconds: number;
  blocksPerSecond: number;
  eventsPerSecond: number;
  /** seconds left at the current pace; null before the first range */
  etaSeconds: number | null;
  rangeSize: number;
}

export interface BackfillOptions {
  chain: EvmChainConfig;
  from: number;
  /** 'head' = the head minus (confirmations - 1), read when the run starts */
  to: number | 'head';
  /** resume: start after cursor.done */
  cursor?: BackfillCursor;
  client?: PublicClient;
  resolver?: Resolver;
  /** ranges fetched at the same time; default min(4, rpc.maxConcurrency), 2 for a node on this machine */
  concurrency?: number;
  onProgress?: (p: BackfillProgress) => void;
  /** called after the consumer took a range's items; persist the cursor here */
  onCursor?: (c: BackfillCursor) => void | Promise<void>;
  /** replaces eth_getLogs (tests of the adaptive ranges against a refusing RPC) */
  getLogs?: GetLogs;
  /** reads the contracts of tokens whose events fire a trigger, and of the active ones at the end */
  watch?: ContractWatch;
  /** deployers' funding of wallets (native value and WETH), published as WETH transfers */
  funding?: FundingTracker;
}

export interface Backfill extends Source {
  cursor(): BackfillCursor | undefined;
  progress(): BackfillProgress | undefined;
}

interface RangeResult {
  from: number;
  to: number;
  prepared: PreparedLog[];
  blocks: Record<number, BlockContext>;
  /** the range's last block */
  end: BlockContext;
}

export function createBackfill(opts: BackfillOptions): Backfill {
  const cfg = opts.chain;
  const client = opts.client ?? createRpcClient(cfg.rpcUrl, cfg.rpc);
  const resolver = opts.resolver ?? createResolver(client);
  // ranges in flight hide a remote provider's latency; a node on this machine shares its cores, where more ranges only queue
  const local = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(cfg.rpcUrl);
  const concurrency = opts.concurrency ?? Math.min(local ? 2 : 4, cfg.rpc.maxConcurrency);
  const sizer = createRangeSizer({ initial: cfg.backfill.initialRange, min: cfg.backfill.minRange, max: cfg.backfill.maxRange, targetLogs: cfg.backfill.targetLogs });
  const getLogs: GetLogs = opts.getLogs ?? ((from, to, topics) => requestLogs(client, { fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` }, topics));

  let cursor: BackfillCursor | undefined = opts.cursor;
  let progress: BackfillProgress | undefined;

  async function fetchRange(processor: Processor, from: number, to: number): Promise<RangeResult> {
    const logs = await getLogsAdaptive(getLogs, from, to, sizer);
    const numbers = [...new Set(logs.map((l) => Number(l.blockNumber)))];
    const [prepared, headers, end] = await Promise.all([
      processor.prepare(logs),
      Promise.all(numbers.map((n) => fetchBlock(client, { number: n }))),
      numbers.includes(to) ? Promise.resolve(undefined) : fetchBlock(client, { number: to }, false),
    ]);
    const blocks: Record<number, BlockContext> = {};
    for (const h of headers) blocks[h.number] = h;
    // a log whose block hash differs from the block we read was reorged under us: read again
    for (const l of logs) {
      const b = blocks[Number(l.blockNumber)];
      if (b && l.blockHash && b.hash !== l.blockHash.toLowerCase()) throw new Error(`${cfg.slug}: block ${b.number} changed during backfill (reorg below the confirmed head)`);
    }
    return { from, to, prepared, blocks, end: end ?? (blocks[to] as BlockContext) };
  }

  async function* run(signal: AbortSignal): AsyncGenerator<SourceItem> {
    const to = opts.to === 'head' ? Number(await client.getBlockNumber()) - (cfg.confirmations - 1) : opts.to;
    const from = opts.from;
    if (cursor && (cursor.chain !== cfg.slug || cursor.from !== from)) throw new Error(`${cfg.slug}: cursor ${JSON.stringify(cursor)} belongs to another backfill`);
    cursor = { chain: cfg.slug, from, to, done: Math.max(from - 1, cursor?.done ?? from - 1) };
    let next = cursor.done + 1;
    const processor = createProcessor(cfg, resolver);
    await processor.initPrice(next - 1);

    const started = Date.now();
    const startDone = cursor.done;
    let events = 0;
    const queue: Promise<RangeResult>[] = [];
    // `concurrency` ranges are fetched at a time, and two more may wait fetched while the consumer
    // is busy (publishing, reading contracts), so the node is not idle meanwhile
    const fetching = createLimiter(concurrency, 1e9);
    const fill = () => {
      while (queue.length < concurrency + 2 && next <= to) {
        const a = next;
        const b = Math.min(to, a + sizer.get() - 1);
        next = b + 1;
        const p = fetching.run(() => fetchRange(processor, a, b));
        p.catch(() => {}); // surfaced when awaited in order
        queue.push(p);
      }
    };

    fill();
    while (queue.length > 0) {
      if (signal.aborted) return;
      const r = await (queue.shift() as Promise<RangeResult>);
      const byBlock = processor.map(r.prepared, r.blocks);
      const logsByBlock = new Map<number, PreparedLog[]>();
      for (const p of r.prepared) {
        const n = Number(p.log.blockNumber);
        const list = logsByBlock.get(n);
        if (list) list.push(p);
        else logsByBlock.set(n, [p]);
      }
      // every block with logs, in order: a block whose only logs fire a trigger (an owner change) has no events
      for (const block of Object.keys(r.blocks).map(Number).sort((a, b) => a - b)) {
        const evs = byBlock.get(block) ?? [];
        const ctx = r.blocks[block] as BlockContext;
        const blockLogs = logsByBlock.get(block) ?? [];
        if (opts.funding) {
          await opts.funding.lookBack(ctx, evs, from);
          await opts.funding.readRecipients(ctx, evs, blockLogs);
          evs.push(...opts.funding.eventsFor(ctx, evs, blockLogs));
        }
        if (opts.watch) evs.push(...(await opts.watch.factsFor(ctx, evs, blockLogs, { live: false })));
        if (evs.length === 0) continue;
        events += evs.length;
        yield { kind: 'events', chain: cfg.slug, block, timestamp: ctx.timestamp, events: evs };
      }
      if (opts.watch && r.to === to) {
        // the end of the backfill: what the active tokens' contracts say now (an owner's call that left no log was not seen)
        const facts = await opts.watch.readAll(opts.watch.headReads(r.end.timestamp - cfg.contracts.headReadSec), r.end);
        events += facts.length;
        if (facts.length > 0) yield { kind: 'events', chain: cfg.slug, block: r.to, timestamp: r.end.timestamp, events: facts };
      }
      yield { kind: 'finalized', chain: cfg.slug, block: r.to, timestamp: r.end.timestamp };
      cursor = { ...cursor, done: r.to };
      await opts.onCursor?.(cursor);
      const elapsed = Math.max(1e-3, (Date.now() - started) / 1000);
      const blocksDone = r.to - startDone;
      const blocksTotal = to - startDone;
      const bps = blocksDone / elapsed;
      progress = {
        chain: cfg.slug, from, to, done: r.to, blocksDone, blocksTotal, events, elapsedSeconds: elapsed,
        blocksPerSecond: bps, eventsPerSecond: events / elapsed, etaSeconds: bps > 0 ? (blocksTotal - blocksDone) / bps : null, rangeSize: sizer.get(),
      };
      opts.onProgress?.(progress);
      if (signal.aborted) return;
      fill();
    }
  }

  return { chain: cfg.slug, run, cursor: () => cursor, progress: () => progress };
}
