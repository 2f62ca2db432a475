/**
 * Slow answers of a paced run (bench/load.ts), as spells of their due time: kept apart from
 * bench/load.ts, which runs its load when imported.
 */
/** requests due from `at` (epoch ms) for `ms` whose answers took over SLOW_MS, the slowest `maxMs` */
export interface SlowSpell {
  at: number;
  ms: number;
  answers: number;
  maxMs: number;
}

/** an answer slower than this is slow (the p99 target at half max) */
export const SLOW_MS = 5;
/** slow answers due within this gap of each other belong to one spell */
const SPELL_GAP_MS = 20;

/** the spells of slow answers in `latency` (by request index, due every `interval` ms from `startEpoch`) */
export function slowSpells(latency: Float64Array, from: number, interval: number, startEpoch: number): { answers: number; spells: SlowSpell[] } {
  const spells: SlowSpell[] = [];
  let answers = 0;
  let cur: SlowSpell | undefined;
  for (let i = from; i < latency.length; i++) {
    const l = latency[i] as number;
    if (!(l > SLOW_MS)) continue;
    answers++;
    const at = startEpoch + i * interval;
    if (cur && at - (cur.at + cur.ms) <= SPELL_GAP_MS) {
      cur.ms = at - cur.at;
      cur.answers++;
      cur.maxMs = Math.max(cur.maxMs, l);
    } else spells.push((cur = { at, ms: 0, answers: 1, maxMs: l }));
  }
  return { answers, spells: spells.sort((a, b) => b.answers - a.answers).slice(0, 5) };
}
