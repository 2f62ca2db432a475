import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { StreamControl } from '../../schemas/stream.ts';
import type { StreamEvent } from '../../schemas/stream.ts';
import { Client, settled } from './stream-client.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/**
 * The live stream against the running app: events follow the engine's snapshots, a
 * client that disconnects resumes from its last seq with exactly what a client that stayed
 * connected got, each event is billed, and refusals are the API's JSON errors.
 */
const DAYS = 8;

describe('live stream over WebSocket', () => {
  let stack: Stack;
  let wsUrl: string;
  let topics: string[];

  beforeAll(async () => {
    stack = await startStack({ seed: 23, days: DAYS });
    await stack.advanceTo(stack.sim.truth.genesisTime + 3 * 86400);
    wsUrl = `${stack.url.replace(/^http/, 'ws')}/v1/stream`;
    topics = ['board:sim', ...stack.sim.truth.tokens.map((t) => `token:sim:${t.address.toLowerCase()}`), ...stack.sim.truth.wallets.slice(0, 40).map((w) => `wallet:sim:${w.address.toLowerCase()}`)];
  }, 300_000);
  afterAll(async () => stack?.stop());

  it('delivers the engine’s token changes in seq order, and a client that disconnects resumes without gaps or repeats', async () => {
    const keyA = await stack.newKey('enterprise');
    const keyB = await stack.newKey('enterprise');
    const a = await Client.open(wsUrl, keyA);
    const b = await Client.open(wsUrl, keyB);
    const hello = StreamControl.parse(await a.next((m) => m.type === 'hello'));
    expect(hello).toMatchObject({ type: 'hello', unitsPerEvent: 1 });
    expect((await a.subscribe(topics)).type).toBe('subscribed');
    expect((await b.subscribe(topics)).type).toBe('subscribed');

    await stack.advanceTo(stack.sim.truth.genesisTime + 5 * 86400);
    await settled(a);
    await settled(b);
    const beforeDisconnect = b.events();
    expect(beforeDisconnect.length).toBeGreaterThan(0);
    const lastSeq = beforeDisconnect.at(-1)?.seq as number;
    await b.close();

    // while B is away the engine goes on
    await stack.advanceTo(stack.sim.truth.genesisTime + DAYS * 86400);
    const b2 = await Client.open(wsUrl, keyB);
    const hello2 = await b2.next((m) => m.type === 'hello');
    expect(hello2.stream).toBe(hello.type === 'hello' ? hello.stream : undefined);
    expect((await b2.subscribe(topics, { since: lastSeq, stream: hello2.stream })).type).toBe('subscribed');
    await settled(a);
    await settled(b2);

    const all = a.events();
    const resumed = [...beforeDisconnect, ...b2.events()];
    const seqs = resumed.map((e) => e.seq);
    // strictly increasing: no repeat, in order
    expect(seqs.every((s, i) => i === 0 || s > (seqs[i - 1] as number))).toBe(true);
    // exactly what the client that stayed connected got: no gap
    expect(resumed).toEqual(all);
    expect(b2.events().length).toBeGreaterThan(0);
    expect(all.some((e) => e.event === 'token.changed')).toBe(true);
    expect(all.some((e) => e.event === 'board.changed')).toBe(true);

    // content: the last change of each token is what the token operations answer now
    const lastOf = new Map<string, StreamEvent>();
    for (const e of all) if (e.event === 'token.changed') lastOf.set(e.token, e);
    let compared = 0;
    for (const [token, e] of [...lastOf].slice(0, 5)) {
      if (e.event !== 'token.changed') continue;
      const intel = await stack.call('POST', '/v1/token-intel', keyA, { token });
      const signal = await stack.call('POST', '/v1/token-signal', keyA, { token });
      expect(intel.status).toBe(200);
      expect(intel.json.verdict).toBe(e.current.verdict);
      expect(signal.json.signal).toBe(e.current.signal);
      // each event's changes lead from the previous event's current fields of that token
      const ofToken = all.filter((x) => x.event === 'token.changed' && x.token === token);
      for (let i = 1; i < ofToken.length; i++) {
        const prev = ofToken[i - 1] as Extract<StreamEvent, { event: 'token.changed' }>;
        const cur = ofToken[i] as Extract<StreamEvent, { event: 'token.changed' }>;
        for (const c of cur.changes) expect(c.from).toBe(prev.current[c.metric as keyof typeof prev.current]);
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(0);

    // billed one unit per event delivered, the control messages free
    const usageA = await stack.call('GET', '/v1/usage', keyA);
    // (and each compared token's token-intel, 1 unit, and token-signal, 2 units)
    expect(usageA.json.unitsToday).toBe(a.events().length + 3 * compared);
    expect((usageA.json.byOperation as Record<string, number>).stream).toBe(a.events().length);
    await Promise.all([a.close(), b2.close()]);
  }, 300_000);

  it('refuses a bad key with the API’s JSON error before any upgrade', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const ws = new WebSocket(wsUrl, { headers: { authorization: 'Bearer key_test_nope' } });
      ws.on('unexpected-response', (_req, r) => {
        let body = '';
        r.on('data', (d: Buffer) => (body += String(d)));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      });
      ws.on('open', () => reject(new Error('upgraded with a bad key')));
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_api_key' });
  });

  it('answers a topic it cannot serve, a bad message and a resume it cannot honour with JSON errors, and stays open', async () => {
    const key = await stack.newKey();
    const c = await Client.open(wsUrl, key);
    expect(await c.subscribe(['pools:sim'])).toMatchObject({ type: 'error', error: 'invalid_param' });
    expect(await c.subscribe(['board:mars'])).toMatchObject({ type: 'error', error: 'invalid_chain' });
    expect(await c.subscribe(['board:ethereum'])).toMatchObject({ type: 'error', error: 'invalid_chain' });
    expect(await c.subscribe(['token:sim:0x1234'])).toMatchObject({ type: 'error', error: 'invalid_address' });
    expect(await c.subscribe(['board:sim'], { since: 0, stream: 'another-process' })).toMatchObject({ type: 'error', error: 'resume_unavailable' });
    const at = c.messages.length;
    c.ws.send('not json');
    expect(await c.next((m) => m.type === 'error', at)).toMatchObject({ error: 'invalid_param' });
    for (const m of c.messages.filter((x) => x.type !== 'event')) expect(StreamControl.safeParse(m).success, JSON.stringify(m)).toBe(true);
    // still open: a good subscription is taken
    expect(await c.subscribe(['board:sim'])).toMatchObject({ type: 'subscribed', topics: ['board:sim'] });
    await c.close();
  });
});
