import { LogController } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Fastify's request log lines, quieter on the read path: a request is logged when it completed,
 * at info level when it failed (4xx, 5xx) and at debug level when it succeeded; the "incoming
 * request" line is debug only. At the read path's rates two info lines per call cost more than
 * the answer; LOG_LEVEL=debug shows every call as before.
 */
export class ApiLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (request.log.level === 'debug' || request.log.level === 'trace') request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else if (reply.statusCode >= 400) reply.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    else if (request.log.level === 'debug' || request.log.level === 'trace') reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
