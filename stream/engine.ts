import type { Log } from '../infra/log/types.ts';
import type { Store } from '../infra/store/types.ts';
import { TokenEventsTopic, TradesByWalletTopic, VenueFillsTopic, ensureTopic } from '../infra/topics.ts';
import type { PerpFill, PredictionTrade } from '../schemas/venues.ts';
import { foldPerpFill, foldPredictionTrade } from '../engine/venue/index.ts';
import type { Writer } from '../engine/writer/index.ts';
import { derivationCodeId } from './derive-id.ts';
import { followEngineTables } from './joins.ts';
import { createRephraser } from './rephrase.ts';
import type { FoldWorker, WorkerOptions } from './spec.ts';
import { startFoldWorker } from './worker.ts';
import type { FoldContext, FoldHooks } from './folds/common.ts';
import { tokenFoldSpec } from './folds/token.ts';
import { venueFoldSpec } from './folds/venue.ts';
import { walletFoldSpec } from './folds/wallet.ts';

export interface EngineWorkers {
  token: FoldWorker;
  wallet: FoldWorker;
  /** venue accounts (key venue:account): perps fills and prediction-market trades */
  perp: FoldWorker;
  prediction: FoldWorker;
}

export interface EngineOptions {
  hooks: FoldHooks;
  worker: WorkerOptions;
  /** a model writer that rephrases the token texts (stream/rephrase.ts) */
  writer?: Writer;
}

/**
 * The engine's join topology: the joined tables are followed and read to their end, then the
 * token worker (key chain:token) folds token events and re-keys swaps by trader, the wallet
 * worker (key chain:wallet) folds them, and two venue workers fold the venue accounts. Each
 * worker is handed to the tables it reads once started. `stop` stops the workers, then the tables.
 */
export async function startEngineWorkers(deps: { log: Log; store: Store }, opts: EngineOptions): Promise<{ workers: EngineWorkers; stop(): Promise<void> }> {
  const { log } = deps;
  await ensureTopic(log, TradesByWalletTopic);
  await ensureTopic(log, TokenEventsTopic);
  const joins = await followEngineTables(log);
  const ctx: FoldContext = { deriveId: derivationCodeId(), hooks: opts.hooks };
  const rephrase = opts.writer ? createRephraser(opts.writer) : undefined;

  const token = await startFoldWorker(deps, tokenFoldSpec(joins, ctx, rephrase), opts.worker);
  await joins.tokenReaders.start(token);
  const wallet = await startFoldWorker(deps, walletFoldSpec(joins, ctx), opts.worker);
  await joins.walletReaders.start(wallet);

  await ensureTopic(log, VenueFillsTopic);
  const perp = await startFoldWorker(deps, venueFoldSpec<PerpFill>(ctx, 'perp', 'perp_fill', foldPerpFill), opts.worker);
  const prediction = await startFoldWorker(deps, venueFoldSpec<PredictionTrade>(ctx, 'prediction', 'prediction_trade', foldPredictionTrade), opts.worker);

  const workers = { token, wallet, perp, prediction };
  const { grades, candles, facts, funding } = joins.consumers;
  return {
    workers,
    async stop() {
      for (const w of [token, wallet, perp, prediction]) await w.stop();
      for (const c of [grades, candles, facts, funding]) await c.stop();
    },
  };
}
