/**
 * Bench-only child for the embedded freshness run: the engine and the API of `intel start` (the
 * same runtime modules, on the same DATA_DIR) without the ingest role, plus a way in for events:
 * the parent sends `{type: 'publish', id, events}` over IPC, this process publishes them to its
 * in-process log (as the ingest role would) and answers `{type: 'published', id, at}` with the wall
 * time taken just before the publish. Ready (`{type: 'ready', url, base}`) once the engine has
 * folded what the log holds; `base` is what the parent needs to craft events after the newest
 * event of BENCH_TOKEN.
 */
import type { TokenState } from '../engine/token/state.ts';
import type { ChainEvent } from '../schemas/events.ts';
import { createServices, loadConfig, publishEvents, startApiThread, startEngine } from './runtime.ts';

const config = loadConfig(process.env);
const token = process.env.BENCH_TOKEN;
if (!token || !process.send) throw new Error('run by bench/freshness.ts (BENCH_TOKEN and an IPC channel)');
const send = (m: unknown) => process.send?.(m);
const services = await createServices(config);
let down = false;
const shutdown = () => {
  if (down) return;
  down = true;
  void services.shutdown().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.on('disconnect', shutdown);

// the API in its own thread, as `intel start` runs it: an answer crosses the port as it does there
const api = await startApiThread(services, (err) => {
  process.stderr.write(`the API thread failed: ${err.message}\n`);
  process.exit(1);
});
const engine = await startEngine(services);
const t0 = Date.now();
for (;;) {
  const lags = [...(await engine.token.lag()), ...(await engine.wallet.lag())];
  if (lags.length > 0 && lags.every((l) => l.lag === 0)) break;
  await new Promise((r) => setTimeout(r, 100));
}
const state = engine.token.state(`${config.DEFAULT_CHAIN}:${token}`) as TokenState | undefined;
if (!state?.meta.pool) throw new Error(`no state with a pool for ${token}`);
send({
  type: 'ready',
  url: api.url,
  caughtUpMs: Date.now() - t0,
  base: { chain: state.chain, token, pool: state.meta.pool, block: Math.floor(state.lastPosition / 100_000), ts: state.lastTs, price: state.price ?? 1 },
});
process.on('message', (m: { type: 'publish'; id: number; events: ChainEvent[] }) => {
  if (m.type !== 'publish') return;
  const at = Date.now();
  void publishEvents(services.log, m.events).then(() => send({ type: 'published', id: m.id, at }));
});
