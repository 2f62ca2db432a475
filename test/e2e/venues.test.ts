/**
 * Perps and prediction operations end to end: the real app in-process over the embedded default,
 * the engine fed through the log by the venue simulator, every venue operation called over HTTP
 * and its response validated against the published OpenAPI document.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../runtime/api.ts';
import type { ApiHandle } from '../../runtime/api.ts';
import { startEngine } from '../../runtime/engine.ts';
import type { EngineHandle } from '../../runtime/engine.ts';
import { loadConfig } from '../../infra/config.ts';
import { createLogger, createServices } from '../../runtime/services.ts';
import type { Services } from '../../runtime/services.ts';
import { validateResponse } from './openapi.ts';
import type { OpenApiDoc } from './openapi.ts';
import { createVenueSimulator } from '../../ingest/venuesim/index.ts';
import type { VenueSimulator } from '../../ingest/venuesim/index.ts';
import { publishVenueEvents } from '../../ingest/venuesim/pump.ts';

const DAYS = 6;
const GENESIS = 1_735_000_000; // fixed: the simulated history is the same on every run
const OPS = {
  '/perp-wallet': { id: 'perpWallet', method: 'post', cost: 2 },
  '/prediction-wallet': { id: 'predictionWallet', method: 'post', cost: 2 },
  '/copy/perp-leaders': { id: 'copyPerpLeaders', method: 'get', cost: 4 },
  '/copy/prediction-leaders': { id: 'copyPredictionLeaders', method: 'get', cost: 4 },
  '/perp-track-record': { id: 'perpTrackRecord', method: 'get', cost: 3 },
  '/prediction-track-record': { id: 'predictionTrackRecord', method: 'get', cost: 3 },
} as const;

describe('perps and prediction operations over the venue simulator', () => {
  let dir: string;
  let services: Services;
  let engine: EngineHandle;
  let api: ApiHandle;
  let sim: VenueSimulator;
  let doc: OpenApiDoc;
  let key: string;

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${api.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'intel-e2e-venues-'));
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SIM_ENABLED: 'false', PORT: '0' });
    services = await createServices(config, createLogger({ LOG_LEVEL: 'silent' }));
    engine = await startEngine(services);
    api = await startApi(services, { port: 0 });
    const org = await api.keys.createOrg('e2e-venues');
    key = (await api.keys.createKey(org.id, 'sandbox')).plaintext;
    sim = createVenueSimulator({ seed: 3, genesisTime: GENESIS });
    const events = sim.eventsBetween(GENESIS * 1000, (GENESIS + DAYS * 86400) * 1000);
    for (let i = 0; i < events.length; i += 1000) await publishVenueEvents(services.log, events.slice(i, i + 1000));
    for (let stable = 0; stable < 3; ) {
      const lags = [...(await engine.perp.lag()), ...(await engine.prediction.lag())];
      stable = lags.every((l) => l.lag === 0) ? stable + 1 : 0;
      await new Promise((r) => setTimeout(r, 30));
    }
    const accounts = sim.truth.perps.accounts.length + sim.truth.prediction.accounts.length;
    const deadline = Date.now() + 10_000;
    while (api.replica.list('perp', 'sim').length + api.replica.list('prediction', 'sim').length < accounts && Date.now() < deadline) await new Promise((r) => setTimeout(r, 30));
    await new Promise((r) => setTimeout(r, 100));
    doc = (await (await fetch(`${api.url}/v1/openapi.json`)).json()) as OpenApiDoc;
  }, 240_000);
  afterAll(async () => {
    await services?.shutdown();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('documents every venue operation with a unique operationId, its unit cost and schemas', () => {
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const [path, o] of Object.entries(OPS)) {
      const op = doc.paths[path]?.[o.method];
      expect(op, path).toBeDefined();
      expect(op?.operationId).toBe(o.id);
      expect(op?.['x-units']).toBe(o.cost);
    }
  });

  it('every venue operation answers 200, validates against the document and bills its cost', async () => {
    const edgePerp = sim.truth.perps.edge[0] as string;
    const edgePred = sim.truth.prediction.edge[0] as string;
    const requests: Record<string, () => ReturnType<typeof call>> = {
      '/perp-wallet': () => call('POST', '/v1/perp-wallet', { wallet: edgePerp }),
      '/prediction-wallet': () => call('POST', '/v1/prediction-wallet', { venue: 'sim', wallet: edgePred }),
      '/copy/perp-leaders': () => call('GET', '/v1/copy/perp-leaders?limit=5'),
      '/copy/prediction-leaders': () => call('GET', '/v1/copy/prediction-leaders?venue=sim'),
      '/perp-track-record': () => call('GET', '/v1/perp-track-record'),
      '/prediction-track-record': () => call('GET', '/v1/prediction-track-record?venue=sim'),
    };
    for (const [path, o] of Object.entries(OPS)) {
      const res = await (requests[path] as () => ReturnType<typeof call>)();
      expect(res.status, `${path}: ${JSON.stringify(res.json)}`).toBe(200);
      const op = doc.paths[path]?.[o.method] as { responses: Record<string, unknown> };
      const errors = validateResponse(doc, op.responses, res.json);
      expect(errors, `${path} response does not match the document`).toBeUndefined();
      expect(res.headers.get('x-usage-units'), path).toBe(String(o.cost));
    }
    // the validator is not vacuous
    const op = doc.paths['/perp-wallet']?.post as { responses: Record<string, unknown> };
    expect(validateResponse(doc, op.responses, { grade: 'great' })).toBeDefined();
  });

  it("the simulator's edge accounts lead both leader boards, graded mirror-worthy", async () => {
    for (const [path, truth] of [
      ['/v1/copy/perp-leaders?limit=10', sim.truth.perps],
      ['/v1/copy/prediction-leaders?limit=10', sim.truth.prediction],
    ] as const) {
      const res = await call('GET', path);
      const leaders = res.json.leaders as { rank: number; wallet: string; grade: string }[];
      expect(leaders.slice(0, truth.edge.length).map((l) => l.wallet).sort(), path).toEqual([...truth.edge].sort());
      for (const l of leaders.slice(0, truth.edge.length)) expect(l.grade).toBe('mirror-worthy');
      expect(leaders.map((l) => l.rank)).toEqual(leaders.map((_, i) => i + 1));
      // losers never lead
      const losing = truth.accounts.filter((a) => a.archetype === 'losing').map((a) => a.account);
      for (const l of leaders) expect(losing).not.toContain(l.wallet);
      const graded = res.json.graded as Record<string, number>;
      expect(Object.values(graded).reduce((a, b) => a + b, 0)).toBe(truth.accounts.length);
    }
  });

  it('perp-wallet and prediction-wallet: grades with reasons and bands only; unknown accounts 404; bad input 400', async () => {
    const losing = sim.truth.perps.accounts.find((a) => a.archetype === 'losing')?.account as string;
    const w = await call('POST', '/v1/perp-wallet', { wallet: losing });
    expect(w.json.grade).toBe('avoid');
    expect((w.json.reasons as string[]).length).toBeGreaterThan(0);
    expect(typeof w.json.summary).toBe('string');
    expect(w.json.performance).toMatchObject({ returnBand: expect.stringMatching(/loss/) });
    // derived only: no prices, sizes or PnL amounts anywhere in the body
    expect(JSON.stringify(w.json)).not.toMatch(/"(price|px|closedPnl|pnl|size|notional)"/);
    const never = await call('POST', '/v1/perp-wallet', { wallet: '0x' + '1'.repeat(40) });
    expect(never.status).toBe(404);
    expect(never.json.error).toBe('not_found');
    const onOtherVenue = await call('POST', '/v1/prediction-wallet', { venue: 'polymarket', wallet: sim.truth.prediction.edge[0] });
    expect(onOtherVenue.status).toBe(404);
    expect((await call('POST', '/v1/perp-wallet', { wallet: '0x1234' })).json.error).toBe('invalid_address');
    const badVenue = await call('POST', '/v1/perp-wallet', { venue: 'binance', wallet: losing });
    expect(badVenue.status).toBe(400);
    expect(badVenue.json.error).toBe('invalid_param');
    expect(badVenue.json.detail).toContain('venue');
    const limit = await call('GET', '/v1/copy/perp-leaders?limit=101');
    expect(limit.json.error).toBe('invalid_param');
    expect(limit.json.detail).toContain('limit');
    const def = await call('GET', '/v1/copy/prediction-leaders');
    expect((def.json.leaders as unknown[]).length).toBeLessThanOrEqual(20);
  });

  it('track records: hit rates per grade from recorded grades, misses and sample sizes stated, and the grades separated outcomes', async () => {
    for (const path of ['/v1/perp-track-record', '/v1/prediction-track-record']) {
      const res = await call('GET', path);
      const rows = res.json.rows as { grade: string; horizon: string; sample: number; resolved: number; hits: number; misses: number; inactive: number; pending: number; hitRatePct: number | null }[];
      expect(rows).toHaveLength(8);
      for (const r of rows) {
        expect(r.resolved).toBe(r.hits + r.misses);
        expect(r.sample).toBe(r.hits + r.misses + r.inactive + r.pending);
      }
      const mw = rows.find((r) => r.grade === 'mirror-worthy' && r.horizon === '1d');
      const avoid = rows.find((r) => r.grade === 'avoid' && r.horizon === '1d');
      expect(mw?.resolved, path).toBeGreaterThan(3);
      expect(avoid?.resolved, path).toBeGreaterThan(3);
      // misses are reported, not hidden: the sums cover every resolved checkpoint
      expect((mw?.hits ?? 0) + (mw?.misses ?? 0)).toBe(mw?.resolved);
      const sep = (res.json.separation as { horizon: string; spreadPct: number | null }[]).find((s) => s.horizon === '1d');
      expect(sep?.spreadPct, path).toBeGreaterThan(20);
      expect(res.json.accounts).toBe(11);
    }
  });
});
