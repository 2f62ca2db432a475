/** Backfill progress for people: a bar on a terminal, plain log lines otherwise. */
import type { BackfillProgress } from './backfill.ts';

export function formatProgress(p: BackfillProgress): string {
  const pct = p.blocksTotal > 0 ? (100 * p.blocksDone) / p.blocksTotal : 100;
  const eta = p.etaSeconds === null ? '?' : `${Math.ceil(p.etaSeconds)}s`;
  return `${p.chain} blocks ${p.done}/${p.to} (${pct.toFixed(1)}%) ${p.blocksPerSecond.toFixed(0)} blocks/s ${p.eventsPerSecond.toFixed(0)} events/s ${p.events} events ETA ${eta} range ${p.rangeSize}`;
}

export function createProgressPrinter(out: NodeJS.WriteStream = process.stderr, minIntervalMs = 1000): (p: BackfillProgress) => void {
  let last = 0;
  return (p) => {
    const finished = p.done >= p.to;
    if (out.isTTY) {
      const width = 30;
      const filled = p.blocksTotal > 0 ? Math.round((width * p.blocksDone) / p.blocksTotal) : width;
      out.write(`\r[${'#'.repeat(filled)}${'.'.repeat(Math.max(0, width - filled))}] ${formatProgress(p)}\x1b[K${finished ? '\n' : ''}`);
      return;
    }
    const now = Date.now();
    if (!finished && now - last < minIntervalMs) return;
    last = now;
    out.write(`${formatProgress(p)}\n`);
  };
}
