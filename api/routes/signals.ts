import { z } from 'zod';
import { TrackRecordResponse } from '../../schemas/trackrecord.ts';
import type { AnyOperation } from '../operations.ts';
import { defineOperation } from '../operations.ts';
import { ChainParam, queryInt } from './common.ts';
import type { RouteDeps, TrackRecords } from './context.ts';

/** Track records of the verdicts and signals served (2 units each). */

const METHOD =
  'Each verdict or signal served is recorded once per subject and hour of its snapshot, with the reference at the snapshot time, and scored at +1h, +24h and +7d of event time. hitRatePct = hits / (hits + misses); pending, void (no data at the horizon, or no later round trip) and unscored (no directional claim) are shown, never dropped.';

export function createSignalsOperations(deps: RouteDeps, trackRecords: TrackRecords): AnyOperation[] {
  const chainOf = (c: string | undefined) => c ?? deps.config.DEFAULT_CHAIN;
  const request = z.object({ chain: ChainParam, limit: queryInt(1, 100, 20, 'how many recent scored examples') });
  return [
    defineOperation({
      id: 'signalsTrackRecord',
      method: 'GET',
      path: '/signals/track-record',
      cost: 2,
      group: 'signals',
      summary: 'Hit rates of token signals and verdicts served, per value and horizon, misses included',
      returns: 'records, groups[], overall, recent[], method',
      request,
      response: TrackRecordResponse,
      handler: async (i) => {
        const chain = chainOf(i.chain);
        return { chain, ...(await trackRecords.report(chain, ['tokenSignal', 'tokenIntel'], i.limit)), method: METHOD };
      },
    }),
    defineOperation({
      id: 'tradersTrackRecord',
      method: 'GET',
      path: '/traders/track-record',
      cost: 2,
      group: 'signals',
      summary: 'Hit rates of trader grades and copy decisions served, per verdict and horizon, misses included',
      returns: 'records, groups[], overall, recent[], method',
      request,
      response: TrackRecordResponse,
      handler: async (i) => {
        const chain = chainOf(i.chain);
        return { chain, ...(await trackRecords.report(chain, ['traderScore', 'copyDecision'], i.limit)), method: METHOD };
      },
    }),
  ];
}
