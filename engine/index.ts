import { randomUUID } from 'node:crypto';
import type { Services } from '../infra/runtime.ts';
import type { Swap, TokenEvent, Transfer } from '../schemas/events.ts';
import type { TokenSnapshot } from '../schemas/token.ts';
import { Topics, tokenKey } from '../schemas/events.ts';
import { deriveTokenSnapshot } from './token/derive.ts';
import type { TokenState } from './token/state.ts';
import { foldFunding, foldTokenEvent, initialFundingState, initialTokenState, insidersOf } from './token/state.ts';
import type { FundingState } from './token/state.ts';
import { deriveWalletSnapshot } from './wallet/derive.ts';
import type { PriceMark, WalletState } from './wallet/state.ts';
import { foldPoolCreated, foldPriceMarkInPlace, foldWalletSwapInPlace, initialWalletState } from './wallet/state.ts';
import { startFoldWorker } from './worker.ts';
import type { FoldWorker } from './worker.ts';
import { EDGE_HORIZON_S } from './wallet/state.ts';
import type { PerpFill, PredictionTrade, VenueEvent } from '../schemas/venues.ts';
import { VenueTopics } from '../schemas/venues.ts';
import type { VenueAccountState } from './venue/index.ts';
import { deriveVenueAccount, foldPerpFill, foldPredictionTrade, initialVenueAccountState } from './venue/index.ts';

/** Topic of chain-wide facts every engine process needs in full: first funding of wallets. */
export const FACTS_TOPIC = 'facts';

/** What travels on trades.by-wallet: a swap re-keyed by trader (with its pool's creation block), or a price mark. */
export type WalletMessage =
  | { kind: 'swap'; swap: Swap; poolBlock: number | null }
  | { kind: 'mark'; wallet: string; chain: string; mark: PriceMark };

/** Process-wide facts folded from the facts topic (funding per chain). */
export interface ChainFacts {
  funding: Record<string, FundingState>;
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf(':');
  return [key.slice(0, i), key.slice(i + 1)];
}

export interface EngineHandle {
  token: FoldWorker;
  wallet: FoldWorker;
  /** venue accounts (key venue:account): perps fills and prediction-market trades */
  perp: FoldWorker;
  prediction: FoldWorker;
  facts: ChainFacts;
}

/**
 * The engine role: the token worker (key chain:token) folds token events and re-keys swaps by
 * trader, with hourly price marks for the wallets that traded in the last hours; the wallet
 * worker (key chain:wallet) folds them. Both flush snapshots before their offsets are committed.
 */
export async function startEngine(services: Services): Promise<EngineHandle> {
  const { log, store, logger } = services;
  const facts: ChainFacts = { funding: {} };
  await log.ensureTopic(FACTS_TOPIC);
  await log.ensureTopic(Topics.tradesByWallet);
  await log.ensureTopic(Topics.tokenEvents);
  const factsConsumer = await log.consume({
    groupId: `ephemeral-facts-${randomUUID()}`,
    topics: [FACTS_TOPIC],
    startOffset: () => 0,
    eachBatch: async (b) => {
      for (const r of b.records) {
        const t = JSON.parse(r.value) as Transfer;
        foldFunding((facts.funding[t.chain] ??= initialFundingState()), t);
      }
    },
  });
  /** last hour a price mark was fanned out per token (marks resolve wallets' forward returns) */
  const lastMarkHour = new Map<string, number>();

  const token = await startFoldWorker<TokenState, TokenEvent>(
    { log, store },
    {
      groupId: 'engine-token',
      kind: 'token',
      topics: [Topics.tokenEvents],
      init: (key) => initialTokenState(...splitKey(key)),
      decode: (v) => JSON.parse(v) as TokenEvent,
      fold: foldTokenEvent,
      // an address with no pool (a quote asset such as WETH) is not a token we rate
      derive: (s) =>
        s.meta.pool === null
          ? undefined
          : deriveTokenSnapshot(s, { insiders: insidersOf(facts.funding[s.chain] ?? initialFundingState(), s.meta.deployer) }),
      version: (s) => Math.max(0, s.lastPosition),
      historyBucket: (s) => Math.floor(s.lastTs / 300),
      // the past needs verdicts, flags and reference prices, not the bar series
      historyBody: (b) => {
        const snap = b as TokenSnapshot;
        return { ...snap, basis: { ...snap.basis, hourly: [], fiveMinute: [], recentBuyers: [] } };
      },
      fanOut: (e, key, s) => {
        const out: { topic: string; record: { key: string; value: string } }[] = [];
        if (e.type === 'transfer' && s.meta.pool === null && !e.removed) {
          out.push({ topic: FACTS_TOPIC, record: { key: tokenKey(e.chain, e.to), value: JSON.stringify(e) } });
        }
        if (e.type === 'swap') {
          const msg: WalletMessage = { kind: 'swap', swap: e, poolBlock: s.meta.createdBlock };
          out.push({ topic: Topics.tradesByWallet, record: { key: tokenKey(e.chain, e.trader), value: JSON.stringify(msg) } });
          const hour = Math.floor(e.timestamp / 3600);
          if (!e.removed && (lastMarkHour.get(key) ?? -1) < hour) {
            lastMarkHour.set(key, hour);
            const since = e.timestamp - EDGE_HORIZON_S - 3600;
            for (const [wallet, t] of Object.entries(s.traders)) {
              if (wallet === e.trader || t.lastMinute * 60 < since) continue;
              const mark: WalletMessage = { kind: 'mark', wallet, chain: e.chain, mark: { token: e.token, timestamp: e.timestamp, priceUsd: e.priceUsd } };
              out.push({ topic: Topics.tradesByWallet, record: { key: tokenKey(e.chain, wallet), value: JSON.stringify(mark) } });
            }
          }
        }
        return out;
      },
    },
  );

  const wallet = await startFoldWorker<WalletState, WalletMessage>(
    { log, store },
    {
      groupId: 'engine-wallet',
      kind: 'wallet',
      topics: [Topics.tradesByWallet],
      init: (key) => initialWalletState(...splitKey(key)),
      decode: (v) => JSON.parse(v) as WalletMessage,
      fold: (s, m) => {
        if (m.kind === 'mark') return foldPriceMarkInPlace(s, m.mark);
        const withPool = m.poolBlock === null ? s : foldPoolCreated(s, { token: m.swap.token, block: m.poolBlock });
        return foldWalletSwapInPlace(withPool, m.swap);
      },
      derive: (s) => deriveWalletSnapshot(s, { funder: facts.funding[s.chain]?.funderOf[s.wallet] ?? null }),
      version: (s) => s.version,
      historyBucket: (s) => Math.floor(s.asOfTs / 3600),
    },
  );

  // Venue accounts: two workers over the one venue topic, each folding its own event type, so
  // their snapshots are kinds of their own (`perp:venue:account`, `prediction:venue:account`).
  await log.ensureTopic(VenueTopics.fills);
  const venueWorker = <E extends VenueEvent>(kind: 'perp' | 'prediction', type: E['type'], fold: (s: VenueAccountState, e: E) => VenueAccountState) =>
    startFoldWorker<VenueAccountState, E>(
      { log, store },
      {
        groupId: `engine-venue-${kind}`,
        kind,
        topics: [VenueTopics.fills],
        init: (key) => initialVenueAccountState(kind, ...splitKey(key)),
        decode: (v) => {
          const e = JSON.parse(v) as VenueEvent;
          return e.type === type ? (e as E) : undefined;
        },
        fold,
        derive: deriveVenueAccount,
        version: (s) => Math.max(0, s.lastTime),
        historyBucket: (s) => Math.floor(s.lastTime / 3_600_000),
      },
    );
  const perp = await venueWorker<PerpFill>('perp', 'perp_fill', foldPerpFill);
  const prediction = await venueWorker<PredictionTrade>('prediction', 'prediction_trade', foldPredictionTrade);

  services.metrics.gauge('intel_engine_lag_records', 'records not yet folded, per worker', async () => {
    const sum = (l: { lag: number }[]) => l.reduce((a, x) => a + x.lag, 0);
    return [
      { labels: { worker: 'token' }, value: sum(await token.lag()) },
      { labels: { worker: 'wallet' }, value: sum(await wallet.lag()) },
      { labels: { worker: 'perp' }, value: sum(await perp.lag()) },
      { labels: { worker: 'prediction' }, value: sum(await prediction.lag()) },
    ];
  });
  const lagTimer = setInterval(() => {
    void Promise.all([token.lag(), wallet.lag()]).then(([t, w]) => {
      const sum = (l: { lag: number }[]) => l.reduce((a, x) => a + x.lag, 0);
      logger.debug({ token_lag: sum(t), wallet_lag: sum(w) }, 'engine lag');
    }, (err: unknown) => logger.warn({ err }, 'engine lag unavailable'));
  }, 10_000);
  lagTimer.unref();
  services.onShutdown(async () => {
    clearInterval(lagTimer);
    await token.stop();
    await wallet.stop();
    await perp.stop();
    await prediction.stop();
    await factsConsumer.stop();
  });
  return { token, wallet, perp, prediction, facts };
}
