/**
 * `intel status [--url OPS_URL] [--once] [--json] [--every SECONDS]`: what an operator watches,
 * read from the API's operator port (`/metrics`): how far each chain's answers are behind live,
 * the ingesters' lag per chain, the engine's consumer lag per worker, and the day's data budget.
 * A terminal view that redraws every few seconds; `--once` prints it once, `--json` as JSON.
 */
import { flag } from './args.ts';

export interface Status {
  at: string;
  /** per chain: seconds between now and the newest event folded into a snapshot */
  snapshotAgeSeconds: Record<string, number>;
  /** per EVM chain: seconds between the chain head and the last published block (ingest role) */
  ingestLagSeconds: Record<string, number>;
  /** per engine worker: records not folded yet */
  consumerLagRecords: Record<string, number>;
  budget: { dailyUnits: number | null; usedUnits: number | null };
}

/** the samples of a gauge family in Prometheus text, keyed by one label's value ('' when unlabelled) */
export function samplesOf(text: string, name: string, label?: string): Record<string, number> {
  const out: Record<string, number> = {};
  const line = new RegExp(`^${name}(?:\\{([^}]*)\\})? (\\S+)$`);
  for (const l of text.split('\n')) {
    const m = line.exec(l);
    if (!m) continue;
    const labels = m[1] ?? '';
    const v = label ? new RegExp(`${label}="([^"]*)"`).exec(labels)?.[1] : '';
    if (v !== undefined) out[v] = Number(m[2]);
  }
  return out;
}

export async function readStatus(opsUrl: string): Promise<Status> {
  const res = await fetch(`${opsUrl}/metrics`, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`${opsUrl}/metrics answered ${res.status}`);
  const text = await res.text();
  return {
    at: new Date().toISOString(),
    snapshotAgeSeconds: samplesOf(text, 'intel_snapshot_age_seconds', 'chain'),
    ingestLagSeconds: samplesOf(text, 'intel_ingest_head_lag_seconds', 'chain'),
    consumerLagRecords: samplesOf(text, 'intel_engine_lag_records', 'worker'),
    budget: {
      dailyUnits: samplesOf(text, 'intel_budget_daily_units')[''] ?? null,
      usedUnits: samplesOf(text, 'intel_budget_used_units')[''] ?? null,
    },
  };
}

export function renderStatus(s: Status, opsUrl: string): string {
  const rows = (title: string, m: Record<string, number>, unit: string) => {
    const keys = Object.keys(m).sort();
    if (keys.length === 0) return [`${title}`, '  (not reported by this process)'];
    return [title, ...keys.map((k) => `  ${k.padEnd(14)} ${String(m[k]).padStart(12)} ${unit}`)];
  };
  const { dailyUnits, usedUnits } = s.budget;
  const budget =
    dailyUnits === null || usedUnits === null
      ? '  (not reported)'
      : `  ${usedUnits} of ${dailyUnits} units used today (${((100 * usedUnits) / Math.max(1, dailyUnits)).toFixed(1)} %), ${Math.max(0, dailyUnits - usedUnits)} left`;
  return [
    `intel status  ${opsUrl}  ${s.at}`,
    '',
    ...rows('snapshot freshness (age of the newest answer)', s.snapshotAgeSeconds, 's'),
    ...rows('ingest lag per chain (head to last published block)', s.ingestLagSeconds, 's'),
    ...rows('engine consumer lag per worker', s.consumerLagRecords, 'records'),
    'data budget',
    budget,
    '',
  ].join('\n');
}

export async function statusCommand(args: string[], defaultOpsUrl: string): Promise<void> {
  const url = (flag(args, 'url') ?? defaultOpsUrl).replace(/\/$/, '');
  const json = args.includes('--json');
  const once = args.includes('--once') || json;
  const every = Math.max(1, Number(flag(args, 'every') ?? 2));
  if (once) {
    const s = await readStatus(url);
    process.stdout.write(json ? JSON.stringify(s) + '\n' : renderStatus(s, url));
    return;
  }
  for (;;) {
    let view: string;
    try {
      view = renderStatus(await readStatus(url), url);
    } catch (err) {
      view = `intel status  ${url}\n\n  not answering: ${err instanceof Error ? err.message : String(err)}\n`;
    }
    // clear the screen and redraw from the top
    process.stdout.write(`\x1b[2J\x1b[H${view}\n  every ${every} s; Ctrl-C to quit\n`);
    await new Promise((r) => setTimeout(r, every * 1000));
  }
}
