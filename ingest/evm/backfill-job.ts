/**
 * The cursor-keeping backfill job behind `intel backfill`: a block range of a chain published to
 * the log, its cursor persisted after each range, so a killed run resumes where it stopped.
 */
import type { Logger } from 'pino';
import type { PublicClient } from 'viem';
import { z } from 'zod';
import { jsonCodec } from '../../infra/codec.ts';
import { decodeRowOrThrow } from '../../infra/rows.ts';
import type { RowDef } from '../../infra/rows.ts';
import type { Log } from '../../infra/log/types.ts';
import type { Store } from '../../infra/store/types.ts';
import { Tables } from '../../infra/store/types.ts';
import { pumpToLog } from '../publisher.ts';
import type { BackfillCursor, BackfillProgress } from './backfill.ts';
import { createBackfill } from './backfill.ts';
import type { EvmChainConfig } from './config.ts';
import { createResolver, type Resolver } from './resolver.ts';
import { closeRpcClient, createRpcClient } from './rpc.ts';
import { chainFunding, chainWatch, createMemoryKeeper, createVersioner } from './memory.ts';

/** a backfill's cursor (cursors table): the range and the last block fully published */
export const BackfillCursorRow: RowDef<BackfillCursor, [chain: string, from: number, to: number | 'head']> = {
  table: Tables.cursors,
  key: (chain, from, to) => `backfill:${chain}:${from}-${to}`,
  codec: jsonCodec(z.object({ chain: z.string(), from: z.number().int(), to: z.number().int(), done: z.number().int() })),
};

export function backfillKey(chain: string, from: number, to: number | 'head'): string {
  return BackfillCursorRow.key(chain, from, to);
}

export interface BackfillJobOptions {
  from: number;
  to: number | 'head';
  /** ignore a persisted cursor and start over (re-publishing is harmless: upserts) */
  restart?: boolean;
  onProgress?: (p: BackfillProgress) => void;
  concurrency?: number;
  client?: PublicClient;
  resolver?: Resolver;
  /** where a token whose contract could not be read at an old block is reported */
  logger?: Logger;
}

export interface BackfillJobResult {
  key: string;
  /** the cursor the run started from, if it resumed */
  resumedFrom: BackfillCursor | undefined;
  cursor: BackfillCursor | undefined;
  /** progress of this run (blocks, events, rates); undefined when there was nothing left to do */
  progress: BackfillProgress | undefined;
  complete: boolean;
}

export async function readBackfillCursor(store: Store, k: string): Promise<BackfillCursor | undefined> {
  const row = await store.get(BackfillCursorRow.table, k);
  // said, never passed over: starting the range again would publish hours of blocks twice
  return row ? decodeRowOrThrow(BackfillCursorRow.codec, BackfillCursorRow.table, row, ': delete that row of the cursors table to start the range over') : undefined;
}

/**
 * Backfills [from, to] of a chain into the log, persisting its cursor (cursors table, key
 * `backfill:<chain>:<from>-<to>`) after each range is published, so a killed run resumes where it
 * stopped. `to: 'head'` resumes to the current head. Re-running a finished fixed range does nothing.
 */
export async function runBackfillJob(deps: { log: Log; store: Store }, chain: EvmChainConfig, opts: BackfillJobOptions, signal: AbortSignal): Promise<BackfillJobResult> {
  const k = backfillKey(chain.slug, opts.from, opts.to);
  const saved = opts.restart ? undefined : await readBackfillCursor(deps.store, k);
  if (saved && opts.to !== 'head' && saved.done >= opts.to) return { key: k, resumedFrom: saved, cursor: saved, progress: undefined, complete: true };
  const version = createVersioner();
  // a client made here is closed here (a WebSocket one would keep the process alive)
  const client = opts.client ?? createRpcClient(chain.rpcUrl, chain.rpc);
  const resolver = opts.resolver ?? createResolver(client);
  // the same reads as `npm start`'s backfill: contracts (trade simulation, powers, pools) and deployers' funding
  const funding = chainFunding(chain, client, opts.logger);
  const watch = chainWatch(chain, client, resolver, opts.logger, funding);
  const memory = createMemoryKeeper(deps.store, k, watch, funding);
  if (saved) await memory.restore();
  const backfill = createBackfill({
    chain,
    from: opts.from,
    to: opts.to,
    cursor: saved,
    client,
    resolver,
    watch,
    funding,
    concurrency: opts.concurrency,
    onProgress: opts.onProgress,
    onCursor: (c) => {
      const v = version();
      const kept = memory.row(v);
      return deps.store.upsert(Tables.cursors, [{ key: k, version: v, body: BackfillCursorRow.codec.encode(c) }, ...(kept ? [kept] : [])]);
    },
  });
  try {
    await pumpToLog(deps.log, backfill, signal);
  } finally {
    if (!opts.client) await closeRpcClient(client);
  }
  const cursor = backfill.cursor();
  return { key: k, resumedFrom: saved, cursor, progress: backfill.progress(), complete: cursor !== undefined && cursor.done >= cursor.to };
}
