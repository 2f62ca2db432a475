/**
 * Bench-only child: the load generator, in its own process so that it never shares an event loop
 * with the server it measures. Only 127.0.0.1, bounded in time. Prints one line `RESULT {json}`.
 *
 *   node --import tsx bench/load.ts '<json LoadSpec>'
 *
 * The bench runs it as plain JavaScript (bench/lib.ts `plainScript`), without tsx's hooks thread.
 *
 * Modes:
 *   closed  autocannon, `connections` connections each sending its next request when the last
 *           answered, as fast as the server goes (the maximum rate)
 *   burst   autocannon with overallRate (-R): note that autocannon spends each connection's
 *           per-second quota back to back at the start of every second, so this is bursts, not
 *           an even rate
 *   paced   an open-loop, evenly spaced rate over `connections` keep-alive connections (raw
 *           sockets, one request in flight each); latency counts from each request's scheduled
 *           time (wrk2-style: a request that waits for a free connection counts its wait, so
 *           there is no coordinated omission)
 * Latencies are response times in ms with sub-ms resolution, 2xx only; requests rotate over the
 * given header sets (one per key).
 */
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import autocannon from 'autocannon';
import { quantile } from './quantile.ts';
import { machineTicks } from './procstat.ts';
import { slowSpells } from './slow.ts';
import type { SlowSpell } from './slow.ts';

export interface LoadSpec {
  mode: 'closed' | 'burst' | 'paced';
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>[];
  body?: string;
  connections: number;
  durationS: number;
  /** requests per second (burst, paced) */
  rate?: number;
  /**
   * paced: a file to write the counted 2xx latencies to (ms, float64 in the machine's byte
   * order, in request order), so that several runs can be pooled into one distribution (bench/api.ts)
   */
  latencyFile?: string;
}

export interface LoadResult {
  mode: LoadSpec['mode'];
  ok: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  durationS: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** autocannon's own p99 (integer ms; with overallRate, corrected for coordinated omission) */
  autocannonP99?: number;
  /**
   * the share of the machine's CPU time the hypervisor gave to other guests during the run
   * (/proc/stat steal; undefined where not told): a virtual machine's cores can be taken away for
   * tens of ms at a time, which every process on it, ours and the bare fastify alike, sees as latency
   */
  stealPct?: number;
  /**
   * paced: the longest the generator itself was late (its 1 ms dispatch loop's longest gap beyond
   * 1 ms, during the counted part): its own collections or descheduling. Latency counts from each
   * request's due time, so a stall of the generator shows in the p99 like one of the server
   */
  generatorLateMaxMs?: number;
  /**
   * paced: the moments answers were slow (over SLOW_MS), as spells of the due time (wall clock,
   * epoch ms), the most requests first (at most 5), and how many answers were slow in all: the
   * bench lays them beside what the server's threads did then (bench/api.ts)
   */
  slow?: { answers: number; spells: SlowSpell[] };
}

function stealSince(before: ReturnType<typeof machineTicks>): number | undefined {
  const after = machineTicks();
  if (!before || !after || after.total <= before.total) return undefined;
  return (100 * (after.steal - before.steal)) / (after.total - before.total);
}

function summarize(mode: LoadSpec['mode'], lat: number[], codes: Record<string, number>, errors: number, durationS: number, extra: Partial<LoadResult> = {}): LoadResult {
  lat.sort((a, b) => a - b);
  const q = (p: number) => quantile(lat, p);
  let ok = 0;
  let non2xx = 0;
  for (const [c, n] of Object.entries(codes)) if (c.startsWith('2')) ok += n;
  else non2xx += n;
  return { mode, ok, non2xx, errors, statusCodes: codes, durationS, rps: ok / durationS, p50: q(0.5), p90: q(0.9), p99: q(0.99), max: lat[lat.length - 1] ?? NaN, ...extra };
}

function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolveRun, reject) => {
    const lat: number[] = [];
    const codes: Record<string, number> = {};
    const t0 = performance.now();
    const inst = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.durationS,
        ...(spec.mode === 'burst' && spec.rate ? { overallRate: spec.rate } : {}),
        timeout: 10,
        requests: spec.headers.map((h) => ({ method: spec.method, path: spec.path, headers: h, ...(spec.body !== undefined ? { body: spec.body } : {}) })),
      },
      (err, result) => {
        if (err) return reject(err);
        const durationS = (performance.now() - t0) / 1000;
        resolveRun(summarize(spec.mode, lat, codes, result.errors + result.timeouts, durationS, { autocannonP99: result.latency.p99 }));
      },
    );
    inst.on('response', (_client, statusCode, _bytes, responseTime) => {
      codes[statusCode] = (codes[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) lat.push(responseTime);
    });
  });
}

/**
 * One keep-alive HTTP/1.1 connection on a raw socket, one request in flight at a time: the
 * request bytes are built once, the answer parsed just enough (status, Content-Length), so the
 * generator costs the shared cores little, as autocannon's own client does. No promise or object
 * per request: the answer is reported to `onAnswer` with the connection.
 */
class RawConnection {
  private buf: Buffer = Buffer.alloc(0);
  /** the request in flight (its index), -1 when idle */
  current = -1;
  /** false once the socket closed (the server may close one that stayed idle past its keep-alive timeout) */
  open = true;
  /** resolves once the connection is open (or failed) */
  readonly connected: Promise<void>;
  private readonly socket: Socket;

  constructor(
    host: string,
    port: number,
    private readonly onAnswer: (c: RawConnection, request: number, status: number) => void,
    onClose: () => void,
  ) {
    this.socket = connect({ host, port });
    this.connected = new Promise((r) => {
      this.socket.once('connect', () => r());
      this.socket.once('close', () => r());
    });
    this.socket.setNoDelay(true);
    this.socket.on('data', (d: Buffer) => this.onData(d));
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => {
      this.open = false;
      const i = this.current;
      this.current = -1;
      if (i >= 0) this.onAnswer(this, i, 0);
      onClose();
    });
  }

  send(request: number, bytes: Buffer): void {
    this.current = request;
    this.socket.write(bytes);
  }

  private onData(d: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buf.subarray(0, end).toString('latin1');
    const status = Number(head.slice(9, 12));
    const len = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
    if (!Number.isFinite(len)) {
      this.socket.destroy();
      return;
    }
    if (this.buf.length < end + 4 + len) return;
    this.buf = this.buf.subarray(end + 4 + len);
    const i = this.current;
    this.current = -1;
    if (i >= 0) this.onAnswer(this, i, status);
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * Request i is due at start + i / rate. Requests due while every connection is busy wait, in
 * order, for the next free one: their wait counts in their latency (from the due time), so a
 * stall of the server is measured in full (no coordinated omission). The due requests are the
 * range [dispatched, due): no queue of objects, nothing per request but its latency slot.
 */
/** seconds of a paced run at its rate before its requests are counted */
const WARMUP_S = 2;

async function runPaced(spec: LoadSpec): Promise<LoadResult> {
  const rate = spec.rate ?? 100;
  const u = new URL(spec.url);
  const port = Number(u.port || 80);
  const requests = spec.headers.map((h) => {
    const body = spec.body ?? '';
    const lines = [`${spec.method} ${spec.path} HTTP/1.1`, `host: ${u.host}`, 'connection: keep-alive', ...Object.entries(h).map(([k, v]) => `${k}: ${v}`)];
    if (spec.body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
    return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
  // the first WARMUP_S seconds are a warm-up, not counted: the connections open, and the generator's own
  // code is compiled, at the rate (a fresh generator's first requests wait on both)
  const warmup = Math.floor(rate * WARMUP_S);
  const total = warmup + Math.floor(rate * spec.durationS);
  const interval = 1000 / rate;
  /** latency of each 2xx answer (ms), by request index; NaN when none */
  const latency = new Float64Array(total).fill(NaN);
  const codes: Record<string, number> = {};
  let errors = 0;
  let closed = 0;
  let answered = 0;
  let due = 0;
  let dispatched = 0;
  const idle: RawConnection[] = [];
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((r) => (finish = r));

  // what is due now: checked on every answer as well as on the 1 ms tick, so a request goes out
  // when it is due and a connection is free, not in batches once a tick (at 12,000/s a tick held
  // 12-20 requests back for up to a tick: about 0.6 ms added to every latency, counted)
  const dispatch = () => {
    const nowDue = Math.min(total, Math.max(0, Math.floor((performance.now() - start) / interval) + 1));
    if (nowDue > due) due = nowDue;
    while (dispatched < due && idle.length > 0) {
      // the longest idle first, so every connection keeps being used (a connection left idle past
      // the server's keep-alive timeout is closed by it); a closed one leaves the pool
      const c = idle.shift() as RawConnection;
      if (!c.open) continue;
      const i = dispatched++;
      c.send(i, requests[i % requests.length] as Buffer);
    }
  };
  const onAnswer = (c: RawConnection, i: number, status: number) => {
    answered++;
    const counted = i >= warmup;
    if (status === 0) errors += counted ? 1 : 0;
    else {
      if (counted) codes[status] = (codes[status] ?? 0) + 1;
      if (counted && status >= 200 && status < 300) latency[i] = performance.now() - (start + i * interval);
      idle.push(c);
      dispatch();
    }
    if (answered === total) finish();
  };
  const conns = Array.from({ length: spec.connections }, () => new RawConnection(u.hostname, port, onAnswer, () => closed++));
  await Promise.all(conns.map((c) => c.connected));
  idle.push(...conns);
  const start = performance.now() + 50;
  const countedFrom = start + WARMUP_S * 1000;
  let lastLoop = start;
  let lateMax = 0;

  while (due < total) {
    const now = performance.now();
    if (now > countedFrom) lateMax = Math.max(lateMax, now - lastLoop - 1);
    lastLoop = now;
    dispatch();
    if (closed === conns.length) break;
    await new Promise((r) => setTimeout(r, 1));
  }
  if (closed < conns.length) {
    // the answers still in flight, at most 15 s (the timer cleared: a pending one kept the process alive 15 s after every run)
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([finished, new Promise((r) => (timer = setTimeout(r, 15_000)))]);
    clearTimeout(timer);
  }
  errors += Math.min(total - warmup, total - answered);
  const durationS = (performance.now() - start) / 1000 - WARMUP_S;
  for (const c of conns) c.close();
  const lat: number[] = [];
  for (let i = warmup; i < total; i++) if (!Number.isNaN(latency[i])) lat.push(latency[i] as number);
  if (spec.latencyFile) writeFileSync(spec.latencyFile, new Float64Array(lat));

  const slow = slowSpells(latency, warmup, interval, performance.timeOrigin + start);
  return { ...summarize('paced', lat, codes, errors, durationS), generatorLateMaxMs: lateMax, slow };
}

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const ticks = machineTicks();
const result = spec.mode === 'paced' ? await runPaced(spec) : await runAutocannon(spec);
result.stealPct = stealSince(ticks);
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
