/** The chain slugs of the API (docs/architecture.md "Decisions": ChainSlug). Depends on nothing of ours. */
export const ChainSlugs = ['ethereum', 'base', 'arbitrum', 'optimism', 'polygon', 'bsc', 'devnet', 'sim'] as const;
export type ChainSlug = (typeof ChainSlugs)[number];

/** EVM chains an ingester can follow (RPC_URL_<CHAIN> turns one on). */
export const EvmChainSlugs = ['ethereum', 'base', 'arbitrum', 'optimism', 'polygon', 'bsc', 'devnet'] as const;
export type EvmChainSlug = (typeof EvmChainSlugs)[number];
