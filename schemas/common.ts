import { z } from 'zod';
import { ChainSlugs } from './chains.ts';

export const Verdict = z.enum(['mirror-worthy', 'watch', 'avoid', 'unrated']);
export type Verdict = z.infer<typeof Verdict>;
export const TokenSignalValue = z.enum(['BUY', 'ACCUMULATE', 'HOLD', 'AVOID']);
export const InflectionState = z.enum(['coiling', 'breaking-out']);

export const ChainSlug = z.enum(ChainSlugs).meta({ description: 'Chain slug; defaults to the configured default chain.' });
/** `0x` + 40 hex; mixed case must pass EIP-55; normalised to lowercase by the API. */
export const Address = z.string().meta({ description: '0x-prefixed 20-byte hex address (EIP-55 checksum enforced for mixed case)', example: '0x' + 'ab'.repeat(20) });

/** Freshness stated on every snapshot-backed response. */
export const Freshness = {
  asOf: z.string().meta({ description: 'ISO time of the last event folded into the snapshot' }),
  ageSeconds: z.number().meta({ description: 'seconds between asOf and the time the response was served' }),
};

/** Every list answer: the cursor of its next page. */
export const NextCursor = z
  .string()
  .nullable()
  .meta({ description: 'pass as `cursor` for the next page; null on the last page. Opaque: the position after the last item, stable when the list changes between calls' });
