/**
 * What a keyed call is told of its limits (docs/architecture.md "Decisions": rate limits): the rate-limit
 * headers and a request id on every answer of a keyed route, errors included; Retry-After from
 * the window; the daily quota per key, which keeps one key, even calling concurrently, from
 * spending the global daily budget.
 */
import { describe, expect, it } from 'vitest';
import { appPerTest, probeOperation } from '../test/api-app.ts';
import type { TestApp } from '../test/api-app.ts';
import { expectDraftHeaders } from '../test/ratelimit-headers.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('limits as a keyed call sees them', () => {
  const boot = appPerTest();
  let t: TestApp;
  const post = (key: string, payload: string, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/v1/probe', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra }, payload });

  it('every answer of a keyed route carries X-RateLimit-Limit, -Remaining, -Reset and X-Request-Id: 200, 400, 404, 405, 413, 429 and 503', async () => {
    t = await boot({ dailyUnitBudget: 2 });
    const key = await t.newKey('enterprise', { ratePerMinute: 8 });
    const answers = [
      await post(key, '{}'), // 200, 1 unit
      await post(key, '{"n":"x"}'), // 400 invalid_param
      await post(key, 'n=1', { 'content-type': 'text/plain' }), // 400: not JSON
      await post(key, '{"n":404}'), // 404 of the operation
      await t.app.inject({ method: 'GET', url: '/v1/probe', headers: { authorization: `Bearer ${key}` } }), // 405
      await post(key, JSON.stringify({ pad: 'x'.repeat(70_000) })), // 413
      await post(key, '{}'), // 200, 2 units: the budget is used
      await post(key, '{}'), // 503 capacity
      await t.app.inject({ method: 'PUT', url: '/v1/probe', headers: { authorization: `Bearer ${key}` } }), // 405 (no cost): the eighth call in the minute
      await post(key, '{}'), // 429
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 400, 400, 404, 405, 413, 200, 503, 405, 429]);
    const ids = new Set<string>();
    for (const [i, a] of answers.entries()) {
      const h = a.headers;
      expect(h['x-ratelimit-limit'], `answer ${i} (${a.statusCode})`).toBe('8');
      expect(h['x-ratelimit-remaining'], `answer ${i} (${a.statusCode})`).toMatch(/^\d+$/);
      expect(Number(h['x-ratelimit-reset']), `answer ${i} (${a.statusCode})`).toBeGreaterThanOrEqual(1);
      expect(Number(h['x-ratelimit-reset'])).toBeLessThanOrEqual(61);
      expect(h['x-request-id'], `answer ${i} (${a.statusCode})`).toMatch(UUID);
      expectDraftHeaders(h, `answer ${i} (${a.statusCode})`);
      ids.add(h['x-request-id'] as string);
    }
    expect(ids.size).toBe(answers.length);
    // each admitted call counted in the window; the refusals for the budget did not
    expect(answers.map((a) => Number(a.headers['x-ratelimit-remaining']))).toEqual([7, 6, 5, 4, 3, 2, 1, 1, 0, 0]);
    // no key: no limits to state, but a request id
    const anonymous = await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['x-request-id']).toMatch(UUID);
    expect(anonymous.headers['ratelimit']).toBeUndefined();
    // an enterprise key has no daily quota: the minute's policy alone; its 429 leaves none this minute until Retry-After
    expect(answers[7]?.headers['ratelimit-policy']).toBe('"minute";q=8;w=60');
    const limited = expectDraftHeaders(answers[9]?.headers ?? {}, '429');
    expect(limited.minute).toEqual({ r: 0, t: Number(answers[9]?.headers['retry-after']) });
  });

  it("429's Retry-After is the seconds until the oldest call in the window leaves it; X-RateLimit-Reset until the window is empty", async () => {
    let clock = Date.UTC(2026, 10, 24, 12, 0, 0);
    t = await boot({ now: () => clock });
    const key = await t.newKey('enterprise', { ratePerMinute: 2 });
    expect((await post(key, '{}')).statusCode).toBe(200);
    clock += 20_000;
    const second = await post(key, '{}');
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-ratelimit-reset']).toBe('61');
    clock += 10_000;
    const limited = await post(key, '{}');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    // the first call (30 s ago) leaves the one-minute window in 30 s (and the 100 ms of its slot)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(30);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(31);
    expect(Number(limited.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(50);
    expect(Number(limited.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(51);
    // a client reading only the draft's headers waits as long as Retry-After says
    expect(expectDraftHeaders(limited.headers, '429').minute).toEqual({ r: 0, t: Number(limited.headers['retry-after']) });
    expect(expectDraftHeaders(second.headers, 'second').minute).toEqual({ r: 0, t: Number(limited.headers['retry-after']) + 10 });
    clock += Number(limited.headers['retry-after']) * 1000;
    expect((await post(key, '{}')).statusCode).toBe(200);
  });

  it('the daily quota answers 429 naming the quota with Retry-After to the next UTC midnight', async () => {
    const clock = Date.UTC(2026, 10, 24, 23, 0, 0);
    t = await boot({ now: () => clock });
    const key = await t.newKey('enterprise', { dailyUnits: 2 });
    expect([(await post(key, '{}')).statusCode, (await post(key, '{}')).statusCode]).toEqual([200, 200]);
    const over = await post(key, '{}');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ error: 'rate_limited' });
    expect(over.json().detail).toMatch(/daily quota of 2 units/);
    expect(over.headers['retry-after']).toBe('3600');
    expect(over.headers['x-ratelimit-limit']).toBe('2000');
    // the day's policy: no units left, back at midnight as Retry-After says; the minute still has room
    expect(over.headers['ratelimit-policy']).toBe('"minute";q=2000;w=60, "day";q=2;w=86400');
    expect(expectDraftHeaders(over.headers, 'quota').day).toEqual({ r: 0, t: 3600 });
  });

  it('one sandbox key calling concurrently cannot spend past its daily quota, so the global budget is left to the others', async () => {
    // sandbox quota 10,000 units; a slow 1,000-unit operation; a global budget of 15,000 (the key's
    // quota alone: no organisation quota, sandboxes may use the whole budget; api/fair-use.test.ts has those)
    t = await boot({ operations: [probeOperation({ cost: 1000, waitMs: 100 })], dailyUnitBudget: 15_000, fairUse: { sandboxShare: 1, orgDailyUnits: { sandbox: null } } });
    const greedy = await t.newKey('sandbox');
    const answers = await Promise.all(Array.from({ length: 30 }, () => post(greedy, '{}')));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(answers.find((a) => a.statusCode === 429)?.json().detail).toMatch(/daily quota of 10000 units/);
    expect(t.meter.keyDay((await t.keys.resolve(greedy, Date.now()))!.id, Date.now()).units).toBe(10_000);
    // another partner still gets answers from what is left of the budget
    const other = await t.newKey('sandbox');
    expect((await post(other, '{}')).statusCode).toBe(200);
    expect(t.meter.budgetUsed(Date.now())).toBe(11_000);
  });
});
