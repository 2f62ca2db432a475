import { describe, expect, it } from 'vitest';
import { createBoardCache } from './market.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('board cache', () => {
  it('calls that miss while the board is computed wait for that one computation (no stampede when it expires under load)', async () => {
    const cache = createBoardCache<string>(1000);
    let computed = 0;
    let release: (v: string) => void = () => undefined;
    const compute = () => {
      computed++;
      return new Promise<string>((r) => (release = r));
    };
    const calls = Array.from({ length: 20 }, () => cache.get('board:sim', 0, false, compute));
    await tick();
    expect(computed).toBe(1);
    release('b1');
    const answers = await Promise.all(calls);
    expect(answers.every((a) => a.value === 'b1')).toBe(true);
    expect(await cache.get('board:sim', 500, false, compute)).toEqual({ value: 'b1', cached: true });
    // expired: computed again, once
    const again = [cache.get('board:sim', 1500, false, compute), cache.get('board:sim', 1500, false, compute)];
    await tick();
    expect(computed).toBe(2);
    release('b2');
    expect((await Promise.all(again)).map((a) => a.value)).toEqual(['b2', 'b2']);
  });

  it('a failed computation is not kept: its callers get the error, the next call computes again', async () => {
    const cache = createBoardCache<string>(1000);
    let n = 0;
    const failing = async (): Promise<string> => {
      n++;
      throw new Error('writer down');
    };
    const both = [cache.get('k', 0, false, failing), cache.get('k', 0, false, failing)];
    await expect(Promise.all(both)).rejects.toThrow('writer down');
    expect(n).toBe(1);
    expect(await cache.get('k', 0, false, async () => 'ok')).toEqual({ value: 'ok', cached: false });
  });

  it('refresh recomputes a fresh entry and replaces it', async () => {
    const cache = createBoardCache<string>(60_000);
    await cache.get('k', 0, false, async () => 'old');
    expect(await cache.get('k', 10, true, async () => 'new')).toEqual({ value: 'new', cached: false });
    expect(await cache.get('k', 20, false, async () => 'unused')).toEqual({ value: 'new', cached: true });
  });
});
