import { z } from 'zod';
import { Verdict } from './common.ts';
import { Swap, tokenKey } from './events.ts';
import type { TokenEvent } from './events.ts';
import { TokenFinal } from './token.ts';
import { venueKey } from './venues.ts';
import type { VenueEvent } from './venues.ts';

/**
 * The records of every topic the engine reads or writes, one zod schema each, and the function
 * that builds each record's key (infra/topics.ts binds them to topic names and a codec).
 */

/** wallet-grades (compacted, key chain:wallet): each wallet's latest grade */
export const WalletGradeRecord = z.object({
  chain: z.string(),
  wallet: z.string(),
  grade: Verdict,
  /** event time of the wallet snapshot that carried the grade */
  asOfTs: z.number(),
});
export type WalletGradeRecord = z.infer<typeof WalletGradeRecord>;

/** token-facts (compacted, key chain:token): each token's final bands and flags */
export const TokenFactsRecord = TokenFinal.extend({ chain: z.string(), token: z.string() });
export type TokenFactsRecord = z.infer<typeof TokenFactsRecord>;

/**
 * funding (compacted, key chain:wallet:asset): a wallet's first transfer of a quote asset, so a
 * compacted topic keeps exactly that first record
 */
/**
 * Hops a funding tree is followed below a deployer: the ingest publishes payments that deep, and the
 * engine reads a token's insiders that deep (a hop or two between the deployer and its snipers hides nobody).
 */
export const FUNDING_HOPS = 3;

export const FundingRecord = z.object({
  chain: z.string(),
  wallet: z.string(),
  asset: z.string(),
  funder: z.string(),
  /** chain position of the transfer (eventPosition) */
  position: z.number(),
});
export type FundingRecord = z.infer<typeof FundingRecord>;

export function fundingKey(r: Pick<FundingRecord, 'chain' | 'wallet' | 'asset'>): string {
  return `${r.chain}:${r.wallet}:${r.asset}`;
}

/** a price the token worker sends a recent trader of the token once per token-hour */
export const PriceMark = z.object({ token: z.string(), timestamp: z.number(), priceUsd: z.number() });
export type PriceMark = z.infer<typeof PriceMark>;

/** trades.by-wallet (key chain:wallet): a swap re-keyed by trader (with its pool's creation block), or a price mark */
export const WalletMessage = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('swap'),
    swap: Swap,
    poolBlock: z.number().nullable(),
    /** the token's total liquidity (USD) when the swap was folded: a copier's size is checked against it */
    liquidityUsd: z.number().nullable().optional(),
    /** the token's buyers since the trader's previous trade of it, wallet → USD (engine/rekey.ts againstOf) */
    against: z.record(z.string(), z.number()).optional(),
  }),
  z.object({ kind: z.literal('mark'), wallet: z.string(), chain: z.string(), mark: PriceMark }),
]);
export type WalletMessage = z.infer<typeof WalletMessage>;

export function walletMessageKey(m: WalletMessage): string {
  return m.kind === 'swap' ? tokenKey(m.swap.chain, m.swap.trader) : tokenKey(m.chain, m.wallet);
}

/** snapshots (compacted, key kind:chain:entity): the latest snapshot body with its version */
export const SnapshotMessage = z.object({ version: z.number(), body: z.unknown() });

/**
 * A metered group of calls on the usage topic (api/metering.ts): one key's calls of one operation
 * within a flush interval, as the store sums them (`id` makes a replay harmless), and the process
 * that sent it, last (a process recognises its own messages by their tail)
 */
export const UsageMessage = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  keyId: z.string(),
  orgId: z.string(),
  operation: z.string(),
  units: z.number().nonnegative(),
  requests: z.number().int().positive(),
  id: z.string(),
  /** calls of a sandbox key (they count against the sandbox share of the budget) */
  sandbox: z.literal(true).optional(),
  instance: z.string(),
});
export type UsageMessage = z.infer<typeof UsageMessage>;
export type SnapshotMessage = z.infer<typeof SnapshotMessage>;

export function snapshotKey(kind: string, entityKey: string): string {
  return `${kind}:${entityKey}`;
}

export const tokenEventKey = (e: TokenEvent): string => tokenKey(e.chain, e.token);
export const venueEventKey = (e: VenueEvent): string => venueKey(e.venue, e.account);
