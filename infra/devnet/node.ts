/**
 * Starts and stops the local devnet: hardhat 2's JSON-RPC node (chainId 31337, automine) on
 * 127.0.0.1. No download, no compiler: the config in this folder has no sources.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');

export const DEFAULT_DEVNET_PORT = 18545;

export interface DevnetOptions {
  port?: number;
  /** where the PID file and the node's log go */
  runDir?: string;
  /** ms to wait for the node to answer */
  timeoutMs?: number;
}

export interface Devnet {
  rpcUrl: string;
  wsUrl: string;
  /** PID of the node, or undefined when the node was already running and we did not start it */
  pid: number | undefined;
  /** stops the node by PID if this call started it */
  stop(): Promise<void>;
}

export function devnetPort(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DEVNET_PORT;
  const port = raw ? Number(raw) : DEFAULT_DEVNET_PORT;
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`invalid DEVNET_PORT: ${raw}`);
  return port;
}

export function devnetRunDir(port: number): string {
  return join('/tmp', `intel-devnet-${port}`);
}

export function pidFile(runDir: string): string {
  return join(runDir, 'node.pid');
}

/** true when a JSON-RPC node answers eth_chainId at the URL */
export async function isDevnetUp(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    if (!res.ok) return false;
    const body = (await res.json()) as { result?: string };
    return typeof body.result === 'string';
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the node in its own process group (detached) unless one already answers on the port,
 * waits until it answers, writes the PID file.
 */
export async function startDevnet(opts: DevnetOptions = {}): Promise<Devnet> {
  const port = opts.port ?? devnetPort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const wsUrl = `ws://127.0.0.1:${port}`;
  const runDir = opts.runDir ?? devnetRunDir(port);
  if (await isDevnetUp(rpcUrl)) return { rpcUrl, wsUrl, pid: undefined, stop: async () => {} };

  mkdirSync(runDir, { recursive: true });
  const logFd = openSync(join(runDir, 'node.log'), 'a');
  const bin = join(repoRoot, 'node_modules', '.bin', 'hardhat');
  const child = spawn(
    bin,
    ['--config', join(here, 'hardhat.config.cjs'), 'node', '--hostname', '127.0.0.1', '--port', String(port)],
    {
      cwd: here,
      detached: true,
      stdio: ['ignore', logFd, logFd],
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
    },
  );
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new Error('devnet: failed to spawn hardhat node');
  writeFileSync(pidFile(runDir), String(pid));

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (!(await isDevnetUp(rpcUrl))) {
    if (!alive(pid)) {
      // another process may have started a node on the port at the same time: wait for it
      if (await waitUp(rpcUrl, Math.min(deadline, Date.now() + 10_000))) {
        const file = pidFile(runDir);
        if (existsSync(file) && readFileSync(file, 'utf8').trim() === String(pid)) rmSync(file, { force: true });
        return { rpcUrl, wsUrl, pid: undefined, stop: async () => {} };
      }
      const log = existsSync(join(runDir, 'node.log')) ? readFileSync(join(runDir, 'node.log'), 'utf8').slice(-2000) : '';
      throw new Error(`devnet: hardhat node exited before answering on ${rpcUrl}\n${log}`);
    }
    if (Date.now() > deadline) {
      await stopPid(pid);
      throw new Error(`devnet: hardhat node did not answer on ${rpcUrl} in time`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { rpcUrl, wsUrl, pid, stop: async () => void (await stopDevnet({ port, runDir })) };
}

async function waitUp(rpcUrl: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    if (await isDevnetUp(rpcUrl)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

async function stopPid(pid: number): Promise<void> {
  // the node runs in its own process group (detached): signal the group, then the process
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
  const deadline = Date.now() + 5000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/** Stops the node whose PID is in the PID file (if any) and removes the file. */
export async function stopDevnet(opts: { port?: number; runDir?: string } = {}): Promise<boolean> {
  const runDir = opts.runDir ?? devnetRunDir(opts.port ?? devnetPort());
  const file = pidFile(runDir);
  if (!existsSync(file)) return false;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (Number.isInteger(pid) && pid > 0) await stopPid(pid);
  rmSync(file, { force: true });
  return true;
}
