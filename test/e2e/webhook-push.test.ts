import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';
import { Client, settled } from './stream-client.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

/**
 * The live stream's events pushed by webhook against the running app: an endpoint
 * subscribed to token topics receives, signed, what a WebSocket client subscribed to the same
 * topics receives (the same events in the same order, without the process's seq), its `events`
 * filter applies to them, and each delivery is billed 1 unit to the key that created it.
 */
const DAYS = 6;

describe('stream events pushed by webhook', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ seed: 23, days: DAYS, env: { WEBHOOKS_ALLOW_LOCAL: 'true' } });
    await stack.advanceTo(stack.sim.truth.genesisTime + 2 * 86400);
  }, 300_000);
  afterAll(async () => stack?.stop());

  it('a receiver gets, signed and in order, the token changes a WebSocket client of the same topics gets, billed 1 unit each', async () => {
    const topics = stack.sim.truth.tokens.slice(0, 20).map((t) => `token:sim:${t.address.toLowerCase()}`);
    const hookKey = await stack.newKey('enterprise');
    const wsKey = await stack.newKey('enterprise');
    const receiver = await startWebhookReceiver();
    // subscribed to the same topics, but only to agent events: none of the stream's
    const filtered = await startWebhookReceiver();
    try {
      const created = await stack.call('POST', '/v1/webhooks/create', hookKey, { url: receiver.url, topics });
      expect(created.status, JSON.stringify(created.json)).toBe(200);
      expect(created.json).toMatchObject({ topics, events: null });
      receiver.useSecret(created.json.secret as string);
      const other = await stack.call('POST', '/v1/webhooks/create', hookKey, { url: filtered.url, topics, events: ['agent.created'] });
      expect(other.status, JSON.stringify(other.json)).toBe(200);
      filtered.useSecret(other.json.secret as string);
      const listed = await stack.call('GET', '/v1/webhooks/list', hookKey);
      expect((listed.json.endpoints as { topics: string[] }[]).map((e) => e.topics)).toEqual([topics, topics]);

      const ws = await Client.open(`${stack.url.replace(/^http/, 'ws')}/v1/stream`, wsKey);
      expect((await ws.subscribe(topics)).type).toBe('subscribed');

      await stack.advanceTo(stack.sim.truth.genesisTime + DAYS * 86400);
      await settled(ws);
      const streamed = ws.events().filter((e) => topics.includes(e.topic));
      expect(streamed.length).toBeGreaterThan(0);
      expect(streamed.every((e) => e.event === 'token.changed')).toBe(true);

      // the deliverer works through the outbox: wait for as many deliveries as events streamed
      for (let i = 0; i < 600 && receiver.received.length < streamed.length; i++) await new Promise((r) => setTimeout(r, 100));
      expect(receiver.received.every((d) => d.ok && d.type === 'token.changed')).toBe(true);
      expect(receiver.received.map((d) => d.data)).toEqual(streamed.map(({ seq: _seq, ...rest }) => rest));
      // once each: a webhook-id is never sent twice
      expect(new Set(receiver.received.map((d) => d.id)).size).toBe(receiver.received.length);
      expect(filtered.received).toEqual([]);

      // 1 unit per delivery, under webhook.push, to the key that created the endpoint (billed once the receiver answered)
      let usage = await stack.call('GET', '/v1/usage', hookKey);
      for (let i = 0; i < 100 && (usage.json.byOperation as Record<string, number>)['webhook.push'] !== receiver.received.length; i++) {
        await new Promise((r) => setTimeout(r, 50));
        usage = await stack.call('GET', '/v1/usage', hookKey);
      }
      expect(usage.json.byOperation).toEqual({ 'webhook.push': receiver.received.length });
      expect(usage.json.unitsToday).toBe(receiver.received.length);
      const wsUsage = await stack.call('GET', '/v1/usage', wsKey);
      expect((wsUsage.json.byOperation as Record<string, number>).stream).toBe(ws.events().length);

      const log = await stack.call('POST', '/v1/webhooks/deliveries', hookKey, { endpointId: created.json.endpointId, limit: 200 });
      expect(log.json.pending).toBe(0);
      expect((log.json.deliveries as { result: string; type: string }[]).every((d) => d.result === 'delivered' && d.type === 'token.changed')).toBe(true);
      await ws.close();
    } finally {
      receiver.close();
      filtered.close();
    }
  }, 300_000);
});
