/**
 * The IETF draft's rate-limit headers (draft-ietf-httpapi-ratelimit-headers-11) as a client parses
 * them, checked against the X-RateLimit-* and Retry-After of the same answer.
 */
import { expect } from 'vitest';

type Headers = Record<string, string | string[] | number | undefined>;

/** a structured-field list of `"name";k=v` items, by name */
function items(field: unknown): Record<string, Record<string, number>> {
  expect(typeof field, 'a structured-field list').toBe('string');
  const out: Record<string, Record<string, number>> = {};
  for (const item of (field as string).split(/,\s*/)) {
    const m = /^"([a-z]+)"((?:;[a-z]+=\d+)+)$/.exec(item);
    expect(m, `item ${item}`).not.toBeNull();
    const params = [...(m?.[2] ?? '').matchAll(/;([a-z]+)=(\d+)/g)].map(([, k, v]) => [k, Number(v)]);
    out[m?.[1] as string] = Object.fromEntries(params) as Record<string, number>;
  }
  return out;
}

/** RateLimit-Policy and RateLimit of a keyed answer: the minute's as X-RateLimit-* state it; a 429 for the rate says r=0 and t as Retry-After */
export function expectDraftHeaders(h: Headers, label: string): { minute: Record<string, number>; day?: Record<string, number> } {
  const policy = items(h['ratelimit-policy']);
  const state = items(h.ratelimit);
  expect(policy.minute, label).toEqual({ q: Number(h['x-ratelimit-limit']), w: 60 });
  expect(state.minute?.r, label).toBe(Number(h['x-ratelimit-remaining']));
  expect(state.minute?.t, label).toBeLessThanOrEqual(Number(h['x-ratelimit-reset']));
  if (state.minute?.r === 0) expect(state.minute.t, label).toBeGreaterThanOrEqual(1);
  if (policy.day) expect(policy.day.w, label).toBe(86400);
  expect(Object.keys(state), label).toEqual(Object.keys(policy));
  return { minute: state.minute as Record<string, number>, ...(state.day ? { day: state.day } : {}) };
}
