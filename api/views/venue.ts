import type { z } from 'zod';
import { keysetPage } from '../../infra/page.ts';
import type { Page, SortKey } from '../../infra/page.ts';
import type { Verdict } from '../../schemas/common.ts';
import type { Horizon, TrackRecordRow, VenueAccountSnapshot, VenueLeader } from '../../schemas/venues.ts';

/**
 * Boards and track records as projections of the account snapshots of one venue: the grades and
 * scores are the engine's (engine/venue/account.ts); here accounts are filtered by grade, sorted
 * by stored grade and score, and the stored per-account grade outcomes summed. Pure.
 */

const GRADE_RANK: Record<Verdict, number> = { 'mirror-worthy': 0, watch: 1, avoid: 2, unrated: 3 };
const GRADES: Verdict[] = ['mirror-worthy', 'watch', 'avoid', 'unrated'];
const HORIZONS: Horizon[] = ['1d', '7d'];
const r2 = (x: number): number => Math.round(x * 100) / 100;

function newestTs(snaps: VenueAccountSnapshot[]): number | null {
  let t: number | null = null;
  for (const s of snaps) {
    const ms = Date.parse(s.asOf);
    if (t === null || ms > t) t = ms;
  }
  return t === null ? null : Math.floor(t / 1000);
}

/**
 * Copy leaders: accounts graded mirror-worthy, then watch, each by score, then by closed trades.
 * `avoid` and `unrated` accounts are never leaders; they are counted in `graded`.
 */
export function venueLeaders(snaps: VenueAccountSnapshot[], page: Page): { leaders: z.input<typeof VenueLeader>[]; graded: Record<Verdict, number>; asOfTs: number | null; next: SortKey | null } {
  const graded: Record<Verdict, number> = { 'mirror-worthy': 0, watch: 0, avoid: 0, unrated: 0 };
  for (const s of snaps) graded[s.grade]++;
  const p = keysetPage(
    snaps.filter((s) => s.grade === 'mirror-worthy' || s.grade === 'watch'),
    (s) => [GRADE_RANK[s.grade], -s.score, -s.sample.closedTrades, s.account],
    page,
  );
  const leaders = p.items.map((s, i) => ({
      rank: p.firstRank + i,
      venue: s.venue,
      wallet: s.account,
      grade: s.grade,
      score: s.score,
      style: s.style,
      winRatePct: s.performance.winRatePct,
      profitFactorBand: s.performance.profitFactorBand,
      returnBand: s.performance.returnBand,
      realisedReturnPct: s.performance.realisedReturnPct,
      closedTrades: s.sample.closedTrades,
      holdBand: s.behaviour.holdBand,
      sizeBand: s.behaviour.sizeBand,
    }));
  return { leaders, graded, asOfTs: newestTs(snaps), next: p.next };
}

/**
 * Did the grades carry signal? Sums every account's daily grade checkpoints: per grade and
 * horizon, how many were resolved with closed trades after them, hits and misses (a
 * mirror-worthy or watch grade hits when the account's trades after it were profitable; avoid
 * hits when they were not; unrated counts its winners as hits, for comparison), inactive and
 * pending ones, and the mean forward return.
 */
export function venueTrackRecord(snaps: VenueAccountSnapshot[]) {
  const rows: z.input<typeof TrackRecordRow>[] = [];
  for (const grade of GRADES) {
    for (const horizon of HORIZONS) {
      let sample = 0, hits = 0, misses = 0, inactive = 0, pending = 0, fwd = 0, accounts = 0;
      for (const s of snaps) {
        const o = s.trackRecord.find((t) => t.grade === grade && t.horizon === horizon);
        if (!o || o.graded === 0) continue;
        accounts++;
        sample += o.graded;
        hits += o.hits;
        misses += o.misses;
        inactive += o.inactive;
        pending += o.pending;
        fwd += o.forwardReturnPctSum;
      }
      const resolved = hits + misses;
      rows.push({
        grade,
        horizon,
        sample,
        resolved,
        hits,
        misses,
        inactive,
        pending,
        hitRatePct: resolved > 0 ? r2((hits / resolved) * 100) : null,
        avgForwardReturnPct: resolved > 0 ? r2(fwd / resolved) : null,
        accounts,
      });
    }
  }
  const separation = HORIZONS.map((horizon) => {
    const mw = rows.find((r) => r.grade === 'mirror-worthy' && r.horizon === horizon);
    const av = rows.find((r) => r.grade === 'avoid' && r.horizon === horizon);
    const mwWin = mw && mw.resolved > 0 ? r2((mw.hits / mw.resolved) * 100) : null;
    // an avoid miss is an account that went on to win
    const avWin = av && av.resolved > 0 ? r2((av.misses / av.resolved) * 100) : null;
    return { horizon, mirrorWorthyWinPct: mwWin, avoidWinPct: avWin, spreadPct: mwWin !== null && avWin !== null ? r2(mwWin - avWin) : null };
  });
  return { rows, separation, accounts: snaps.length, asOfTs: newestTs(snaps) };
}
