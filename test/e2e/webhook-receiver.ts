import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../api/webhooks/signing.ts';

/** One delivery the partner's receiver got: its event, id, whether its signature verified, its data. */
export interface Delivery {
  type: string;
  id: string;
  ok: boolean;
  data: Record<string, unknown>;
}

/**
 * A partner's webhook receiver on 127.0.0.1: every delivery is kept, verified with the endpoint's
 * secret (set once the endpoint is created: the secret is shown then).
 */
export interface WebhookReceiver {
  url: string;
  received: Delivery[];
  useSecret(secret: string): void;
  /** creates the partner's endpoint for this receiver with its key, and keeps the secret shown */
  subscribe(stack: { call(method: 'POST', path: string, key: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> }, key: string): Promise<void>;
  close(): void;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Delivery[] = [];
  let secret = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const parsed = JSON.parse(body) as { type: string; data: Record<string, unknown> };
      received.push({ type: parsed.type, id: String(req.headers['webhook-id']), ok: verifyWebhook(secret, body, req.headers).ok, data: parsed.data });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    received,
    useSecret: (s) => void (secret = s),
    async subscribe(stack, key) {
      const hook = await stack.call('POST', '/v1/webhooks/create', key, { url });
      if (hook.status !== 200) throw new Error(`webhook endpoint not created: ${hook.status} ${JSON.stringify(hook.json)}`);
      secret = hook.json.secret as string;
    },
    close: () => void server.close(),
  };
}
