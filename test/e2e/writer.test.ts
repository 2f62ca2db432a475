import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/**
 * The optional model writer: with WRITER_URL set, the engine rephrases a token's texts through an
 * OpenAI-compatible endpoint when it writes the snapshot, from the same requests the template
 * phrases; every operation then serves the model's sentence. A local server speaks the
 * chat-completions wire format and answers with a sentence naming the operation it was asked for.
 */
describe('a configured model writer phrases the texts the engine writes', () => {
  let server: Server;
  let stack: Stack;
  const asked: string[] = [];

  beforeAll(async () => {
    server = createServer((rq, rs) => {
      let raw = '';
      rq.on('data', (c: Buffer) => (raw += c.toString()));
      rq.on('end', () => {
        const body = JSON.parse(raw) as { messages: Array<{ content: string }> };
        const operation = /Operation: ([a-z-]+)\./.exec(body.messages[1]?.content ?? '')?.[1] ?? 'unknown';
        asked.push(operation);
        rs.writeHead(200, { 'content-type': 'application/json' });
        rs.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: `The model phrased this ${operation} text.` } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    stack = await startStack({ seed: 5, days: 3, env: { WRITER_URL: `http://127.0.0.1:${port}/v1`, WRITER_MODEL: 'test-model' } });
    await stack.advanceTo(Math.floor(Date.now() / 1000));
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
    await new Promise((r) => server?.close(r));
  });

  it('serves the model sentence in token-signal, token-narrative, token-changes and the default price action', async () => {
    const key = await stack.newKey('enterprise');
    const token = stack.sim.truth.tokens[0]?.address as string;
    const signal = await stack.call('POST', '/v1/token-signal', key, { token });
    expect(signal.status).toBe(200);
    expect(signal.json.rationale).toBe('The model phrased this token-signal text.');
    expect((await stack.call('POST', '/v1/token-narrative', key, { token })).json.thesis).toBe('The model phrased this token-narrative text.');
    expect((await stack.call('POST', '/v1/token-changes', key, { token })).json.headline).toBe('The model phrased this token-changes text.');
    expect((await stack.call('POST', '/v1/token-price-action', key, { token })).json.summary).toBe('The model phrased this token-price-action text.');
    // other windows keep the template's sentence
    expect((await stack.call('POST', '/v1/token-price-action', key, { token, hours: 6 })).json.summary).not.toMatch(/model/);
    expect(new Set(asked)).toEqual(new Set(['token-signal', 'token-narrative', 'token-changes', 'token-price-action']));
  });
});
