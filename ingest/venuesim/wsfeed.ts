import WebSocket from 'ws';
import { pause } from '../../infra/pause.ts';
import { backoffMs, doubling } from '../../infra/retry.ts';
import type { Backoff } from '../../infra/retry.ts';

/**
 * A reconnecting WebSocket reader shared by the venue adapters: connects, sends the
 * subscriptions on every (re)connect, keeps the connection alive with the venue's application
 * ping, treats a silent connection as dead, and reconnects with capped exponential backoff.
 * Yields the text frames as they arrive, until the signal aborts.
 */
export interface WsFeedOptions {
  url: string;
  /** frames to send after each connect (subscriptions) */
  subscribe: () => string[];
  /** the venue's application-level ping frame and how often to send it */
  ping?: { frame: string; intervalMs: number };
  /** no frame for this long: the connection is considered dead and replaced */
  idleTimeoutMs?: number;
  reconnect?: { minMs: number; maxMs: number };
  onEvent?: (e: { kind: 'open' | 'close' | 'error'; attempt: number; detail?: string }) => void;
}

export async function* wsFrames(opts: WsFeedOptions, signal: AbortSignal): AsyncGenerator<string> {
  const reconnect: Backoff = { cap: doubling(opts.reconnect?.minMs ?? 500, opts.reconnect?.maxMs ?? 30_000) };
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  signal.addEventListener('abort', notify, { once: true });

  let attempt = 0;
  while (!signal.aborted) {
    let closed = false;
    const ws = new WebSocket(opts.url);
    let pingTimer: NodeJS.Timeout | undefined;
    let idleTimer: NodeJS.Timeout | undefined;
    const armIdle = () => {
      if (!opts.idleTimeoutMs) return;
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => ws.terminate(), opts.idleTimeoutMs);
    };
    ws.on('open', () => {
      attempt = 0;
      opts.onEvent?.({ kind: 'open', attempt });
      for (const f of opts.subscribe()) ws.send(f);
      if (opts.ping) {
        const { frame, intervalMs } = opts.ping;
        pingTimer = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(frame), intervalMs);
      }
      armIdle();
    });
    ws.on('message', (data, isBinary) => {
      armIdle();
      queue.push(isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString());
      notify();
    });
    ws.on('error', (err) => opts.onEvent?.({ kind: 'error', attempt, detail: err.message }));
    ws.on('close', (code) => {
      closed = true;
      clearInterval(pingTimer);
      clearTimeout(idleTimer);
      opts.onEvent?.({ kind: 'close', attempt, detail: String(code) });
      notify();
    });
    const onAbort = () => ws.terminate();
    signal.addEventListener('abort', onAbort, { once: true });

    while (true) {
      while (queue.length > 0) yield queue.shift() as string;
      if (closed || signal.aborted) break;
      await new Promise<void>((r) => (wake = r));
    }
    signal.removeEventListener('abort', onAbort);
    while (queue.length > 0) yield queue.shift() as string;
    if (signal.aborted) break;
    await pause(backoffMs(reconnect, attempt++), signal);
  }
}
