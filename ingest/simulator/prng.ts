import { createHash } from 'node:crypto';

/**
 * Seeded randomness and deterministic identifiers. Nothing here reads the clock or Math.random:
 * the same seed always yields the same stream.
 */

/** 32-bit string hash (FNV-1a followed by a murmur finaliser) used to derive sub-seeds. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface Rng {
  /** uniform in [0, 1) */
  next(): number;
  /** uniform in [lo, hi) */
  uniform(lo: number, hi: number): number;
  /** integer in [lo, hi] */
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  normal(): number;
  /** lognormal with the given median and log-sigma */
  lognormal(median: number, sigma: number): number;
  /** exponential with the given mean */
  exponential(mean: number): number;
  shuffle<T>(items: T[]): T[];
  /** the generator's whole state (a world's saved state carries it: ingest/simulator/world.ts) */
  state: number;
}

/** mulberry32: tiny, fast, good enough for simulation; seeded from a string label. */
export function createRng(label: string): Rng {
  let a = hash32(label);
  const next = (): number => {
    a = (a + 0x6d2b79f5) | 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
    normal() {
      // Box-Muller; 1 - next() keeps the log argument in (0, 1]
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    lognormal: (median, sigma) => median * Math.exp(sigma * rng.normal()),
    exponential: (mean) => -mean * Math.log(1 - next()),
    shuffle<T>(items: T[]): T[] {
      for (let i = items.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const tmp = items[i] as T;
        items[i] = items[j] as T;
        items[j] = tmp;
      }
      return items;
    },
    get state() {
      return a;
    },
    set state(v: number) {
      a = v | 0;
    },
  };
  return rng;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Lowercase 0x + 40 hex derived from the seed and a label. */
export function addressFor(seed: number, label: string): string {
  return `0x${sha256Hex(`sim:${seed}:addr:${label}`).slice(0, 40)}`;
}

/** Lowercase 0x + 64 hex derived from the seed and a label (blocks, transactions). */
export function hashFor(seed: number, label: string): string {
  return `0x${sha256Hex(`sim:${seed}:hash:${label}`)}`;
}
