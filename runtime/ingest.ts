import type { Services } from './services.ts';
import { SimGenesisRow, readRowOrThrow, rowOf } from '../infra/rows.ts';
import { Tables } from '../infra/store/types.ts';
import { publishEvents, pumpSource, readCursor } from '../ingest/publisher.ts';
import { createCandlePoller } from '../ingest/candles/poller.ts';
import { createSimulator } from '../ingest/simulator/index.ts';
import type { Simulator } from '../ingest/simulator/index.ts';
import { decodeWorldState, encodeWorldState } from '../ingest/simulator/world.ts';
import type { WorldState } from '../ingest/simulator/world.ts';
import { configuredEvmChains, evmChainConfig, hasStartBlock } from '../ingest/evm/chains.ts';
import { startEvmChain } from '../ingest/evm/runner.ts';
import type { ChainLag, EvmChainRunner } from '../ingest/evm/runner.ts';

import { resumeOnFailure } from './resume.ts';
import { startVenueSources } from './venues.ts';
import type { VenueIngest } from './venues.ts';

export type { ChainLag } from '../ingest/evm/runner.ts';

/** the simulator's world at the cursor it stopped at (ingest/simulator/world.ts WorldState) */
const SIM_WORLD = 'sim-world';

export interface IngestHandle {
  sim?: Simulator;
  /** resolves when every source has published its backfilled history (live from then on) */
  caughtUp: Promise<void>;
  /** cursor of each running source: last published block and its time */
  cursors(): Record<string, { block: number; timestamp: number; events: number }>;
  /** ingestion lag of each EVM chain (blocks and seconds behind its head), by chain slug */
  lag(): Record<string, ChainLag>;
  /** the running EVM chains, by slug */
  evm: Record<string, EvmChainRunner>;
  /** venue sources (venue simulator, perps and prediction adapters) */
  venues?: VenueIngest;
}

/**
 * The ingest role. The built-in simulator (chain `sim`) runs unless disabled: its genesis is fixed
 * on the first start of a data directory, so later starts regenerate the same history and resume
 * after the last published block. Every EVM chain with an RPC_URL_<CHAIN> runs too: it resumes
 * after its persisted cursor, backfills the gap from its start block when far behind, then follows
 * the head live (confirmations, reorgs); its lag is on the handle, in /metrics and logged.
 */
export async function startIngest(services: Services, opts: { now?: () => number } = {}): Promise<IngestHandle> {
  const { config, log, store, logger } = services;
  const now = opts.now ?? Date.now;
  const abort = new AbortController();
  const running: Promise<void>[] = [];
  const progress: Record<string, { block: number; timestamp: number; events: number }> = {};
  let sim: Simulator | undefined;
  const catchUps: Promise<void>[] = [];
  /** saved when the ingest stops (below) */
  let saveWorld: (() => Promise<void>) | undefined;

  if (config.SIM_ENABLED) {
    let genesis = await readRowOrThrow(store, SimGenesisRow);
    if (!genesis) {
      genesis = {
        seed: config.SIM_SEED,
        genesisTime: Math.floor(now() / 1000 - config.SIM_HISTORY_DAYS * 86400),
        // stories play out over the backfilled history and some days after, live
        spanDays: config.SIM_HISTORY_DAYS + config.SIM_FUTURE_DAYS,
      };
      await store.upsert(SimGenesisRow.table, [rowOf(SimGenesisRow, genesis, 1)]);
    }
    const simulator = createSimulator({ seed: genesis.seed, genesisTime: genesis.genesisTime, spanDays: genesis.spanDays });
    sim = simulator;
    const cursor = await readCursor(store, sim.chain, 'simulator');
    // the lag is known from the stored cursor before anything new is published (a restart with
    // nothing left to publish still reports how far behind it is)
    const key = `${sim.chain}:simulator`;
    if (cursor) progress[key] = { block: cursor.block, timestamp: cursor.timestamp, events: 0 };
    const startTime = Math.floor(now() / 1000);
    const log_ = logger.child({ role: 'ingest', chain: sim.chain, source: 'simulator' });
    // the world as it was at the cursor the last stop left: a restart restores it instead of
    // regenerating every block since genesis (unreadable or of another plan: regenerated)
    let resumeFrom: WorldState | undefined;
    const savedWorld = cursor ? await store.get(Tables.meta, SIM_WORLD) : undefined;
    if (savedWorld) {
      try {
        resumeFrom = decodeWorldState(savedWorld.body);
      } catch (err) {
        log_.warn({ err }, 'saved simulator world unreadable; regenerating it from genesis');
      }
    }
    log_.info({ genesis: new Date(genesis.genesisTime * 1000).toISOString(), resume_after_block: cursor?.block ?? null, saved_world_block: resumeFrom?.block ?? null }, 'simulator starting');
    // the world at the last two `finalized` (the newer one's cursor may not be written yet)
    const states: WorldState[] = [];
    saveWorld = async () => {
      const at = progress[key]?.block;
      const state = states.find((st) => st.block === at);
      if (state) await store.upsert(Tables.meta, [{ key: SIM_WORLD, version: state.block, body: encodeWorldState(state) }]);
    };
    let resolveCaughtUp!: () => void;
    catchUps.push(new Promise<void>((r) => (resolveCaughtUp = r)));
    if (cursor && cursor.timestamp >= startTime) resolveCaughtUp();
    // after a failure (the log or the store unreachable) the source resumes after the last cursor written
    const pump = () => {
      const before = progress[key]?.events ?? 0;
      return pumpSource(
        {
          log,
          store,
          onProgress: (c) => {
            progress[key] = { ...c, events: before + c.events };
            if (c.timestamp >= startTime - 120) resolveCaughtUp();
            log_.debug({ block: c.block, events: c.events }, 'ingest progress');
          },
        },
        simulator.source({
          speed: config.SIM_SPEED,
          resumeAfterBlock: progress[key]?.block,
          // after a failure, the newest state at or before the cursor
          resumeFrom: [...states].reverse().find((st) => st.block <= (progress[key]?.block ?? 0)) ?? resumeFrom,
          onFinalizedState: (st) => {
            states.push(st);
            if (states.length > 2) states.shift();
          },
          now,
          startTime,
        }),
        'simulator',
        abort.signal,
      );
    };
    running.push(
      resumeOnFailure(pump, {
        signal: abort.signal,
        onFailure: (err, retryInMs) => log_.warn({ err, retry_in_ms: retryInMs, resume_after_block: progress[key]?.block ?? null }, 'simulator ingest failed; resuming after its cursor'),
      }),
    );
  }

  // EVM chains: every chain with an RPC_URL_<CHAIN>
  const evm: Record<string, EvmChainRunner> = {};
  for (const slug of configuredEvmChains(config)) {
    const chain = evmChainConfig(config, slug);
    const runner = startEvmChain({ log, store, logger }, chain, { fromStartBlock: hasStartBlock(config, slug) }, abort.signal);
    evm[slug] = runner;
    catchUps.push(runner.caughtUp);
    running.push(runner.done);
  }
  // the candle source: hourly candles of the tokens the EVM chains follow
  if (config.CANDLES_URL && Object.keys(evm).length > 0) {
    const log_ = logger.child({ role: 'ingest', source: 'candles' });
    const poller = createCandlePoller({
      baseUrl: config.CANDLES_URL,
      targets: () => Object.values(evm).flatMap((r) => r.tracked().map((t) => ({ chain: r.chain.slug, ...t }))),
      publish: (candles) => publishEvents(log, candles),
      intervalSec: config.CANDLES_POLL_SEC,
      requestsPerMinute: config.CANDLES_RPM,
      onError: (t, err) => log_.warn({ chain: t.chain, token: t.token, err: String((err as Error).message ?? err) }, 'candle source failed for a token'),
    });
    services.metrics.gauge('intel_candles_published', 'candles published from the candle source since start', [], () => [{ labels: {}, value: poller.published() }]);
    running.push(poller.run(abort.signal).catch((err: unknown) => log_.error({ err }, 'candle source stopped')));
  }
  // venues: the venue simulator (VENUE_SIM_ENABLED) and the perps / prediction adapters when configured
  const venues = await startVenueSources(services, { now, signal: abort.signal });
  running.push(...venues.running);
  const lag = (): Record<string, ChainLag> => Object.fromEntries(Object.entries(evm).map(([slug, r]) => [slug, r.lag()]));
  const evmProgress = () => {
    for (const [slug, r] of Object.entries(evm)) {
      const c = r.cursor();
      if (c) progress[`${slug}:evm`] = { block: c.block, timestamp: c.timestamp, events: c.events };
    }
  };
  let lagTimer: NodeJS.Timeout | undefined;
  if (Object.keys(evm).length > 0) {
    lagTimer = setInterval(() => {
      for (const l of Object.values(lag())) {
        logger.info({ role: 'ingest', chain: l.chain, phase: l.phase, head: l.head, published: l.published, lag_blocks: l.blocks, lag_seconds: l.seconds }, 'ingest lag');
      }
    }, config.INGEST_LAG_LOG_SECONDS * 1000);
    lagTimer.unref();
  }
  services.metrics.gauge('intel_ingest_lag_blocks', 'blocks between the chain head and the last published block, per EVM chain', ['chain'], () =>
    Object.values(lag()).map((l) => ({ labels: { chain: l.chain }, value: l.blocks })),
  );
  services.metrics.gauge('intel_ingest_refused_block', 'the block whose logs the RPC refuses even alone (the chain is stuck before it), per EVM chain; absent when none', ['chain'], () =>
    Object.values(lag()).flatMap((l) => (l.refusedBlock !== undefined ? [{ labels: { chain: l.chain }, value: l.refusedBlock }] : [])),
  );
  services.metrics.gauge('intel_ingest_head_lag_seconds', 'seconds between the chain head and the last published block, per EVM chain', ['chain'], () =>
    Object.values(lag()).map((l) => ({ labels: { chain: l.chain }, value: l.seconds })),
  );

  services.metrics.gauge('intel_ingest_cursor_block', 'last block published per source', ['source'], () => {
    evmProgress();
    return Object.entries(progress).map(([k, c]) => ({ labels: { source: k }, value: c.block }));
  });
  services.metrics.gauge('intel_ingest_lag_seconds', 'seconds between now and the time of the last published block', ['source'], () =>
    Object.entries(progress).map(([k, c]) => ({ labels: { source: k }, value: Math.max(0, Math.round(now() / 1000 - c.timestamp)) })),
  );
  services.onShutdown(async () => {
    if (lagTimer) clearInterval(lagTimer);
    abort.abort();
    await Promise.all(running);
    await saveWorld?.().catch((err: unknown) => logger.warn({ err }, 'simulator world not saved; the next start regenerates it'));
  });
  return {
    sim,
    caughtUp: Promise.all(catchUps).then(() => undefined),
    cursors: () => {
      evmProgress();
      return { ...progress };
    },
    lag,
    evm,
    venues,
  };
}
