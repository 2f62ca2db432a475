import { readFileSync } from 'node:fs';

/**
 * The machine's CPU time so far (/proc/stat's first line, in clock ticks of 10 ms): busy (user,
 * nice, system, irq, softirq), idle (with iowait), steal, and all of it; undefined where not told.
 * Plain: bench/load.ts (run as bundled JavaScript) and bench/sampler.ts read it alike.
 */
export function machineTicks(): { busy: number; idle: number; steal: number; total: number } | undefined {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    if (f.length < 8 || f.some((n) => !Number.isFinite(n))) return undefined;
    // user nice system idle iowait irq softirq steal (guest time is counted in user already)
    const [user, nice, system, idle, iowait, irq, softirq, steal] = f as [number, number, number, number, number, number, number, number];
    return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal, total: f.slice(0, 8).reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}
