import { z } from 'zod';
import { ApiError } from '../../schemas/errors.ts';
import type { VenueAccountSnapshot } from '../../schemas/venues.ts';
import { PerpVenue, PredictionVenue, VenueLeadersResponse, VenueTrackRecordResponse, VenueWalletResponse } from '../../schemas/venues.ts';
import type { AnyOperation } from '../operations.ts';
import { defineOperation } from '../operations.ts';
import { venueLeaders, venueTrackRecord } from '../views/venue.ts';
import { AddressParam, CursorParam, ageSeconds, decodeCursor, encodeCursor, queryInt } from './common.ts';
import type { RouteDeps } from './context.ts';

/**
 * Perps and prediction-market accounts: per-account reads, copy-leader boards and the track
 * records of the venue grades. All served from the replica (snapshot kinds `perp` and
 * `prediction`, keyed `kind:venue:account`).
 *
 * Unit costs: an account read is one snapshot lookup plus a written sentence (2); a board ranks
 * every account of a venue and writes a headline (4); a track record sums every account's grade
 * checkpoints (3).
 */
export const VenueCosts = { wallet: 2, leaders: 4, trackRecord: 3 } as const;

const LimitParam = queryInt(1, 100, 20, 'how many leaders');

function fresh(asOfTs: number | null, nowMs: number) {
  return {
    asOf: asOfTs === null ? null : new Date(asOfTs * 1000).toISOString(),
    ageSeconds: asOfTs === null ? null : Math.max(0, Math.round(nowMs / 1000 - asOfTs)),
  };
}

export function createVenueOperations(deps: RouteDeps): AnyOperation[] {
  const { replica, writer, config } = deps;
  // the default venue is the real one once its adapter is configured, else the simulator's
  const perpVenue = (v: string | undefined) => v ?? (config.PERPS_WS_URL ? 'hyperliquid' : 'sim');
  const predictionVenue = (v: string | undefined) => v ?? (config.PREDICTION_WS_URL ? 'polymarket' : 'sim');

  const wallet = (kind: 'perp' | 'prediction') => async (i: { venue?: string; wallet: string }, ctx: { now: number }) => {
    const venue = kind === 'perp' ? perpVenue(i.venue) : predictionVenue(i.venue);
    const s = replica.get<VenueAccountSnapshot>(`${kind}:${venue}:${i.wallet}`);
    if (!s) throw new ApiError('not_found', `${i.wallet} has never been seen trading on ${venue} (${kind === 'perp' ? 'perpetuals' : 'prediction markets'})`);
    const summary = await writer.summary({
      operation: kind === 'perp' ? 'perp-wallet' : 'prediction-wallet',
      subject: i.wallet,
      facts: {
        grade: s.grade,
        style: s.style,
        winRatePct: s.performance.winRatePct,
        returnBand: s.performance.returnBand,
        profitFactorBand: s.performance.profitFactorBand,
        holdBand: s.behaviour.holdBand,
        closedTrades: s.sample.closedTrades,
      },
    });
    return {
      venue,
      wallet: i.wallet,
      grade: s.grade,
      reasons: s.reasons,
      score: s.score,
      style: s.style,
      sample: s.sample,
      performance: s.performance,
      behaviour: s.behaviour,
      trackRecord: s.trackRecord,
      summary,
      asOf: s.asOf,
      ageSeconds: ageSeconds(s.asOf, ctx.now),
    };
  };

  const leaders = (kind: 'perp' | 'prediction') => async (i: { venue?: string; limit: number; cursor?: string }, ctx: { now: number }) => {
    const venue = kind === 'perp' ? perpVenue(i.venue) : predictionVenue(i.venue);
    const list = `${kind}Leaders:${venue}`;
    const b = venueLeaders(replica.list<VenueAccountSnapshot>(kind, venue), { limit: i.limit, after: decodeCursor(list, i.cursor) });
    const top = b.leaders[0];
    const headline = await writer.headline({
      operation: kind === 'perp' ? 'copy-perp-leaders' : 'copy-prediction-leaders',
      subject: venue,
      facts: { leader: top?.wallet ?? null, leaderGrade: top?.grade ?? null, mirrorWorthy: b.graded['mirror-worthy'], leaders: b.leaders.length },
    });
    return { venue, headline, leaders: b.leaders, next: encodeCursor(list, b.next), graded: b.graded, ...fresh(b.asOfTs, ctx.now) };
  };

  const trackRecord = (kind: 'perp' | 'prediction') => async (i: { venue?: string }, ctx: { now: number }) => {
    const venue = kind === 'perp' ? perpVenue(i.venue) : predictionVenue(i.venue);
    const t = venueTrackRecord(replica.list<VenueAccountSnapshot>(kind, venue));
    return {
      venue,
      method:
        'Each account is graded once per active day (the grade as of the end of the previous active day). ' +
        'After 1 and 7 days the account’s closed trades since the grade resolve it: mirror-worthy and watch hit when those trades were profitable, ' +
        'avoid hits when they were not, unrated counts winners. Checkpoints with no closed trade after them are inactive; misses stay in the record.',
      rows: t.rows,
      separation: t.separation,
      accounts: t.accounts,
      ...fresh(t.asOfTs, ctx.now),
    };
  };

  const perpBody = z.object({ venue: PerpVenue.optional(), wallet: AddressParam });
  const predictionBody = z.object({ venue: PredictionVenue.optional(), wallet: AddressParam });

  return [
    defineOperation({
      id: 'perpWallet',
      method: 'POST',
      path: '/perp-wallet',
      cost: VenueCosts.wallet,
      group: 'copytrading',
      summary: 'A perpetuals account graded as a copy leader: grade, performance bands, behaviour and its own track record',
      returns: 'grade, reasons, score, sample, performance, behaviour, trackRecord, summary',
      request: perpBody,
      response: VenueWalletResponse,
      handler: wallet('perp'),
    }),
    defineOperation({
      id: 'predictionWallet',
      method: 'POST',
      path: '/prediction-wallet',
      cost: VenueCosts.wallet,
      group: 'copytrading',
      summary: 'A prediction-market account graded as a copy leader: grade, performance bands, behaviour and its own track record',
      returns: 'grade, reasons, score, sample, performance, behaviour, trackRecord, summary',
      request: predictionBody,
      response: VenueWalletResponse,
      handler: wallet('prediction'),
    }),
    defineOperation({
      id: 'copyPerpLeaders',
      method: 'GET',
      path: '/copy/perp-leaders',
      cost: VenueCosts.leaders,
      group: 'copytrading',
      summary: 'Perpetuals accounts worth mirroring: mirror-worthy first, then watch, by score',
      returns: 'headline, leaders[], graded',
      request: z.object({ venue: PerpVenue.optional(), limit: LimitParam, cursor: CursorParam }),
      response: VenueLeadersResponse,
      handler: leaders('perp'),
    }),
    defineOperation({
      id: 'copyPredictionLeaders',
      method: 'GET',
      path: '/copy/prediction-leaders',
      cost: VenueCosts.leaders,
      group: 'copytrading',
      summary: 'Prediction-market accounts worth mirroring: mirror-worthy first, then watch, by score',
      returns: 'headline, leaders[], graded',
      request: z.object({ venue: PredictionVenue.optional(), limit: LimitParam, cursor: CursorParam }),
      response: VenueLeadersResponse,
      handler: leaders('prediction'),
    }),
    defineOperation({
      id: 'perpTrackRecord',
      method: 'GET',
      path: '/perp-track-record',
      cost: VenueCosts.trackRecord,
      group: 'signals',
      summary: 'Whether perpetuals grades carried signal: hit rates per grade and horizon, misses included, sample sizes stated',
      returns: 'method, rows[] per grade and horizon, separation[], accounts',
      request: z.object({ venue: PerpVenue.optional() }),
      response: VenueTrackRecordResponse,
      handler: trackRecord('perp'),
    }),
    defineOperation({
      id: 'predictionTrackRecord',
      method: 'GET',
      path: '/prediction-track-record',
      cost: VenueCosts.trackRecord,
      group: 'signals',
      summary: 'Whether prediction-market grades carried signal: hit rates per grade and horizon, misses included, sample sizes stated',
      returns: 'method, rows[] per grade and horizon, separation[], accounts',
      request: z.object({ venue: PredictionVenue.optional() }),
      response: VenueTrackRecordResponse,
      handler: trackRecord('prediction'),
    }),
  ];
}
