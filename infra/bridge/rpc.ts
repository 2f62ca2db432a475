/**
 * Calls between two threads over one MessagePort, in both directions: each side registers what it
 * answers (`handle`) and calls what the other side answers (`call`). Arguments and results travel
 * by structured clone. An error thrown by a handler arrives as an Error of the same name and
 * message; the classes in `KNOWN` arrive as instances of themselves, so `instanceof` holds across
 * the port (StoreUnavailableError, which the API answers with 503).
 *
 * When the port closes (the other thread ended or closed it), every pending call rejects.
 */
import type { MessagePort } from 'node:worker_threads';
import { StoreUnavailableError } from '../store/types.ts';

type Message =
  | { t: 'call'; id: number; fn: string; args: unknown[] }
  | { t: 'ok'; id: number; value: unknown }
  | { t: 'err'; id: number; name: string; message: string };

type Handler = (...args: never[]) => unknown;

/** the error classes a caller tells apart by class */
const KNOWN: Record<string, new (message: string) => Error> = { StoreUnavailableError };

export class PortClosedError extends Error {
  override readonly name = 'PortClosedError';
}

export class Rpc {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly handlers = new Map<string, Handler>();
  private closed = false;

  constructor(private readonly port: MessagePort) {
    port.on('message', (m: Message) => this.onMessage(m));
    port.on('close', () => this.onClose());
  }

  /** answers calls of `fn` from the other side */
  handle(fn: string, handler: Handler): void {
    this.handlers.set(fn, handler);
  }

  unhandle(fn: string): void {
    this.handlers.delete(fn);
  }

  call<T>(fn: string, ...args: unknown[]): Promise<T> {
    if (this.closed) return Promise.reject(new PortClosedError(`${fn}: the other thread's port is closed`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.port.postMessage({ t: 'call', id, fn, args } satisfies Message);
    });
  }

  close(): void {
    this.port.close();
    this.onClose();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private onMessage(m: Message): void {
    if (m.t === 'call') {
      void this.answer(m.id, m.fn, m.args);
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.t === 'ok') p.resolve(m.value);
    else {
      const Known = KNOWN[m.name];
      const err = Known ? new Known(m.message) : Object.assign(new Error(m.message), { name: m.name });
      p.reject(err);
    }
  }

  private async answer(id: number, fn: string, args: unknown[]): Promise<void> {
    let reply: Message;
    try {
      const handler = this.handlers.get(fn);
      if (!handler) throw new Error(`no handler for ${fn} on this side of the port`);
      reply = { t: 'ok', id, value: await (handler as (...a: unknown[]) => unknown)(...args) };
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      reply = { t: 'err', id, name: err.name, message: err.message };
    }
    if (!this.closed) this.port.postMessage(reply);
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pending.values()) p.reject(new PortClosedError('the other thread\'s port closed before it answered'));
    this.pending.clear();
  }
}
