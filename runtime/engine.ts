import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Services } from './services.ts';
import type { Log } from '../infra/log/types.ts';
import type { TokenEvent } from '../schemas/events.ts';
import type { TokenSnapshot } from '../schemas/token.ts';
import type { WalletSnapshot } from '../schemas/wallet.ts';
import { Topics, tokenKey } from '../schemas/events.ts';
import { deriveTokenSnapshot, signalContext } from '../engine/token/derive.ts';
import { changeFacts, tokenTextRequests } from '../engine/token/texts.ts';
import type { Writer, WriterRequest } from '../engine/writer/index.ts';
import { createWriterFromConfig } from '../engine/writer/index.ts';
import { priceActionKey } from '../schemas/token.ts';
import { digestOf, rememberWritten } from '../engine/token/changes.ts';
import { createCandleTable, createChangeClock, createFundingTable, createGradeTable, createJoinIndex, createTokenFactsTable } from '../engine/tables.ts';
import type { ChangeClock } from '../engine/tables.ts';
import type { TopicDef } from '../infra/topics.ts';
import {
  CandlesTopic,
  FundingTopic,
  TokenEventsTopic,
  TokenFactsTopic,
  TradesByWalletTopic,
  VenueFillsTopic,
  WalletGradesTopic,
  ensureTopic,
  recordOf,
} from '../infra/topics.ts';
import type { WalletMessage } from '../schemas/topics.ts';
import { FUNDING_HOPS } from '../schemas/topics.ts';
import type { Verdict } from '../schemas/common.ts';
import type { TokenState } from '../engine/token/state.ts';
import { foldTokenEvent, initialTokenState } from '../engine/token/state.ts';
import { firstFundingOf, foldWalletMessage, walletMessagesOf } from '../engine/rekey.ts';
import { deriveWalletSnapshot } from '../engine/wallet/derive.ts';
import type { WalletState } from '../engine/wallet/state.ts';
import { initialWalletState } from '../engine/wallet/state.ts';
import { startFoldWorker } from '../stream/worker.ts';
import { createHeapSettler, fullCollection } from '../infra/heap.ts';
import type { FoldWorker } from '../stream/worker.ts';
import type { PerpFill, PredictionTrade, VenueEvent } from '../schemas/venues.ts';
import { VenueTopics } from '../schemas/venues.ts';
import type { VenueAccountState } from '../engine/venue/index.ts';
import { deriveVenueAccount, foldPerpFill, foldPredictionTrade, initialVenueAccountState } from '../engine/venue/index.ts';

/**
 * folding this many records between two looks (2 s) is a catch-up, which ends with a full
 * collection (infra/heap.ts); live, a chain brings a few hundred records a block
 */
const CATCH_UP_RECORDS = 20_000;

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
}

/**
 * The engine role: the token worker (key chain:token) folds token events and re-keys swaps by
 * trader, with hourly price marks for the wallets that traded in the last hours; the wallet
 * worker (key chain:wallet) folds them. Both flush snapshots before their offsets are committed.
 */
export async function startEngine(services: Services): Promise<EngineHandle> {
  const { log, store, logger } = services;
  await ensureTopic(log, TradesByWalletTopic);
  await ensureTopic(log, TokenEventsTopic);
  // the tables the derivations join with (engine/tables.ts): each folded from its compacted topic
  // by every engine process; a changed row re-derives the keys that read it. Wallet grades feed
  // the tokens' smartMoney pillar, token facts the wallets' open books.
  const grades = createGradeTable();
  const tokenFacts = createTokenFactsTable();
  const funding = createFundingTable();
  const candles = createCandleTable();
  /** token key → the wallets of its recent buyers and its deployer; wallet key → the tokens of its open book */
  const buyersRead = createJoinIndex();
  const deployerRead = createJoinIndex();
  const holdingsRead = createJoinIndex();
  const tokenWorker = createReaderSlot();
  const walletWorker = createReaderSlot();
  /** when each row read changed (rows named `table|key`), for the checkpoints (FoldSpec.reads) */
  const clock = createChangeClock();
  const gradesConsumer = await followTable(log, clock, WalletGradesTopic, (g, changed) => {
    if (!grades.apply(g)) return [];
    changed(`grades|${tokenKey(g.chain, g.wallet)}`);
    return [[tokenWorker, buyersRead.readersOf(tokenKey(g.chain, g.wallet))]];
  });
  const factsTableConsumer = await followTable(log, clock, TokenFactsTopic, (f, changed) => {
    if (!tokenFacts.apply(f)) return [];
    changed(`facts|${tokenKey(f.chain, f.token)}`);
    return [[walletWorker, holdingsRead.readersOf(tokenKey(f.chain, f.token))]];
  });
  // a provider's candle of a token re-derives the token (price action reads it for hours without a swap)
  const candlesConsumer = await followTable(log, clock, CandlesTopic, (c, changed) => {
    if (!candles.apply(c)) return [];
    changed(`candles|${tokenKey(c.chain, c.token)}`);
    return [[tokenWorker, [tokenKey(c.chain, c.token)]]];
  });
  // a wallet's first funding changes the funded trees of its funders and of theirs up the chain
  // (the insiders of the tokens they deployed), and the funding chains of the wallet and of those below it
  const fundingConsumer = await followTable(log, clock, FundingTopic, (f, changed) => {
    const funders = funding.apply(f);
    if (funders.length === 0) return [];
    const roots = [...new Set(funders.flatMap((x) => [x, ...funding.fundingChain(f.chain, x, FUNDING_HOPS - 1)]))];
    for (const root of roots) changed(`funded|${tokenKey(f.chain, root)}`);
    const below = [f.wallet, ...funding.fundedWithin(f.chain, f.wallet, FUNDING_HOPS - 1)].map((w) => tokenKey(f.chain, w));
    for (const w of below) changed(`funder|${w}`);
    return [
      [tokenWorker, roots.flatMap((root) => [...deployerRead.readersOf(tokenKey(f.chain, root))])],
      [walletWorker, below],
    ];
  });
  // the workers derive with complete tables: wait until each is read to its end once
  await Promise.all([gradesConsumer, factsTableConsumer, fundingConsumer, candlesConsumer].map((c) => caughtUp(c)));
  // from now on a change is handed to the workers: before, none had derived anything, and a key a
  // checkpoint restores is checked against every change since that checkpoint's watermark
  tokenWorker.arm();
  walletWorker.arm();
  const deriveId = derivationCodeId();
  /** the rows a token's derivation reads: its recent buyers' grades, its deployer's funded wallets (the same in `derive`) */
  const tokenReads = (s: TokenState) => ({
    buyers: s.recentBuyers.map((b) => `${s.chain}:${b.wallet}`),
    deployer: s.meta.deployer ? [`${s.chain}:${s.meta.deployer}`] : [],
  });
  const workerOptions = { checkpointMs: services.config.CHECKPOINT_INTERVAL_MS, checkpointMaxMs: services.config.CHECKPOINT_MAX_INTERVAL_MS };
  const onGap = (info: { topic: string; partition: number; expected: number; first: number }) =>
    logger.error(info, 'records between the checkpoint and the log start are gone: the state misses them');
  const onError = (err: unknown) => logger.warn({ err }, 'engine worker step failed; retrying');
  const onRestore = (info: { group: string; topic: string; partition: number; offset: number; keys: number; stale: number }) => logger.info(info, 'restored checkpoint');
  /** records the workers folded since the heap settler last looked (see settleTimer) */
  let foldedRecords = 0;
  const onFlush = (info: { records: number }) => {
    foldedRecords += info.records;
  };
  /** the facts last published per token (a replay publishes them again, harmlessly) */
  const factsPublished = publishedPerKey<string>();
  const factsRecord = (body: unknown) => {
    const snap = body as TokenSnapshot;
    return recordOf(TokenFactsTopic, { chain: snap.chain, token: snap.token, ...snap.facts });
  };
  const rephrase = services.config.WRITER_URL ? createRephraser(createWriterFromConfig(services.config)) : undefined;

  const token = await startFoldWorker<TokenState, TokenEvent>(
    { log, store },
    {
      groupId: 'engine-token',
      kind: 'token',
      topics: [Topics.tokenEvents],
      init: (key) => initialTokenState(...splitKey(key)),
      decode: (v) => TokenEventsTopic.codec.decode(v),
      fold: foldTokenEvent,
      // an address with no pool (a quote asset such as WETH) is not a token we rate
      derive: (s, key) => {
        if (s.meta.pool === null) return undefined;
        const reads = tokenReads(s);
        deployerRead.set(key, reads.deployer);
        const snap = deriveTokenSnapshot(s, {
          insiders: funding.fundedWithin(s.chain, s.meta.deployer),
          gradeOf: (wallet) => grades.gradeOf(s.chain, wallet),
          written: s.written,
          candles: candles.barsOf(s.chain, s.token),
        });
        rememberWritten(s.written, digestOf(snap));
        buyersRead.set(key, reads.buyers);
        return snap;
      },
      // its reads follow from its state; its candles are its own row
      reads: {
        deriveId,
        watermark: () => clock.watermark(),
        restore: (key, s, _saved, since) => {
          if (s.meta.pool === null) return false;
          const reads = tokenReads(s);
          deployerRead.set(key, reads.deployer);
          buyersRead.set(key, reads.buyers);
          return (
            clock.changedSince(`candles|${key}`, since) ||
            reads.buyers.some((w) => clock.changedSince(`grades|${w}`, since)) ||
            reads.deployer.some((d) => clock.changedSince(`funded|${d}`, since))
          );
        },
      },
      finish: rephrase,
      joins: [gradesConsumer, fundingConsumer, candlesConsumer],
      onGap,
      onError,
      onRestore,
      onFlush,
      // a change of the token's final facts goes to the token-facts table
      emit: (key, body) => {
        const out = factsRecord(body);
        return factsPublished.differs(key, out.record.value) ? [out] : [];
      },
      emitted: (key, body) => factsPublished.remember(key, factsRecord(body).record.value),
      version: (s) => Math.max(0, s.lastPosition),
      stateVersion: initialTokenState('', '').v,
      // an hourly record of what was said and at what price: the system of record of the past
      historyBucket: (s) => Math.floor(s.lastTs / 3600),
      historyBody: (b) => {
        const snap = b as TokenSnapshot;
        return {
          chain: snap.chain,
          token: snap.token,
          symbol: snap.symbol,
          asOf: snap.asOf,
          asOfTs: snap.asOfTs,
          verdict: snap.verdict,
          signal: snap.signal,
          facts: snap.facts,
          priceUsd: snap.basis.priceUsd,
          liquidityUsd: snap.basis.liquidityUsd,
        };
      },
      fanOut: (e, _key, s) => {
        const out = walletMessagesOf(s, e).map((m) => recordOf(TradesByWalletTopic, m));
        const funding = firstFundingOf(s, e);
        if (funding) out.push(recordOf(FundingTopic, funding));
        return out;
      },
    },
    workerOptions,
  );

  await tokenWorker.start(token);

  /** the grade last published per wallet (a replay publishes a grade again, harmlessly) */
  const gradePublished = publishedPerKey<Verdict>();
  const wallet = await startFoldWorker<WalletState, WalletMessage>(
    { log, store },
    {
      groupId: 'engine-wallet',
      kind: 'wallet',
      topics: [Topics.tradesByWallet],
      init: (key) => initialWalletState(...splitKey(key)),
      decode: (v) => TradesByWalletTopic.codec.decode(v),
      fold: foldWalletMessage,
      derive: (s, key) => {
        const tokens = tokenFacts.lookup(s.chain);
        // the deployer of each token it traded (token-facts): a wallet that deployed a token it trades, or was funded by its deployer, is an insider
        const deployers: Record<string, string> = {};
        const deployerUnknown: string[] = [];
        for (const t of Object.keys(s.tokens)) {
          const dep = tokens(t)?.deployer;
          if (dep) deployers[t] = dep;
          else deployerUnknown.push(`${s.chain}:${t}`);
        }
        const snap = deriveWalletSnapshot(s, { funders: funding.fundingChain(s.chain, s.wallet), tokens, deployers });
        // the token facts it read: its open positions' (their risk), and those of the tokens it
        // traded whose deployer is not known yet (once known it never changes). Without the latter
        // a wallet that closed its position before its token's facts came kept a grade that
        // depended on when they came (seen after a broker outage delayed them)
        holdingsRead.set(key, [...(snap.positions ?? []).filter((p) => p.status === 'open').map((p) => `${s.chain}:${p.token}`), ...deployerUnknown]);
        return snap;
      },
      // the token facts it read follow from its derived book, not its state: its entry keeps them
      reads: {
        deriveId,
        watermark: () => clock.watermark(),
        save: (key) => holdingsRead.rowsOf(key),
        restore: (key, _s, saved, since) => {
          if (!Array.isArray(saved) || !saved.every((r): r is string => typeof r === 'string')) return true;
          holdingsRead.set(key, saved);
          return clock.changedSince(`funder|${key}`, since) || saved.some((t) => clock.changedSince(`facts|${t}`, since));
        },
      },
      joins: [factsTableConsumer, fundingConsumer],
      onGap,
      onError,
      onRestore,
      onFlush,
      // a grade change goes to the wallet-grades table (compacted, keyed by wallet)
      emit: (key, body) => {
        const { grade, asOf } = body as { grade: Verdict; asOf: string };
        if (!gradePublished.differs(key, grade)) return [];
        const [chain, wallet] = splitKey(key);
        return [recordOf(WalletGradesTopic, { chain, wallet, grade, asOfTs: Math.floor(Date.parse(asOf) / 1000) })];
      },
      emitted: (key, body) => gradePublished.remember(key, (body as { grade: Verdict }).grade),
      version: (s) => s.version,
      stateVersion: initialWalletState('', '').v,
      historyBucket: (s) => Math.floor(s.asOfTs / 3600),
      // trader track records score a grade by the realised sums at later hours: keep those, when they move
      historyBody: (b) => {
        const w = b as WalletSnapshot;
        return { chain: w.chain, wallet: w.wallet, asOf: w.asOf, grade: w.grade, basis: w.basis };
      },
      historyKey: (h) => JSON.stringify({ ...(h as object), asOf: undefined }),
    },
    workerOptions,
  );

  await walletWorker.start(wallet);

  // Venue accounts: two workers over the one venue topic, each folding its own event type, so
  // their snapshots are kinds of their own (`perp:venue:account`, `prediction:venue:account`).
  await ensureTopic(log, VenueFillsTopic);
  const venueWorker = <E extends VenueEvent>(kind: 'perp' | 'prediction', type: E['type'], fold: (s: VenueAccountState, e: E) => VenueAccountState) =>
    startFoldWorker<VenueAccountState, E>(
      { log, store },
      {
        groupId: `engine-venue-${kind}`,
        kind,
        topics: [VenueTopics.fills],
        init: (key) => initialVenueAccountState(kind, ...splitKey(key)),
        decode: (v) => {
          const e = VenueFillsTopic.codec.decode(v);
          return e?.type === type ? (e as E) : undefined;
        },
        fold,
        derive: deriveVenueAccount,
        // an account's snapshot reads nothing but its state
        reads: { deriveId, watermark: () => ({}), restore: () => false },
        version: (s) => Math.max(0, s.lastTime),
        historyBucket: (s) => Math.floor(s.lastTime / 3_600_000),
        onGap,
        onError,
        onRestore,
        onFlush,
      },
      workerOptions,
    );
  const perp = await venueWorker<PerpFill>('perp', 'perp_fill', foldPerpFill);
  const prediction = await venueWorker<PredictionTrade>('prediction', 'prediction_trade', foldPredictionTrade);

  const workers = { token, wallet, perp, prediction };
  /** records not yet folded, per worker */
  const lagOf = async (name: keyof typeof workers) => (await workers[name].lag()).reduce((a, x) => a + x.lag, 0);
  services.metrics.gauge('intel_engine_lag_records', 'records not yet folded, per worker', async () =>
    Promise.all((Object.keys(workers) as (keyof typeof workers)[]).map(async (worker) => ({ labels: { worker }, value: await lagOf(worker) }))),
  );
  const lagTimer = setInterval(() => {
    void Promise.all([lagOf('token'), lagOf('wallet')]).then(
      ([t, w]) => logger.debug({ token_lag: t, wallet_lag: w }, 'engine lag'),
      (err: unknown) => logger.warn({ err }, 'engine lag unavailable'),
    );
  }, 10_000);
  lagTimer.unref();
  // one full collection once a catch-up is worked off (infra/heap.ts): the process goes live with
  // the heap of its state, not of its backfill
  const settler = createHeapSettler({
    catchUpRecords: CATCH_UP_RECORDS,
    collect: async () => {
      const before = process.memoryUsage();
      const t0 = performance.now();
      await fullCollection();
      const after = process.memoryUsage();
      const mb = (b: number) => Math.round(b / 2 ** 20);
      logger.info({ duration_ms: Math.round(performance.now() - t0), heap_mb: [mb(before.heapTotal), mb(after.heapTotal)], rss_mb: [mb(before.rss), mb(after.rss)] }, 'caught up: heap collected');
    },
  });
  let settling = false;
  const backlog = async () => (await Promise.all((Object.keys(workers) as (keyof typeof workers)[]).map(lagOf))).reduce((a, b) => a + b, 0);
  const settleTimer = setInterval(() => {
    if (settling) return;
    settling = true;
    const folded = foldedRecords;
    foldedRecords = 0;
    void settler
      .observe(folded, backlog)
      .catch((err: unknown) => logger.warn({ err }, 'heap settle failed (engine lag or collection)'))
      .finally(() => (settling = false));
  }, 2_000);
  settleTimer.unref();
  services.onShutdown(async () => {
    clearInterval(lagTimer);
    clearInterval(settleTimer);
    await token.stop();
    await wallet.stop();
    await perp.stop();
    await prediction.stop();
    await gradesConsumer.stop();
    await candlesConsumer.stop();
    await factsTableConsumer.stop();
    await fundingConsumer.stop();
  });
  return workers;
}

/**
 * With a model writer configured, the token texts the template wrote are rephrased from the same
 * requests (the same facts), cached by request so unchanged facts never ask again; the writer
 * falls back to the template on error or timeout, so a snapshot is never held back for long.
 */
function createRephraser(writer: Writer): (body: unknown) => Promise<unknown> {
  const cache = new Map<string, Promise<string>>();
  const ask = (kind: 'rationale' | 'thesis' | 'headline' | 'summary', req: WriterRequest): Promise<string> => {
    const k = `${kind}|${JSON.stringify(req)}`;
    let p = cache.get(k);
    if (!p) {
      p = writer[kind](req);
      cache.set(k, p);
      if (cache.size > 20_000) cache.delete(cache.keys().next().value as string);
    }
    return p;
  };
  return async (body) => {
    const s = body as TokenSnapshot;
    const subject = s.symbol ?? 'This token';
    const r = tokenTextRequests(s, subject, signalContext(s));
    const pa = s.priceAction[priceActionKey('1h', 24)];
    const [rationale, thesis, headline, summary] = await Promise.all([
      ask('rationale', r.rationale),
      ask('thesis', r.thesis),
      ask('headline', { operation: 'token-changes', subject, facts: changeFacts(s.changes.items) }),
      pa
        ? ask('summary', {
            operation: 'token-price-action',
            subject,
            facts: { trend: pa.trend, structure: pa.structure, breakout: pa.breakout, volatility: pa.volatility, resolution: '1h', hours: 24, enoughBars: pa.bars >= 3 },
          })
        : Promise.resolve(undefined),
    ]);
    const priceAction = pa && summary ? { ...s.priceAction, [priceActionKey('1h', 24)]: { ...pa, summary } } : s.priceAction;
    return { ...s, texts: { rationale, thesis }, changes: { ...s.changes, headline }, priceAction };
  };
}

/**
 * The worker that reads a table, once it is started: keys a table change makes stale before then
 * (the worker replays while its handle does not exist yet) are kept and re-derived at start.
 * Changes read before it is armed (the tables' catch-up at start, before any worker derived) are
 * not kept.
 */
function createReaderSlot() {
  let worker: FoldWorker | undefined;
  let armed = false;
  const early = new Set<string>();
  return {
    arm: () => void (armed = true),
    rederive: async (keys: Iterable<string>) => {
      if (worker) await worker.rederive(keys);
      else if (armed) for (const k of keys) early.add(k);
    },
    start: async (w: FoldWorker) => {
      worker = w;
      await w.rederive(early);
      early.clear();
    },
  };
}

/**
 * The identity of the code the snapshots are derived by: a hash of the engine's and the schemas'
 * sources (tests aside). A checkpoint written by other code has every key derived again at the
 * restart (a new release's snapshots must not wait for each key's next event). Sources that cannot
 * be read give an identity of this process only: every restored key is then derived again.
 */
function derivationCodeId(): string {
  const root = resolve(import.meta.dirname, '..');
  const hash = createHash('sha256');
  try {
    for (const dir of ['engine', 'schemas']) {
      const files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .sort();
      for (const f of files) hash.update(`${dir}/${f}\0`).update(readFileSync(join(root, dir, f))).update('\0');
    }
    return hash.digest('hex').slice(0, 16);
  } catch {
    return `process-${randomUUID()}`;
  }
}

/** Resolves once a consumer has read every record its partitions held (lag 0 once). */
async function caughtUp(c: { lag(): Promise<{ lag: number }[]> }): Promise<void> {
  for (;;) {
    if ((await c.lag()).every((l) => l.lag === 0)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

type ReaderSlot = ReturnType<typeof createReaderSlot>;

/**
 * Fold a compacted table topic from its start; `apply` folds a record into its table, names the
 * rows it changed (`changed`, for the change clock) and returns the keys it made stale, per worker
 * that reads the table (re-derived once per batch; the clock then counts the batch as handed).
 */
async function followTable<T>(log: Log, clock: ChangeClock, def: TopicDef<T>, apply: (record: T, changed: (row: string) => void) => [ReaderSlot, Iterable<string>][]) {
  await ensureTopic(log, def);
  return log.consume({
    groupId: `ephemeral-${def.name}-${randomUUID()}`,
    topics: [def.name],
    startOffset: () => 0,
    eachBatch: async (b) => {
      const stale = new Map<ReaderSlot, Set<string>>();
      const tp = `${b.topic}:${b.partition}`;
      for (const r of b.records) {
        const v = def.codec.decode(r.value);
        if (v === undefined) continue;
        for (const [reader, keys] of apply(v, (row) => clock.changed(row, tp, r.offset))) {
          let set = stale.get(reader);
          if (!set) stale.set(reader, (set = new Set()));
          for (const k of keys) set.add(k);
        }
      }
      for (const [reader, keys] of stale) if (keys.size > 0) await reader.rederive(keys);
      const last = b.records[b.records.length - 1];
      if (last) clock.handed(tp, last.offset + 1);
    },
  });
}

/**
 * The value last published per key: `differs` when a value is not the one remembered for its key,
 * `remember` once it is published (not before: a flush whose publish failed is retried, and must
 * publish the value again)
 */
function publishedPerKey<V>(): { differs(key: string, value: V): boolean; remember(key: string, value: V): void } {
  const last = new Map<string, V>();
  return {
    differs: (key, value) => last.get(key) !== value,
    remember: (key, value) => void last.set(key, value),
  };
}
