/**
 * `npm run openapi:examples`: records a live answer of every operation for the OpenAPI document.
 * Starts the real app as `npm start` does (ingest, engine, copy worker and API in one process on
 * the embedded default, fed by the built-in simulator, seeded) in a temporary data directory,
 * waits until the engine has folded the simulator's history, then calls every operation once
 * through the client (client/index.ts) with a sandbox key — the relay `/copy/agent/*` signed by a
 * throwaway wallet — and writes each request and its 200 answer (arrays cut to a few items) to
 * api/openapi-examples.json, which the document shows as the operations' examples.
 *
 * The simulator is seeded (SIM_SEED, default 42) and its history ends at the start, so a fresh
 * `npm start` knows the same tokens and wallets: the recorded requests are answerable there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createIntelClient } from '../client/index.ts';
import { RECORDED_EXAMPLES_FILE } from '../api/openapi.ts';
import type { RecordedExamples } from '../api/openapi.ts';
import { loadConfig } from '../infra/config.ts';
import { startApi } from '../runtime/api.ts';
import { startCopyRole } from '../runtime/copy.ts';
import { startEngine } from '../runtime/engine.ts';
import { startIngest } from '../runtime/ingest.ts';
import { createLogger, createServices } from '../runtime/services.ts';
import { DEFAULT_PUBLIC_URL } from './document.ts';
import { callEveryOperation, exampleNames, sendThrough, shortened } from './live-calls.ts';
import type { LiveDocument } from './live-calls.ts';

const say = (line: string) => process.stderr.write(`openapi:examples: ${line}\n`);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'intel-openapi-examples-'));
  const config = loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...(process.env.SIM_SEED ? { SIM_SEED: process.env.SIM_SEED } : {}) });
  const services = await createServices(config, createLogger(config));
  try {
    const api = await startApi(services, { port: 0, webhookResolver: exampleNames });
    const engine = await startEngine(services);
    await startCopyRole(services);
    const ingest = await startIngest(services);
    say(`app at ${api.url}; waiting for the simulator's ${config.SIM_HISTORY_DAYS} days (seed ${config.SIM_SEED}) to be folded`);
    await ingest.caughtUp;
    for (let idle = 0; idle < 3; ) {
      const lags = await Promise.all([engine.token, engine.wallet, engine.perp, engine.prediction].map((w) => w.lag()));
      idle = lags.flat().every((l) => l.lag === 0) ? idle + 1 : 0;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const org = await api.keys.createOrg('openapi-examples');
    // a throwaway wallet, the same at every run (fewer changes in the recorded file)
    const wallet = privateKeyToAccount(keccak256(toHex('intel openapi examples')));
    const send = sendThrough(async () =>
      createIntelClient({ baseUrl: `${api.url}/v1`, apiKey: (await api.keys.createKey(org.id, 'sandbox')).plaintext, walletSigner: wallet, partner: org.id }),
    );
    const doc = (await (await fetch(`${api.url}/v1/openapi.json`)).json()) as LiveDocument;
    const { subjects, calls } = await callEveryOperation(doc, send);
    const failed = calls.filter((c) => c.status !== 200);
    if (failed.length > 0) throw new Error(`not answered 200: ${failed.map((c) => `${c.request.operationId} ${c.status} ${JSON.stringify(c.body)}`).join('; ')}`);
    const recorded: RecordedExamples = {
      generated: { at: new Date().toISOString(), by: 'npm run openapi:examples', seed: config.SIM_SEED, historyDays: config.SIM_HISTORY_DAYS },
      subjects: { chain: subjects.chain, token: subjects.tokens[0] as string, wallet: subjects.wallets[0] as string },
      operations: Object.fromEntries(
        calls.map((c) => [
          c.request.operationId,
          { request: { ...(c.request.query ? { query: c.request.query } : {}), ...(c.request.body ? { body: c.request.body } : {}) }, response: shortened(c.body) as Record<string, unknown> },
        ]),
      ),
    };
    // the answers name the default base URL, not this run's port
    writeFileSync(RECORDED_EXAMPLES_FILE, `${JSON.stringify(recorded, null, 2).replaceAll(api.url, DEFAULT_PUBLIC_URL)}\n`);
    say(`wrote ${calls.length} operations' answers to ${RECORDED_EXAMPLES_FILE}; regenerate the client with npm run client:generate`);
  } finally {
    await services.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
