/** the `p` quantile (0 < p ≤ 1) of latencies sorted ascending, NaN when there are none (nearest rank) */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number) : NaN;
}
