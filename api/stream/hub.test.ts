import { describe, expect, it } from 'vitest';
import { createStreamHub } from './hub.ts';
import type { HubEvent } from './hub.ts';
import type { SnapshotEntry } from '../replica.ts';

const T = '0x' + 'ab'.repeat(20);
const W = '0x' + 'cd'.repeat(20);

function entry(version: number, body: unknown): SnapshotEntry {
  const text = JSON.stringify(body);
  return { version, text, value: <V>() => JSON.parse(text) as V };
}
function token(version: number, f: { verdict?: string; conviction?: number; pillarsLit?: number; smartBuyers?: number }): SnapshotEntry {
  return entry(version, {
    chain: 'sim',
    token: T,
    symbol: 'TKN',
    version,
    asOf: `2026-01-01T00:00:${String(version).padStart(2, '0')}.000Z`,
    verdict: f.verdict ?? 'watch',
    signal: { value: 'HOLD', conviction: f.conviction ?? 10 },
    pillarsLit: f.pillarsLit ?? 1,
    smartBuyers: f.smartBuyers ?? 0,
  });
}

describe('stream hub', () => {
  it('turns snapshot changes into token, board and wallet-grade events with consecutive seqs; unchanged fields give none', () => {
    const hub = createStreamHub({ retention: 100 });
    const seen: HubEvent[] = [];
    hub.listen((e) => seen.push(e));
    const k = `token:sim:${T}`;
    const v1 = token(1, {});
    hub.ingest(k, undefined, v1);
    hub.ingest(k, v1, token(2, {})); // same fields, newer asOf: no event
    hub.ingest(k, token(2, {}), token(3, { verdict: 'avoid' })); // token only
    hub.ingest(k, token(3, { verdict: 'avoid' }), token(4, { verdict: 'avoid', conviction: 70 })); // token and board
    hub.ingest(`wallet:sim:${W}`, undefined, entry(9, { chain: 'sim', wallet: W, version: 9, asOf: 'x', grade: 'watch' }));
    hub.ingest(`wallet:sim:${W}`, undefined, entry(10, { chain: 'sim', wallet: W, version: 10, asOf: 'y', grade: 'watch' }));
    const msgs = seen.map((e): Record<string, unknown> => ({ seq: e.seq, topic: e.topic, ...(JSON.parse(e.text) as Record<string, unknown>) }));
    expect(msgs.map((m) => [m.seq, m.topic, m['event']])).toEqual([
      // a token first seen: on its page and on the board
      [1, k, 'token.changed'],
      [2, 'board:sim', 'board.changed'],
      [3, k, 'token.changed'],
      [4, k, 'token.changed'],
      [5, 'board:sim', 'board.changed'],
      [6, `wallet:sim:${W}`, 'wallet.grade'],
    ]);
    expect(msgs[2]).toMatchObject({ changes: [{ metric: 'verdict', from: 'watch', to: 'avoid' }], current: { verdict: 'avoid' }, version: 3 });
    expect(msgs[4]).toMatchObject({ conviction: 70, verdict: 'avoid', token: T });
    expect(msgs[5]).toMatchObject({ from: null, to: 'watch' });
    expect(hub.head()).toBe(6);
  });

  it('replays after a seq in order, filtered by topic; past its retention it answers a gap', () => {
    const hub = createStreamHub({ retention: 3 });
    const k = `token:sim:${T}`;
    let prev: SnapshotEntry | undefined;
    for (let v = 1; v <= 5; v++) {
      const next = token(v, { smartBuyers: v });
      hub.ingest(k, prev, next);
      prev = next;
    }
    // v1: token and board; v2..v5: token only; the last 3 kept
    expect(hub.head()).toBe(6);
    const r = hub.replay(3, () => true);
    expect('events' in r && r.events.map((e) => e.seq)).toEqual([4, 5, 6]);
    expect(hub.replay(6, () => true)).toEqual({ events: [] });
    expect(hub.replay(3, (t) => t === 'board:sim')).toEqual({ events: [] });
    expect(hub.replay(2, () => true)).toMatchObject({ gap: expect.stringContaining('no longer kept') });
  });

  it('a body of another layout gives no event and no throw', () => {
    const errors: unknown[] = [];
    const hub = createStreamHub({ retention: 10, onError: (e) => errors.push(e) });
    hub.ingest(`token:sim:${T}`, undefined, { version: 1, text: 'not json', value: () => undefined as never });
    expect(hub.head()).toBe(0);
    expect(errors).toHaveLength(1);
  });
});
