import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Procs } from './procs.ts';

/**
 * `intel start` spawns its API thread before anything else (runtime/api-thread.ts
 * spawnApiThreadEarly): a start that fails, before the thread is handed its port or after, still
 * ends the process with the error, and the waiting thread keeps nothing running.
 */
describe('intel start that cannot start: the process ends with the error', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'intel-start-failure-'));
  const procs = new Procs({ DATA_DIR: dataDir, LOG_LEVEL: 'info', SIM_HISTORY_DAYS: '1', SIM_FUTURE_DAYS: '0', VENUE_SIM_ENABLED: 'false' });
  let taken: Server | undefined;
  afterAll(async () => {
    await procs.stopAll();
    await new Promise((r) => (taken ? taken.close(r) : r(undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a setting it refuses: exits 1 naming it, while the early API thread still waits for its port', async () => {
    const p = procs.start('bad-port', ['start'], { PORT: 'not-a-port' });
    const code = await Promise.race([p.exited, new Promise((r) => setTimeout(() => r('still running after 60 s'), 60_000))]);
    expect(code).toBe(1);
    expect(p.output()).toMatch(/PORT/);
  }, 90_000);

  it('its port in use: the API thread fails to listen after it was handed the port; exits 1 with the address error', async () => {
    taken = createServer();
    const port = await new Promise<number>((r) => taken?.listen(0, '127.0.0.1', () => r((taken?.address() as { port: number }).port)));
    const p = procs.start('port-in-use', ['start'], { PORT: String(port), HOST: '127.0.0.1' });
    const code = await Promise.race([p.exited, new Promise((r) => setTimeout(() => r('still running after 90 s'), 90_000))]);
    expect(code).toBe(1);
    expect(p.output()).toMatch(/EADDRINUSE/);
  }, 120_000);
});
