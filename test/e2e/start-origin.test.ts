import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { consoleOriginProblem, isLoopbackHost, loadConfig } from '../../infra/config.ts';
import { INTEL_BUILT, INTEL_NODE_ARGS, ROOT, buildIfStale } from '../../scripts/build.ts';
import { forgedCsrf, rawRequest } from '../console-client.ts';
import { startCli } from './cli.ts';

/** `intel start` as npm start runs it, to its exit: the code and everything it wrote */
async function startToExit(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  await buildIfStale();
  const dir = mkdtempSync(join(tmpdir(), 'intel-origin-'));
  try {
    const child = spawn(process.execPath, [...INTEL_NODE_ARGS, INTEL_BUILT, 'start'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    clearTimeout(timer);
    return { code, out };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a console reachable from other machines needs PUBLIC_URL', () => {
  it('tells loopback hosts from the others (IPv6 literals, capitals and look-alikes included)', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'LocalHost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '', '10.0.0.5', '192.168.1.2', 'localhost.evil.example', '127.0.0.1.nip.io', '::ffff:10.0.0.1', 'example.com']) expect(isLoopbackHost(h), h).toBe(false);
  });

  it('refuses only a console on a non-loopback host without PUBLIC_URL', () => {
    const problem = (env: Record<string, string>) => consoleOriginProblem(loadConfig(env));
    expect(problem({ HOST: '0.0.0.0' })).toMatch(/PUBLIC_URL/);
    expect(problem({ HOST: '::' })).toMatch(/not a loopback address/);
    expect(problem({ HOST: '0.0.0.0', PUBLIC_URL: 'https://intel.example.com' })).toBeUndefined();
    expect(problem({ HOST: '0.0.0.0', CONSOLE_ENABLED: 'false' })).toBeUndefined();
    expect(problem({})).toBeUndefined();
  });

  it('intel start on 0.0.0.0 without PUBLIC_URL exits non-zero and says why, before it listens', async () => {
    for (const host of ['0.0.0.0', '::']) {
      const { code, out } = await startToExit({ HOST: host });
      expect(code, out).not.toBe(0);
      expect(out).toContain(`intel: the partner console listens on ${host}, which is not a loopback address, and PUBLIC_URL is unset`);
      expect(out).not.toMatch(/listening at/);
    }
  }, 120_000);

  it('phished-session on npm start without PUBLIC_URL: the challenge and the e-mail link name the URL it listens on, whatever the Host', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intel-origin-'));
    const started = await startCli({ DATA_DIR: dir, SIM_HISTORY_DAYS: '1' });
    try {
      const headers = await forgedCsrf(started.url, (p) => p, { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
      const ch = await rawRequest(started.url, '/console/api/siwe/challenge', headers, { address: '0x000000000000000000000000000000000000dEaD', chainId: 1 });
      const m = parseSiweMessage(ch.json.message as string);
      expect({ domain: m.domain, uri: m.uri }).toEqual({ domain: new URL(started.url).host, uri: `${started.url}/console` });
      expect((await rawRequest(started.url, '/console/api/email/start', headers, { email: 'victim@example.com' })).status).toBe(200);
      await expect.poll(() => /"console_link":"([^"]+)"/.exec(started.output())?.[1]).toMatch(new RegExp(`^${started.url.replace(/[.]/g, '\\.')}/console#email-token=`));
    } finally {
      await started.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
