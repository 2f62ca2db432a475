import { z } from 'zod';
import { TrackRecordResponse } from '../../schemas/trackrecord.ts';
import type { AnyOperation } from '../operations.ts';
import { defineOperation } from '../operations.ts';
import { NextCursor } from '../../schemas/common.ts';
import { ChainParam, CursorParam, decodeCursor, encodeCursor, queryInt } from './common.ts';
import type { RouteDeps, TrackRecords } from './context.ts';

/** Track records of the verdicts and signals served (2 units each). */

const METHOD =
  'Each verdict or signal served is recorded once per subject and hour of its snapshot, with the reference at the snapshot time, and scored at +1h, +24h and +7d of event time. hitRatePct = hits / (hits + misses); pending, void (no data at the horizon, or no later round trip) and unscored (no directional claim) are shown, never dropped. Outcomes are measured on later prices and liquidity only, never on a flag of our own. Each hit rate has its base rate beside it (baseRates): the same rule applied to every subject recorded at that horizon, whatever was served, with their median forward return.';

export function createSignalsOperations(deps: RouteDeps, trackRecords: TrackRecords): AnyOperation[] {
  const chainOf = (c: string | undefined) => c ?? deps.config.DEFAULT_CHAIN;
  const request = z.object({ chain: ChainParam, limit: queryInt(1, 100, 20, 'how many recent scored examples'), cursor: CursorParam });
  const response = TrackRecordResponse.extend({ next: NextCursor.meta({ description: 'pass as `cursor` for the next page of recent[] (groups and overall are over every record on each page); null on the last page' }) });
  /** the report with a page of its recent scored examples, the most recent first */
  async function report(id: string, operations: string[], i: z.output<typeof request>) {
    const chain = chainOf(i.chain);
    const list = `${id}:${chain}`;
    const r = await trackRecords.report(chain, operations, { limit: i.limit, after: decodeCursor(list, i.cursor) });
    return { chain, ...r, next: encodeCursor(list, r.next), method: METHOD };
  }
  return [
    defineOperation({
      id: 'signalsTrackRecord',
      method: 'GET',
      path: '/signals/track-record',
      cost: 2,
      group: 'signals',
      summary: 'Hit rates of token signals and verdicts served, per value and horizon, misses included',
      returns: 'records, groups[], overall, recent[], next, method',
      request,
      response,
      handler: (i) => report('signalsTrackRecord', ['tokenSignal', 'tokenIntel'], i),
    }),
    defineOperation({
      id: 'tradersTrackRecord',
      method: 'GET',
      path: '/traders/track-record',
      cost: 2,
      group: 'signals',
      summary: 'Hit rates of trader grades and copy decisions served, per verdict and horizon, misses included',
      returns: 'records, groups[], overall, recent[], next, method',
      request,
      response,
      handler: (i) => report('tradersTrackRecord', ['traderScore', 'copyDecision'], i),
    }),
  ];
}
