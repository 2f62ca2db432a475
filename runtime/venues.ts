import type { Services } from './services.ts';
import { VenueSimGenesisRow, readRowOrThrow, rowOf } from '../infra/rows.ts';
import { createPerpsSource } from '../ingest/perps/index.ts';
import { createPredictionSource } from '../ingest/prediction/index.ts';
import { createVenueSimulator } from '../ingest/venuesim/index.ts';
import type { VenueSimulator } from '../ingest/venuesim/index.ts';
import { pumpVenueSource, readVenueCursor } from '../ingest/venuesim/pump.ts';
import type { VenueSource } from '../ingest/venuesim/pump.ts';
import { resumeOnFailure } from './resume.ts';

export interface VenueIngest {
  sim?: VenueSimulator;
  /** per venue source: time (ms) of the newest published event and how many were published */
  progress(): Record<string, { time: number; events: number }>;
  running: Promise<void>[];
}

const list = (s: string | undefined): string[] => (s ?? '').split(',').map((x) => x.trim()).filter((x) => x !== '');

/**
 * Starts the venue sources the configuration asks for: the venue simulator (VENUE_SIM_ENABLED and
 * no venue URL configured; genesis fixed on the first start of a data directory, resuming after
 * its cursor), the perps
 * adapter (PERPS_WS_URL + PERPS_USERS) and the prediction adapter (PREDICTION_WS_URL).
 */
export async function startVenueSources(services: Services, opts: { now: () => number; signal: AbortSignal }): Promise<VenueIngest> {
  const { config, log, store, logger } = services;
  const progress: Record<string, { time: number; events: number }> = {};
  const running: Promise<void>[] = [];
  /** per source: the source to run, again after a failure (the venue simulator resumes after its progress) */
  const sources: { name: string; venue: string; source: () => VenueSource }[] = [];
  let sim: VenueSimulator | undefined;

  // like the chain simulator: the built-in venues unless real venues are configured
  if (config.VENUE_SIM_ENABLED && !config.PERPS_WS_URL && !config.PREDICTION_WS_URL) {
    let genesis = await readRowOrThrow(store, VenueSimGenesisRow);
    if (!genesis) {
      genesis = { seed: config.SIM_SEED, genesisTime: Math.floor(opts.now() / 1000 - config.SIM_HISTORY_DAYS * 86400) };
      await store.upsert(VenueSimGenesisRow.table, [rowOf(VenueSimGenesisRow, genesis, 1)]);
    }
    const venueSim = (sim = createVenueSimulator(genesis));
    const resumeAfterMs = await readVenueCursor(store, 'venuesim');
    sources.push({ name: 'venuesim', venue: 'sim', source: () => venueSim.source({ now: opts.now, resumeAfterMs: progress.venuesim?.time ?? resumeAfterMs }) });
  }
  const users = list(config.PERPS_USERS);
  if (config.PERPS_WS_URL && users.length > 0) {
    const l = logger.child({ role: 'ingest', source: 'perps' });
    // a socket source reconnects on every run and drops the fills it has seen
    const perps = createPerpsSource({ url: config.PERPS_WS_URL, users, onEvent: (e) => l.info({ event: e.kind, detail: e.detail ?? null, count: e.count ?? null }, 'perps feed') });
    sources.push({ name: 'perps', venue: perps.venue, source: () => perps });
  } else if (config.PERPS_WS_URL) {
    logger.warn({ role: 'ingest', source: 'perps' }, 'PERPS_WS_URL is set but PERPS_USERS is empty: the perps adapter follows no account');
  }
  if (config.PREDICTION_WS_URL) {
    const l = logger.child({ role: 'ingest', source: 'prediction' });
    const prediction = createPredictionSource({ url: config.PREDICTION_WS_URL, wallets: list(config.PREDICTION_WALLETS), onEvent: (e) => l.info({ event: e.kind, detail: e.detail ?? null }, 'prediction feed') });
    sources.push({ name: 'prediction', venue: prediction.venue, source: () => prediction });
  }
  for (const { name, venue, source } of sources) {
    const l = logger.child({ role: 'ingest', source: name, venue });
    l.info('venue source starting');
    // after a failure (the log or the store unreachable) the source runs again
    running.push(
      resumeOnFailure(() => pumpVenueSource({ log, store, onProgress: (p) => (progress[name] = p) }, source(), name, opts.signal), {
        signal: opts.signal,
        onFailure: (err, retryInMs) => l.warn({ err, retry_in_ms: retryInMs }, 'venue ingest failed; running it again'),
      }),
    );
  }
  return { sim, progress: () => ({ ...progress }), running };
}
