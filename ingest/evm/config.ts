import { z } from 'zod';

const Address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, '0x-prefixed 20-byte address')
  .transform((s) => s.toLowerCase() as `0x${string}`);

/** How WETH is valued in USD: a WETH/stablecoin reference pool, or a fixed price (devnet). */
export const WethUsd = z.union([
  z.object({ fixed: z.number().positive() }),
  z.object({ pool: Address }),
]);
export type WethUsd = z.infer<typeof WethUsd>;

/** One EVM chain to ingest. Validated once at boot, passed down. */
export const EvmChainConfig = z.object({
  slug: z.string().min(1),
  /** http(s):// or ws(s):// */
  rpcUrl: z.string().regex(/^(https?|wss?):\/\//, 'http(s) or ws(s) URL'),
  /** a block is published once it has this many confirmations (1 = the head itself) */
  confirmations: z.number().int().min(1).default(1),
  startBlock: z.number().int().nonnegative().default(0),
  quotes: z.object({
    weth: Address,
    /** priced at 1 USD */
    stables: z.array(Address).default([]),
    wethSymbol: z.string().default('WETH'),
  }),
  wethUsd: WethUsd,
  /** the router(s) whose swaps are attributed to tx.from rather than the swap's `to` */
  routers: z.array(Address).default([]),
  /** Uniswap V3 factories: a token's pools on them are found by getPool for each fee tier (contract reads) */
  v3Factories: z.array(Address).default([]),
  /** Uniswap V3 NonfungiblePositionManagers: the positions (NFTs) they hold are a V3 pool's liquidity custody (contract reads) */
  v3PositionManagers: z.array(Address).default([]),
  /** recent block hashes kept for reorg detection; a deeper reorg stops the chain */
  reorgWindow: z.number().int().min(2).default(128),
  pollIntervalMs: z.number().int().positive().default(1000),
  rpc: z
    .object({
      maxConcurrency: z.number().int().positive().default(8),
      requestsPerSecond: z.number().positive().default(50),
      maxRetries: z.number().int().nonnegative().default(5),
      retryBaseMs: z.number().int().positive().default(200),
      retryMaxMs: z.number().int().positive().default(10_000),
      /** JSON-RPC requests per HTTP batch (1 = no batching) */
      batchSize: z.number().int().positive().default(50),
      /** how long one HTTP request may take; a getLogs range that takes longer is split */
      timeoutMs: z.number().int().positive().default(10_000),
      /** the largest HTTP answer read (viem's limit); a getLogs range whose answer is larger is split */
      maxResponseBytes: z.number().int().positive().default(10_485_760),
    })
    .prefault({}),
  /** reads of the tokens' contracts (contract/inspect.ts): trade simulation, owner powers, pools and LP custody */
  contracts: z
    .object({
      enabled: z.boolean().default(true),
      /** following live, a token trading again this many seconds (chain time) after its last read is read again */
      intervalSec: z.number().int().positive().default(3600),
      /** lock contracts: LP tokens they hold count as locked */
      lpLockers: z.array(Address).default([]),
      /** the simulated buy spends this share of the best pool's quote reserve; the larger buy (max-transaction limits) this one */
      buyShare: z.number().positive().max(0.1).default(0.001),
      largeBuyShare: z.number().positive().max(0.5).default(0.02),
      /** after a backfill, tokens active in its last this many seconds are read at its end block */
      headReadSec: z.number().int().nonnegative().default(7 * 86400),
    })
    .prefault({}),
  backfill: z
    .object({
      /** small, so a dense chain's first answer is not a 10 MB refusal; sparse ones grow up to 4× per answer */
      initialRange: z.number().int().positive().default(100),
      minRange: z.number().int().positive().default(1),
      maxRange: z.number().int().positive().default(10_000),
      /** grow the range while a getLogs returns fewer logs than this */
      targetLogs: z.number().int().positive().default(5_000),
    })
    .prefault({}),
});
export type EvmChainConfig = z.infer<typeof EvmChainConfig>;
export type EvmChainConfigInput = z.input<typeof EvmChainConfig>;

export function parseChainConfig(input: EvmChainConfigInput): EvmChainConfig {
  return EvmChainConfig.parse(input);
}
