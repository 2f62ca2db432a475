import type { HoldBand, SizeBand } from '../../schemas/wallet.ts';

/** The wallet engine's bands, defined once (engine/wallet/README.md "Derived measures"). */

export type ReturnBandT = 'heavy-loss' | 'loss' | 'flat' | 'gain' | 'strong-gain';

/** A return in percent to its band: heavy-loss ≤ −30 < loss < −2 ≤ flat ≤ 2 < gain < 30 ≤ strong-gain. */
export function returnBandOfPct(pct: number): ReturnBandT {
  if (pct <= -30) return 'heavy-loss';
  if (pct < -2) return 'loss';
  if (pct <= 2) return 'flat';
  if (pct < 30) return 'gain';
  return 'strong-gain';
}

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
