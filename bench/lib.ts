/**
 * What the bench sections share: options, child processes (spawned, remembered and ended by PID,
 * also on error and on SIGINT), polling, the ops `/metrics` text, `du`, percentiles and the lines
 * of the summary table.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, readdirSync, readSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { basename, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { ConfigSchema } from '../infra/config.ts';
import { INTEL_BUILT, INTEL_NODE_ARGS, ROOT } from '../scripts/build.ts';
import { sleep, tail } from '../test/integration/procs.ts';

export { poll, sleep, tail } from '../test/integration/procs.ts';

export { ROOT };
/**
 * The CLI as `npm start` runs it: built (scripts/build.ts; the bench builds it first, from the
 * sources it measures), run by node with INTEL_NODE_ARGS
 */
export const INTEL = INTEL_BUILT;

/**
 * A bench-only TypeScript script as plain JavaScript, for `node <file>` without tsx: written once
 * per bench under node_modules/.cache (so its packages resolve as from the repository). Why: a
 * process started with `--import tsx` carries the module hooks' thread (Node 20 runs hooks off the
 * main thread), and that thread's collections after the imports (memory-reducing mark-compacts of
 * 5-12 ms, 0.6 s apart) fell in the load generator's measured seconds, on the cores the server
 * under test shares: they showed as clusters of 5-12 ms answers at the same offsets of every run,
 * ours and the bare fastify's alike. esbuild is what tsx itself compiles with.
 */
export function plainScript(script: string): string {
  const out = resolve(ROOT, 'node_modules/.cache/intel-bench', `${basename(script, '.ts')}.mjs`);
  if (!plainScripts.has(out)) {
    // our modules it imports in the file, packages imported from node_modules
    buildSync({ entryPoints: [script], outfile: out, bundle: true, packages: 'external', format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning' });
    plainScripts.add(out);
  }
  return out;
}
const plainScripts = new Set<string>();

// ---------------------------------------------------------------------------------------------
// options

export const SECTIONS = ['fold', 'api', 'restart', 'freshness'] as const;
export type Section = (typeof SECTIONS)[number];

export interface Options {
  only: Set<Section>;
  /** seconds of each autocannon run (A and B alike) */
  duration: number;
  connections: number;
  /** history of the first instance (and of the fold section), and of the second restart run */
  days: number;
  longDays: number;
  /** events published one at a time in each freshness run, and the concurrent pollers watching */
  events: number;
  pollers: number;
  /** days of simulator history published to Kafka before the distributed freshness run */
  distDays: number;
  /** skip the Kafka + ClickHouse run, or the embedded run, of the freshness section */
  noDistributed: boolean;
  noEmbedded: boolean;
  /** LOG_LEVEL of the served process (`npm start` logs at info: one line per request) */
  serverLogLevel: string;
  keepTmp: boolean;
}

export function parseOptions(argv: string[]): Options {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    if (i >= 0) return argv[i + 1];
    return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  };
  const num = (name: string, d: number, min: number, max: number): number => {
    const v = value(name);
    const n = v === undefined ? d : Number(v);
    if (!Number.isFinite(n)) throw new Error(`--${name} takes a number`);
    return Math.min(max, Math.max(min, n));
  };
  const onlyArg = value('only');
  const only = new Set<Section>();
  for (const s of (onlyArg ?? SECTIONS.join(',')).split(',').map((x) => x.trim()).filter(Boolean)) {
    if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`--only takes a comma-separated list of ${SECTIONS.join(', ')}; got ${s}`);
    only.add(s as Section);
  }
  if (argv.includes('--help')) {
    process.stdout.write(
      [
        'npm run bench [-- options]',
        `  --only ${SECTIONS.join(',')}   sections to run (default all)`,
        '  --duration S        seconds per autocannon run (10)',
        '  --connections N     autocannon connections (16)',
        '  --days N            history of the first instance (10); --long-days N the second (20)',
        '  --events N          events published per freshness run (100); --pollers N polling loops (2)',
        '  --dist-days N       simulator history published to Kafka before the distributed run (1)',
        '  --no-distributed    skip the Kafka + ClickHouse freshness run; --no-embedded the embedded one',
        '  --server-log-level L  LOG_LEVEL of the served process (info, as npm start)',
        '  --keep-tmp          keep data dirs and logs',
        '',
      ].join('\n'),
    );
    process.exit(0);
  }
  return {
    only,
    duration: num('duration', 10, 1, 60),
    connections: num('connections', 16, 1, 256),
    days: num('days', 10, 1, 60),
    longDays: num('long-days', 20, 1, 60),
    events: Math.round(num('events', 100, 5, 2000)),
    pollers: Math.round(num('pollers', 2, 1, 16)),
    distDays: num('dist-days', 1, 0.1, 10),
    noDistributed: argv.includes('--no-distributed'),
    noEmbedded: argv.includes('--no-embedded'),
    serverLogLevel: value('server-log-level') ?? 'info',
    keepTmp: argv.includes('--keep-tmp'),
  };
}

// ---------------------------------------------------------------------------------------------
// child processes

/** One child process; its output goes to a file (a served process logs a line per request). */
export interface Child {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** the first `max` bytes of the output (where start-up lines are) */
  head(max?: number): string;
  /** the last lines of the output */
  tail(lines?: number): string;
  exited: Promise<number | string | null>;
  alive(): boolean;
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** sends the signal and waits for the exit; SIGKILL after graceMs */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | string | null>;
}

/**
 * The environment of a child: this process's without any configuration key of the service (a
 * DATA_DIR or KAFKA_BROKERS of the caller's shell must not leak into a bench run), plus `env`.
 */
function childEnv(env: Record<string, string>): Record<string, string> {
  const configKeys = new Set(Object.keys(ConfigSchema.shape));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !configKeys.has(k) && k !== 'NODE_OPTIONS') out[k] = v;
  return { ...out, ...env };
}

function readHead(file: string, max: number): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString();
  } finally {
    closeSync(fd);
  }
}

function readTail(file: string, max: number): string {
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  try {
    const len = Math.min(size, max);
    const buf = Buffer.alloc(len);
    const n = readSync(fd, buf, 0, len, size - len);
    return buf.subarray(0, n).toString();
  } finally {
    closeSync(fd);
  }
}

/**
 * Every child the bench starts, remembered so that `stopAll` (from a finally, and on SIGINT or
 * SIGTERM of the bench) ends each one by its PID: SIGTERM, then SIGKILL after a grace period.
 */
export class Children {
  private readonly all: Child[] = [];
  private readonly onExit = (): void => {
    for (const c of this.all) if (c.alive()) c.child.kill('SIGKILL');
  };

  constructor(private readonly logDir: string) {
    process.once('exit', this.onExit);
  }

  /**
   * `node <script> args`, one process per service: a TypeScript script with tsx's loader
   * (`--import tsx`), the built CLI (INTEL) as `npm start` runs it, JavaScript as it is
   * (`plainScript`)
   */
  start(name: string, script: string, args: string[], env: Record<string, string> = {}, opts: { ipc?: boolean } = {}): Child {
    const logFile = resolve(this.logDir, `${name}-${this.all.length}.log`);
    const fd = openSync(logFile, 'w');
    const node = script.endsWith('.ts') ? ['--import', 'tsx'] : script === INTEL ? INTEL_NODE_ARGS : [];
    const child = spawn(process.execPath, [...node, script, ...args], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: opts.ipc ? ['ignore', fd, fd, 'ipc'] : ['ignore', fd, fd],
    });
    closeSync(fd);
    const exited = new Promise<number | string | null>((r) => child.once('exit', (code, signal) => r(code ?? signal)));
    const alive = () => child.exitCode === null && child.signalCode === null;
    const c: Child = {
      name,
      child,
      logFile,
      head: (max = 1 << 20) => readHead(logFile, max),
      tail: (lines = 30) => tail(readTail(logFile, 64 * 1024), lines),
      exited,
      alive,
      async waitFor(re, timeoutMs = 120_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const m = re.exec(c.head());
          if (m) return m;
          if (!alive()) throw new Error(`${name} exited (${String(await exited)}) before printing ${re}:\n${c.tail()}`);
          if (Date.now() > deadline) throw new Error(`${name} did not print ${re} within ${timeoutMs} ms:\n${c.tail()}`);
          await sleep(50);
        }
      },
      async stop(signal = 'SIGTERM', graceMs = 30_000) {
        if (!alive()) return exited;
        child.kill(signal);
        const timer = setTimeout(() => {
          if (alive()) child.kill('SIGKILL');
        }, graceMs);
        const code = await exited;
        clearTimeout(timer);
        return code;
      },
    };
    this.all.push(c);
    return c;
  }

  /** runs a script to its end; returns its output, throws with it when the exit code is not 0 */
  async run(name: string, script: string, args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<{ code: number | string | null; output: string }> {
    const c = this.start(name, script, args, env);
    const timer = setTimeout(() => c.child.kill('SIGKILL'), timeoutMs);
    const code = await c.exited;
    clearTimeout(timer);
    return { code, output: c.head(4 << 20) };
  }

  async stopAll(graceMs = 15_000): Promise<void> {
    await Promise.all(this.all.filter((c) => c.alive()).map((c) => c.stop('SIGTERM', graceMs)));
    process.removeListener('exit', this.onExit);
  }
}

// ---------------------------------------------------------------------------------------------
// measuring helpers

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** disk usage of a directory in bytes (`du -sk`) */
export function du(dir: string): number {
  const out = execFileSync('du', ['-sk', dir], { encoding: 'utf8' });
  return Number(out.split(/\s/)[0]) * 1024;
}

/** the kernel's clock ticks a second (USER_HZ), the unit of /proc's CPU times: 100 on every Linux */
const CLK_TCK = 100;

/** CPU seconds (user + system) each thread of a process has used so far, by thread id; empty where there is no /proc */
export function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // the fields after the command name, from the state (field 3): utime and stime are 14 and 15
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, (Number(f[11]) + Number(f[12])) / CLK_TCK);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/**
 * A process's CPU between two `threadCpu` readings `seconds` apart, as shares of one core: its
 * busiest thread's (a server's event loop) and all its other threads' together (GC helpers,
 * workers, background work that competes with the load generator for the cores)
 */
export function cpuShares(before: Map<string, number>, after: Map<string, number>, seconds: number): { top: number; rest: number } {
  const used = [...after].map(([tid, s]) => s - (before.get(tid) ?? 0)).sort((a, b) => b - a);
  const top = used[0] ?? 0;
  const rest = used.slice(1).reduce((a, b) => a + b, 0);
  return { top: top / seconds, rest: rest / seconds };
}

export const MB = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** the q-quantile of ascending `sorted` (nearest rank) */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

export const ms = (n: number, digits = 2) => (Number.isFinite(n) ? `${n.toFixed(digits)} ms` : 'n/a');
export const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a');

/** samples of the ops `/metrics` text: `name{labels}` → value */
export async function metrics(opsUrl: string): Promise<Map<string, number>> {
  const res = await fetch(`${opsUrl}/metrics`, { signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

export function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

// ---------------------------------------------------------------------------------------------
// the summary table

export interface Verdict {
  what: string;
  measured: string;
  target: string;
  /**
   * undefined when the measurement did not run or failed; 'inconclusive' when it missed the target
   * and so did the bare fastify measured beside it under the same conditions (the machine, not us)
   */
  met: boolean | 'inconclusive' | undefined;
}

export class Summary {
  readonly rows: Verdict[] = [];
  add(what: string, measured: string, target: string, met: Verdict['met']): void {
    this.rows.push({ what, measured, target, met });
  }
  print(): void {
    const w = [0, 0, 0];
    for (const r of this.rows) {
      w[0] = Math.max(w[0] as number, r.what.length);
      w[1] = Math.max(w[1] as number, r.measured.length);
      w[2] = Math.max(w[2] as number, r.target.length);
    }
    const line = (a: string, b: string, c: string, d: string) => `${a.padEnd(w[0] as number)}  ${b.padEnd(w[1] as number)}  ${c.padEnd(w[2] as number)}  ${d}`;
    log('');
    log('== summary: measured vs the acceptance targets (printed, never asserted) ==');
    log(line('what', 'measured', 'target', 'met'));
    for (const r of this.rows) log(line(r.what, r.measured, r.target, r.met === undefined ? '-' : r.met === 'inconclusive' ? 'inconclusive' : r.met ? 'yes' : 'NO'));
  }
}
