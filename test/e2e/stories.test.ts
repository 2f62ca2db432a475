import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/**
 * The simulator's accumulation story seen through the API: wallets the engine grades
 * mirror-worthy buy during the quiet phase, so the token shows in smart-money-radar before the
 * breakout the simulator scheduled for it.
 */
describe('smart-money-radar sees accumulation before the breakout', () => {
  let stack: Stack;
  let target: { address: string; symbol: string; breakoutAt: number; accumulationStart: number };

  beforeAll(async () => {
    stack = await startStack({ seed: 11, days: 10 });
    const acc = stack.sim.truth.tokens
      .filter((t) => t.story === 'accumulation' && t.breakoutAt !== undefined && t.accumulationStart !== undefined)
      .sort((a, b) => (b.breakoutAt as number) - (a.breakoutAt as number));
    // the latest breakout: by then the edge traders have the history a grade needs
    target = acc[0] as typeof target;
    await stack.advanceTo(target.breakoutAt - 2 * 3600);
  }, 300_000);
  afterAll(async () => stack?.stop());

  it('lists the accumulation token with its smart buyers while it has not broken out yet', async () => {
    const key = await stack.newKey();
    const radar = await stack.call('GET', '/v1/smart-money-radar?window=48&limit=20', key);
    expect(radar.status).toBe(200);
    expect(radar.json.setSize as number).toBeGreaterThan(0);
    const items = radar.json.accumulating as { token: string; smartBuyers: number }[];
    const hit = items.find((i) => i.token === target.address);
    expect(hit, `${target.symbol} not in ${JSON.stringify(items.map((i) => i.token))}`).toBeDefined();
    expect(hit?.smartBuyers).toBeGreaterThan(0);
    const inflection = await stack.call('POST', '/v1/token-inflection', key, { token: target.address });
    expect(inflection.json.state).not.toBe('breaking-out');
  });
});
