import { LRUCache } from 'lru-cache';
import { addressFor, createRng, hash32, hashFor } from '../simulator/prng.ts';
import type { PerpFill, PredictionTrade, VenueEvent } from '../../schemas/venues.ts';
import type { VenueSource } from './pump.ts';
import { pause } from '../../infra/pause.ts';

/**
 * A small deterministic simulator of a perps venue and a prediction venue (both named `sim`).
 * Accounts trade one round trip at a time in fixed slots; an account's archetype sets how often it
 * picks the direction the price will actually move over its hold (its edge). Stateless in time:
 * `eventsBetween(a, b)` regenerates the same fills for the same window, so a restart resumes
 * anywhere. Ground truth (which accounts have an edge) is exported for tests and evals.
 */

export type VenueArchetype = 'edge' | 'noise' | 'losing' | 'scalper';

export interface VenueSimAccount {
  account: string;
  archetype: VenueArchetype;
  /** probability of picking the direction that pays over the hold */
  accuracy: number;
  /** hours between trade slots */
  periodH: number;
  offsetH: number;
}

export interface VenueSimTruth {
  seed: number;
  /** unix seconds */
  genesisTime: number;
  perps: { venue: 'sim'; accounts: VenueSimAccount[]; edge: string[]; noEdge: string[] };
  prediction: { venue: 'sim'; accounts: VenueSimAccount[]; edge: string[]; noEdge: string[]; markets: { market: string; yes: string; no: string }[] };
}

export interface VenueSimulator {
  readonly truth: VenueSimTruth;
  /** fills and trades with time in [fromMs, toMs), oldest first */
  eventsBetween(fromMs: number, toMs: number): VenueEvent[];
  /**
   * A source: backfills from `resumeAfterMs` (or genesis) to now in chunks, then emits what falls
   * due every `intervalMs`.
   */
  source(opts: { now?: () => number; resumeAfterMs?: number; intervalMs?: number }): VenueSource;
}

const HOUR_MS = 3_600_000;
const COINS = [
  { coin: 'BTC', p0: 60_000 },
  { coin: 'ETH', p0: 3_000 },
  { coin: 'SOL', p0: 150 },
] as const;
const PERP_HOURLY_SIGMA = 0.012;
const LOGIT_HOURLY_SIGMA = 0.15;
const MARKETS = 6;
const TAKER_FEE = 0.00035;

const ARCHETYPES: { archetype: VenueArchetype; accuracy: number; n: number }[] = [
  { archetype: 'edge', accuracy: 0.8, n: 3 },
  { archetype: 'noise', accuracy: 0.5, n: 4 },
  { archetype: 'losing', accuracy: 0.28, n: 3 },
  // right often, but in and out within a minute: not copyable
  { archetype: 'scalper', accuracy: 0.74, n: 1 },
];

/** a 77-digit decimal string, like a Polymarket outcome token id */
function tokenIdFor(seed: number, label: string): string {
  let s = '';
  for (let i = 0; s.length < 77; i++) s += String(hash32(`${seed}:${label}:${i}`)).padStart(10, '0');
  return (String((hash32(label) % 9) + 1) + s).slice(0, 77);
}

export function createVenueSimulator(opts: { seed: number; genesisTime: number }): VenueSimulator {
  const { seed } = opts;
  const genesisMs = opts.genesisTime * 1000;
  const genesisHour = Math.ceil(genesisMs / HOUR_MS);

  function accounts(venue: 'perps' | 'prediction'): VenueSimAccount[] {
    const out: VenueSimAccount[] = [];
    for (const a of ARCHETYPES) {
      for (let i = 0; i < a.n; i++) {
        const label = `${venue}:${a.archetype}:${i}`;
        const rng = createRng(`${seed}:venuesim:${label}`);
        const periodH = rng.int(2, 3);
        out.push({ account: addressFor(seed, `venuesim:${label}`), archetype: a.archetype, accuracy: a.accuracy, periodH, offsetH: rng.int(0, periodH - 1) });
      }
    }
    return out;
  }
  const perpAccounts = accounts('perps');
  const predAccounts = accounts('prediction');
  const markets = Array.from({ length: MARKETS }, (_, i) => ({
    market: hashFor(seed, `venuesim:market:${i}`),
    yes: tokenIdFor(seed, `venuesim:market:${i}:yes`),
    no: tokenIdFor(seed, `venuesim:market:${i}:no`),
  }));
  const noEdge = (list: VenueSimAccount[]) => list.filter((a) => a.archetype !== 'edge').map((a) => a.account);
  const truth: VenueSimTruth = {
    seed,
    genesisTime: opts.genesisTime,
    perps: { venue: 'sim', accounts: perpAccounts, edge: perpAccounts.filter((a) => a.archetype === 'edge').map((a) => a.account), noEdge: noEdge(perpAccounts) },
    prediction: { venue: 'sim', accounts: predAccounts, edge: predAccounts.filter((a) => a.archetype === 'edge').map((a) => a.account), noEdge: noEdge(predAccounts), markets },
  };

  /** cumulative hourly log-moves per series, from the genesis hour, extended on demand */
  const paths = new Map<string, number[]>();
  function pathAt(series: string, sigma: number, start: number, hourIdx: number): number {
    let p = paths.get(series);
    if (!p) paths.set(series, (p = [start]));
    while (p.length <= hourIdx) {
      const rng = createRng(`${seed}:venuesim:path:${series}:${p.length}`);
      p.push((p[p.length - 1] as number) + sigma * rng.normal());
    }
    return p[hourIdx] as number;
  }
  /** log price (perps) or logit (prediction) at a time, interpolated between hours */
  function level(series: string, sigma: number, start: number, tMs: number): number {
    const h = Math.max(0, (tMs - genesisHour * HOUR_MS) / HOUR_MS);
    const i = Math.floor(h);
    const a = pathAt(series, sigma, start, i);
    const b = pathAt(series, sigma, start, i + 1);
    return a + (b - a) * (h - i);
  }
  const perpPrice = (coin: string, p0: number, t: number) => Math.exp(level(`perp:${coin}`, PERP_HOURLY_SIGMA, Math.log(p0), t));
  const yesPrice = (market: string, t: number) => {
    const start = createRng(`${seed}:venuesim:logit0:${market}`).normal() * 0.8;
    const x = level(`pred:${market}`, LOGIT_HOURLY_SIGMA, start, t);
    return Math.min(0.97, Math.max(0.03, 1 / (1 + Math.exp(-x))));
  };

  interface Planned {
    openMs: number;
    closeMs: number;
    rng: ReturnType<typeof createRng>;
  }
  /** the trade an account opens in an hour slot, if any */
  function plan(a: VenueSimAccount, venue: string, hour: number): Planned | undefined {
    if (hour < genesisHour || (hour - a.offsetH) % a.periodH !== 0) return undefined;
    const rng = createRng(`${seed}:venuesim:${venue}:${a.account}:${hour}`);
    if (!rng.chance(0.9)) return undefined;
    const openMs = hour * HOUR_MS + rng.int(0, 20 * 60) * 1000;
    const holdMs = a.archetype === 'scalper' ? rng.int(15, 50) * 1000 : rng.int(40 * 60, (a.periodH - 1) * 3600 + 15 * 60) * 1000;
    return { openMs, closeMs: openMs + holdMs, rng };
  }

  const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

  function perpTrade(a: VenueSimAccount, hour: number, p: Planned): PerpFill[] {
    const { rng } = p;
    const c = rng.pick(COINS);
    const entry = perpPrice(c.coin, c.p0, p.openMs);
    const exit = perpPrice(c.coin, c.p0, p.closeMs);
    const pays = exit >= entry ? 1 : -1;
    const dir = rng.chance(a.accuracy) ? pays : -pays;
    const size = round(rng.lognormal(8_000, 0.5) / entry, 4);
    const px = (x: number) => round(x, c.coin === 'SOL' ? 3 : 1);
    const [ein, eout] = [px(entry), px(exit)];
    const tid = (leg: number) => String(hash32(`${seed}:tid:${a.account}:${hour}:${leg}`) * 16 + leg);
    const base = { type: 'perp_fill' as const, venue: 'sim', account: a.account, coin: c.coin, size, crossed: true };
    return [
      {
        ...base,
        side: dir > 0 ? 'buy' : 'sell',
        price: ein,
        startPosition: 0,
        dir: dir > 0 ? 'Open Long' : 'Open Short',
        closedPnl: 0,
        fee: round(size * ein * TAKER_FEE, 6),
        time: p.openMs,
        fillId: tid(0),
        hash: hashFor(seed, `venuesim:fill:${a.account}:${hour}:0`),
      },
      {
        ...base,
        side: dir > 0 ? 'sell' : 'buy',
        price: eout,
        startPosition: dir * size,
        dir: dir > 0 ? 'Close Long' : 'Close Short',
        closedPnl: round(dir * size * (eout - ein), 6),
        fee: round(size * eout * TAKER_FEE, 6),
        time: p.closeMs,
        fillId: tid(1),
        hash: hashFor(seed, `venuesim:fill:${a.account}:${hour}:1`),
      },
    ];
  }

  function predictionTrade(a: VenueSimAccount, hour: number, p: Planned): PredictionTrade[] {
    const { rng } = p;
    const m = rng.pick(markets);
    const y0 = yesPrice(m.market, p.openMs);
    const y1 = yesPrice(m.market, p.closeMs);
    const yesPays = y1 >= y0;
    const buyYes = rng.chance(a.accuracy) ? yesPays : !yesPays;
    const entry = round(buyYes ? y0 : 1 - y0, 3);
    const exit = round(buyYes ? y1 : 1 - y1, 3);
    const shares = round(rng.lognormal(300, 0.5) / entry, 2);
    const asset = buyYes ? m.yes : m.no;
    const leg = (i: number, side: 'buy' | 'sell', price: number, time: number): PredictionTrade => {
      const txHash = hashFor(seed, `venuesim:tx:${a.account}:${hour}:${i}`);
      return { type: 'prediction_trade', venue: 'sim', account: a.account, market: m.market, asset, outcome: buyYes ? 'Yes' : 'No', side, size: shares, price, time, txHash, tradeId: `${txHash}:${asset}:${side}:${shares}` };
    };
    return [leg(0, 'buy', entry, p.openMs), leg(1, 'sell', exit, p.closeMs)];
  }

  const maxHoldH = 4;
  /** hours of history a backfilling source asks for at a time */
  const CHUNK_H = 6;
  /**
   * The events of the trades planned in an hour, every account's, derived once: live, the source
   * asks every second for the second that passed, which spans the last `maxHoldH` hours of plans,
   * and deriving them all again each time was a 5-9 ms task every second in the process that
   * serves the reads. The hours asked for move forward, so the hour least recently asked for is
   * dropped first.
   */
  /** the hours one backfill chunk spans with its look-back: the next chunk's hours overlap the newest of them */
  const HOURS_KEPT = maxHoldH + CHUNK_H + 1;
  const hours = new LRUCache<number, VenueEvent[]>({ max: HOURS_KEPT });
  function hourEvents(h: number): VenueEvent[] {
    let events = hours.get(h);
    if (events) return events;
    events = [];
    for (const a of perpAccounts) {
      const p = plan(a, 'perps', h);
      if (p) events.push(...perpTrade(a, h, p));
    }
    for (const a of predAccounts) {
      const p = plan(a, 'prediction', h);
      if (p) events.push(...predictionTrade(a, h, p));
    }
    hours.set(h, events);
    return events;
  }
  function eventsBetween(fromMs: number, toMs: number): VenueEvent[] {
    const out: VenueEvent[] = [];
    const h0 = Math.max(genesisHour, Math.floor(fromMs / HOUR_MS) - maxHoldH);
    const h1 = Math.floor(toMs / HOUR_MS);
    for (let h = h0; h <= h1; h++) for (const e of hourEvents(h)) if (e.time >= fromMs && e.time < toMs) out.push(e);
    return out.sort((x, y) => x.time - y.time || (x.type === 'perp_fill' ? x.fillId : x.tradeId).localeCompare(y.type === 'perp_fill' ? y.fillId : y.tradeId));
  }

  return {
    truth,
    eventsBetween,
    source({ now = Date.now, resumeAfterMs, intervalMs = 1000 }) {
      return {
        venue: 'sim',
        async *run(signal) {
          let cursor = resumeAfterMs !== undefined ? resumeAfterMs + 1 : genesisMs;
          while (!signal.aborted) {
            const end = now();
            // backfill in chunks of CHUNK_H hours, then whatever fell due since the last pass
            while (cursor < end && !signal.aborted) {
              const to = Math.min(end, cursor + CHUNK_H * HOUR_MS);
              const batch = eventsBetween(cursor, to);
              cursor = to;
              if (batch.length > 0) yield batch;
            }
            await pause(intervalMs, signal);
          }
        },
      };
    },
  };
}
