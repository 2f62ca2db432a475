import type { z } from 'zod';
import { ApiError } from '../schemas/errors.ts';
import type { ErrorCode } from '../schemas/errors.ts';

/**
 * Turns a request body or query into an operation's validated input, or an ApiError naming the
 * field: unknown properties → unknown_param; chain → invalid_chain; addresses → invalid_address;
 * anything else → invalid_param.
 */
export function parseInput<S extends z.ZodObject>(schema: S, input: unknown, where: 'body' | 'query'): z.output<S> {
  const raw = input ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ApiError('invalid_param', `the request ${where} must be a JSON object`);
  }
  const allowed = Object.keys(schema.shape);
  const unknown = Object.keys(raw).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    const list = unknown.map((k) => `'${k}'`).join(', ');
    throw new ApiError(
      'unknown_param',
      `unknown ${where} parameter${unknown.length > 1 ? 's' : ''} ${list}; allowed: ${allowed.join(', ') || 'none'}`,
    );
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (!issue) throw new ApiError('invalid_param', `invalid request ${where}`);
  const field = issue.path.map(String).join('.') || where;
  const root = String(issue.path[0] ?? '');
  const custom = (issue as { params?: { apiCode?: ErrorCode } }).params?.apiCode;
  let code: ErrorCode = custom ?? 'invalid_param';
  if (!custom && root === 'chain') code = 'invalid_chain';
  const missing = issue.code === 'invalid_type' && (raw as Record<string, unknown>)[root] === undefined;
  const detail = missing ? `'${field}' is required` : `'${field}': ${issue.message}`;
  throw new ApiError(code, detail);
}
