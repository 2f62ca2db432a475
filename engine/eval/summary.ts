import { median } from '../trackrecord/score.ts';
import { SIGNALS } from './score.ts';
import type { SeedResult } from './score.ts';

/** The eval's printed report (`npm run eval`): a table per seed, then the measures over all seeds. */

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
  lines.push(...classLines(results), ...outOfSampleLines(results));
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
  lines.push(...CLOSING_NOTE);
  return { lines, overall };
}


const pctOf = (xs: number[]) => (xs.length === 0 ? '  n/a' : fmt(median(xs) ?? NaN));

/** per wallet class: precision and recall of the rule that catches it, and how long after the wallet's first trade */
function classLines(results: SeedResult[]): string[] {
  const lines = ['', 'wallet classes (final snapshots; latency: hours from the wallet\'s first trade to the first hourly check that caught it):'];
  const rows: [keyof SeedResult['classes'], string][] = [
    ['sybil', 'class 7, sybil farm: avoid, most wins against its own cluster'],
    ['skilled', 'skilled few: graded before the full sample'],
  ];
  for (const [k, label] of rows) {
    const c = results.reduce((a, r) => ({ tp: a.tp + r.classes[k].tp, fp: a.fp + r.classes[k].fp, fn: a.fn + r.classes[k].fn }), { tp: 0, fp: 0, fn: 0 });
    const hours = results.flatMap((r) => r.classes[k].hours);
    const missed = results.reduce((a, r) => a + r.classes[k].missed, 0);
    lines.push(
      `  ${label.padEnd(62)} precision ${fmt(ratio(c.tp, c.tp + c.fp))} (${c.tp}/${c.tp + c.fp})  recall ${fmt(ratio(c.tp, c.tp + c.fn))} (${c.tp}/${c.tp + c.fn})  latency median ${pctOf(hours)} h (caught ${hours.length}/${hours.length + missed})`,
    );
  }
  return lines;
}

/** grades out of sample: the return of the round trips closed after the grade, against the median trader's */
function outOfSampleLines(results: SeedResult[]): string[] {
  const all = results.flatMap((r) => r.outOfSample.all);
  const lines = ['', `grades out of sample (graded at 70 % of the span; return % of the round trips closed after, median): median trader ${pctOf(all)} (n=${all.length})`];
  const grades = [...new Set(results.flatMap((r) => Object.keys(r.outOfSample.byGrade)))].sort();
  for (const g of grades) {
    const xs = results.flatMap((r) => r.outOfSample.byGrade[g] ?? []);
    const beat = xs.filter((x) => x > (median(all) ?? 0)).length;
    lines.push(`  ${g.padEnd(14)} median ${pctOf(xs)}  beat the median trader ${fmt(ratio(beat, xs.length))} (n=${xs.length})`);
  }
  return lines;
}

/** per class, the rule that catches it and what it costs */
const CLOSING_NOTE = [
  '',
  'rules and their cost (extra RPC calls per token per hour):',
  '  AVOID is scored on price and liquidity alone (the hit rate above): never from a label or a flag of our own.',
  '  class 7, sybil farm: each round trip is attributed to the buyers while it held (the token worker names them with each swap);',
  '    a cluster is the wallets sharing a funder within 3 hops (a hub of over 100 funded wallets is not followed); a wallet with',
  '    at least 2 wins, and half of its wins, against its own cluster is avoid; its cluster\'s round trips leave its sample.',
  '    Cost: 0 extra calls (funders come from the block bodies and WETH transfers the ingest already reads).',
  '  skilled few: graded after 5 round trips on 3 tokens over 2 days when every one was won against outsiders; its first reason',
  '    states the confidence (low under 10 round trips). Cost: 0 extra calls.',
];
