import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { INTEL_BUILT, INTEL_NODE_ARGS, ROOT, buildIfStale } from '../../scripts/build.ts';

export interface Started {
  child: ChildProcess;
  url: string;
  /** the sandbox key, when this start printed one */
  key?: string;
  /** the curl the banner suggests */
  curl: string;
  output: () => string;
  stop: () => Promise<number | null>;
}

/** The environment without the distributed-mode and chain settings the test setup exported. */
function embeddedEnv(): Record<string, string | undefined> {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k === 'KAFKA_BROKERS' || k.startsWith('CLICKHOUSE_') || k.startsWith('RPC_URL_')) delete env[k];
  return env;
}

/**
 * Runs `intel start` as `npm start` does (the build when stale, scripts/build.ts, then node on the
 * built CLI) as a child process and waits for its banner.
 */
export async function startCli(env: Record<string, string>, timeoutMs = 90_000): Promise<Started> {
  await buildIfStale();
  const child = spawn(process.execPath, [...INTEL_NODE_ARGS, INTEL_BUILT, 'start'], {
    cwd: ROOT,
    env: { ...embeddedEnv(), PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = /intel API listening at (http:\/\/\S+)\/v1/.exec(out);
    const curl = /(curl -s -X POST .*)/.exec(out);
    if (m && curl) {
      const key = /sandbox key \(shown once, store it now\): (key_test_\w+)/.exec(out)?.[1];
      return {
        child,
        url: m[1] as string,
        key,
        curl: curl[1] as string,
        output: () => out,
        stop: async () => {
          child.kill('SIGTERM');
          return exited;
        },
      };
    }
    if (child.exitCode !== null) throw new Error(`intel start exited with ${child.exitCode}:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`intel start did not serve within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
