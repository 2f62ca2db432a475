import type { FundingTable } from '../tables.ts';
import { FUNDING_HUB_FANOUT } from '../tables.ts';
import type { RetiredTokens, WalletState } from './state.ts';
import { driftPerSecond } from './state.ts';
import type { VsSums } from './against.ts';

/**
 * A wallet's cluster, and the round trips it traded against it. A cluster is the wallets that
 * share a funder within the funding table's hops (a hub, which funds strangers, is not followed);
 * a farm that wins round trips against a loser of its own cluster moves money between its own
 * wallets, which is no edge (docs/intelligence.md "Against an adversary").
 */

/** a wallet's funders up the chain, nearest first, up to the first hub */
function fundersOf(f: Pick<FundingTable, 'fundingChain' | 'fundedCount'>, chain: string, wallet: string): string[] {
  const out: string[] = [];
  for (const a of f.fundingChain(chain, wallet)) {
    if (f.fundedCount(chain, a) > FUNDING_HUB_FANOUT) break;
    out.push(a);
  }
  return out;
}

/** whether another wallet is of `wallet`'s cluster: one funded it, it funded one, or a funder is shared */
export function clusterOf(f: Pick<FundingTable, 'fundingChain' | 'fundedCount'>, chain: string, wallet: string): (other: string) => boolean {
  const mine = new Set([wallet, ...fundersOf(f, chain, wallet)]);
  const memo = new Map<string, boolean>();
  return (other) => {
    let v = memo.get(other);
    if (v === undefined) {
      v = mine.has(other) || fundersOf(f, chain, other).some((a) => mine.has(a));
      memo.set(other, v);
    }
    return v;
  };
}

/** The kept tokens' round trips attributed to counterparties of the wallet's cluster, and to others. */
export interface ClusterTrades {
  roundTrips: number;
  wins: number;
  losses: number;
  winUsd: number;
  lossUsd: number;
  /** Σ round-trip excess (ln return net of the token's drift over the hold) */
  rtExcess: number;
  /** wins attributed to counterparties outside the cluster */
  outsideWins: number;
}

export function clusterTrades(state: WalletState, inCluster: ((wallet: string) => boolean) | undefined): ClusterTrades {
  const c: ClusterTrades = { roundTrips: 0, wins: 0, losses: 0, winUsd: 0, lossUsd: 0, rtExcess: 0, outsideWins: 0 };
  for (const t of Object.values(state.tokens)) {
    const vs = t.book.vs;
    if (!vs) continue;
    const d = driftPerSecond(t.edge);
    for (const [w, s] of Object.entries(vs) as [string, VsSums][]) {
      const [n = 0, wins = 0, losses = 0, winUsd = 0, lossUsd = 0, logRet = 0, hold = 0] = s;
      if (!inCluster?.(w)) {
        c.outsideWins += wins;
        continue;
      }
      c.roundTrips += n;
      c.wins += wins;
      c.losses += losses;
      c.winUsd += winUsd;
      c.lossUsd += lossUsd;
      c.rtExcess += logRet - d * hold;
    }
  }
  return c;
}

/**
 * Takes the round trips traded against the cluster out of the sums derive grades (counts rounded:
 * they are shares by USD), and weighs the forward edge by the share of round trips left: the
 * prices after its buys were its own cluster's doing in the share taken out.
 */
export function takeOutCluster(sums: RetiredTokens, c: ClusterTrades): void {
  if (c.roundTrips <= 0) return;
  const closedBefore = sums.closed;
  sums.closed = Math.max(0, sums.closed - Math.round(c.roundTrips));
  sums.wins = Math.max(0, sums.wins - Math.round(c.wins));
  sums.losses = Math.max(0, sums.losses - Math.round(c.losses));
  sums.grossWinUsd = Math.max(0, sums.grossWinUsd - c.winUsd);
  sums.grossLossUsd = Math.max(0, sums.grossLossUsd - c.lossUsd);
  sums.rtExcessSum -= c.rtExcess;
  if (sums.closed === 0) sums.rtExcessSum = 0;
  sums.fwdExcessSum *= closedBefore > 0 ? sums.closed / closedBefore : 1;
}

/** `wins` before the cluster's were taken out: most of them won against its own cluster */
export function washWins(c: ClusterTrades, wins: number, T: { washMinWins: number; washWinShare: number }): string | null {
  if (c.wins < T.washMinWins || c.wins < T.washWinShare * wins) return null;
  return `wins against its own cluster: ${Math.round(c.wins)} of ${wins} round trips won against wallets sharing its funders (no edge)`;
}
