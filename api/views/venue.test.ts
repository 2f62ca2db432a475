import { describe, expect, it } from 'vitest';
import type { VenueAccountSnapshot as Snapshot } from '../../schemas/venues.ts';
import { venueLeaders, venueTrackRecord } from './venue.ts';

const T0 = 1_735_689_600_000; // a UTC midnight

describe('venue projections', () => {
  it('leaders rank mirror-worthy then watch by score; track record sums and separates', () => {
    const make = (acc: string, grade: 'mirror-worthy' | 'watch' | 'avoid' | 'unrated', score: number, hits: number, misses: number): Snapshot => ({
        kind: 'perp', venue: 'sim', account: acc, asOf: new Date(T0).toISOString(), grade, reasons: [], score, style: 'swing',
        sample: { fills: 10, closedTrades: 5, instruments: 1, daysActive: 3, openPositions: 0 },
        performance: { realisedReturnPct: 1, returnBand: 'gain', winRatePct: 60, profitFactor: 2, profitFactorBand: 'strong', bestTradeSharePct: 10, profitableWeeksPct: 100 },
        behaviour: { holdBand: 'hours', sizeBand: 'medium', flipSharePct: 0, longSharePct: 50, entryPriceBand: null, copyableSharePct: 100 },
        trackRecord: [{ grade, horizon: '1d', graded: hits + misses + 1, hits, misses, inactive: 0, pending: 1, forwardReturnPctSum: hits - misses }],
      });
    const snaps = [make('0xc', 'watch', 99, 1, 1), make('0xa', 'mirror-worthy', 70, 3, 1), make('0xb', 'mirror-worthy', 80, 2, 0), make('0xd', 'avoid', 10, 3, 1), make('0xe', 'unrated', 50, 1, 0)];
    const l = venueLeaders([...snaps], { limit: 10 });
    expect(l.leaders.map((x) => x.wallet)).toEqual(['0xb', '0xa', '0xc']);
    expect(l.graded).toEqual({ 'mirror-worthy': 2, watch: 1, avoid: 1, unrated: 1 });
    expect(venueLeaders([...snaps], { limit: 1 }).leaders).toHaveLength(1);
    const t = venueTrackRecord([...snaps]);
    const mw = t.rows.find((r) => r.grade === 'mirror-worthy' && r.horizon === '1d');
    expect(mw).toMatchObject({ sample: 8, resolved: 6, hits: 5, misses: 1, pending: 2, hitRatePct: 83.33, accounts: 2 });
    expect(t.rows.find((r) => r.grade === 'watch' && r.horizon === '7d')).toMatchObject({ sample: 0, hitRatePct: null });
    // avoid: 3 hits (did lose) and 1 miss (went on to win) → avoid winners 25%
    expect(t.separation.find((x) => x.horizon === '1d')).toEqual({ horizon: '1d', mirrorWorthyWinPct: 83.33, avoidWinPct: 25, spreadPct: 58.33 });
  });
});
