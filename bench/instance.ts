/**
 * The service as a user runs it: `intel start` (what `npm start` runs) in its own process on a
 * fresh DATA_DIR, with the simulator backfilling its history; keys minted with the CLI before the
 * first start; caught up when the ops `/metrics` say the ingest has published its history and no
 * engine worker has records left to fold.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Child, Children, Options } from './lib.ts';
import { INTEL, du, freePort, log, metrics, sleep } from './lib.ts';

/** the operator overrides of the benchmark's key: far above what a run sends */
export const RATE_PER_MINUTE = 100_000_000;
export const DAILY_UNITS = 1_000_000_000;

export interface BenchKeys {
  /** the key every load uses */
  key: string;
  /** how the key came to be, printed once */
  note: string;
  /** X-RateLimit-Limit of the key as served */
  limit: number;
}

export interface Instance {
  name: string;
  days: number;
  dataDir: string;
  port: number;
  url: string;
  /** the operator endpoints (`/metrics`): OPS_PORT, kept across restarts */
  opsUrl: string;
  env: Record<string, string>;
  proc?: Child;
  token: string;
  keys: BenchKeys;
  /** seconds from the first spawn to caught up (the history backfilled and folded) */
  backfillS: number;
  /** data dir size right when caught up after the backfill */
  bytesCaughtUp: number;
  /** the process's resident memory right when caught up (bytes; 0 where /proc is not there) */
  rssCaughtUp: number;
  caughtUpAt: number;
}

/** resident memory of a process (VmRSS of /proc/<pid>/status), 0 where it cannot be read */
export function rssOf(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** an enterprise key of the operator organisation with the overrides, minted with the CLI */
export async function mintBenchKey(children: Children, env: Record<string, string>): Promise<{ key: string; command: string }> {
  const args = ['keys', 'create', '--plan', 'enterprise', '--rate-per-minute', String(RATE_PER_MINUTE), '--daily-units', String(DAILY_UNITS)];
  const made = await children.run('intel-keys', INTEL, args, env);
  const key = /key_live_[A-Za-z0-9]{38}/.exec(made.output)?.[0];
  if (made.code !== 0 || !key) throw new Error(`intel ${args.join(' ')} failed:\n${made.output}`);
  return { key, command: `intel ${args.join(' ')}` };
}

/** the served limit of the key must be the override, or the load would be rate limited */
export async function checkBenchKey(url: string, token: string, minted: { key: string; command: string }): Promise<BenchKeys> {
  const res = await tokenIntel(url, minted.key, token);
  await res.arrayBuffer();
  const limit = Number(res.headers.get('x-ratelimit-limit'));
  if (res.status !== 200 || limit < RATE_PER_MINUTE) throw new Error(`${minted.command}: served status ${res.status}, X-RateLimit-Limit ${limit}: the override is not honoured`);
  return { key: minted.key, limit, note: `${minted.command}: served X-RateLimit-Limit ${limit}` };
}

export function tokenIntel(url: string, key: string, token: string): Promise<Response> {
  return fetch(`${url}/v1/token-intel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
    signal: AbortSignal.timeout(10_000),
  });
}

/** asOf (unix seconds) of the served token-intel, or undefined when it is not served (yet) */
export async function servedAsOf(url: string, key: string, token: string): Promise<number | undefined> {
  try {
    const res = await tokenIntel(url, key, token);
    if (res.status !== 200) {
      await res.arrayBuffer();
      return undefined;
    }
    const body = (await res.json()) as { asOf?: string };
    return body.asOf ? Date.parse(body.asOf) / 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Caught up: the simulator has published its history and every engine worker has no record left
 * to fold. The simulator's cursor time is how far it has published; once live it moves every 25
 * blocks (300 simulated seconds), and its live clock starts where the backfill ended, so it stays
 * behind the wall clock by as long as this start's backfill took: published means within
 * (seconds since the spawn) + 300 / SIM_SPEED + 60 s of now. Before that, the cursor is a
 * history's length behind.
 */
export async function caughtUp(opsUrl: string, spawnedAt: number, simSpeed = 1): Promise<boolean> {
  try {
    const m = await metrics(opsUrl);
    const ingestLag = m.get('intel_ingest_lag_seconds{source="sim:simulator"}');
    if (ingestLag === undefined || ingestLag > (Date.now() - spawnedAt) / 1000 + 300 / simSpeed + 60) return false;
    const lags = [...m.entries()].filter(([k]) => k.startsWith('intel_engine_lag_records'));
    return lags.length > 0 && lags.every(([, v]) => v === 0);
  } catch {
    return false;
  }
}

export async function waitCaughtUp(opsUrl: string, spawnedAt: number, timeoutMs: number, proc?: Child): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let streak = 0;
  while (streak < 2) {
    if (proc && !proc.alive()) throw new Error(`${proc.name} exited:\n${proc.tail()}`);
    if (Date.now() > deadline) throw new Error(`not caught up within ${timeoutMs} ms${proc ? `:\n${proc.tail()}` : ''}`);
    streak = (await caughtUp(opsUrl, spawnedAt)) ? streak + 1 : 0;
    await sleep(500);
  }
}

export function spawnIntel(children: Children, inst: Pick<Instance, 'name' | 'env'>): Child {
  return children.start(inst.name, INTEL, ['start'], inst.env);
}

/** parses the start banner: base URL and the example token */
export async function ready(proc: Child, timeoutMs: number): Promise<{ url: string; token?: string }> {
  const m = await proc.waitFor(/intel API listening at (\S+)\/v1/, timeoutMs);
  const token = /"token":"(0x[0-9a-f]{40})"/.exec(proc.head())?.[1];
  return { url: m[1] as string, token };
}

/** a fresh data dir with `days` of history, started and caught up */
export async function createInstance(children: Children, opts: Options, tmp: string, name: string, days: number): Promise<Instance> {
  const dataDir = resolve(tmp, `${name}-data`);
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const opsPort = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    OPS_PORT: String(opsPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: opts.serverLogLevel,
    SIM_HISTORY_DAYS: String(days),
    // the global daily data budget must not end a run (the key's own overrides are asked for too)
    DAILY_UNIT_BUDGET: String(1e12),
    // no cap of requests per connection: past it the server closes the connection (Connection:
    // close) and refuses what the client pipelines meanwhile with 503, which a client reconnects
    // from but autocannon counts as non-2xx for the rest of its run (16 connections × 10,000 of
    // the default left every later request of a 12 s run refused, and the ratio at a third)
    HTTP_MAX_REQUESTS_PER_SOCKET: '0',
  };
  log(`[${name}] minting keys with the CLI on ${dataDir}`);
  const minted = await mintBenchKey(children, env);
  const t0 = Date.now();
  const proc = spawnIntel(children, { name, env });
  const banner = await ready(proc, 300_000);
  if (!banner.token) throw new Error(`[${name}] no example token in the start banner:\n${proc.head(4096)}`);
  log(`[${name}] intel start (${days}-day history) listening after ${((Date.now() - t0) / 1000).toFixed(1)} s; waiting until caught up`);
  const opsUrl = `http://127.0.0.1:${opsPort}`;
  await waitCaughtUp(opsUrl, t0, 20 * 60_000, proc);
  const caughtUpAt = Date.now();
  const backfillS = (caughtUpAt - t0) / 1000;
  const bytesCaughtUp = du(dataDir);
  const rssCaughtUp = rssOf(proc.child.pid);
  const keys = await checkBenchKey(banner.url, banner.token, minted);
  log(`[${name}] caught up ${backfillS.toFixed(1)} s after spawn; data dir ${(bytesCaughtUp / 1e6).toFixed(1)} MB; RSS ${(rssCaughtUp / 1e6).toFixed(0)} MB; token ${banner.token}`);
  log(`[${name}] keys: ${keys.note}`);
  return { name, days, dataDir, port, url: banner.url, opsUrl, env, proc, token: banner.token, keys, backfillS, bytesCaughtUp, rssCaughtUp, caughtUpAt };
}
