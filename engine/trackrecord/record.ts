import type { Horizon, TrackRecord } from '../../schemas/trackrecord.ts';
import { HorizonSeconds } from '../../schemas/trackrecord.ts';
import type { TokenSnapshot } from '../../schemas/token.ts';
import type { WalletSnapshot } from '../../schemas/wallet.ts';
import type { TokenPriceView, WalletBasisAt } from './score.ts';
import { initialScores, pendingHorizons, scoreTokenHorizon, scoreTraderHorizon } from './score.ts';

/**
 * A track record from what a served response claimed and the snapshot it was served from, and the
 * scoring of its due horizons from what the snapshots said later. Pure: the track-record service
 * (runtime/trackrecord.ts) reads the snapshots and writes the records.
 */

/** what a served response claims: the recorded value, its subject, and the snapshot it came from */
export interface Claim {
  operation: string;
  kind: 'token' | 'trader';
  chain: string;
  subject: string;
  value: string;
  snapshotKey: string;
}

/** what the scoring reads of a token's snapshot (its latest row) */
export interface TokenPriceSnapshot {
  token: string;
  asOfTs: number;
  createdAt?: string | null;
  basis: { priceUsd: number | null; liquidityUsd?: number | null; hourly: { t: number; c: number }[] };
}

/** what it reads of a trader's wallet snapshot, the latest or a past one (a history row keeps no more) */
export interface WalletBasisSnapshot {
  asOf: string;
  basis?: { realisedUsd: number; costSoldUsd: number; closed: number };
}

/** a chain's token prices as the scoring sees them, and the newest event time among them */
export interface ChainPrices {
  views: Map<string, TokenPriceView>;
  all: TokenPriceView[];
  nowTs: number;
}

export function tokenView(s: TokenPriceSnapshot): TokenPriceView {
  return {
    token: s.token,
    asOfTs: s.asOfTs,
    createdTs: s.createdAt ? Math.floor(Date.parse(s.createdAt) / 1000) : null,
    priceUsd: s.basis.priceUsd,
    hourly: s.basis.hourly.map((b) => ({ t: b.t, c: b.c })),
    liquidityUsd: s.basis.liquidityUsd ?? null,
  };
}

export const walletTs = (s: WalletBasisSnapshot): number => Math.floor(Date.parse(s.asOf) / 1000);

/** the record of a claim, referenced at the snapshot it was served from */
export function recordOfClaim(c: Claim, snapshot: unknown): TrackRecord {
  let refTs: number;
  let base: Pick<TrackRecord, 'symbol' | 'refPrice' | 'refLiquidityUsd' | 'refRealisedUsd' | 'refCostSoldUsd' | 'refClosed'>;
  if (c.kind === 'token') {
    const s = snapshot as TokenSnapshot;
    refTs = s.asOfTs;
    base = { symbol: s.symbol, refPrice: s.basis.priceUsd, refLiquidityUsd: s.basis.liquidityUsd, refRealisedUsd: null, refCostSoldUsd: null, refClosed: null };
  } else {
    const s = snapshot as WalletSnapshot;
    refTs = walletTs(s);
    base = {
      symbol: null,
      refPrice: null,
      refLiquidityUsd: null,
      refRealisedUsd: s.basis?.realisedUsd ?? null,
      refCostSoldUsd: s.basis?.costSoldUsd ?? null,
      refClosed: s.basis?.closed ?? null,
    };
  }
  // once per hour of the snapshot (event time): a popular subject is recorded once, not per call
  const key = `${c.operation}:${c.chain}:${c.subject}:${Math.floor(refTs / 3600)}`;
  const { snapshotKey: _snapshotKey, ...claim } = c;
  return { key, ...claim, refTs, ...base, scores: initialScores(c.kind, c.value) };
}

/** the pending horizons of a record that have come by `nowTs` (event time) */
export function dueHorizons(rec: TrackRecord, nowTs: number): Horizon[] {
  return pendingHorizons(rec).filter((h) => nowTs >= rec.refTs + HorizonSeconds[h]);
}

/** the wallet's state at a time: its newest snapshot at or before it */
export function walletBasisAt(walletStates: WalletBasisSnapshot[], t: number): WalletBasisAt | null {
  let at: WalletBasisSnapshot | null = null;
  for (const w of walletStates) if (walletTs(w) <= t && (at === null || walletTs(w) > walletTs(at))) at = w;
  return at?.basis ? { measuredTs: walletTs(at), realisedUsd: at.basis.realisedUsd, costSoldUsd: at.basis.costSoldUsd, closed: at.basis.closed } : null;
}

/** scores the record's `due` horizons in place: a token's from the chain's prices, a trader's from its wallet's snapshots (latest and past) */
export function scoreHorizons(rec: TrackRecord, due: Horizon[], chain: ChainPrices, walletStates: WalletBasisSnapshot[]): void {
  for (const h of due) {
    if (rec.kind === 'token') rec.scores[h] = scoreTokenHorizon(rec, h, chain.views.get(rec.subject), chain.all, chain.nowTs);
    else rec.scores[h] = scoreTraderHorizon(rec, h, walletBasisAt(walletStates, rec.refTs + HorizonSeconds[h]), chain.nowTs);
  }
}
