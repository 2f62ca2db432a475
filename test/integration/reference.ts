import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngine } from '../../runtime/engine.ts';
import { loadConfig } from '../../infra/config.ts';
import { createLogger, createServices } from '../../runtime/services.ts';
import type { Row } from '../../infra/store/types.ts';
import { Tables } from '../../infra/store/types.ts';
import { startIngest } from '../../runtime/ingest.ts';
import { createSimulator } from '../../ingest/simulator/index.ts';
import { poll, sleep } from './procs.ts';

/** the simulator's genesis as `intel ingest` stores it in the meta table */
export interface SimGenesis {
  seed: number;
  genesisTime: number;
  spanDays: number;
}
export const SIM_GENESIS_KEY = 'sim-genesis';

/**
 * The embedded run the distributed one must equal: the in-process log and the embedded store in
 * one process, the same genesis (pre-written to the meta table, as a first start would have) and
 * the simulator's clock pinned at `endTs`, so its backfill ends at the same block as the
 * distributed ingest's did and nothing is added live. Returns the latest snapshots.
 */
export async function embeddedSnapshots(genesis: SimGenesis, endTs: number, env: Record<string, string> = {}): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'intel-reference-'));
  // a clean environment: not the test process's KAFKA_BROKERS / CLICKHOUSE_URL
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SIM_SEED: String(genesis.seed), ...env });
  const services = await createServices(config, createLogger({ LOG_LEVEL: 'silent' }));
  try {
    await services.store.upsert(Tables.meta, [{ key: SIM_GENESIS_KEY, version: 1, body: JSON.stringify(genesis) }]);
    const engine = await startEngine(services);
    const ingest = await startIngest(services, { now: () => endTs * 1000 });
    await ingest.caughtUp;
    const lastBlock = lastBlockUntil(genesis, endTs);
    await poll(() => (ingest.cursors()['sim:simulator']?.block ?? -1) >= lastBlock, 'the reference ingest to publish its backfill', 120_000, 50);
    // folded when both workers have no lag several polls in a row (the wallet worker is fed by the token worker)
    for (let stable = 0; stable < 5; ) {
      const lags = [...(await engine.token.lag()), ...(await engine.wallet.lag())];
      stable = lags.every((l) => l.lag === 0) ? stable + 1 : 0;
      await sleep(50);
    }
    return await services.store.list(Tables.snapshots);
  } finally {
    await services.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** the last block (empty or not) the simulator generates up to and including endTs */
export function lastBlockUntil(genesis: SimGenesis, endTs: number, blockTimeSec = 12): number {
  return Math.floor((endTs - genesis.genesisTime) / blockTimeSec);
}

/** ground truth from the simulator itself: swaps per token and per trader up to endTs */
export function simSwapCounts(genesis: SimGenesis, endTs: number): { byToken: Map<string, number>; byTrader: Map<string, number>; total: number } {
  const sim = createSimulator({ seed: genesis.seed, genesisTime: genesis.genesisTime, spanDays: genesis.spanDays });
  const byToken = new Map<string, number>();
  const byTrader = new Map<string, number>();
  let total = 0;
  for (const b of sim.blocksUntil(endTs)) {
    for (const e of b.events) {
      if (e.type !== 'swap' || e.removed) continue;
      total++;
      byToken.set(`${e.chain}:${e.token}`, (byToken.get(`${e.chain}:${e.token}`) ?? 0) + 1);
      byTrader.set(`${e.chain}:${e.trader}`, (byTrader.get(`${e.chain}:${e.trader}`) ?? 0) + 1);
    }
  }
  return { byToken, byTrader, total };
}

/**
 * fields that depend on when snapshots were written rather than on the events (none are
 * wall-clock): token-changes compares with the snapshot written about an hour before, and which
 * snapshots were written depends on where the batches fell
 */
const FRESHNESS_FIELDS: readonly string[] = ['changes'];

function normalise(body: string): unknown {
  const v = JSON.parse(body) as Record<string, unknown>;
  for (const f of FRESHNESS_FIELDS) delete v[f];
  return v;
}

/** path and values of the first difference, or undefined when deep-equal */
function firstDiff(a: unknown, b: unknown, path = ''): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return `${path || '.'}: ${JSON.stringify(a)?.slice(0, 120)} ≠ ${JSON.stringify(b)?.slice(0, 120)}`;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const d = firstDiff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return undefined;
}

export function swapCounts(rows: Row[]): { byToken: Record<string, number>; byTrader: Record<string, number>; walletTotal: number } {
  const byToken: Record<string, number> = {};
  const byTrader: Record<string, number> = {};
  let walletTotal = 0;
  for (const r of rows) {
    const [kind, chain, id] = r.key.split(':') as [string, string, string];
    const body = JSON.parse(r.body) as { data?: { swaps: number }; activity?: { buys: number; sells: number } };
    if (kind === 'token' && body.data) byToken[`${chain}:${id}`] = body.data.swaps;
    if (kind === 'wallet' && body.activity) {
      const n = body.activity.buys + body.activity.sells;
      byTrader[`${chain}:${id}`] = n;
      walletTotal += n;
    }
  }
  return { byToken, byTrader, walletTotal };
}

/** `key: first difference` of every snapshot whose body (freshness fields aside) differs from the reference's */
export function snapshotMismatches(rows: Row[], reference: Row[]): string[] {
  const ref = new Map(reference.map((r) => [r.key, normalise(r.body)]));
  const out: string[] = [];
  for (const r of rows) {
    const diff = firstDiff(normalise(r.body), ref.get(r.key));
    if (diff) out.push(`${r.key}: ${diff}`);
  }
  return out;
}
