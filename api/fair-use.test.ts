/**
 * Fair use of the daily budget over real HTTP (docs/console.md "Fair use"): a quota per
 * organisation beside the key's, and a share of the budget that sandbox keys together may use, so
 * that free sandbox organisations flooding at their limits never starve a live partner. The day is
 * compressed into a small budget: 1,000 units, sandboxes 20 % of it, each sandbox organisation 60.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../infra/config.ts';
import { appPerTest, probeOperation } from '../test/api-app.ts';
import type { TestApp } from '../test/api-app.ts';
import { dailyLimitsOf } from './metering.ts';
import { createInfraOperations } from './routes/infra.ts';

const COST = 5;
const BUDGET = 1_000;
const SANDBOX_ORG_UNITS = 60;
const config = loadConfig({ DAILY_UNIT_BUDGET: String(BUDGET), ORG_DAILY_UNITS_SANDBOX: String(SANDBOX_ORG_UNITS), SANDBOX_BUDGET_SHARE: '0.2' });
const limits = dailyLimitsOf(config);

interface Answer {
  status: number;
  body: { error?: string; detail?: string; limits?: Record<string, unknown> } & Record<string, unknown>;
  retryAfter: string | null;
}

describe('fair use of the daily budget', () => {
  const boot = appPerTest();
  let t: TestApp;
  let url: string;

  const call = async (key: string, method = 'POST', path = '/v1/probe'): Promise<Answer> => {
    const r = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(method === 'POST' ? { body: '{}' } : {}) });
    return { status: r.status, body: (await r.json()) as Answer['body'], retryAfter: r.headers.get('retry-after') };
  };

  async function start(waitMs = 0): Promise<void> {
    // the app as the runtime configures it (runtime/api.ts), with /v1/usage beside the probe
    t = await boot({ operations: [probeOperation({ cost: COST, waitMs })], more: ({ meter }) => createInfraOperations({ meter, config }), dailyUnitBudget: limits.budget, fairUse: limits });
    ({ url } = await t.listen());
  }

  /** a new sandbox organisation with `n` keys */
  async function sandboxOrg(n: number): Promise<string[]> {
    const org = await t.keys.createOrg(`sandbox-${Math.random()}`);
    const keys: string[] = [];
    for (let i = 0; i < n; i++) keys.push((await t.keys.createKey(org.id, 'sandbox')).plaintext);
    return keys;
  }

  /** each key calls until it is refused; the answers in order */
  async function flood(keys: string[]): Promise<Answer[]> {
    const out: Answer[] = [];
    for (const key of keys) {
      for (;;) {
        const a = await call(key);
        out.push(a);
        if (a.status !== 200) break;
      }
    }
    return out;
  }

  it('five sandbox organisations flooding at their limits leave a live key answered 200 all day', async () => {
    await start();
    const live = await t.newKey('pro');
    const orgs = await Promise.all([0, 1, 2, 3, 4].map(() => sandboxOrg(3)));
    const liveStatuses: number[] = [];
    const refusals: Answer[] = [];
    // the flood: each sandbox organisation spends what it may with all its keys, the live key calls between them
    for (const keys of orgs) {
      refusals.push(...(await flood(keys)).filter((a) => a.status !== 200));
      liveStatuses.push((await call(live)).status);
    }
    // the sandboxes together used their share and no more
    expect(t.meter.sandboxUsed(Date.now())).toBe(BUDGET * 0.2);
    expect(refusals.every((a) => a.status === 429 && a.body.error === 'rate_limited')).toBe(true);
    expect(refusals.some((a) => /share \(20 %, 200 units\)/.test(a.body.detail ?? ''))).toBe(true);
    // the rest of the day: the live key spends the budget the sandboxes could not touch
    while (t.meter.budgetUsed(Date.now()) + COST <= BUDGET) liveStatuses.push((await call(live)).status);
    expect(liveStatuses.length).toBe((BUDGET * 0.8) / COST);
    expect(new Set(liveStatuses)).toEqual(new Set([200]));
    // only the budget itself, used up by the live partner, refuses the live key
    const over = await call(live);
    expect([over.status, over.body.error]).toEqual([503, 'capacity']);
  });

  it('a sandbox call past the share answers 429 naming the share, with Retry-After to UTC midnight; usage shows it', async () => {
    await start();
    for (let i = 0; i < 4; i++) await flood(await sandboxOrg(1)); // 4 × 60 > 200
    const [late] = await sandboxOrg(1);
    const refused = await call(late as string);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/sandbox keys together have used their share .* live keys are not affected; it resets at the next UTC midnight/);
    const toMidnight = (Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now()) / 1000;
    expect(Math.abs(Number(refused.retryAfter) - toMidnight)).toBeLessThan(5);
    const usage = await call(late as string, 'GET', '/v1/usage');
    expect(usage.status).toBe(200);
    expect(usage.body.limits).toEqual({
      key: { dailyUnits: 10_000, usedUnits: 0, remainingUnits: 10_000 },
      org: { dailyUnits: SANDBOX_ORG_UNITS, usedUnits: 0, remainingUnits: SANDBOX_ORG_UNITS },
      sandbox: { share: 0.2, dailyUnits: 200, usedUnits: 200, remainingUnits: 0 },
      budget: { dailyUnits: BUDGET, usedUnits: 200, remainingUnits: 800 },
    });
    // a live key is told of no sandbox share: it does not apply to it
    const liveUsage = await call(await t.newKey('free'), 'GET', '/v1/usage');
    expect(liveUsage.body.limits).toEqual({
      key: { dailyUnits: 50_000, usedUnits: 0, remainingUnits: 50_000 },
      org: { dailyUnits: 50_000, usedUnits: 0, remainingUnits: 50_000 },
      budget: { dailyUnits: BUDGET, usedUnits: 200, remainingUnits: 800 },
    });
  });

  it('a key rotated to dodge its quota: the new key of the same organisation is refused by the organisation quota', async () => {
    await start();
    const org = await t.keys.createOrg('rotator');
    const first = (await t.keys.createKey(org.id, 'sandbox', undefined)).plaintext;
    const spent = await flood([first]);
    expect(spent.filter((a) => a.status === 200).length).toBe(SANDBOX_ORG_UNITS / COST);
    const rotated = (await t.keys.createKey(org.id, 'sandbox')).plaintext;
    const refused = await call(rotated);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/daily quota of 60 units for this organisation \(all its keys together\) exceeded/);
    // another organisation is not affected
    expect((await call((await sandboxOrg(1))[0] as string)).status).toBe(200);
  });

  it('many keys of one organisation calling at once spend no more than the organisation quota', async () => {
    await start(30);
    const keys = await sandboxOrg(6);
    // 6 keys × 4 concurrent calls: 120 units asked for at once, 60 allowed (calls in flight hold their units)
    const answers = await Promise.all(keys.flatMap((k) => [0, 1, 2, 3].map(() => call(k))));
    expect(answers.filter((a) => a.status === 200).length).toBe(SANDBOX_ORG_UNITS / COST);
    expect(answers.filter((a) => a.status === 429).length).toBe(24 - SANDBOX_ORG_UNITS / COST);
  });

  it('many sandbox organisations calling at once spend no more than the sandbox share', async () => {
    await start(30);
    const orgs = await Promise.all([0, 1, 2, 3, 4, 5].map(() => sandboxOrg(2)));
    // 6 organisations × 2 keys × 6 calls: 360 units asked for at once, the share is 200
    const answers = await Promise.all(orgs.flat().flatMap((k) => [0, 1, 2, 3, 4, 5].map(() => call(k))));
    expect(answers.filter((a) => a.status === 200).length).toBe(200 / COST);
    await new Promise((r) => setTimeout(r, 50));
    expect(t.meter.sandboxUsed(Date.now())).toBe(200);
  });
});
