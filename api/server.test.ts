/**
 * Slow and idle clients on the partners' port: raw sockets against the real app on 127.0.0.1
 * with short timeouts, so each scenario ends within seconds. Each asserts only that the server
 * closed the connection before a bound (the timeout, plus node's 250 ms check interval, plus slack).
 */
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { appPerTest } from '../test/api-app.ts';
import type { TestApp } from '../test/api-app.ts';

/** a raw connection: what the server sent, and when it closed (ms after `connect`) */
function open(port: number): { socket: Socket; received: () => string; closed: Promise<number> } {
  const t0 = Date.now();
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - t0)));
  return { socket, received: () => text, closed };
}

/** resolves to how long the connection lived, or to Infinity when it is still open after `boundMs` */
async function closedWithin(c: { closed: Promise<number> }, boundMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<number>((resolve) => (timer = setTimeout(() => resolve(Infinity), boundMs)));
  const ms = await Promise.race([c.closed, late]);
  clearTimeout(timer);
  return ms;
}

/** writes `lines` one every `everyMs` while the socket is open */
function trickle(socket: Socket, first: string, next: (i: number) => string, everyMs: number): void {
  socket.once('connect', () => socket.write(first));
  let i = 0;
  const timer = setInterval(() => {
    if (socket.writable) socket.write(next(i++));
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

describe('slow and idle clients on the partners port', () => {
  const boot = appPerTest();
  let t: TestApp;
  const sockets: Socket[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.destroy();
  });
  const track = <T extends { socket: Socket }>(c: T): T => (sockets.push(c.socket), c);

  it('a client trickling one header line every 2 s is cut once the headers timeout passes (408)', async () => {
    t = await boot({ http: { headersTimeoutMs: 3000, requestTimeoutMs: 6000 } });
    const { port } = await t.listen();
    const c = track(open(port));
    trickle(c.socket, 'POST /v1/probe HTTP/1.1\r\nHost: x\r\n', (i) => `X-Pad-${i}: y\r\n`, 2000);
    const lived = await closedWithin(c, 5000);
    expect(lived).toBeLessThan(5000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('a body trickled without end is cut once the request timeout passes, with a key or without', async () => {
    t = await boot({ http: { headersTimeoutMs: 1000, requestTimeoutMs: 3000 } });
    const { port } = await t.listen();
    const key = await t.newKey();
    const head = (auth: string) => `POST /v1/probe HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 60000\r\n${auth}\r\n{"n":`;
    const keyed = track(open(port));
    trickle(keyed.socket, head(`authorization: Bearer ${key}\r\n`), () => ' ', 200);
    const anonymous = track(open(port));
    trickle(anonymous.socket, head(''), () => ' ', 200);
    const [a, b] = await Promise.all([closedWithin(keyed, 5000), closedWithin(anonymous, 5000)]);
    expect(a).toBeLessThan(5000);
    expect(b).toBeLessThan(5000);
    expect(keyed.received()).toMatch(/^HTTP\/1\.1 408/);
    // without a key the answer is 401 at once, before the body; the connection still ends
    expect(anonymous.received()).toMatch(/^HTTP\/1\.1 (401|408)/);
  });

  it('idle connections beyond the cap are closed as they are accepted; those within it end at the headers timeout', async () => {
    t = await boot({ http: { maxConnections: 4, headersTimeoutMs: 2000, requestTimeoutMs: 4000 } });
    const { port } = await t.listen();
    const first = Array.from({ length: 4 }, () => track(open(port)));
    await new Promise((r) => setTimeout(r, 200));
    const beyond = Array.from({ length: 3 }, () => track(open(port)));
    const refused = await Promise.all(beyond.map((c) => closedWithin(c, 1000)));
    expect(refused.every((ms) => ms < 1000)).toBe(true);
    // the four within the cap are kept until the headers timeout, not beyond
    const kept = await Promise.all(first.map((c) => closedWithin(c, 4000)));
    expect(kept.every((ms) => ms >= 1500 && ms < 4000)).toBe(true);
  });

  it('a keep-alive connection idle after its answer is closed once the keep-alive timeout passes', async () => {
    t = await boot({ http: { keepAliveTimeoutMs: 1000 } });
    const { port } = await t.listen();
    const c = track(open(port));
    c.socket.once('connect', () => c.socket.write('GET /v1/ HTTP/1.1\r\nHost: x\r\n\r\n'));
    const lived = await closedWithin(c, 3000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(lived).toBeLessThan(3000);
  });

  it('a connection serves at most maxRequestsPerSocket requests: the last says Connection: close, one more is refused', async () => {
    t = await boot({ http: { maxRequestsPerSocket: 2, keepAliveTimeoutMs: 1000 } });
    const { port } = await t.listen();
    const c = track(open(port));
    c.socket.once('connect', () => c.socket.write('GET /v1/ HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3)));
    expect(await closedWithin(c, 4000)).toBeLessThan(4000);
    const heads = c.received().match(/HTTP\/1\.1 \d+[^]*?\r\n\r\n/g) ?? [];
    expect(heads.map((h) => h.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 503']);
    expect(heads[1]).toMatch(/connection: close/i);
  });
});
