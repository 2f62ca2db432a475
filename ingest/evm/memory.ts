/**
 * What an EVM ingest run keeps beside its cursor: the contract watch and the funding tracker of a
 * chain, what they learnt (restored at a resume), and row versions that only grow.
 */
import type { Logger } from 'pino';
import type { PublicClient } from 'viem';
import { z } from 'zod';
import { jsonCodec } from '../../infra/codec.ts';
import type { Store } from '../../infra/store/types.ts';
import { Tables } from '../../infra/store/types.ts';
import type { EvmChainConfig } from './config.ts';
import type { Resolver } from './resolver.ts';
import { createInspector, isStateUnavailable } from './contract/inspect.ts';
import { createContractWatch, WatchState, type ContractWatch } from './contract/watch.ts';
import { createFundingTracker, type FundingTracker } from './funding.ts';
import { blocksSentFrom } from './sends.ts';

/** Row versions that only grow across restarts, even when a cursor moves back (a reorg). */
export function createVersioner(): () => number {
  let last = 0;
  return () => (last = Math.max(Date.now() * 1000, last + 1));
}

/** the reads of token contracts for a chain (with `contracts.enabled` off, only which tokens trade on which pool) */
export function chainWatch(chain: EvmChainConfig, client: PublicClient, resolver: Resolver, logger?: Logger, funding?: FundingTracker): ContractWatch {
  return createContractWatch({
    fundedBy: funding ? (deployer) => funding.fundedBy(deployer) : undefined,
    chain: chain.slug,
    inspector: chain.contracts.enabled ? createInspector({ client, resolver, chain }) : undefined,
    resolver,
    quotes: chain.quotes,
    intervalSec: chain.contracts.intervalSec,
    onError: (token, block, err) =>
      logger?.warn({ chain: chain.slug, token, block, err: String((err as Error).message ?? err).split('\n')[0] }, 'contract read: no state at that block, read at the head instead'),
  });
}

/**
 * What the contract watch and the funding tracker learnt (tokens' deployers, owners and pools;
 * the deployers whose transfers are funding), kept in the cursors table beside the cursor it goes
 * with, written in the same upsert: a restart reads and attributes as one run straight through.
 */
const IngestMemory = jsonCodec(z.object({ watch: WatchState, fundingDeployers: z.array(z.string()), fundingBelow: z.record(z.string(), z.number()).optional() }));
const memoryKey = (cursorKey: string) => `${cursorKey}:memory`;

export function createMemoryKeeper(store: Store, key: string, watch: ContractWatch, funding: FundingTracker) {
  let deployersKept = -1;
  return {
    /** the memory row to write with the cursor, when anything kept changed */
    row(version: number): { key: string; version: number; body: string } | undefined {
      const state = watch.state(deployersKept !== funding.deployerCount());
      if (!state) return undefined;
      deployersKept = funding.deployerCount();
      return { key: memoryKey(key), version, body: IngestMemory.encode({ watch: state, fundingDeployers: funding.deployers(), fundingBelow: funding.followed() }) };
    },
    async restore(): Promise<void> {
      const row = await store.get(Tables.cursors, memoryKey(key));
      const m = row ? IngestMemory.decode(row.body) : undefined;
      if (!m) return;
      watch.restore(m.watch);
      funding.restoreDeployers(m.fundingDeployers, m.fundingBelow);
      deployersKept = funding.deployerCount();
    },
  };
}

/** deployers' funding of wallets; a backfill finds a new deployer's earlier native payments by its nonce (sends.ts) */
export function chainFunding(chain: EvmChainConfig, client: PublicClient, logger?: Logger): FundingTracker {
  return createFundingTracker({
    chain: chain.slug,
    weth: chain.quotes.weth,
    code: (address, block) => client.getCode({ address, blockNumber: BigInt(block) }),
    async history(address, fromBlock, toBlock) {
      try {
        return await blocksSentFrom(client, address, fromBlock, toBlock);
      } catch (err) {
        if (!isStateUnavailable(err)) throw err;
        logger?.warn({ chain: chain.slug, deployer: address, from: fromBlock, to: toBlock }, 'funding: the node keeps no state that far back; earlier native payments of the deployer are not read');
        return [];
      }
    },
  });
}
