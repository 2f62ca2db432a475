/**
 * What the scoring reads of a world's ground truth: which tokens were rugs and honeypots and when
 * their event happened, which wallets had an edge and which were bots. The simulator's truth has
 * this shape; the engine declares it rather than importing the simulator.
 */
export interface EvalTruth {
  tokens: { address: string; createdAt: number; rugAt?: number; taxAt?: number }[];
  labels: { rug: string[]; honeypot: string[]; edge: string[]; bots: string[] };
}

/**
 * The eval's pure scoring (`npm run eval`, runtime/eval.ts runs the engine and the API over the
 * simulator and hands what they served here): flags against the simulator's labels, grades
 * against the wallets' labels and their out-of-sample PnL, signals on price and liquidity alone
 * (docs/intelligence.md "Honest evaluation").
 */

export type SignalValue = 'BUY' | 'ACCUMULATE' | 'HOLD' | 'AVOID';
export const SIGNALS: SignalValue[] = ['BUY', 'ACCUMULATE', 'HOLD', 'AVOID'];

export interface Confusion {
  tp: number;
  fp: number;
  fn: number;
}

/** a wallet class scored: caught by its rule, and how many hours after the wallet's first trade */
export interface WalletClassScore extends Confusion {
  hours: number[];
  missed: number;
}

/** one horizon of out-of-sample returns: the return of the round trips closed after the grade */
export interface OutOfSample {
  /** per grade at the grading time, 70 % into the span (and `early` for grades given before the full sample): returns, percent */
  byGrade: Record<string, number[]>;
  /** every wallet that closed round trips after the middle: the median trader */
  all: number[];
}

export interface SeedResult {
  seed: number;
  events: number;
  flags: Record<'rug' | 'honeypot' | 'concentration', Confusion>;
  traders: { mirrorWorthy: number; mirrorWorthyEdge: number; edgeWallets: number; edgeRated: number; botsMirrorWorthy: number; bots: number };
  /** wallet classes: `sybil` (farm wallets caught as trading against their own cluster), `skilled` (graded before the full sample) */
  classes: Record<'sybil' | 'skilled', WalletClassScore>;
  outOfSample: OutOfSample;
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

/** tp / fp / fn of a flag over subjects, against the labelled set */
export function confusion(subjects: Iterable<string>, flagged: (s: string) => boolean, expected: ReadonlySet<string>): Confusion {
  const c = { tp: 0, fp: 0, fn: 0 };
  for (const s of subjects) {
    const got = flagged(s);
    if (got && expected.has(s)) c.tp++;
    else if (got) c.fp++;
    else if (expected.has(s)) c.fn++;
  }
  return c;
}

/** mirror-worthy's precision on the edge wallets, their recall, and bots graded mirror-worthy */
export function scoreTraders(wallets: string[], gradeOf: (w: string) => string | undefined, truth: EvalTruth): SeedResult['traders'] {
  const edge = new Set(truth.labels.edge);
  const bots = new Set(truth.labels.bots);
  const mw = wallets.filter((w) => gradeOf(w) === 'mirror-worthy');
  return {
    mirrorWorthy: mw.length,
    mirrorWorthyEdge: mw.filter((w) => edge.has(w)).length,
    edgeWallets: edge.size,
    edgeRated: wallets.filter((w) => edge.has(w) && gradeOf(w) === 'mirror-worthy').length,
    botsMirrorWorthy: mw.filter((w) => bots.has(w)).length,
    bots: bots.size,
  };
}

/**
 * A wallet class: the wallets the rule caught (final snapshots) against the labelled ones, and the
 * hours from each labelled wallet's first snapshot to the first hourly check that caught it.
 */
export function scoreWalletClass(
  wallets: string[],
  caught: (w: string) => boolean,
  labelled: readonly string[],
  seen: { first: ReadonlyMap<string, number>; caught: ReadonlyMap<string, number> },
): WalletClassScore {
  const expected = new Set(labelled);
  const c = confusion(wallets, caught, expected);
  const hours: number[] = [];
  let missed = 0;
  for (const w of expected) {
    const from = seen.first.get(w);
    const at = seen.caught.get(w);
    if (from === undefined) continue; // never traded within the span
    if (at === undefined) missed++;
    else hours.push((at - from) / 3600);
  }
  return { ...c, hours, missed };
}

export interface GradeBasis {
  grade: string;
  early: boolean;
  realisedUsd: number;
  costSoldUsd: number;
}

/**
 * Out of sample: each wallet's return on the round trips it closed after `mid` (the grading time) (realised over cost
 * sold between the two snapshots), grouped by its grade at `mid`, beside every wallet's (the
 * median trader). A wallet that closed nothing after `mid` has no return.
 */
export function outOfSample(mid: ReadonlyMap<string, GradeBasis>, end: ReadonlyMap<string, Pick<GradeBasis, 'realisedUsd' | 'costSoldUsd'>>): OutOfSample {
  const out: OutOfSample = { byGrade: {}, all: [] };
  for (const [w, e] of end) {
    const m = mid.get(w);
    const cost = e.costSoldUsd - (m?.costSoldUsd ?? 0);
    if (!(cost > 1)) continue;
    const pct = ((e.realisedUsd - (m?.realisedUsd ?? 0)) / cost) * 100;
    out.all.push(pct);
    if (!m) continue;
    (out.byGrade[m.grade] ??= []).push(pct);
    if (m.early) (out.byGrade['early'] ??= []).push(pct);
  }
  return out;
}

export interface SignalSample {
  token: string;
  signal: string;
  ts: number;
  price: number;
  liquidity: number;
}

/**
 * Forward returns on price alone: a BUY hits when the token beats the median token over the
 * horizon; an AVOID when it falls. A pool left with under 1 % of the liquidity it had when the
 * signal was served has nothing to sell into: its price is 0.
 */
export function scoreSignals(samples: SignalSample[], prices: ReadonlyMap<string, { ts: number; price: number; liquidity: number }[]>, horizonS: number): SeedResult['signals'] {
  const exitPrice = (sample: SignalSample, ts: number) => {
    const p = prices.get(sample.token)?.find((x) => x.ts >= ts);
    if (!p) return undefined;
    return sample.liquidity > 0 && p.liquidity < 0.01 * sample.liquidity ? 0 : p.price;
  };
  const signals = Object.fromEntries(SIGNALS.map((v) => [v, { n: 0, hits: 0, base: { n: 0, hits: 0 } }])) as SeedResult['signals'];
  const byTime = new Map<number, number[]>();
  const scored: { s: SignalSample; r: number }[] = [];
  for (const s of samples) {
    const later = exitPrice(s, s.ts + horizonS);
    if (later === undefined) continue;
    const r = later / s.price - 1;
    scored.push({ s, r });
    const list = byTime.get(s.ts) ?? [];
    list.push(r);
    byTime.set(s.ts, list);
  }
  const bullish = (v: SignalValue) => v === 'BUY' || v === 'ACCUMULATE';
  const upperMedian = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  for (const { s, r } of scored) {
    const beat = r > upperMedian(byTime.get(s.ts) ?? []);
    for (const v of SIGNALS) {
      const hit = bullish(v) ? beat : r < 0;
      signals[v].base.n++;
      if (hit) signals[v].base.hits++;
      if (s.signal === v) {
        signals[v].n++;
        if (hit) signals[v].hits++;
      }
    }
  }
  return signals;
}

/** minutes from each labelled token's event to the first check that served its flag */
export function scoreLatency(
  truth: EvalTruth,
  end: number,
  firstFlagged: Record<'rug' | 'honeypot', ReadonlyMap<string, number>>,
  happenedAt: ReadonlyMap<string, number>,
): SeedResult['latency'] {
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
  return latency;
}
