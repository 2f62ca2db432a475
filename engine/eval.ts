import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../infra/config.ts';
import { createLogger, createServices } from '../infra/runtime.ts';
import { Tables } from '../infra/store/types.ts';
import { publishEvents } from '../ingest/publisher.ts';
import { createSimulator } from '../ingest/simulator/index.ts';
import type { SimTruth } from '../ingest/simulator/index.ts';
import { Topics } from '../schemas/events.ts';
import type { TokenSnapshot } from '../schemas/token.ts';
import type { WalletSnapshot } from '../schemas/wallet.ts';
import { startEngine } from './index.ts';

/**
 * `npm run eval`: runs the real engine (in-process log, embedded store in a temp dir) over the
 * simulator for several seeds, and measures the verdicts against the simulator's ground truth:
 * precision and recall of the rug and honeypot flags, precision of `mirror-worthy` for traders
 * with a real edge, bots graded mirror-worthy (must be none), and the forward hit rate of BUY and
 * AVOID signals sampled at checkpoints.
 */
export interface SeedResult {
  seed: number;
  events: number;
  flags: Record<'rug' | 'honeypot' | 'concentration', { tp: number; fp: number; fn: number }>;
  traders: { mirrorWorthy: number; mirrorWorthyEdge: number; edgeWallets: number; edgeRated: number; botsMirrorWorthy: number; bots: number };
  signals: { BUY: { n: number; hits: number }; AVOID: { n: number; hits: number } };
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
    const sim = createSimulator({ seed, genesisTime, spanDays: opts.days });
    const truth: SimTruth = sim.truth;
    const engine = await startEngine(services);
    await services.log.ensureTopic(Topics.candles);
    const end = genesisTime + opts.days * 86400;
    /** signals sampled at checkpoints: token, signal, time, price */
    const samples: { token: string; signal: string; ts: number; price: number }[] = [];
    /** price path per token from checkpoints, to score forward returns */
    const prices = new Map<string, { ts: number; price: number }[]>();
    let events = 0;
    for (let t = genesisTime + opts.checkpointHours * 3600; t <= end; t += opts.checkpointHours * 3600) {
      const batch = [];
      for (const b of sim.blocksUntil(t)) batch.push(...b.events);
      events += batch.length;
      for (let i = 0; i < batch.length; i += 5000) await publishEvents(services.log, batch.slice(i, i + 5000));
      await caughtUp([engine.token.lag, engine.wallet.lag]);
      for (const row of await services.store.list(Tables.snapshots, { prefix: `token:${truth.chain}:` })) {
        const s = JSON.parse(row.body) as TokenSnapshot;
        const price = s.basis.priceUsd;
        if (price === null) continue;
        const list = prices.get(s.token) ?? [];
        list.push({ ts: t, price });
        prices.set(s.token, list);
        if (s.data.enough) samples.push({ token: s.token, signal: s.signal.value, ts: t, price });
      }
    }
    const tokenSnaps = (await services.store.list(Tables.snapshots, { prefix: `token:${truth.chain}:` })).map((r) => JSON.parse(r.body) as TokenSnapshot);
    const walletSnaps = (await services.store.list(Tables.snapshots, { prefix: `wallet:${truth.chain}:` })).map((r) => JSON.parse(r.body) as WalletSnapshot);

    const flags = {} as SeedResult['flags'];
    for (const kind of ['rug', 'honeypot', 'concentration'] as const) {
      const expected = new Set(kind === 'concentration' ? truth.labels.concentrated : truth.labels[kind]);
      const c = { tp: 0, fp: 0, fn: 0 };
      for (const s of tokenSnaps) {
        const got = s.risk.flags[kind].flagged;
        if (got && expected.has(s.token)) c.tp++;
        else if (got) c.fp++;
        else if (expected.has(s.token)) c.fn++;
      }
      flags[kind] = c;
    }

    const edge = new Set(truth.labels.edge);
    const bots = new Set(truth.labels.bots);
    const mw = walletSnaps.filter((w) => w.grade === 'mirror-worthy');
    const traders = {
      mirrorWorthy: mw.length,
      mirrorWorthyEdge: mw.filter((w) => edge.has(w.wallet)).length,
      edgeWallets: edge.size,
      edgeRated: walletSnaps.filter((w) => edge.has(w.wallet) && w.grade === 'mirror-worthy').length,
      botsMirrorWorthy: mw.filter((w) => bots.has(w.wallet)).length,
      bots: bots.size,
    };

    // forward returns: a BUY hits when the token beats the median token over the horizon; an AVOID when it falls
    const priceAt = (token: string, ts: number) => prices.get(token)?.find((p) => p.ts >= ts)?.price;
    const signals = { BUY: { n: 0, hits: 0 }, AVOID: { n: 0, hits: 0 } };
    const byTime = new Map<number, number[]>();
    for (const s of samples) {
      const later = priceAt(s.token, s.ts + HORIZON_S);
      if (later === undefined) continue;
      const list = byTime.get(s.ts) ?? [];
      list.push(later / s.price - 1);
      byTime.set(s.ts, list);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    // an AVOID is right about a token that falls, rugs, or cannot be sold (honeypot)
    const rugged = new Set([...truth.labels.rug, ...truth.labels.honeypot]);
    for (const s of samples) {
      if (s.signal !== 'BUY' && s.signal !== 'AVOID') continue;
      const later = priceAt(s.token, s.ts + HORIZON_S);
      if (later === undefined) continue;
      const r = later / s.price - 1;
      const bucket = signals[s.signal];
      bucket.n++;
      if (s.signal === 'BUY' ? r > median(byTime.get(s.ts) ?? []) : r < 0 || rugged.has(s.token)) bucket.hits++;
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
    return { seed, events, flags, traders, signals, byStory };
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
  };
  lines.push('', 'overall: ' + Object.entries(overall).map(([k, v]) => `${k}=${Number.isInteger(v) ? v : fmt(v).trim()}`).join('  '));
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
