import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freshnessLines } from '../../runtime/banner.ts';
import { readStatus, renderStatus, samplesOf } from '../../runtime/status.ts';
import type { Status } from '../../runtime/status.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/**
 * Operations: the engine's distance from live, read from `/metrics`, rises while
 * ingestion is paused and falls once it resumes; `/readyz` is not ready while answers are older
 * than READY_MAX_AGE_SECONDS, and is once the engine caught up.
 */
const DAYS = 4;
const MAX_AGE = 3600;


describe('freshness, readiness and lag on the operator port', () => {
  let stack: Stack;
  const simAge = async () => samplesOf(await (await fetch(`${stack.opsUrl}/metrics`)).text(), 'intel_snapshot_age_seconds', 'chain').sim;
  const readyz = async () => {
    const r = await fetch(`${stack.opsUrl}/readyz`);
    return { status: r.status, body: (await r.json()) as { ready: boolean; checks: Record<string, string> } };
  };

  beforeAll(async () => {
    stack = await startStack({ seed: 7, days: DAYS, env: { READY_MAX_AGE_SECONDS: String(MAX_AGE) } });
  }, 300_000);
  afterAll(async () => stack?.stop());

  it('before any snapshot: not ready, naming the chain without one', async () => {
    const r = await readyz();
    expect(r.status).toBe(503);
    expect(r.body.checks.fresh).toMatch(/sim has no snapshot yet/);
    expect(r.body.checks.store).toBe('ok');
  });

  it('lag rises while ingestion is paused and falls after; ready only once caught up', async () => {
    // ingest half the history, then pause (the harness publishes only when asked)
    await stack.advanceTo(stack.sim.truth.genesisTime + 2 * 86400);
    const paused = await simAge();
    expect(paused).toBeGreaterThan(MAX_AGE);
    const r = await readyz();
    expect(r.status).toBe(503);
    expect(r.body.checks.fresh).toMatch(/sim is \d+ s behind/);
    // nothing is ingested: the answers only get older
    let later = paused as number;
    while (later <= (paused as number)) {
      await new Promise((res) => setTimeout(res, 250));
      later = (await simAge()) as number;
    }
    expect(later).toBeGreaterThan(paused as number);
    // ingestion resumes up to now: the lag falls below the bound, and /readyz says ready
    await stack.advanceTo(Math.floor(Date.now() / 1000));
    const caughtUp = (await simAge()) as number;
    expect(caughtUp).toBeLessThan(later);
    expect(caughtUp).toBeLessThanOrEqual(MAX_AGE);
    const ok = await readyz();
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.checks).toEqual({ store: 'ok', log: 'ok', fresh: 'ok' });
  }, 300_000);

  it('intel status: freshness per chain, consumer lag per worker and the budget, once as JSON from the command and as the terminal view', async () => {
    const key = await stack.newKey();
    expect((await stack.call('GET', '/v1/market-movers', key)).status).toBe(200);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/intel.ts', 'status', '--url', stack.opsUrl, '--json'], { env: { ...process.env, LOG_LEVEL: 'silent' } });
    const s = JSON.parse(stdout) as Status;
    expect(s.snapshotAgeSeconds.sim).toBeLessThanOrEqual(MAX_AGE);
    expect(Object.keys(s.consumerLagRecords).sort()).toEqual(['perp', 'prediction', 'token', 'wallet']);
    expect(s.consumerLagRecords.token).toBe(0);
    expect(s.budget.dailyUnits).toBe(1_000_000);
    expect(s.budget.usedUnits).toBeGreaterThanOrEqual(1);
    const view = renderStatus(await readStatus(stack.opsUrl), stack.opsUrl);
    expect(view).toMatch(/snapshot freshness[\s\S]*\n {2}sim +\d+ s/);
    expect(view).toMatch(/units used today/);
  }, 120_000);

  it('the banner says fresh only when every chain is within the bound', () => {
    expect(freshnessLines({ sim: 5 * 86400 }, MAX_AGE).join('\n')).toMatch(/NOT fresh yet \(sim: behind, newest answer 5 days old\)/);
    expect(freshnessLines({ sim: null }, MAX_AGE).join('\n')).toMatch(/NOT fresh yet \(sim: no snapshot yet\)/);
    expect(freshnessLines({ sim: 30, devnet: 12 }, MAX_AGE).join('\n')).toMatch(/answers are fresh \(sim: fresh, newest answer 30 s old; devnet: fresh/);
  });
});
