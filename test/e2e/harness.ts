import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApi } from '../../runtime/api.ts';
import { exampleNames } from '../../scripts/live-calls.ts';
import { startEngine } from '../../runtime/engine.ts';
import { loadConfig } from '../../infra/config.ts';
import { createLogger, createServices } from '../../runtime/services.ts';
import type { Services } from '../../runtime/services.ts';
import { publishEvents } from '../../ingest/publisher.ts';
import { createSimulator } from '../../ingest/simulator/index.ts';
import type { Simulator } from '../../ingest/simulator/index.ts';
import { createVenueSimulator } from '../../ingest/venuesim/index.ts';
import type { VenueSimulator } from '../../ingest/venuesim/index.ts';
import { publishVenueEvents } from '../../ingest/venuesim/pump.ts';
import type { KeyService } from '../../infra/keys.ts';
import type { JobRunner } from '../../infra/jobs.ts';
import type { Logger } from 'pino';
import { readJsonAnswer } from '../http-answer.ts';
import type { JsonAnswer } from '../http-answer.ts';

export interface Stack {
  url: string;
  /** the operator endpoints (`/metrics`, `/healthz`, `/readyz`) */
  opsUrl: string;
  sim: Simulator;
  /** the venue simulator (perps and prediction accounts), on the same genesis and seed */
  venueSim: VenueSimulator;
  services: Services;
  keys: KeyService;
  /** the API's scheduled jobs: `run` a period of one without waiting for its schedule */
  jobs: JobRunner;
  /** publish the simulators' blocks and venue fills up to a time and wait until the engine has folded them */
  advanceTo(unixSeconds: number): Promise<void>;
  /** a fresh key of a plan (its own rate window) */
  newKey(plan?: 'sandbox' | 'free' | 'pro' | 'enterprise'): Promise<string>;
  /** a live organisation entitled to these venues, and a pro key of it */
  livePartner(name: string, venues?: string[]): Promise<{ plaintext: string; orgId: string }>;
  call(method: 'GET' | 'POST', path: string, key: string | undefined, body?: unknown): Promise<JsonAnswer>;
  stop(): Promise<void>;
}

/**
 * The real app in-process on an ephemeral port over the embedded default, fed by the simulator
 * through the log, with the clock of the data in the test's hands.
 */
export async function startStack(opts: { seed: number; days: number; env?: Record<string, string>; genesisTime?: number; logger?: Logger }): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'intel-e2e-'));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SIM_ENABLED: 'false', PORT: '0', ...opts.env });
  const services = await createServices(config, opts.logger ?? createLogger({ LOG_LEVEL: 'silent' }));
  const genesisTime = opts.genesisTime ?? Math.floor(Date.now() / 1000) - opts.days * 86400;
  const sim = createSimulator({ seed: opts.seed, genesisTime, spanDays: opts.days });
  const venueSim = createVenueSimulator({ seed: opts.seed, genesisTime });
  let venueUntilMs = genesisTime * 1000;
  const engine = await startEngine(services);
  // webhook endpoints on RFC 2606's reserved names are accepted (no DNS is asked)
  const api = await startApi(services, { port: 0, webhookResolver: exampleNames });
  const org = await api.keys.createOrg('e2e');
  const call: Stack['call'] = async (method, path, key, body) => {
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return readJsonAnswer(await fetch(`${api.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  };
  return {
    url: api.url,
    opsUrl: api.opsUrl,
    sim,
    venueSim,
    services,
    keys: api.keys,
    jobs: api.jobs,
    async advanceTo(t) {
      const events = [];
      for (const b of sim.blocksUntil(t)) events.push(...b.events);
      for (let i = 0; i < events.length; i += 5000) await publishEvents(services.log, events.slice(i, i + 5000));
      if (t * 1000 > venueUntilMs) {
        await publishVenueEvents(services.log, venueSim.eventsBetween(venueUntilMs, t * 1000));
        venueUntilMs = t * 1000;
      }
      for (let stable = 0; stable < 3; ) {
        const lags = [...(await engine.token.lag()), ...(await engine.wallet.lag()), ...(await engine.perp.lag()), ...(await engine.prediction.lag())];
        stable = lags.every((l) => l.lag === 0) ? stable + 1 : 0;
        await new Promise((r) => setTimeout(r, 30));
      }
      // the API replica follows the snapshots topic: give it a moment to apply the last flush
      await new Promise((r) => setTimeout(r, 100));
    },
    async newKey(plan = 'sandbox') {
      if (plan === 'sandbox') return (await api.keys.createKey(org.id, 'sandbox')).plaintext;
      const live = await api.keys.createOrg(`e2e-${plan}`);
      await api.keys.goLive(live.id, Date.now());
      return (await api.keys.createKey(live.id, plan)).plaintext;
    },
    async livePartner(name, venues = []) {
      const live = await api.keys.createOrg(name);
      await api.keys.goLive(live.id, Date.now());
      for (const v of venues) await api.keys.entitle(live.id, v, true, Date.now());
      return { plaintext: (await api.keys.createKey(live.id, 'pro')).plaintext, orgId: live.id };
    },
    call,
    async stop() {
      await services.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
