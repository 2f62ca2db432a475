import { z } from 'zod';
import { ChainSlugs } from '../schemas/chains.ts';
import { ApiError } from '../schemas/errors.ts';
import type { ErrorCode } from '../schemas/errors.ts';
import type { AnyOperation } from './operations.ts';

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
  // the chain first: an answer about another chain's data is not what any other field asked for
  const issue = parsed.error.issues.find((i) => i.path[0] === 'chain') ?? parsed.error.issues[0];
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

/**
 * The operation with its `chain` field narrowed to the chains this deployment ingests (docs/architecture.md
 * "Decisions": chains): a known slug it does not ingest answers 400 invalid_chain saying so,
 * before the handler runs, so unbilled, and no operation can forget it (api/app.ts applies it to
 * every operation, and builds the catalog and the OpenAPI document from the result, so the
 * document's enum is what is served). Operations without a `chain` field are returned as they are.
 */
export function ingestedChainsOnly(op: AnyOperation, chains: readonly string[]): AnyOperation {
  const field = (op.request as z.ZodObject).shape.chain as z.ZodType | undefined;
  if (!field || chains.length === 0) return op;
  const list = chains.join(', ');
  const known = new Set<unknown>(ChainSlugs);
  const served = z
    .enum(chains as [string, ...string[]], {
      error: (iss) =>
        known.has(iss.input) ? `${String(iss.input)} is a known chain that this deployment has not ingested; it serves ${list}` : `unknown chain; this deployment serves ${list}`,
    })
    .meta({ description: `Chain slug; this deployment serves ${list}. Defaults to the configured default chain.` });
  const chain = field.safeParse(undefined).success ? served.optional() : served;
  return { ...op, request: (op.request as z.ZodObject).safeExtend({ chain }) };
}
