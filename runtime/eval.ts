import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApi } from './api.ts';
import { loadConfig } from '../infra/config.ts';
import { createLogger, createServices } from './services.ts';
import { Tables } from '../infra/store/types.ts';
import { publishEvents } from '../ingest/publisher.ts';
import { EVAL_STORIES, STORIES, createSimulator } from '../ingest/simulator/index.ts';
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
 * (../shared/INTELLIGENCE.md "Honest evaluation"): an AVOID hits when the price fell, never from a
 * label; a pool emptied of its liquidity is a price of 0 (there is nothing to sell into).
 */
type SignalValue = 'BUY' | 'ACCUMULATE' | 'HOLD' | 'AVOID';
const SIGNALS: SignalValue[] = ['BUY', 'ACCUMULATE', 'HOLD', 'AVOID'];

export interface SeedResult {
  seed: number;
  events: number;
  flags: Record<'rug' | 'honeypot' | 'concentration', { tp: number; fp: number; fn: number }>;
  traders: { mirrorWorthy: number; mirrorWorthyEdge: number; edgeWallets: number; edgeRated: number; botsMirrorWorthy: number; bots: number };
  /**
   * per served signal value: BUY and ACCUMULATE hit when the token beats the median token over the
   * horizon, HOLD and AVOID when it falls (or rugs, or cannot be sold); `base` is the same rule
   * applied to every sample, what "always say X" would score
   */
  signals: Record<SignalValue, { n: number; hits: number; base: { n: number; hits: number } }>;
  /** calls whose answers disagreed with the stored snapshot (must be 0) */
  servedMismatches: number;
  /**
   * minutes between a labelled token's event (rug: the pull; honeypot: the launch, or the late tax switched on) and the first
   * hourly check that served its flag raised; `missed`: labelled tokens never flagged. `pulledAt`:
   * minutes between the pull and the time the served rug flag says it happened.
   */
  latency: Record<'rug' | 'honeypot', { minutes: number[]; missed: number }> & { pulledAt: number[] };
  byStory: Record<string, { tokens: number; verdicts: Record<string, number>; signals: Record<string, number> }>;
}

const HORIZON_S = 24 * 3600;

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
    const sim = createSimulator({ seed, genesisTime, spanDays: opts.days, tokens: 40, stories: [...STORIES, ...EVAL_STORIES] });
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
    const samples: { token: string; signal: string; ts: number; price: number; liquidity: number }[] = [];
    /** price and liquidity path per token from checkpoints, to score forward returns */
    const prices = new Map<string, { ts: number; price: number; liquidity: number }[]>();
    /** when each token's rug / honeypot flag was first served raised, and when the rug flag said the pull happened */
    const firstFlagged = { rug: new Map<string, number>(), honeypot: new Map<string, number>() };
    const happenedAt = new Map<string, number>();
    let events = 0;
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
      const c = { tp: 0, fp: 0, fn: 0 };
      for (const s of tokenSnaps) {
        const got = servedRisk.get(s.token)?.[kind]?.flagged === true;
        if (got && expected.has(s.token)) c.tp++;
        else if (got) c.fp++;
        else if (expected.has(s.token)) c.fn++;
      }
      flags[kind] = c;
    }

    const edge = new Set(truth.labels.edge);
    const bots = new Set(truth.labels.bots);
    const gradeOf = (w: WalletSnapshot) => servedGrade.get(w.wallet);
    const mw = walletSnaps.filter((w) => gradeOf(w) === 'mirror-worthy');
    const traders = {
      mirrorWorthy: mw.length,
      mirrorWorthyEdge: mw.filter((w) => edge.has(w.wallet)).length,
      edgeWallets: edge.size,
      edgeRated: walletSnaps.filter((w) => edge.has(w.wallet) && gradeOf(w) === 'mirror-worthy').length,
      botsMirrorWorthy: mw.filter((w) => bots.has(w.wallet)).length,
      bots: bots.size,
    };

    // forward returns on price alone: a BUY hits when the token beats the median token over the
    // horizon; an AVOID when it falls. A pool left with under 1 % of the liquidity it had when the
    // signal was served has nothing to sell into: its price is 0.
    const exitPrice = (sample: { token: string; ts: number; liquidity: number }, ts: number) => {
      const p = prices.get(sample.token)?.find((x) => x.ts >= ts);
      if (!p) return undefined;
      return sample.liquidity > 0 && p.liquidity < 0.01 * sample.liquidity ? 0 : p.price;
    };
    const signals = Object.fromEntries(SIGNALS.map((v) => [v, { n: 0, hits: 0, base: { n: 0, hits: 0 } }])) as SeedResult['signals'];
    const byTime = new Map<number, number[]>();
    for (const s of samples) {
      const later = exitPrice(s, s.ts + HORIZON_S);
      if (later === undefined) continue;
      const list = byTime.get(s.ts) ?? [];
      list.push(later / s.price - 1);
      byTime.set(s.ts, list);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const bullish = (v: SignalValue) => v === 'BUY' || v === 'ACCUMULATE';
    for (const s of samples) {
      const later = exitPrice(s, s.ts + HORIZON_S);
      if (later === undefined) continue;
      const r = later / s.price - 1;
      const beat = r > median(byTime.get(s.ts) ?? []);
      const fell = r < 0;
      for (const v of SIGNALS) {
        const hit = bullish(v) ? beat : fell;
        signals[v].base.n++;
        if (hit) signals[v].base.hits++;
        if (s.signal === v) {
          signals[v].n++;
          if (hit) signals[v].hits++;
        }
      }
    }

    const byStory: SeedResult['byStory'] = {};
    const storyOf = new Map(truth.tokens.map((t) => [t.address, t.story]));
    for (const s of tokenSnaps) {
      const story = storyOf.get(s.token) ?? 'unknown';
      const e = (byStory[story] ??= { tokens: 0, verdicts: {}, signals: {} });
      e.tokens++;
      e.verdicts[s.verdict] = (e.verdicts[s.verdict] ?? 0) + 1;
      e.signals[s.signal.value] = (e.signals[s.signal.value] ?? 0) + 1;
    }
    const truthOf = new Map(truth.tokens.map((tk) => [tk.address, tk]));
    const latency: SeedResult['latency'] = { rug: { minutes: [], missed: 0 }, honeypot: { minutes: [], missed: 0 }, pulledAt: [] };
    for (const kind of ['rug', 'honeypot'] as const) {
      for (const token of truth.labels[kind]) {
        const tk = truthOf.get(token);
        const event = kind === 'rug' ? tk?.rugAt : (tk?.taxAt ?? tk?.createdAt);
        const first = firstFlagged[kind].get(token);
        if (event === undefined || event > end) continue; // the event falls after the span
        if (first === undefined) latency[kind].missed++;
        else latency[kind].minutes.push(Math.max(0, (first - event) / 60));
        const said = happenedAt.get(token);
        if (kind === 'rug' && said !== undefined) latency.pulledAt.push((said - event) / 60);
      }
    }
    return { seed, events, flags, traders, signals, servedMismatches, byStory, latency };
  } finally {
    await services.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ratio = (a: number, b: number) => (b === 0 ? NaN : a / b);
const fmt = (x: number) => (Number.isNaN(x) ? '  n/a' : x.toFixed(2).padStart(5));

export function summarize(results: SeedResult[]): { lines: string[]; overall: Record<string, number> } {
  const lines: string[] = [];
  const sum = (f: (r: SeedResult) => number) => results.reduce((a, r) => a + f(r), 0);
  lines.push('seed   events  rug P/R      honeypot P/R  concentr P/R  mirror-worthy prec  edge recall  bots MW  BUY hit (n)   AVOID hit (n)');
  for (const r of results) {
    const f = r.flags;
    lines.push(
      [
        String(r.seed).padEnd(5),
        String(r.events).padStart(7),
        `${fmt(ratio(f.rug.tp, f.rug.tp + f.rug.fp))}/${fmt(ratio(f.rug.tp, f.rug.tp + f.rug.fn))}`,
        `${fmt(ratio(f.honeypot.tp, f.honeypot.tp + f.honeypot.fp))}/${fmt(ratio(f.honeypot.tp, f.honeypot.tp + f.honeypot.fn))}`,
        `${fmt(ratio(f.concentration.tp, f.concentration.tp + f.concentration.fp))}/${fmt(ratio(f.concentration.tp, f.concentration.tp + f.concentration.fn))}`,
        `${fmt(ratio(r.traders.mirrorWorthyEdge, r.traders.mirrorWorthy))} (${r.traders.mirrorWorthyEdge}/${r.traders.mirrorWorthy})`.padEnd(18),
        `${fmt(ratio(r.traders.edgeRated, r.traders.edgeWallets))}`.padEnd(11),
        String(r.traders.botsMirrorWorthy).padStart(7),
        `${fmt(ratio(r.signals.BUY.hits, r.signals.BUY.n))} (${r.signals.BUY.n})`.padEnd(12),
        `${fmt(ratio(r.signals.AVOID.hits, r.signals.AVOID.n))} (${r.signals.AVOID.n})`,
      ].join('  '),
    );
  }
  const overall = {
    rugPrecision: ratio(sum((r) => r.flags.rug.tp), sum((r) => r.flags.rug.tp + r.flags.rug.fp)),
    rugRecall: ratio(sum((r) => r.flags.rug.tp), sum((r) => r.flags.rug.tp + r.flags.rug.fn)),
    honeypotPrecision: ratio(sum((r) => r.flags.honeypot.tp), sum((r) => r.flags.honeypot.tp + r.flags.honeypot.fp)),
    honeypotRecall: ratio(sum((r) => r.flags.honeypot.tp), sum((r) => r.flags.honeypot.tp + r.flags.honeypot.fn)),
    mirrorWorthyPrecision: ratio(sum((r) => r.traders.mirrorWorthyEdge), sum((r) => r.traders.mirrorWorthy)),
    edgeRecall: ratio(sum((r) => r.traders.edgeRated), sum((r) => r.traders.edgeWallets)),
    botsMirrorWorthy: sum((r) => r.traders.botsMirrorWorthy),
    buyHitRate: ratio(sum((r) => r.signals.BUY.hits), sum((r) => r.signals.BUY.n)),
    avoidHitRate: ratio(sum((r) => r.signals.AVOID.hits), sum((r) => r.signals.AVOID.n)),
    servedMismatches: sum((r) => r.servedMismatches),
  };
  lines.push('', 'overall: ' + Object.entries(overall).map(([k, v]) => `${k}=${Number.isInteger(v) ? v : fmt(v).trim()}`).join('  '));
  lines.push('', 'served token-signal values, +24h, on price alone (BUY/ACCUMULATE: beat the median token; HOLD/AVOID: the price fell, an emptied pool is 0):');
  for (const v of SIGNALS) {
    const n = sum((r) => r.signals[v].n);
    const hits = sum((r) => r.signals[v].hits);
    const bn = sum((r) => r.signals[v].base.n);
    const bh = sum((r) => r.signals[v].base.hits);
    lines.push(`  ${v.padEnd(10)} hit ${fmt(ratio(hits, n))} (n=${n})   base rate ${fmt(ratio(bh, bn))} (n=${bn})`);
  }
  const q = (xs: number[], p: number) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] as number);
  lines.push('', 'flag latency (minutes from the event to the first hourly check that served the flag; rug: the pull, honeypot: the launch, or the tax switched on):');
  for (const kind of ['rug', 'honeypot'] as const) {
    const all = results.flatMap((r) => r.latency[kind].minutes);
    const missed = sum((r) => r.latency[kind].missed);
    lines.push(`  ${kind.padEnd(10)} flagged ${all.length}/${all.length + missed}  median ${fmt(q(all, 0.5))}  p90 ${fmt(q(all, 0.9))}  max ${fmt(q(all, 1))}`);
  }
  const pulled = results.flatMap((r) => r.latency.pulledAt);
  lines.push(`  rug flag's happenedAt minus the pull: median ${fmt(q(pulled, 0.5))} min, max ${fmt(q(pulled, 1))} min (n=${pulled.length})`);
  lines.push('', 'verdicts and signals by story (final snapshots, all seeds):');
  const stories: Record<string, { tokens: number; verdicts: Record<string, number>; signals: Record<string, number> }> = {};
  for (const r of results)
    for (const [story, e] of Object.entries(r.byStory)) {
      const s = (stories[story] ??= { tokens: 0, verdicts: {}, signals: {} });
      s.tokens += e.tokens;
      for (const [k, v] of Object.entries(e.verdicts)) s.verdicts[k] = (s.verdicts[k] ?? 0) + v;
      for (const [k, v] of Object.entries(e.signals)) s.signals[k] = (s.signals[k] ?? 0) + v;
    }
  for (const [story, s] of Object.entries(stories).sort()) {
    lines.push(`  ${story.padEnd(13)} tokens ${String(s.tokens).padStart(3)}  verdicts ${JSON.stringify(s.verdicts)}  signals ${JSON.stringify(s.signals)}`);
  }
  return { lines, overall };
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
