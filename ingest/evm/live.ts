/**
 * Live following of one chain: poll (or, over WebSocket, be woken by) new heads, publish each block
 * once it has the configured confirmations, keep the recent block-hash chain, and on a parent-hash
 * mismatch walk back to the fork point, yield the orphaned blocks' events as retractions, then the
 * canonical blocks' events. A reorg deeper than the kept window throws.
 */
import { createPublicClient, webSocket, type Hex, type PublicClient } from 'viem';
import type { ChainEvent } from '../../schemas/events.ts';
import type { Source, SourceItem } from '../types.ts';
import type { EvmChainConfig } from './config.ts';
import type { RawLog } from './decode.ts';
import { createProcessor, fetchBlock, type BlockHeader } from './processor.ts';
import { createResolver, type Resolver } from './resolver.ts';
import { createRpcClient, isRangeRefusal } from './rpc.ts';
import { sleep } from '../../infra/retry.ts';
import { logsTopicByTopic, requestLogs } from './getlogs.ts';
import type { ContractWatch } from './contract/watch.ts';
import type { FundingTracker } from './funding.ts';

export class DeepReorgError extends Error {
  override readonly name = 'DeepReorgError';
  constructor(
    readonly chain: string,
    readonly window: number,
    readonly oldestKept: number | undefined,
  ) {
    super(`${chain}: reorg deeper than the kept window of ${window} blocks (oldest kept block ${oldestKept ?? 'none'} is orphaned); stopping the chain`);
  }
}

export interface Lag {
  chain: string;
  head: number | undefined;
  /** last published block */
  published: number | undefined;
  blocks: number;
  seconds: number;
}

export interface LiveOptions {
  chain: EvmChainConfig;
  /** first block to publish; default chain.startBlock (resume: cursor + 1) */
  fromBlock?: number;
  client?: PublicClient;
  resolver?: Resolver;
  /** reads the contracts of tokens whose events (or owners' calls) fire a trigger */
  watch?: ContractWatch;
  /** deployers' funding of wallets (native value and WETH), published as WETH transfers */
  funding?: FundingTracker;
}

export interface LiveSource extends Source {
  lag(): Lag;
}

interface Kept {
  number: number;
  hash: Hex;
  parentHash: Hex;
  timestamp: number;
  events: ChainEvent[];
}

export function createLiveSource(opts: LiveOptions): LiveSource {
  const cfg = opts.chain;
  const client = opts.client ?? createRpcClient(cfg.rpcUrl, cfg.rpc);
  const resolver = opts.resolver ?? createResolver(client);
  let head: { number: number; timestamp: number } | undefined;
  let published: { number: number; timestamp: number } | undefined;

  /** a block's logs; a block the RPC refuses whole (too large, too slow) is asked topic by topic */
  async function logsOf(block: { number: number; hash: Hex }): Promise<RawLog[]> {
    try {
      return await requestLogs(client, { blockHash: block.hash });
    } catch (err) {
      if (!isRangeRefusal(err)) throw err;
    }
    return logsTopicByTopic(block.number, (topics) => requestLogs(client, { blockHash: block.hash }, topics));
  }

  async function canonicalHash(n: number): Promise<Hex | undefined> {
    try {
      const b = await client.getBlock({ blockNumber: BigInt(n) });
      return b.hash?.toLowerCase() as Hex | undefined;
    } catch (err) {
      if ((err as { name?: string }).name === 'BlockNotFoundError') return undefined;
      throw err;
    }
  }

  async function* run(signal: AbortSignal): AsyncGenerator<SourceItem> {
    const processor = createProcessor(cfg, resolver);
    let next = opts.fromBlock ?? cfg.startBlock;
    const kept: Kept[] = [];
    if (next > 0) {
      const anchor = await fetchBlock(client, { number: next - 1 }, false);
      kept.push({ ...anchor, events: [] });
    }
    await processor.initPrice(next - 1);

    // over WebSocket, new heads wake the loop at once; polling stays as the fallback
    let wake: (() => void) | undefined;
    let unwatch: (() => void) | undefined;
    let closeWs: (() => Promise<void>) | undefined;
    if (cfg.rpcUrl.startsWith('ws')) {
      const transport = webSocket(cfg.rpcUrl);
      const ws = createPublicClient({ transport, cacheTime: 0 });
      unwatch = ws.watchBlockNumber({ emitOnBegin: false, onBlockNumber: () => wake?.(), onError: () => {} });
      closeWs = async () => (await ws.transport.getRpcClient()).close();
    }

    /** walks back from the tip to the fork point; returns the retractions (newest first) */
    async function reconcile(): Promise<SourceItem> {
      const retractions: ChainEvent[] = [];
      for (;;) {
        const tip = kept[kept.length - 1];
        if (!tip) throw new DeepReorgError(cfg.slug, cfg.reorgWindow, undefined);
        const h = await canonicalHash(tip.number);
        if (h === tip.hash) break;
        if (kept.length === 1) throw new DeepReorgError(cfg.slug, cfg.reorgWindow, tip.number);
        kept.pop();
        for (let i = tip.events.length - 1; i >= 0; i--) retractions.push({ ...(tip.events[i] as ChainEvent), removed: true } as ChainEvent);
      }
      const fork = kept[kept.length - 1] as Kept;
      processor.forgetV3();
      next = fork.number + 1;
      published = { number: fork.number, timestamp: fork.timestamp };
      return { kind: 'reorg', chain: cfg.slug, forkBlock: fork.number, retractions };
    }

    try {
      while (!signal.aborted) {
        const h = await fetchBlock(client, { number: Number(await client.getBlockNumber()) }, false);
        head = { number: h.number, timestamp: h.timestamp };
        const target = h.number - (cfg.confirmations - 1);
        // the head moved back or sideways under what we published: check our tip at the target
        const tip = kept[kept.length - 1];
        if (tip && tip.number >= target) {
          const at = Math.min(tip.number, h.number);
          const ours = kept.find((k) => k.number === at);
          if (tip.number > h.number || (ours && (await canonicalHash(at)) !== ours.hash)) yield await reconcile();
        }
        while (next <= target && !signal.aborted) {
          const block: BlockHeader = await fetchBlock(client, { number: next });
          const parent = kept[kept.length - 1];
          if (parent && parent.number === block.number - 1 && parent.hash !== block.parentHash) {
            yield await reconcile();
            continue;
          }
          const prepared = await processor.prepare(await logsOf(block));
          const events = processor.map(prepared, { [block.number]: block }).get(block.number) ?? [];
          if (opts.funding) {
            await opts.funding.readRecipients(block, events, prepared);
            events.push(...opts.funding.eventsFor(block, events, prepared));
          }
          if (opts.watch) events.push(...(await opts.watch.factsFor(block, events, prepared, { live: true })));
          kept.push({ number: block.number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp, events });
          while (kept.length > cfg.reorgWindow) kept.shift();
          if (events.length > 0) yield { kind: 'events', chain: cfg.slug, block: block.number, timestamp: block.timestamp, events };
          yield { kind: 'finalized', chain: cfg.slug, block: block.number, timestamp: block.timestamp };
          published = { number: block.number, timestamp: block.timestamp };
          next = block.number + 1;
        }
        await Promise.race([
          sleep(cfg.pollIntervalMs, signal).catch(() => {}),
          new Promise<void>((r) => (wake = r)),
        ]);
      }
    } finally {
      unwatch?.();
      await closeWs?.().catch(() => {});
    }
  }

  return {
    chain: cfg.slug,
    run,
    lag: () => ({
      chain: cfg.slug,
      head: head?.number,
      published: published?.number,
      blocks: head && published ? Math.max(0, head.number - published.number) : head ? head.number + 1 : 0,
      seconds: head && published ? Math.max(0, head.timestamp - published.timestamp) : 0,
    }),
  };
}
