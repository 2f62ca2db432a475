import type { TokenBook } from './state.ts';

/**
 * Against whom a wallet traded: the token worker names, with each of the wallet's swaps, the
 * token's buyers since the wallet's previous trade of it (engine/rekey.ts againstOf). A round trip's
 * counterparties are the buyers while it held (they paid the prices it sold at); each closed round
 * trip is attributed to them by their USD share, so derive can take out the round trips traded
 * against the wallet's own cluster (cluster.ts): winning against your own cluster is no edge.
 */

/** wallet → USD of its latest buy */
export type Against = Record<string, number>;

/**
 * A counterparty's attributed share of a token's closed round trips:
 * [round trips, wins, losses, win USD, loss USD, Σ ln(proceeds / cost), Σ hold seconds].
 */
export type VsSums = number[];

/** counterparties kept per open round trip: the largest buyers (smaller ones weigh little) */
export const AGAINST_KEPT = 8;
/** counterparties kept per token: those with the largest attributed share of round trips */
export const VS_KEPT = 16;

/** keeps the `n` largest entries of `rec` by `size`, ties by address (the same on every replay) */
function keepLargest<T>(rec: Record<string, T>, n: number, size: (v: T) => number): void {
  const keys = Object.keys(rec);
  if (keys.length <= n) return;
  keys.sort((a, b) => size(rec[b] as T) - size(rec[a] as T) || (a < b ? -1 : 1));
  for (const k of keys.slice(n)) delete rec[k];
}

/** the buyers of a trade join the open round trip's counterparties (the larger buy of a wallet counts) */
export function addAgainst(b: TokenBook, against: Against): void {
  const cur = (b.rtAgainst ??= {});
  for (const [w, usd] of Object.entries(against)) if (!(usd <= (cur[w] ?? 0))) cur[w] = usd;
  keepLargest(cur, AGAINST_KEPT, (v) => v);
}

/** a closed round trip goes to its counterparties by USD share; one without any stays unattributed */
export function attributeRoundTrip(b: TokenBook, rt: { pnl: number; logRet: number; hold: number }): void {
  const against = b.rtAgainst;
  delete b.rtAgainst;
  if (!against) return;
  const total = Object.values(against).reduce((a, x) => a + x, 0);
  if (!(total > 0)) return;
  const vs = (b.vs ??= {});
  for (const [w, usd] of Object.entries(against)) {
    const f = usd / total;
    const s = (vs[w] ??= [0, 0, 0, 0, 0, 0, 0]);
    const add = [f, rt.pnl > 0 ? f : 0, rt.pnl < 0 ? f : 0, rt.pnl > 0 ? f * rt.pnl : 0, rt.pnl < 0 ? -f * rt.pnl : 0, f * rt.logRet, f * rt.hold];
    add.forEach((x, i) => (s[i] = (s[i] as number) + x));
  }
  keepLargest(vs, VS_KEPT, (v) => v[0] as number);
}

export function cloneVs(vs: Record<string, VsSums>): Record<string, VsSums> {
  const out: Record<string, VsSums> = {};
  for (const k in vs) out[k] = (vs[k] as VsSums).slice();
  return out;
}
