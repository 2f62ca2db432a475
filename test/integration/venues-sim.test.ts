/**
 * The venue simulator as the embedded default runs it: genesis fixed on the first start of a data
 * directory, history backfilled into the venue topic, then live; a restart resumes after the
 * cursor without re-publishing, and the engine grades the accounts from the topic.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEngine } from '../../runtime/engine.ts';
import { loadConfig } from '../../infra/config.ts';
import { createLogger, createServices } from '../../runtime/services.ts';
import type { Services } from '../../runtime/services.ts';
import { startVenueSources } from '../../runtime/venues.ts';
import type { VenueAccountSnapshot, VenueEvent } from '../../schemas/venues.ts';
import { VenueTopics } from '../../schemas/venues.ts';
import { Tables } from '../../infra/store/types.ts';
import { recording, startReplayServer } from '../fixtures/venues/replay-server.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function services(dir: string, env: Record<string, string> = {}): Promise<Services> {
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SIM_ENABLED: 'false', SIM_HISTORY_DAYS: '3', ...env });
  return createServices(config, createLogger({ LOG_LEVEL: 'silent' }));
}

async function topicEvents(s: Services): Promise<VenueEvent[]> {
  const out: VenueEvent[] = [];
  const c = await s.log.consume({
    groupId: `read-${Math.random()}`,
    topics: [VenueTopics.fills],
    fromBeginning: true,
    eachBatch: async (b) => {
      for (const r of b.records) out.push(JSON.parse(r.value) as VenueEvent);
    },
  });
  await new Promise((r) => setTimeout(r, 400));
  await c.stop();
  return out;
}

async function until(cond: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('venue simulator in the embedded mode', () => {
  it('backfills its history, resumes after its cursor on restart, and the engine grades the accounts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'venues-sim-'));
    dirs.push(dir);
    let clock = Date.UTC(2026, 0, 10);
    const now = () => clock;

    const s1 = await services(dir);
    const abort1 = new AbortController();
    const v1 = await startVenueSources(s1, { now, signal: abort1.signal });
    expect(v1.sim).toBeDefined();
    const genesisMs = (v1.sim?.truth.genesisTime ?? 0) * 1000;
    expect(genesisMs).toBe(clock - 3 * 86_400_000);
    const expected = v1.sim?.eventsBetween(genesisMs, clock) ?? [];
    await until(() => (v1.progress().venuesim?.events ?? 0) >= expected.length);
    abort1.abort();
    await Promise.all(v1.running);
    await s1.shutdown();

    // restart an hour later: same genesis, resumes after the cursor
    clock += 3_600_000;
    const s2 = await services(dir);
    const engine = await startEngine(s2);
    const abort2 = new AbortController();
    const v2 = await startVenueSources(s2, { now, signal: abort2.signal });
    expect(v2.sim?.truth.genesisTime).toBe(v1.sim?.truth.genesisTime);
    const more = v2.sim?.eventsBetween(expected.reduce((a, e) => Math.max(a, e.time), 0) + 1, clock) ?? [];
    expect(more.length).toBeGreaterThan(0);
    await until(() => (v2.progress().venuesim?.events ?? 0) >= more.length);
    const published = await topicEvents(s2);
    const id = (e: VenueEvent) => (e.type === 'perp_fill' ? e.fillId : e.tradeId);
    // partitions interleave: compare as sets, and nothing was published twice
    expect(published.map(id).sort()).toEqual([...expected, ...more].map(id).sort());
    expect(new Set(published.map(id)).size).toBe(published.length);
    // the engine folds the topic into graded accounts
    await until(async () => (await engine.perp.lag()).every((l) => l.lag === 0) && (await engine.prediction.lag()).every((l) => l.lag === 0));
    await until(async () => (await s2.store.list(Tables.snapshots, { prefix: 'perp:sim:' })).length === v2.sim?.truth.perps.accounts.length);
    const edge = v2.sim?.truth.perps.edge[0] as string;
    const row = await s2.store.get(Tables.snapshots, `perp:sim:${edge}`);
    const snap = JSON.parse(row?.body ?? '{}') as VenueAccountSnapshot;
    expect(snap.sample.closedTrades).toBeGreaterThan(15);
    expect(snap.grade).not.toBe('avoid');
    abort2.abort();
    await Promise.all(v2.running);
    await s2.shutdown();
  });

  it('runs nothing when the simulator is disabled and no venue URL is configured', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'venues-sim-off-'));
    dirs.push(dir);
    const s = await services(dir, { VENUE_SIM_ENABLED: 'false' });
    const v = await startVenueSources(s, { now: Date.now, signal: new AbortController().signal });
    expect(v.sim).toBeUndefined();
    expect(v.running).toHaveLength(0);
    await s.shutdown();
  });

  it('with venue URLs configured, the perps and prediction adapters feed the topic instead of the simulator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'venues-real-'));
    dirs.push(dir);
    let subs = 0;
    const perps = await startReplayServer({
      sessions: [recording('hyperliquid-userFills.session1.jsonl')],
      startsSession: (f) => f.includes('"subscribe"') && ++subs === 2,
    });
    const rtds = await startReplayServer({ sessions: [recording('polymarket-activity-trades.session1.jsonl')], startsSession: (f) => f.includes('"subscribe"') });
    try {
      const s = await services(dir, {
        PERPS_WS_URL: perps.url,
        PERPS_USERS: '0x8c967e73e6b15087c42a10d344cff4c96d877f1d, 0x31ca8395cf837de08b24da3f660e77761dfb974b',
        PREDICTION_WS_URL: rtds.url,
      });
      const abort = new AbortController();
      const v = await startVenueSources(s, { now: Date.now, signal: abort.signal });
      expect(v.sim).toBeUndefined();
      // perps: 3 fills of A and the counterparty's; prediction: every wallet (no filter), the repeat dropped
      await until(() => (v.progress().perps?.events ?? 0) >= 4 && (v.progress().prediction?.events ?? 0) >= 4);
      const events = await topicEvents(s);
      expect(events.filter((e) => e.venue === 'hyperliquid')).toHaveLength(4);
      expect(events.filter((e) => e.venue === 'polymarket')).toHaveLength(4);
      abort.abort();
      await Promise.all(v.running);
      await s.shutdown();
    } finally {
      await perps.close();
      await rtds.close();
    }
  });
});
