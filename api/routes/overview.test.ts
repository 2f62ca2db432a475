import { describe, expect, it } from 'vitest';
import { ApiError } from '../../schemas/errors.ts';
import { composeOverview } from './token.ts';

describe('token-overview composition (SPEC rule 2)', () => {
  it('puts each component verbatim in its slot', async () => {
    const r = await composeOverview({ a: async () => ({ x: 1 }), b: async () => ({ y: [2] }) });
    expect(r).toEqual({ slots: { a: { x: 1 }, b: { y: [2] } }, failed: [] });
  });

  it('turns a failing component into an error object in its slot and names it in failed', async () => {
    const r = await composeOverview({
      a: async () => ({ x: 1 }),
      b: async () => {
        throw new ApiError('not_a_token', 'gone');
      },
      c: async () => {
        throw new Error('boom with internals');
      },
    });
    expect(r.failed).toEqual(['b', 'c']);
    expect(r.slots.a).toEqual({ x: 1 });
    expect(r.slots.b).toEqual({ error: 'not_a_token', detail: 'gone' });
    expect(r.slots.c).toEqual({ error: 'analysis_failed', detail: 'the c component could not be computed' });
    expect(JSON.stringify(r)).not.toContain('internals');
  });

  it('fails with 502 dossier_failed only when every component failed', async () => {
    const fail = async () => {
      throw new Error('x');
    };
    await expect(composeOverview({ a: fail, b: fail })).rejects.toMatchObject({ code: 'dossier_failed', status: 502 });
  });
});
