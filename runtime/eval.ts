import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApi } from './api.ts';
import { loadConfig } from '../infra/config.ts';
import { createLogger, createServices } from './services.ts';
import { Tables } from '../infra/store/types.ts';
import { publishEvents } from '../ingest/publisher.ts';
import { EVAL_CROWDS, EVAL_STORIES, STORIES, createSimulator } from '../ingest/simulator/index.ts';
import { confusion, outOfSample, scoreLatency, scoreSignals, scoreTraders, scoreWalletClass } from '../engine/eval/score.ts';
import type { GradeBasis, SeedResult, SignalSample } from '../engine/eval/score.ts';
import { summarize } from '../engine/eval/summary.ts';
import type { SimTruth } from '../ingest/simulator/index.ts';
import { Topics } from '../schemas/events.ts';
import { TokenSnapshot } from '../schemas/token.ts';
import { WalletSnapshot } from '../schemas/wallet.ts';
import { jsonCodec } from '../infra/codec.ts';
import { decodeRowOrThrow } from '../infra/rows.ts';
import { startEngine } from './engine.ts';

/** stored snapshots through their schemas: the evaluation stops, naming the row, on one that does not decode */
const TokenSnapshotOf = jsonCodec(TokenSnapshot);
const WalletSnapshotOf = jsonCodec(WalletSnapshot);

/**
 * `npm run eval`: runs the real engine and the real API (in-process log, embedded store in a temp
 * dir) over the simulator for several seeds, and measures what the API serves against the
 * simulator's ground truth: precision and recall of the rug and honeypot flags (token-risk),
 * precision of `mirror-worthy` for traders with a real edge and bots graded mirror-worthy
 * (trader-score), how long after the event each flag was first served (checked every hour of
 * simulated time), and the forward hit rate of every token-signal value served at checkpoints,
 * beside the base rate of the same rule over every token served. Signals are scored on price alone
 * (docs/intelligence.md "Honest evaluation"): an AVOID hits when the price fell, never from a
 * label; a pool emptied of its liquidity is a price of 0 (there is nothing to sell into).
 */
const HORIZON_S = 24 * 3600;

/** what catches each wallet class, as served: the farm's cluster rule, the early grade */
const CAUGHT = {
  sybil: (w: WalletSnapshot) => w.reasons.some((r) => r.includes('against its own cluster')),
  skilled: (w: WalletSnapshot) => w.reasons.some((r) => r.startsWith('graded early')),
};

async function caughtUp(lags: (() => Promise<{ lag: number }[]>)[]): Promise<void> {
  for (let stable = 0; stable < 3; ) {
    const all = (await Promise.all(lags.map((l) => l()))).flat();
    stable = all.every((x) => x.lag === 0) ? stable + 1 : 0;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function evaluateSeed(seed: number, opts: { days: number; checkpointHours: number }): Promise<SeedResult> {
  const dir = mkdtempSync(join(tmpdir(), 'intel-eval-'));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SIM_ENABLED: 'false' });
  const services = await createServices(config, createLogger({ LOG_LEVEL: 'silent' }));
  try {
    const genesisTime = 1_700_000_000;
    // the stories npm start plays, and stories the rules were not written against
    const sim = createSimulator({ seed, genesisTime, spanDays: opts.days, tokens: 40, stories: [...STORIES, ...EVAL_STORIES], crowds: [...EVAL_CROWDS, ...EVAL_CROWDS] });
    const truth: SimTruth = sim.truth;
    const engine = await startEngine(services);
    await services.log.ensureTopic(Topics.candles);
    // the answers scored are the API's: the real app, called in-process (fastify inject)
    const api = await startApi(services, { port: 0, host: '127.0.0.1' });
    const org = await api.keys.createOrg('eval');
    await api.keys.goLive(org.id, Date.now());
    let servedMismatches = 0;
    async function served(path: string, body: Record<string, unknown>, key: string): Promise<Record<string, unknown>> {
      const res = await api.app.inject({ method: 'POST', url: `/v1${path}`, headers: { authorization: `Bearer ${key}` }, payload: body });
      if (res.statusCode !== 200) throw new Error(`eval: ${path} answered ${res.statusCode}: ${res.body}`);
      return res.json() as Record<string, unknown>;
    }
    /** the API's replica follows the snapshots topic: wait until it holds what the store holds */
    const replicaCaughtUp = async (rows: { key: string; body: string }[]) => {
      const behind = () => rows.some((r) => JSON.stringify(api.replica.get(r.key)) !== r.body);
      for (let i = 0; i < 250 && behind(); i++) await new Promise((r) => setTimeout(r, 20));
    };
    const end = genesisTime + opts.days * 86400;
    /** signals sampled at checkpoints: token, signal, time, price */
    const samples: SignalSample[] = [];
    /** price and liquidity path per token from checkpoints, to score forward returns */
    const prices = new Map<string, { ts: number; price: number; liquidity: number }[]>();
    /** when each token's rug / honeypot flag was first served raised, and when the rug flag said the pull happened */
    const firstFlagged = { rug: new Map<string, number>(), honeypot: new Map<string, number>() };
    const happenedAt = new Map<string, number>();
    let events = 0;
    // the labelled wallets, checked every hour: when each first traded, and when its rule first caught it
    const watched = { sybil: truth.labels.farm, skilled: truth.labels.skilled };
    const seen = { sybil: { first: new Map<string, number>(), caught: new Map<string, number>() }, skilled: { first: new Map<string, number>(), caught: new Map<string, number>() } };
    const watchWallets = async (t: number) => {
      for (const k of ['sybil', 'skilled'] as const) {
        for (const w of watched[k]) {
          const row = await services.store.get(Tables.snapshots, `wallet:${truth.chain}:${w}`);
          if (!row) continue;
          const snap = decodeRowOrThrow(WalletSnapshotOf, Tables.snapshots, row);
          if (!seen[k].first.has(w)) seen[k].first.set(w, t);
          if (!seen[k].caught.has(w) && CAUGHT[k](snap)) seen[k].caught.set(w, t);
        }
      }
    };
    /** every wallet's grade and realised sums now: the grades scored out of sample */
    const gradesNow = async () => {
      const out = new Map<string, GradeBasis>();
      for (const r of await services.store.list(Tables.snapshots, { prefix: `wallet:${truth.chain}:` })) {
        const w = decodeRowOrThrow(WalletSnapshotOf, Tables.snapshots, r);
        out.set(w.wallet, { grade: w.grade, early: CAUGHT.skilled(w), realisedUsd: w.basis?.realisedUsd ?? 0, costSoldUsd: w.basis?.costSoldUsd ?? 0 });
      }
      return out;
    };
    // graded at 70 % of the span: the full sample needs 7 days, and the rest of the span scores it
    const mid = genesisTime + Math.round(opts.days * 0.7) * 86400;
    let midGrades = new Map<string, GradeBasis>();
    const step = Math.min(opts.checkpointHours, 1) * 3600;
    for (let t = genesisTime + step; t <= end; t += step) {
      const batch = [];
      for (const b of sim.blocksUntil(t)) batch.push(...b.events);
      events += batch.length;
      for (let i = 0; i < batch.length; i += 5000) await publishEvents(services.log, batch.slice(i, i + 5000));
      await caughtUp([engine.token.lag, engine.wallet.lag]);
      const rows = await services.store.list(Tables.snapshots, { prefix: `token:${truth.chain}:` });
      await replicaCaughtUp(rows);
      // a key per checkpoint: its own rate window
      const key = (await api.keys.createKey(org.id, 'enterprise')).plaintext;
      const checkpoint = (t - genesisTime) % (opts.checkpointHours * 3600) === 0;
      await watchWallets(t);
      if (t === mid) midGrades = await gradesNow();
      for (const row of rows) {
        const s = decodeRowOrThrow(TokenSnapshotOf, Tables.snapshots, row);
        if (!firstFlagged.rug.has(s.token) || !firstFlagged.honeypot.has(s.token)) {
          const flags = (await served('/token-risk', { chain: truth.chain, token: s.token }, key)).flags as Record<string, { flagged: boolean; happenedAt?: string }>;
          for (const kind of ['rug', 'honeypot'] as const) if (flags[kind]?.flagged && !firstFlagged[kind].has(s.token)) firstFlagged[kind].set(s.token, t);
          const at = flags.rug?.happenedAt;
          if (at && !happenedAt.has(s.token)) happenedAt.set(s.token, Date.parse(at) / 1000);
        }
        if (!checkpoint) continue;
        const price = s.basis.priceUsd;
        if (price === null) continue;
        const liquidity = s.basis.liquidityUsd ?? 0;
        const list = prices.get(s.token) ?? [];
        list.push({ ts: t, price, liquidity });
        prices.set(s.token, list);
        if (!s.data.enough) continue;
        const answer = await served('/token-signal', { chain: truth.chain, token: s.token }, key);
        if (answer.signal !== s.signal.value || answer.conviction !== s.signal.conviction) servedMismatches++;
        samples.push({ token: s.token, signal: answer.signal as string, ts: t, price, liquidity });
      }
    }
    const tokenSnaps = (await services.store.list(Tables.snapshots, { prefix: `token:${truth.chain}:` })).map((r) => decodeRowOrThrow(TokenSnapshotOf, Tables.snapshots, r));
    const walletSnaps = (await services.store.list(Tables.snapshots, { prefix: `wallet:${truth.chain}:` })).map((r) => decodeRowOrThrow(WalletSnapshotOf, Tables.snapshots, r));

    // the final answers, as served
    const key = (await api.keys.createKey(org.id, 'enterprise')).plaintext;
    const servedRisk = new Map<string, Record<string, { flagged: boolean }>>();
    for (const s of tokenSnaps) servedRisk.set(s.token, (await served('/token-risk', { chain: truth.chain, token: s.token }, key)).flags as Record<string, { flagged: boolean }>);
    const servedGrade = new Map<string, string>();
    for (let i = 0; i < walletSnaps.length; i += 1500) {
      const k = (await api.keys.createKey(org.id, 'enterprise')).plaintext;
      for (const w of walletSnaps.slice(i, i + 1500)) servedGrade.set(w.wallet, (await served('/trader-score', { chain: truth.chain, wallet: w.wallet }, k)).grade as string);
    }

    const flags = {} as SeedResult['flags'];
    for (const kind of ['rug', 'honeypot', 'concentration'] as const) {
      const expected = new Set(kind === 'concentration' ? truth.labels.concentrated : truth.labels[kind]);
      flags[kind] = confusion(
        tokenSnaps.map((s) => s.token),
        (token) => servedRisk.get(token)?.[kind]?.flagged === true,
        expected,
      );
    }
    const wallets = walletSnaps.map((w) => w.wallet);
    const traders = scoreTraders(wallets, (w) => servedGrade.get(w), truth);
    const finalOf = new Map(walletSnaps.map((w) => [w.wallet, w]));
    const caught = (k: 'sybil' | 'skilled') => (w: string) => {
      const snap = finalOf.get(w);
      return snap !== undefined && CAUGHT[k](snap);
    };
    const classes = {
      sybil: scoreWalletClass(wallets, caught('sybil'), truth.labels.farm, seen.sybil),
      skilled: scoreWalletClass(wallets, caught('skilled'), truth.labels.skilled, seen.skilled),
    };
    const oos = outOfSample(midGrades, new Map(walletSnaps.map((w) => [w.wallet, { realisedUsd: w.basis?.realisedUsd ?? 0, costSoldUsd: w.basis?.costSoldUsd ?? 0 }])));
    const signals = scoreSignals(samples, prices, HORIZON_S);

    const byStory: SeedResult['byStory'] = {};
    const storyOf = new Map(truth.tokens.map((t) => [t.address, t.story]));
    for (const s of tokenSnaps) {
      const story = storyOf.get(s.token) ?? 'unknown';
      const e = (byStory[story] ??= { tokens: 0, verdicts: {}, signals: {} });
      e.tokens++;
      e.verdicts[s.verdict] = (e.verdicts[s.verdict] ?? 0) + 1;
      e.signals[s.signal.value] = (e.signals[s.signal.value] ?? 0) + 1;
    }
    const latency = scoreLatency(truth, end, firstFlagged, happenedAt);
    return { seed, events, flags, traders, classes, outOfSample: oos, signals, servedMismatches, byStory, latency };
  } finally {
    await services.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function evalCommand(args: string[]): Promise<void> {
  const get = (n: string) => {
    const i = args.indexOf(`--${n}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const seeds = (get('seeds') ?? '101,202,303').split(',').map(Number);
  const days = Number(get('days') ?? 10);
  const checkpointHours = Number(get('checkpoint-hours') ?? 6);
  const results: SeedResult[] = [];
  for (const seed of seeds) {
    const t0 = Date.now();
    process.stderr.write(`eval: seed ${seed}, ${days} days … `);
    results.push(await evaluateSeed(seed, { days, checkpointHours }));
    process.stderr.write(`${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  process.stdout.write(summarize(results).lines.join('\n') + '\n');
}
