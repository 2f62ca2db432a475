import { describe, expect, it } from 'vitest';
import { deriveVenueAccount, foldPerpFill, foldPredictionTrade, initialVenueAccountState } from '../../engine/venue/index.ts';
import type { VenueAccountState } from '../../engine/venue/index.ts';
import { PerpFill, PredictionTrade, VenueEvent } from '../../schemas/venues.ts';
import { createVenueSimulator } from './index.ts';

const GENESIS = 1_700_000_000;
const DAY = 86_400_000;

function foldAll(events: VenueEvent[]): Map<string, VenueAccountState> {
  const states = new Map<string, VenueAccountState>();
  for (const e of events) {
    const key = `${e.type}:${e.account}`;
    const s = states.get(key) ?? initialVenueAccountState(e.type === 'perp_fill' ? 'perp' : 'prediction', e.venue, e.account);
    states.set(key, e.type === 'perp_fill' ? foldPerpFill(s, e) : foldPredictionTrade(s, e));
  }
  return states;
}

describe('venue simulator', () => {
  const sim = createVenueSimulator({ seed: 7, genesisTime: GENESIS });

  it('emits schema-valid perps fills and prediction trades, oldest first, the same for the same window', () => {
    const a = sim.eventsBetween(GENESIS * 1000, GENESIS * 1000 + DAY);
    const b = createVenueSimulator({ seed: 7, genesisTime: GENESIS }).eventsBetween(GENESIS * 1000, GENESIS * 1000 + DAY);
    expect(a).toEqual(b);
    expect(a.length).toBeGreaterThan(50);
    for (const e of a) expect(VenueEvent.safeParse(e).success).toBe(true);
    expect(a.some((e) => PerpFill.safeParse(e).success)).toBe(true);
    expect(a.some((e) => PredictionTrade.safeParse(e).success)).toBe(true);
    for (let i = 1; i < a.length; i++) expect((a[i] as VenueEvent).time).toBeGreaterThanOrEqual((a[i - 1] as VenueEvent).time);
  });

  it('splitting a window into pieces yields exactly the events of the whole window', () => {
    const from = GENESIS * 1000 + 3 * 3_600_000;
    const whole = sim.eventsBetween(from, from + DAY);
    const parts = [...sim.eventsBetween(from, from + 7_777_777), ...sim.eventsBetween(from + 7_777_777, from + DAY)];
    expect(parts.map((e) => e.time)).toEqual(whole.map((e) => e.time));
    expect(new Set(parts.map((e) => (e.type === 'perp_fill' ? e.fillId : e.tradeId))).size).toBe(parts.length);
  });

  it('accounts with a real edge grade mirror-worthy after four days; losers do not; the scalper is not mirror-worthy', () => {
    const states = foldAll(sim.eventsBetween(GENESIS * 1000, GENESIS * 1000 + 4 * DAY));
    for (const [kind, truth] of [['perp_fill', sim.truth.perps], ['prediction_trade', sim.truth.prediction]] as const) {
      const grade = (acc: string) => deriveVenueAccount(states.get(`${kind}:${acc}`) as VenueAccountState).grade;
      for (const acc of truth.edge) expect(grade(acc), `${kind} edge ${acc}`).toBe('mirror-worthy');
      const losing = truth.accounts.filter((x) => x.archetype === 'losing').map((a) => grade(a.account));
      // picking the wrong side most of the time: never mirror-worthy, mostly avoid (a few long-shot wins can hold one at watch)
      expect(losing).not.toContain('mirror-worthy');
      expect(losing.filter((g) => g === 'avoid').length, `${kind} losing ${losing.join(',')}`).toBeGreaterThanOrEqual(losing.length - 1);
      for (const a of truth.accounts.filter((x) => x.archetype === 'scalper')) expect(grade(a.account)).not.toBe('mirror-worthy');
    }
  });
});
