import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { errorsPlugin } from './errors.ts';

/** a fastify with the API's errors plugin, its pino lines collected */
async function app(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  let n = 0;
  const app = Fastify({ logger: false, genReqId: () => `req-${++n}` });
  await app.register(errorsPlugin, { bases: ['/v1'], methodsByPath: new Map([['/ok', ['GET']]]), docsUrl: () => 'http://x/v1/docs', logger });
  app.get('/v1/ok', async () => ({ ok: true }));
  app.get('/v1/boom', async () => {
    throw new Error('secret detail');
  });
  await app.ready();
  return { app, lines };
}

describe('request logging (errors plugin)', () => {
  it('logs nothing for a successful call at info; a failed call and an internal error with their request ids', async () => {
    const { app: a, lines } = await app('info');
    expect((await a.inject({ url: '/v1/ok' })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    expect((await a.inject({ method: 'POST', url: '/v1/ok' })).statusCode).toBe(405);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, reqId: 'req-2', msg: 'request completed', req: { method: 'POST', url: '/v1/ok' }, res: { statusCode: 405 } });
    const boom = await a.inject({ url: '/v1/boom' });
    expect(boom.statusCode).toBe(500);
    // the answer never leaks the error; the log has it
    expect(boom.body).not.toContain('secret');
    expect(lines.slice(1).map((l) => [l.msg, l.reqId])).toEqual([
      ['unhandled error', 'req-3'],
      ['request completed', 'req-3'],
    ]);
    expect(lines[1]).toMatchObject({ level: 50, err: { message: 'secret detail' } });
    await a.close();
  });

  it('logs every call at debug', async () => {
    const { app: a, lines } = await app('debug');
    await a.inject({ url: '/v1/ok' });
    expect(lines).toEqual([expect.objectContaining({ level: 20, reqId: 'req-1', msg: 'request completed', res: { statusCode: 200 } })]);
    await a.close();
  });
});
