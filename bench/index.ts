/**
 * `npm run bench`: speed and memory of the hot paths, printed as numbers and ratios (never
 * asserted by a test). Load goes only to 127.0.0.1 and is bounded in count and time.
 *
 *   1. engine fold throughput: the simulator's 10-day history through the token fold, events/s
 *   2. the whole embedded pipeline: simulator → in-process log → engine workers → store, events/s
 *   3. API latency: token-intel over HTTP on 127.0.0.1 with keep-alive, p50/p99 and requests/s,
 *      versus a bare fastify route on the same machine (the ratio is our overhead)
 *
 *   npx tsx bench/index.ts [--days 10] [--requests 5000] [--concurrency 16]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { startApi } from '../runtime/api.ts';
import { startEngine } from '../runtime/engine.ts';
import { deriveTokenSnapshot } from '../engine/token/derive.ts';
import { foldTokenEvent, initialTokenState } from '../engine/token/state.ts';
import type { TokenState } from '../engine/token/state.ts';
import { loadConfig } from '../infra/config.ts';
import { createLogger, createServices } from '../runtime/services.ts';
import { publishEvents } from '../ingest/publisher.ts';
import { createSimulator } from '../ingest/simulator/index.ts';
import type { ChainEvent, TokenEvent } from '../schemas/events.ts';

const arg = (n: string, d: number) => {
  const i = process.argv.indexOf(`--${n}`);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
const days = arg('days', 10);
const requests = Math.min(arg('requests', 5000), 50_000);
const concurrency = Math.min(arg('concurrency', 16), 64);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;

function simEvents(seed: number): { events: ChainEvent[]; genesis: number } {
  const genesis = Math.floor(Date.now() / 1000) - days * 86400;
  const sim = createSimulator({ seed, genesisTime: genesis, spanDays: days });
  const events: ChainEvent[] = [];
  for (const b of sim.blocksUntil(genesis + days * 86400)) events.push(...b.events);
  return { events, genesis };
}

async function benchFold(events: ChainEvent[]): Promise<void> {
  const t0 = performance.now();
  const states = new Map<string, TokenState>();
  for (const e of events) {
    if (e.type === 'candle') continue;
    const s = states.get(e.token) ?? initialTokenState(e.chain, e.token);
    states.set(e.token, foldTokenEvent(s, e as TokenEvent));
  }
  const foldMs = performance.now() - t0;
  const t1 = performance.now();
  for (const s of states.values()) if (s.meta.pool) deriveTokenSnapshot(s);
  const deriveMs = performance.now() - t1;
  console.log(`fold      ${events.length} events in ${foldMs.toFixed(0)} ms: ${Math.round(events.length / (foldMs / 1000))} events/s; derive ${states.size} tokens in ${deriveMs.toFixed(0)} ms (${(deriveMs / states.size).toFixed(2)} ms/token)`);
}

async function latency(url: string, init: RequestInit): Promise<{ p50: number; p99: number; rps: number }> {
  const times: number[] = [];
  let next = 0;
  const deadline = Date.now() + 60_000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests && Date.now() < deadline) {
        next++;
        const s = performance.now();
        const res = await fetch(url, init);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        times.push(performance.now() - s);
      }
    }),
  );
  const total = performance.now() - t0;
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? NaN;
  return { p50: q(0.5), p99: q(0.99), rps: times.length / (total / 1000) };
}

async function main(): Promise<void> {
  const { events } = simEvents(42);
  await benchFold(events);

  const dir = mkdtempSync(join(tmpdir(), 'intel-bench-'));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SIM_ENABLED: 'false', PORT: '0', DAILY_UNIT_BUDGET: '100000000' });
  const services = await createServices(config, createLogger({ LOG_LEVEL: 'silent' }));
  try {
    const engine = await startEngine(services);
    const t0 = performance.now();
    for (let i = 0; i < events.length; i += 5000) await publishEvents(services.log, events.slice(i, i + 5000));
    const publishMs = performance.now() - t0;
    for (;;) {
      const lag = [...(await engine.token.lag()), ...(await engine.wallet.lag())].reduce((a, l) => a + l.lag, 0);
      if (lag === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const pipeMs = performance.now() - t0;
    // retained memory, not garbage not yet collected (run with --expose-gc, as npm run bench does)
    (globalThis as { gc?: () => void }).gc?.();
    console.log(`pipeline  ${events.length} events published in ${publishMs.toFixed(0)} ms, folded and flushed in ${pipeMs.toFixed(0)} ms: ${Math.round(events.length / (pipeMs / 1000))} events/s; heap ${mb(process.memoryUsage().heapUsed)}, rss ${mb(process.memoryUsage().rss)}`);

    const api = await startApi(services, { port: 0 });
    const org = await api.keys.createOrg('bench');
    await api.keys.goLive(org.id, Date.now());
    const { plaintext } = await api.keys.createKey(org.id, 'enterprise');
    const token = events.find((e) => e.type === 'pool_created')?.token as string;
    const init: RequestInit = {
      method: 'POST',
      headers: { authorization: `Bearer ${plaintext}`, 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    };
    // the enterprise plan allows 2000 requests a minute: bench within it
    const ours = await latency(`${api.url}/v1/token-intel`, init).catch((e: unknown) => {
      console.log(`token-intel stopped: ${String(e)} (rate limit reached: lower --requests)`);
      return { p50: NaN, p99: NaN, rps: NaN };
    });
    const bare = Fastify();
    bare.post('/x', async () => ({ verdict: 'watch' }));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const addr = bare.server.address() as { port: number };
    const base = await latency(`http://127.0.0.1:${addr.port}/x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await bare.close();
    console.log(`api       token-intel p50 ${ours.p50.toFixed(2)} ms, p99 ${ours.p99.toFixed(2)} ms, ${ours.rps.toFixed(0)} req/s (concurrency ${concurrency})`);
    console.log(`baseline  bare fastify p50 ${base.p50.toFixed(2)} ms, p99 ${base.p99.toFixed(2)} ms, ${base.rps.toFixed(0)} req/s`);
    console.log(`ratio     token-intel / bare: p50 ×${(ours.p50 / base.p50).toFixed(2)}, throughput ×${(ours.rps / base.rps).toFixed(2)}`);
  } finally {
    await services.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
