import { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

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

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * The request's logger, made when the request first logs: pino's `child` serializes the request
 * id binding for every call (a sixth of the read path's own CPU), and a successful call of the
 * read path logs nothing. Fastify's `childLoggerFactory`; methods on the prototype, so a request
 * costs one small object.
 */
class RequestLogger {
  private made?: FastifyBaseLogger;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  private get log(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.opts));
  }

  private write(level: Level, args: unknown[]): void {
    (this.log[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.made?.level ?? this.opts.level ?? this.parent.level;
  }

  set level(level: string) {
    this.log.level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(...args: unknown[]): void {
    this.write('silent', args);
  }

  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.log.child(bindings, opts);
  }
}

export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, opts) => new RequestLogger(logger, bindings, opts) as unknown as FastifyBaseLogger;
