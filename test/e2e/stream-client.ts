/** A WebSocket client of the live stream for the end-to-end tests (test/e2e/stream.test.ts, webhook-push.test.ts). */
import WebSocket from 'ws';
import { StreamEvent } from '../../schemas/stream.ts';

export type Msg = Record<string, unknown> & { type: string };

/** a WebSocket client that keeps every message and can wait for one */
export class Client {
  readonly messages: Msg[] = [];
  private waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as Msg;
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => (w.pred(m) ? (w.resolve(m), false) : true));
    });
  }
  static open(url: string, key: string): Promise<Client> {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${key}` } });
    const c = new Client(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(c));
      ws.once('error', reject);
    });
  }
  next(pred: (m: Msg) => boolean, after = 0): Promise<Msg> {
    const seen = this.messages.slice(after).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }
  send(m: unknown): void {
    this.ws.send(JSON.stringify(m));
  }
  /** the server's reply to a subscribe sent now: every event up to its seq has been sent before it */
  async subscribe(topics: string[], extra: Record<string, unknown> = {}): Promise<Msg> {
    const at = this.messages.length;
    this.send({ type: 'subscribe', topics, ...extra });
    return this.next((m) => m.type === 'subscribed' || m.type === 'error', at);
  }
  events(): StreamEvent[] {
    return this.messages.filter((m) => m.type === 'event').map((m) => StreamEvent.parse(m));
  }
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

/** subscribes until the stream's head stops moving: the replica has applied what the engine wrote */
export async function settled(c: Client): Promise<number> {
  let last = -1;
  for (;;) {
    const r = await c.subscribe(['board:sim']);
    const seq = r.seq as number;
    if (seq === last) return seq;
    last = seq;
    await new Promise((res) => setTimeout(res, 150));
  }
}
