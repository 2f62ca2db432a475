import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrackRecords } from '../../runtime/trackrecord.ts';
import { Tables } from '../../infra/store/types.ts';
import type { TokenSnapshot } from '../../schemas/token.ts';
import type { WalletSnapshot } from '../../schemas/wallet.ts';
import { startStack } from './harness.ts';
import { validateResponse } from './openapi.ts';
import type { OpenApiDoc } from './openapi.ts';
import type { Stack } from './harness.ts';

interface Catalog {
  endpoints: { path: string; method: string; cost: number; group: string }[];
}

const DAYS = 10;
const DAY = 86400;

/** The operations written here: path → [operationId, method, cost]. */
const OPS: Record<string, [string, 'GET' | 'POST', number]> = {
  '/trader-board': ['traderBoard', 'GET', 6],
  '/trader-score': ['traderScore', 'POST', 1],
  '/trader-style': ['traderStyle', 'POST', 1],
  '/trader-edge': ['traderEdge', 'POST', 1],
  '/trader-leaderboard': ['traderLeaderboard', 'GET', 6],
  '/wallet-health': ['walletHealth', 'POST', 2],
  '/wallet-analyze': ['walletAnalyze', 'POST', 3],
  '/wallet-pnl-quality': ['walletPnlQuality', 'POST', 1],
  '/wallet-trades': ['walletTrades', 'POST', 2],
  '/portfolio-risk': ['portfolioRisk', 'POST', 3],
  '/wallet-overview': ['walletOverview', 'POST', 14],
  '/copy-decision': ['copyDecision', 'POST', 3],
  '/copy-plan': ['copyPlan', 'POST', 3],
  '/copy-simulate': ['copySimulate', 'POST', 4],
  '/copy-overlap': ['copyOverlap', 'POST', 4],
  '/copy/top-traders': ['copyTopTraders', 'GET', 6],
  '/copy/spot-leaders': ['copySpotLeaders', 'GET', 6],
  '/copy/strategies': ['copyStrategies', 'GET', 6],
  '/signals/track-record': ['signalsTrackRecord', 'GET', 2],
  '/traders/track-record': ['tradersTrackRecord', 'GET', 2],
};

describe('trader, wallet, copy-trading and track-record operations over the simulator (issues 4 and 7)', () => {
  let stack: Stack;
  let doc: OpenApiDoc;
  let catalog: Catalog;
  let key: string;
  let edge: Set<string>;
  let leader: string;
  let otherLeader: string;
  let bot: string;
  let recordedAtDay: number;

  const validate = (path: string, method: 'get' | 'post', body: unknown) => {
    const op = doc.paths[path]?.[method];
    if (!op) throw new Error(`${method} ${path} is not in the document`);
    return validateResponse(doc, op.responses, body);
  };

  beforeAll(async () => {
    stack = await startStack({ seed: 11, days: DAYS });
    const g = stack.sim.truth.genesisTime;
    recordedAtDay = 8.5;
    await stack.advanceTo(g + recordedAtDay * DAY);
    key = await stack.newKey('enterprise');
    edge = new Set(stack.sim.truth.labels.edge);
    // serve (and so record) signals and grades at day 8.5, then let the simulator run past +24h
    for (const t of stack.sim.truth.tokens) {
      await stack.call('POST', '/v1/token-signal', key, { token: t.address });
      await stack.call('POST', '/v1/token-intel', key, { token: t.address });
    }
    for (const w of [...stack.sim.truth.labels.edge, ...stack.sim.truth.labels.bots.slice(0, 10)]) {
      await stack.call('POST', '/v1/trader-score', key, { wallet: w });
    }
    await stack.advanceTo(g + DAYS * DAY);
    const rows = await stack.services.store.list(Tables.snapshots, { prefix: 'wallet:sim:' });
    const snaps = rows.map((r) => JSON.parse(r.body) as WalletSnapshot);
    const mw = snaps.filter((s) => s.grade === 'mirror-worthy' && edge.has(s.wallet)).sort((a, b) => a.wallet.localeCompare(b.wallet));
    leader = (mw[0] as WalletSnapshot).wallet;
    otherLeader = (mw[1] as WalletSnapshot).wallet;
    bot = (snaps.find((s) => s.disqualifiers.bot) as WalletSnapshot).wallet;
    doc = (await stack.call('GET', '/v1/openapi.json', undefined)).json as unknown as OpenApiDoc;
    catalog = (await stack.call('GET', '/v1/', undefined)).json as unknown as Catalog;
  }, 300_000);
  afterAll(async () => stack?.stop());

  it('every operation is in the catalog and the OpenAPI document with a unique operationId and its documented cost', () => {
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const [path, [id, method, cost]] of Object.entries(OPS)) {
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op?.operationId, path).toBe(id);
      expect(op?.['x-units'], path).toBe(cost);
      const entry = catalog.endpoints.find((e) => e.path === path);
      expect(entry, path).toMatchObject({ method, cost });
    }
    const group = Object.fromEntries(catalog.endpoints.map((e) => [e.path, e.group]));
    expect(group).toMatchObject({ '/trader-board': 'market', '/trader-score': 'trader', '/wallet-health': 'wallet', '/copy-plan': 'copytrading', '/signals/track-record': 'signals' });
  });

  it('every operation answers 200, validates against the document and bills its documented cost', async () => {
    const bodies: Record<string, unknown> = {
      '/wallet-trades': { wallet: leader, limit: 10 },
      '/copy-plan': { wallet: leader, budgetUsd: 5000, maxOpenPositions: 4, stopLossPct: 20 },
      '/copy-simulate': { wallet: leader, budgetUsd: 5000, maxPerTradeUsd: 500, maxOpenPositions: 3, skipRiskAtOrAbove: 'high' },
      '/copy-overlap': { wallets: [leader, otherLeader, bot] },
    };
    const queries: Record<string, string> = { '/trader-leaderboard': '?limit=10', '/copy/top-traders': '?limit=5', '/trader-board': '?limit=5&chain=sim' };
    for (const [path, [id, method, cost]] of Object.entries(OPS)) {
      const res =
        method === 'GET'
          ? await stack.call('GET', `/v1${path}${queries[path] ?? ''}`, key)
          : await stack.call('POST', `/v1${path}`, key, bodies[path] ?? { wallet: leader });
      expect(res.status, `${id}: ${JSON.stringify(res.json).slice(0, 400)}`).toBe(200);
      expect(validate(path, method.toLowerCase() as 'get' | 'post', res.json), `${id} does not match the document`).toBeUndefined();
      expect(res.headers.get('x-usage-units'), id).toBe(String(cost));
      // derived values only: no raw USD sizing bases or prices leak from the snapshot
      const text = JSON.stringify(res.json);
      for (const secret of ['avgBuyUsd', 'openCostUsd', 'realisedUsd', 'costSoldUsd', 'refPrice', 'priceUsd']) expect(text, id).not.toContain(secret);
    }
    // the validator is not vacuous
    expect(validate('/trader-score', 'post', { grade: 'great' })).toBeDefined();
  });

  it('wallet reads carry wallet, asOf and ageSeconds; a wallet never seen is 404 not_found; input is checked', async () => {
    const s = await stack.call('POST', '/v1/trader-score', key, { wallet: leader });
    expect(s.json).toMatchObject({ wallet: leader, chain: 'sim', grade: 'mirror-worthy' });
    expect(typeof s.json.asOf).toBe('string');
    expect(s.json.ageSeconds).toBeGreaterThanOrEqual(0);
    const never = await stack.call('POST', '/v1/trader-score', key, { wallet: '0x' + '1'.repeat(40) });
    expect(never.status).toBe(404);
    expect(never.json.error).toBe('not_found');
    expect(String(never.json.detail)).toContain('never been seen');
    expect((await stack.call('POST', '/v1/wallet-health', key, { wallet: '0x12' })).json.error).toBe('invalid_address');
    expect((await stack.call('POST', '/v1/copy-plan', key, { wallet: leader, budgetUsd: 1 })).json.error).toBe('invalid_param');
    expect((await stack.call('POST', '/v1/copy-overlap', key, { wallets: [leader] })).json.error).toBe('invalid_param');
    expect((await stack.call('GET', '/v1/trader-leaderboard?limit=0', key)).json.error).toBe('invalid_param');
    expect((await stack.call('GET', '/v1/copy/spot-leaders?sort=x', key)).json.error).toBe('unknown_param');
    const bad = await stack.call('POST', '/v1/copy-decision', key, { wallet: bot });
    expect(bad.json.verdict).toBe('avoid');
    expect((bad.json.gates as { gate: string; passed: boolean }[]).find((g) => g.gate === 'clean')?.passed).toBe(false);
  });

  it('wallet-overview holds each part verbatim in its slot, failed empty, billed as the sum of its parts', async () => {
    const o = await stack.call('POST', '/v1/wallet-overview', key, { wallet: leader });
    expect(o.json.failed).toEqual([]);
    const bundle = o.json.bundle as { operations: string[]; units: number };
    expect(bundle.units).toBe(14);
    expect(bundle.operations).toHaveLength(8);
    const single = await stack.call('POST', '/v1/trader-edge', key, { wallet: leader });
    const slot = o.json.traderEdge as Record<string, unknown>;
    expect({ ...slot, ageSeconds: 0 }).toEqual({ ...single.json, ageSeconds: 0 });
  });

  it('copy-simulate says what would have been copied or skipped and why, with an outcome band', async () => {
    const r = await stack.call('POST', '/v1/copy-simulate', key, { wallet: leader, budgetUsd: 1000, maxOpenPositions: 1 });
    const trades = r.json.trades as { action: string; reason: string | null; token: string; chain: string }[];
    expect(trades.length).toBeGreaterThan(0);
    expect(r.json.copied as number).toBeGreaterThan(0);
    for (const t of trades) {
      expect(t.chain).toBe('sim');
      if (t.action === 'skipped') expect(t.reason).toBeTruthy();
    }
    expect((r.json.outcome as { band: string | null }).band).not.toBeNull();
  });

  it('portfolio-risk and wallet-trades never show an open position in a token that cannot be sold (red rug or honeypot flag) as a gain', async () => {
    const tokens = (await stack.services.store.list(Tables.snapshots, { prefix: 'token:sim:' })).map((r) => JSON.parse(r.body) as TokenSnapshot);
    const blocked = new Set(tokens.filter((t) => t.risk.flags.honeypot.flagged || t.risk.flags.rug.flagged).map((t) => t.token));
    expect(blocked.size).toBeGreaterThan(0);
    const wallets = (await stack.services.store.list(Tables.snapshots, { prefix: 'wallet:sim:' }))
      .map((r) => JSON.parse(r.body) as WalletSnapshot)
      .filter((s) => (s.positions ?? []).some((p) => p.status === 'open' && blocked.has(p.token)))
      .slice(0, 5);
    expect(wallets.length).toBeGreaterThan(0);
    for (const w of wallets) {
      // the engine joined the open book with the token-facts table: never the marked gain
      for (const p of (w.positions ?? []).filter((x) => x.status === 'open' && blocked.has(x.token))) {
        expect([p.outcome, p.unrealisedReturnPct, p.sellable], p.token).toEqual(['heavy-loss', -100, false]);
      }
      const pr = await stack.call('POST', '/v1/portfolio-risk', key, { wallet: w.wallet });
      const held = (pr.json.positions as { token: string; unrealised: string | null }[]).filter((p) => blocked.has(p.token));
      expect(held.length).toBeGreaterThan(0);
      for (const p of held) expect(p.unrealised, p.token).toBe('heavy-loss');
      expect(pr.json.flaggedExposurePct as number).toBeGreaterThan(0);
      const tr = await stack.call('POST', '/v1/wallet-trades', key, { wallet: w.wallet, status: 'open', limit: 30 });
      for (const t of tr.json.trades as { token: string; outcome: string | null; returnPct: number | null }[]) {
        if (blocked.has(t.token)) expect([t.outcome, t.returnPct], t.token).toEqual(['heavy-loss', -100]);
      }
    }
  });

  it('the traders the simulator gave a real edge lead trader-leaderboard and copy/spot-leaders', async () => {
    const lb = await stack.call('GET', '/v1/trader-leaderboard?limit=10', key);
    const top = (lb.json.leaders as { wallet: string }[]).map((l) => l.wallet);
    expect(top).toHaveLength(10);
    expect(top.filter((w) => edge.has(w)).length).toBeGreaterThanOrEqual(7);
    const sl = await stack.call('GET', '/v1/copy/spot-leaders?limit=10', key);
    const leaders = (sl.json.leaders as { wallet: string }[]).map((l) => l.wallet);
    expect(leaders.filter((w) => edge.has(w)).length).toBeGreaterThanOrEqual(7);
    const bots = new Set(stack.sim.truth.labels.bots);
    expect([...top, ...leaders].some((w) => bots.has(w))).toBe(false);
  });

  it('records each served verdict once per subject and hour, scores them past +1h and +24h, and reports hit rates with misses', async () => {
    // the scoring job, called directly over the same store (the server also runs it every minute)
    const job = createTrackRecords({ store: stack.services.store });
    await job.runScoring();
    const tokens = stack.sim.truth.tokens.length;
    const signals = await job.list('sim', ['tokenSignal']);
    // one record per token for the day-8.5 hour, however many times it was served since
    const g = stack.sim.truth.genesisTime;
    const early = signals.filter((r) => r.refTs < g + (recordedAtDay + 0.1) * DAY);
    expect(early.length).toBeLessThanOrEqual(tokens);
    expect(early.length).toBeGreaterThan(tokens / 2);
    for (const r of early) {
      expect(r.scores['1h']?.outcome).not.toBe('pending');
      expect(r.scores['24h']?.outcome).not.toBe('pending');
      // HOLD makes no directional claim: unscored once due, its return measured for the base rates
      if (r.value === 'HOLD') expect(r.scores['1h']?.outcome).toBe('unscored');
      expect(r.scores['7d']?.outcome).toBe('pending');
    }
    const measuredHolds = early.filter((r) => r.value === 'HOLD' && r.scores['1h']?.forwardReturnPct !== null);
    expect(measuredHolds.length).toBe(early.filter((r) => r.value === 'HOLD').length);

    // served again and again within the same snapshot hour: still one record
    const organic = (stack.sim.truth.tokens.find((t) => t.story === 'organic') as { address: string }).address;
    for (let i = 0; i < 3; i++) await stack.call('POST', '/v1/token-signal', key, { token: organic });
    await stack.call('POST', '/v1/token-overview', key, { token: organic });
    // the API records in the background: the record lands within a flush interval (100 ms)
    const servedSignals = async () => (await job.list('sim', ['tokenSignal'])).filter((r) => r.subject === organic);
    for (let t = Date.now(); (await servedSignals()).every((r) => r.refTs < g + (DAYS - 0.5) * DAY) && Date.now() - t < 3000; ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const again = await servedSignals();
    expect(new Set(again.map((r) => r.key)).size).toBe(again.length);
    expect(again.filter((r) => r.refTs >= g + (DAYS - 0.5) * DAY)).toHaveLength(1);

    const res = await stack.call('GET', '/v1/signals/track-record?limit=5', key);
    expect(res.status).toBe(200);
    if (process.env.SHOW_TRACK_RECORD) console.log(JSON.stringify(res.json.groups, null, 1));
    expect(validate('/signals/track-record', 'get', res.json)).toBeUndefined();
    const overall = res.json.overall as Record<string, { n: number; hits: number; misses: number; pending: number; void: number; unscored: number; hitRatePct: number | null }>;
    for (const h of ['1h', '24h'] as const) {
      const o = overall[h] as (typeof overall)['1h'];
      expect(o.hits + o.misses).toBeGreaterThan(0);
      expect(o.n).toBe(o.hits + o.misses + o.pending + o.void + o.unscored);
      expect(o.hitRatePct).toBeCloseTo((o.hits / (o.hits + o.misses)) * 100, 0);
    }
    // misses stay in the record
    expect((overall['1h'] as { misses: number }).misses + (overall['24h'] as { misses: number }).misses).toBeGreaterThan(0);
    const groups = res.json.groups as { operation: string; value: string; rule: string; baseRates: Record<string, { n: number; hitRatePct: number | null }> }[];
    expect(groups.some((gr) => gr.operation === 'tokenSignal')).toBe(true);
    // every hit rate beside its base rate: the rule over every token record measured at +1h
    const avoid = groups.find((gr) => gr.operation === 'tokenSignal' && gr.value === 'AVOID');
    expect(avoid).toBeDefined();
    expect(avoid?.baseRates['1h']?.n).toBeGreaterThanOrEqual(early.length - early.filter((r) => r.scores['1h']?.outcome === 'void').length);
    expect(groups.every((gr) => gr.baseRates['1h'] !== undefined && gr.baseRates['24h'] !== undefined)).toBe(true);
    expect(groups.some((gr) => gr.operation === 'tokenIntel')).toBe(true);
    const recent = res.json.recent as { token?: string; chain: string; outcome: string }[];
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThanOrEqual(5);
    for (const e of recent) {
      expect(e.token).toMatch(/^0x[0-9a-f]{40}$/);
      expect(['hit', 'miss']).toContain(e.outcome);
    }
    // recent[] pages by cursor: three pages of 5 are the one page of 15, nothing repeated (no
    // horizon becomes due meanwhile: the data's clock stands still)
    const fifteen = (await stack.call('GET', '/v1/signals/track-record?limit=15', key)).json.recent as unknown[];
    expect(fifteen.length).toBeGreaterThan(10);
    const paged: unknown[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 3; page++) {
      const p = await stack.call('GET', `/v1/signals/track-record?limit=5${cursor ? `&cursor=${cursor}` : ''}`, key);
      expect(p.status, JSON.stringify(p.json)).toBe(200);
      expect(validate('/signals/track-record', 'get', p.json)).toBeUndefined();
      paged.push(...(p.json.recent as unknown[]));
      cursor = p.json.next as string | null;
      if (!cursor) break;
    }
    expect(paged).toEqual(fifteen);
    expect((await stack.call('GET', '/v1/traders/track-record?cursor=bm9wZQ', key)).json).toMatchObject({ error: 'invalid_param' });

    const tr = await stack.call('GET', '/v1/traders/track-record', key);
    expect(tr.status).toBe(200);
    if (process.env.SHOW_TRACK_RECORD) console.log(JSON.stringify(tr.json.groups, null, 1));
    expect(validate('/traders/track-record', 'get', tr.json)).toBeUndefined();
    const trGroups = tr.json.groups as { operation: string; value: string; horizons: Record<string, { n: number; hits: number; misses: number }> }[];
    const mw = trGroups.find((gr) => gr.operation === 'traderScore' && gr.value === 'mirror-worthy');
    expect(mw?.horizons['24h']?.n).toBeGreaterThanOrEqual(edge.size / 2);
    // edge traders' later round trips were mostly profitable
    const h24 = mw?.horizons['24h'] as { hits: number; misses: number };
    expect(h24.hits + h24.misses).toBeGreaterThan(0);
    expect(h24.hits).toBeGreaterThanOrEqual(h24.misses);
  });
});
