import { z } from 'zod';

/** Error codes of SPEC.md (plus invalid_param, payload_too_large and invalid_state, ours) and their statuses. */
export const ErrorStatus = {
  invalid_api_key: 401,
  wallet_auth_required: 401,
  wallet_auth_expired: 401,
  /** the partner console: no session, or it expired or was revoked; our addition */
  signin_required: 401,
  /** the partner console: a sign-in that does not verify (signature, nonce used or unknown, e-mail link used or expired); our addition */
  signin_failed: 401,
  invalid_address: 400,
  invalid_chain: 400,
  unknown_param: 400,
  invalid_param: 400,
  venue_not_entitled: 403,
  /** the partner console: a state change without a valid CSRF token; our addition */
  csrf_invalid: 403,
  /** the partner console: the member's role does not allow it (only the owner goes live); our addition */
  forbidden: 403,
  not_found: 404,
  not_a_token: 404,
  /** a stream resumed from a sequence number its process no longer keeps (or another process's stream); our addition */
  resume_unavailable: 410,
  method_not_allowed: 405,
  /** a plain GET of the live stream, which speaks WebSocket only; our addition */
  upgrade_required: 426,
  /** an agent's state does not allow the change asked (resume a revoked agent); our addition */
  invalid_state: 409,
  /** an organisation already holds as many active keys as its cap (KEYS_PER_ORG_*): revoke one first; our addition */
  key_limit: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  analysis_failed: 500,
  dossier_failed: 502,
  capacity: 503,
  gateway_unconfigured: 503,
  execution_unavailable: 503,
  /** a dependency the call needs (the store) is unreachable for the moment: retry after Retry-After; our addition */
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ErrorStatus;
export const ErrorCodes = Object.keys(ErrorStatus) as [ErrorCode, ...ErrorCode[]];

export const ErrorObject = z
  .object({
    error: z.enum(ErrorCodes),
    detail: z.string(),
    hint: z.string().optional(),
    docs: z.string().optional(),
  })
  .meta({ description: 'Every error: a code and a human sentence; unknown paths add hint and docs' });
export type ErrorObject = z.infer<typeof ErrorObject>;

/** The one error type of the API. The fastify error handler is the only place that renders it. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: { hint?: string; docs?: string; headers?: Record<string, string> } = {},
  ) {
    super(`${code}: ${detail}`);
    this.status = ErrorStatus[code];
  }
  toJSON(): ErrorObject {
    const o: ErrorObject = { error: this.code, detail: this.detail };
    if (this.extra.hint) o.hint = this.extra.hint;
    if (this.extra.docs) o.docs = this.extra.docs;
    return o;
  }
}
