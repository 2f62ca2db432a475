import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ApiLogController, requestLogger } from './log-controller.ts';

/** a fastify with the API's request logging, its pino lines collected */
async function app(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  const app = Fastify({ loggerInstance: logger, childLoggerFactory: requestLogger, logController: new ApiLogController(), genReqId: () => 'req-1' });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/noisy', async (req) => {
    req.log.warn({ detail: 1 }, 'handler says');
    return { ok: true };
  });
  await app.ready();
  return { app, lines };
}

describe('request logging', () => {
  it('logs nothing for a successful call at info, and a failed call with its request id', async () => {
    const { app: a, lines } = await app('info');
    expect((await a.inject({ url: '/ok' })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    expect((await a.inject({ url: '/missing' })).statusCode).toBe(404);
    // fastify's own "route not found" line, then ours
    expect(lines.map((l) => l.msg)).toEqual(['Route GET:/missing not found', 'request completed']);
    expect(lines.every((l) => l.reqId === 'req-1')).toBe(true);
    expect(lines[1]).toMatchObject({ level: 30, msg: 'request completed', res: { statusCode: 404 } });
    await a.close();
  });

  it("a handler's own lines carry the request id; debug shows every call", async () => {
    const { app: a, lines } = await app('debug');
    await a.inject({ url: '/noisy' });
    expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'handler says', 'request completed']);
    expect(lines.every((l) => l.reqId === 'req-1')).toBe(true);
    expect(lines[1]).toMatchObject({ level: 40, detail: 1 });
    await a.close();
  });
});
