import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

describe('global daily data budget', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ seed: 5, days: 1, env: { DAILY_UNIT_BUDGET: '10', SANDBOX_BUDGET_SHARE: '1' } });
    await stack.advanceTo(stack.sim.truth.genesisTime + 86400);
  }, 120_000);
  afterAll(async () => stack?.stop());

  it('answers 503 capacity with Retry-After once the budget is used, across keys; usage still answers and shows it', async () => {
    const a = await stack.newKey();
    const b = await stack.newKey();
    const token = stack.sim.truth.tokens[0]?.address as string;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await stack.call('POST', '/v1/token-signal', i % 2 ? a : b, { token })).status);
    // 5 calls of 2 units use the 10 units; the 6th would exceed them
    expect(statuses).toEqual([200, 200, 200, 200, 200, 503]);
    const over = await stack.call('POST', '/v1/token-risk', a, { token });
    expect(over.status).toBe(503);
    expect(over.json.error).toBe('capacity');
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(86400);
    const usage = await stack.call('GET', '/v1/usage', a);
    expect(usage.status).toBe(200);
    expect(usage.json.budget).toMatchObject({ dailyUnits: 10, usedUnits: 10, remainingUnits: 0 });
    expect(usage.json.unitsToday).toBe(4); // key a made 2 of the 5 successful calls
    const catalog = await stack.call('GET', '/v1/', undefined);
    expect(catalog.status).toBe(200);
  });
});
