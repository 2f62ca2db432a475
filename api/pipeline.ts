import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../schemas/errors.ts';
import type { AnyOperation } from './operations.ts';
import type { ResponseCache } from './served.ts';
import { parseInput } from './validate.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The handler of an operation route. The plugins before it authenticated the call and checked
 * its limits (api/plugins/auth.ts, limits.ts); the metering plugin bills it once it succeeded.
 * Here: validate, run, answer; the operations that project one snapshot answer from the response
 * cache's bytes.
 */
export function createOperationHandler(op: AnyOperation, deps: { responses: ResponseCache }) {
  const where = op.method === 'GET' ? 'query' : 'body';
  return async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const key = req.apiKey;
    if (!key) throw new ApiError('invalid_api_key', 'the API key is unknown or revoked');
    const input = parseInput(op.request, op.method === 'GET' ? req.query : req.body, where);
    const ctx = { key, now: req.at, requestId: req.id };
    if (!op.served) return op.handler(input, ctx);
    const text = await deps.responses.serve(op, input, ctx);
    void reply.type(JSON_TYPE);
    return text;
  };
}
