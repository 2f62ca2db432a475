import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../infra/store/types.ts';
import { Tables } from '../../infra/store/types.ts';
import { createEmbeddedStore } from '../../infra/store/embedded.ts';
import { cursorKey } from '../../ingest/publisher.ts';
import type { IngestCursor } from '../../ingest/publisher.ts';
import { SCHED_IDLE, chrtAvailable, threadNice, threadPolicy } from '../../infra/priority.ts';
import { Procs, poll, sleep } from './procs.ts';
import { SIM_GENESIS_KEY, embeddedSnapshots, simSwapCounts, snapshotMismatches, swapCounts } from './reference.ts';
import type { SimGenesis } from './reference.ts';

/**
 * crash-recovery on the embedded default, as a user runs it: `intel start` (ingest + engine + API
 * in one process) is SIGKILLed while the engine is still folding the backfill, after it wrote
 * checkpoints and after partners made successful calls; restarted on the same data dir it
 * restores the checkpoints, replays only the tail, and ends with snapshots equal to an
 * uninterrupted run over the same genesis and usage totals equal to the successful calls made
 * (the calls were made more than a flush interval before the kill: a crash loses at most the
 * last flush interval of usage, as documented).
 */
const SEED = 11;
const env = {
  PORT: '0',
  LOG_LEVEL: 'info',
  SIM_SEED: String(SEED),
  SIM_HISTORY_DAYS: '4',
  SIM_FUTURE_DAYS: '0',
  // the live part adds no block while the test runs
  SIM_SPEED: '0.001',
  VENUE_SIM_ENABLED: 'false',
  CHECKPOINT_INTERVAL_MS: '300',
};

async function call(url: string, method: string, path: string, key: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

/** the operator endpoints' URL the start banner prints (`/metrics` is not on the API's port) */
async function opsUrlOf(p: { waitFor(re: RegExp, ms: number): Promise<RegExpExecArray | string[]> }): Promise<string> {
  return (await p.waitFor(/operator endpoints at (http:\/\/\S+)/, 90_000))[1] as string;
}

async function engineLag(opsUrl: string): Promise<number | undefined> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text();
  const lags = [...text.matchAll(/^intel_engine_lag_records\{[^}]*\} (\d+)/gm)].map((m) => Number(m[1]));
  return lags.length === 0 ? undefined : lags.reduce((a, b) => a + b, 0);
}

/** seconds between now and the newest block the simulator published */
async function ingestLagSeconds(opsUrl: string): Promise<number | undefined> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text();
  const m = /^intel_ingest_lag_seconds\{source="sim:simulator"\} (\d+)/m.exec(text);
  return m ? Number(m[1]) : undefined;
}

describe('crash-recovery: intel start killed mid-stream and restarted', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'intel-crash-'));
  const procs = new Procs({ ...env, DATA_DIR: dataDir });
  afterAll(async () => {
    await procs.stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'SIGKILL while folding: the restart restores checkpoints; snapshots equal an uninterrupted run, usage equals the calls made',
    async () => {
      const key = (await procs.run('key', ['keys', 'create', '--plan', 'sandbox'])).trim().split('\n')[0] as string;
      expect(key).toMatch(/^key_test_\w+$/);
      const a = procs.start('start-a', ['start']);
      const url = (await a.waitFor(/intel API listening at (http:\/\/\S+)\/v1/, 90_000))[1] as string;
      const ops = await opsUrlOf(a);
      const token = (/"token":"(0x[0-9a-f]{40})"/.exec(a.output()) as RegExpExecArray)[1] as string;
      // reads first (infra/priority.ts): the API's thread keeps the process's priority, the
      // engine's and the ingest's thread (the main one) and the helpers run BACKGROUND_NICE below
      if (existsSync('/proc/thread-self')) {
        const apiThread = Number((await a.waitFor(/"api_thread":(\d+),"background_nice":19,[^\n]*"msg":"thread priorities set"/, 10_000))[1]);
        const pid = a.child.pid as number;
        const base = getPriority(apiThread);
        // the default BACKGROUND_NICE steps below it
        const below = Math.min(19, base + 19);
        expect(getPriority(pid)).toBe(below);
        // a thread started since is lowered at the next re-application (every 5 s); one that ended meanwhile is not ahead
        const ahead = () => readdirSync(`/proc/${pid}/task`).map(Number).filter((tid) => tid !== apiThread && (threadNice(tid) ?? Infinity) < below);
        await poll(async () => ahead().length === 0, 'every other thread to run below the API thread', 12_000, 250);
        expect(getPriority(apiThread)).toBe(base);
        // and in SCHED_IDLE (BACKGROUND_IDLE, with util-linux's chrt), the API's thread not
        if (chrtAvailable()) {
          const notIdle = () => readdirSync(`/proc/${pid}/task`).map(Number).filter((tid) => tid !== apiThread && ![undefined, SCHED_IDLE].includes(threadPolicy(tid, pid)));
          await poll(async () => notIdle().length === 0, 'every other thread in SCHED_IDLE', 12_000, 250);
          expect(threadPolicy(apiThread, pid)).toBe(0);
        }
      }

      // successful calls while the engine folds
      let units = 0;
      let calls = 0;
      for (const [path, n] of [
        ['/v1/token-intel', 4],
        ['/v1/token-signal', 3],
      ] as const) {
        for (let i = 0; i < n; i++) {
          const r = await call(url, 'POST', path, key, { token });
          expect(r.status, JSON.stringify(r.json)).toBe(200);
          units += Number(r.headers.get('x-usage-units'));
          calls++;
        }
      }
      // more than the usage writer's flush interval passes before the crash
      await sleep(1500);

      // mid-stream: token checkpoints written while the engine still has backfill records to fold
      // (how far the ingest has published by then depends on how the two share the process)
      // read through a client of the store of its own, beside the running process's
      const peek = await createEmbeddedStore({ dataDir });
      const foldingAtKill = await poll(
        async () => {
          const written = (await peek.list(Tables.checkpoints, { prefix: 'engine-token', limit: 1 })).length;
          const lag = await engineLag(ops);
          return written > 0 && lag !== undefined && lag > 0 ? lag : undefined;
        },
        'the engine to checkpoint while it is still folding the backfill',
        60_000,
        20,
      ).finally(() => peek.close());
      await a.kill('SIGKILL');
      expect(foldingAtKill).toBeGreaterThan(0);

      const b = procs.start('start-b', ['start']);
      const url2 = (await b.waitFor(/intel API listening at (http:\/\/\S+)\/v1/, 90_000))[1] as string;
      const ops2 = await opsUrlOf(b);
      // the backfill published to its end and folded: no engine lag for several polls in a row
      let stable = 0;
      await poll(
        async () => {
          const behind = await ingestLagSeconds(ops2);
          stable = behind !== undefined && behind < 600 && (await engineLag(ops2)) === 0 ? stable + 1 : 0;
          return stable >= 8;
        },
        'the restarted process to publish and fold the rest of the backfill',
        300_000,
        250,
      );

      // the restart restored the token worker's checkpoints (offsets past the start) rather than replaying from 0
      const restored = b
        .output()
        .split('\n')
        .filter((l) => l.includes('"msg":"restored checkpoint"'))
        .map((l) => JSON.parse(l) as { group: string; offset: number; keys: number })
        .filter((r) => r.group === 'engine-token');
      expect(restored.length).toBeGreaterThan(0);
      expect(restored.every((r) => r.offset > 0 && r.keys > 0)).toBe(true);

      const usage = await call(url2, 'GET', '/v1/usage', key);
      expect(usage.status).toBe(200);
      expect(usage.json).toMatchObject({ unitsToday: units, requestsToday: calls });

      await b.kill('SIGTERM');
      const store = await createEmbeddedStore({ dataDir });
      const snapshots = await store.list(Tables.snapshots);
      const genesis = JSON.parse(((await store.get(Tables.meta, SIM_GENESIS_KEY)) as Row).body) as SimGenesis;
      const cursor = JSON.parse(((await store.get(Tables.cursors, cursorKey('sim', 'simulator'))) as Row).body) as IngestCursor;
      await store.close();
      expect(genesis).toMatchObject({ seed: SEED, spanDays: 4 });

      const reference = await embeddedSnapshots(genesis, cursor.timestamp, {
        SIM_HISTORY_DAYS: env.SIM_HISTORY_DAYS,
        SIM_FUTURE_DAYS: env.SIM_FUTURE_DAYS,
        SIM_SPEED: env.SIM_SPEED,
        VENUE_SIM_ENABLED: 'false',
      });

      // every swap counted once, and every snapshot equal to the uninterrupted run's
      const truth = simSwapCounts(genesis, cursor.timestamp);
      const counts = swapCounts(snapshots);
      expect(counts.byToken).toEqual(Object.fromEntries(truth.byToken));
      expect(counts.walletTotal).toBe(truth.total);
      expect(snapshots.map((r) => r.key)).toEqual(reference.map((r) => r.key));
      const mismatches = snapshotMismatches(snapshots, reference);
      expect(mismatches.slice(0, 10), `${mismatches.length} of ${snapshots.length} snapshots differ`).toEqual([]);
    },
    600_000,
  );
});
