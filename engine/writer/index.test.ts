import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptable, createOpenAIWriter, createTemplateWriter, createWriterFromConfig } from './index.ts';
import type { WriterRequest } from './index.ts';

const req: WriterRequest = {
  operation: 'token-signal',
  subject: 'PEPE2',
  facts: { signal: 'BUY', conviction: 81, reasons: ['it is coiling in a tight range', 'its flow is organic'], caveat: null },
};

describe('template writer', () => {
  const w = createTemplateWriter();
  it('writes one deterministic sentence without numbers', async () => {
    const a = await w.rationale(req);
    expect(a).toBe(await w.rationale(req));
    expect(a).toBe('PEPE2 is a buy with high conviction because it is coiling in a tight range and its flow is organic.');
    expect(a.split('PEPE2').join('')).not.toMatch(/\d/);
    expect(a).not.toMatch(/\n/);
  });
  it('has texts for every kind, with a generic fallback that drops numbers', async () => {
    const generic: WriterRequest = { operation: 'conviction-board', subject: 'sim', facts: { leader: 'ABC', pillarsLit: 5, regime: 'risk-on' } };
    for (const kind of ['rationale', 'thesis', 'headline', 'summary'] as const) {
      const t = await w[kind](generic);
      expect(t.length).toBeGreaterThan(5);
      expect(t).not.toMatch(/\d/);
    }
    expect(await w.summary({ operation: 'token-price-action', subject: 'X', facts: { trend: 'up', structure: 'higher-lows', volatility: 'low', breakout: 'above-range' } })).toBe(
      'X trends up, making higher lows, with low volatility, breaking above its range.',
    );
    expect(
      await w.summary({ operation: 'token-price-action', subject: 'X', facts: { trend: 'down', structure: 'range', volatility: 'high', breakout: 'none', hours: 24, resolution: '1h' } }),
    ).toBe('Over the last day of hourly bars, X trends down, holding a tight range, with high volatility.');
    expect(await w.rationale({ operation: 'token-signal', subject: 'Y', facts: { signal: 'AVOID', conviction: 90, reasons: ['outside buyers cannot sell it'], caveat: null } })).toBe(
      'Y is one to avoid with high conviction because outside buyers cannot sell it.',
    );
    expect(await w.headline({ operation: 'token-changes', subject: 'Z', facts: { movedTo: 'avoid', changes: ['its rug flag went red', 'its price dropped', 'risk rose to extreme'] } })).toBe(
      'Z moved to avoid as its rug flag went red and its price dropped.',
    );
  });
});

describe('acceptable', () => {
  it('rejects digits other than the subject, several lines and empty text', () => {
    expect(acceptable('PEPE2 shows steady organic demand.', 'PEPE2')).toBe('PEPE2 shows steady organic demand.');
    expect(acceptable('Price is $0.0031 and rising.', 'X')).toBeNull();
    expect(acceptable('One.\nTwo lines here.', 'X')).toBeNull();
    expect(acceptable('', 'X')).toBeNull();
  });
});

// a local server speaking the OpenAI chat-completions wire format
type Mode = 'ok' | 'error' | 'slow' | 'digits' | 'garbage';
let mode: Mode = 'ok';
const seen: Array<{ url: string; auth: string | undefined; body: Record<string, unknown> }> = [];
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((rq: IncomingMessage, rs: ServerResponse) => {
    let raw = '';
    rq.on('data', (c: Buffer) => (raw += c.toString()));
    rq.on('end', () => {
      seen.push({ url: rq.url ?? '', auth: rq.headers.authorization, body: JSON.parse(raw) as Record<string, unknown> });
      const reply = (content: string) => {
        rs.writeHead(200, { 'content-type': 'application/json' });
        rs.end(
          JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            created: 1,
            model: 'test-model',
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
          }),
        );
      };
      if (mode === 'ok') reply('PEPE2 earns a buy on coiling price and organic flow.');
      else if (mode === 'digits') reply('PEPE2 trades at 0.0042 dollars with 12345 holders.');
      else if (mode === 'garbage') {
        rs.writeHead(200, { 'content-type': 'application/json' });
        rs.end('{"nope":true}');
      } else if (mode === 'error') {
        rs.writeHead(500, { 'content-type': 'application/json' });
        rs.end('{"error":{"message":"boom","type":"server_error"}}');
      } else setTimeout(() => reply('Too late, but a valid sentence.'), 1500);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('OpenAI-compatible writer', () => {
  const template = createTemplateWriter();
  const make = (timeoutMs = 5000) => createOpenAIWriter({ baseUrl, apiKey: 'sk-test', model: 'test-model', timeoutMs }, template);

  it('posts a chat completion and returns the reply', async () => {
    mode = 'ok';
    seen.length = 0;
    const t = await make().rationale(req);
    expect(t).toBe('PEPE2 earns a buy on coiling price and organic flow.');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/v1/chat/completions');
    expect(seen[0]!.auth).toBe('Bearer sk-test');
    const body = seen[0]!.body as { model: string; messages: Array<{ role: string; content: string }> };
    expect(body.model).toBe('test-model');
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    // scores reach the model as words, not numbers
    expect(body.messages[1]!.content).not.toMatch(/81/);
  });

  for (const m of ['error', 'slow', 'digits', 'garbage'] as const) {
    it(`falls back to the template on ${m}`, async () => {
      mode = m;
      expect(await make(m === 'slow' ? 200 : 5000).rationale(req)).toBe(await template.rationale(req));
    });
  }

  it('falls back when the endpoint is unreachable', async () => {
    const w = createOpenAIWriter({ baseUrl: 'http://127.0.0.1:9', model: 'm', timeoutMs: 500 }, template);
    expect(await w.headline(req)).toBe(await template.headline(req));
  });

  it('is chosen from config only when a URL is set', async () => {
    mode = 'ok';
    const w = createWriterFromConfig({ WRITER_URL: baseUrl, WRITER_API_KEY: 'k', WRITER_MODEL: 'test-model' });
    expect(await w.rationale(req)).toBe('PEPE2 earns a buy on coiling price and organic flow.');
    const t = createWriterFromConfig({ WRITER_URL: undefined, WRITER_API_KEY: undefined, WRITER_MODEL: 'x' });
    expect(await t.rationale(req)).toBe(await template.rationale(req));
  });
});
