import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { ConfigSchema } from '../../infra/config.ts';
import { readJsonAnswer } from '../http-answer.ts';
import type { JsonAnswer } from '../http-answer.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const INTEL = resolve(ROOT, 'bin/intel.ts');

/**
 * The environment of a child: this process's, without any configuration key of the service (the
 * global setups export e.g. RPC_URL_DEVNET, which would start the devnet ingester), plus `env`.
 */
function childEnv(env: Record<string, string>): Record<string, string> {
  const configKeys = new Set(Object.keys(ConfigSchema.shape));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !configKeys.has(k)) out[k] = v;
  return { ...out, ...env };
}

/**
 * The environment of one distributed deployment's processes on a shared cluster: its servers, its
 * own database and topic prefix, its data dir; API ports ephemeral.
 */
export function distributedEnv(o: { brokers: string; clickhouseUrl: string; database: string; prefix: string; dataDir: string }): Record<string, string> {
  return {
    KAFKA_BROKERS: o.brokers,
    CLICKHOUSE_URL: o.clickhouseUrl,
    CLICKHOUSE_DATABASE: o.database,
    TOPIC_PREFIX: o.prefix,
    DATA_DIR: o.dataDir,
    PORT: '0',
    LOG_LEVEL: 'info',
  };
}

/** One `intel <role>` child process with its output captured. */
export interface Proc {
  name: string;
  child: ChildProcess;
  output(): string;
  /** resolves with the exit code (or the signal name) once the process has exited */
  exited: Promise<number | string | null>;
  alive(): boolean;
  /** waits until the output matches, failing when the process exits first or after timeoutMs */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  kill(signal: NodeJS.Signals): Promise<number | string | null>;
}

/**
 * Spawns `intel` commands as real child processes and remembers every one, so `stopAll` (called
 * from afterAll, also after a failure) ends them all: SIGTERM, then SIGKILL after a grace period.
 * A vitest worker that dies still takes its children with it (exit hook).
 */
export class Procs {
  private readonly all: Proc[] = [];
  private readonly onExit = (): void => {
    for (const p of this.all) if (p.alive()) p.child.kill('SIGKILL');
  };

  constructor(private readonly baseEnv: Record<string, string>) {
    process.once('exit', this.onExit);
  }

  start(name: string, args: string[], env: Record<string, string> = {}): Proc {
    // `node --import tsx`, not the tsx CLI: one process, so a SIGKILL reaches the service itself
    const child = spawn(process.execPath, ['--import', 'tsx', INTEL, ...args], {
      cwd: ROOT,
      env: childEnv({ ...this.baseEnv, ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | string | null>((r) => child.once('exit', (code, signal) => r(code ?? signal)));
    const alive = () => child.exitCode === null && child.signalCode === null;
    const proc: Proc = {
      name,
      child,
      output: () => out,
      exited,
      alive,
      async waitFor(re, timeoutMs = 60_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const m = re.exec(out);
          if (m) return m;
          if (!alive()) throw new Error(`${name} exited (${String(await exited)}) before printing ${re}:\n${tail(out)}`);
          if (Date.now() > deadline) throw new Error(`${name} did not print ${re} within ${timeoutMs} ms:\n${tail(out)}`);
          await sleep(100);
        }
      },
      kill(signal) {
        if (alive()) child.kill(signal);
        return exited;
      },
    };
    this.all.push(proc);
    return proc;
  }

  /** runs a command to its end; throws with its output when it fails */
  async run(name: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<string> {
    const p = this.start(name, args, env);
    const timer = setTimeout(() => p.child.kill('SIGKILL'), timeoutMs);
    const code = await p.exited;
    clearTimeout(timer);
    if (code !== 0) throw new Error(`intel ${args.join(' ')} exited with ${String(code)}:\n${tail(p.output())}`);
    return p.output();
  }

  /** ends every child still running: SIGTERM, SIGKILL after graceMs */
  async stopAll(graceMs = 10_000): Promise<void> {
    const running = this.all.filter((p) => p.alive());
    for (const p of running) p.child.kill('SIGTERM');
    await Promise.all(
      running.map(async (p) => {
        const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
        await p.exited;
        clearTimeout(timer);
      }),
    );
    process.removeListener('exit', this.onExit);
  }

  /** output of every child, for failure messages */
  dump(): string {
    return this.all.map((p) => `----- ${p.name} (${p.alive() ? 'running' : 'exited'})\n${tail(p.output())}`).join('\n');
  }
}

/**
 * A process's warning and error log lines (pino levels 40 and up), the last `max` of them, each
 * without its error's stack, which would push the line's own fields (a failed ingest's
 * resume_after_block) past the cut.
 */
export function warnings(out: string, max = 20): string {
  return out
    .split('\n')
    .filter((l) => /"level":(40|50|60)\b/.test(l))
    .slice(-max)
    .map((l) => withoutStack(l).slice(0, 600))
    .join('\n');
}

function withoutStack(line: string): string {
  try {
    const o = JSON.parse(line) as { err?: { stack?: unknown } };
    if (o.err && typeof o.err === 'object') delete o.err.stack;
    return JSON.stringify(o);
  } catch {
    return line;
  }
}

export function tail(s: string, lines = 40): string {
  return s.split('\n').slice(-lines).join('\n');
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** polls `check` until it returns a value other than undefined/false */
export async function poll<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, timeoutMs: number, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export interface ApiAnswer extends JsonAnswer {
  /** ms from the request to the whole answer */
  ms: number;
}

/** one API call with a key; throws when no answer comes within timeoutMs */
export async function callApi(url: string, method: 'GET' | 'POST', path: string, key: string, body?: unknown, timeoutMs = 30_000): Promise<ApiAnswer> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const t0 = Date.now();
  const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
  return { ...(await readJsonAnswer(res)), ms: Date.now() - t0 };
}
