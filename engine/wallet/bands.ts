import type { HoldBand, SizeBand } from '../../schemas/wallet.ts';

/** The wallet engine's bands, defined once (engine/wallet/README.md "Derived measures"). */

// the return bands are part of the vocabulary: defined once in schemas/wallet.ts
export { returnBandOfPct } from '../../schemas/wallet.ts';
export type { ReturnBandT } from '../../schemas/wallet.ts';

/** Hold seconds to a band: < 1 min seconds, < 1 h minutes, < 1 d hours, < 7 d days, else weeks. */
export function holdBandOf(seconds: number): HoldBand {
  if (seconds < 60) return 'seconds';
  if (seconds < 3600) return 'minutes';
  if (seconds < 86400) return 'hours';
  if (seconds < 7 * 86400) return 'days';
  return 'weeks';
}

/** USD notional to a band: < 100 micro, < 1k small, < 10k medium, < 100k large, else whale. */
export function sizeBandOf(usd: number): SizeBand {
  return usd < 100 ? 'micro' : usd < 1_000 ? 'small' : usd < 10_000 ? 'medium' : usd < 100_000 ? 'large' : 'whale';
}
