import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../schemas/errors.ts';
import type { ApiKeyRecord } from '../infra/keys.ts';
import type { AnyOperation } from './operations.ts';
import { negotiate } from '@fastify/accept-negotiator';
import type { Encoding, ResponseCache, ServedAnswer } from './served.ts';
import { parseInput } from './validate.ts';
import { requestBody } from './plugins/errors.ts';
import { SECURITY_HEADERS } from './http.ts';
import type { WalletAuth, WalletAuthorized } from './wallet-auth.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';
/** answers from this size up are compressed when the client accepts it (the same threshold as @fastify/compress in app.ts) */
export const COMPRESS_MIN_BYTES = 1024;
const ENCODINGS: Encoding[] = ['br', 'gzip'];

/** a call's request id (X-Request-Id), as fastify (api/app.ts genReqId) and the served lane make it */
export const newRequestId = (): string => randomUUID();

/**
 * The headers every answer carries first (api/app.ts, the served lane): the security headers and
 * the request id, set in `into`. The header functions set into one object rather than spread
 * objects together: a spread of header objects cost ten times the work of setting them.
 */
export function answerHeaders(requestId: string, into: Record<string, string> = {}): Record<string, string> {
  for (const [name, value] of SECURITY_HEADER_LIST) into[name] = value;
  into['x-request-id'] = requestId;
  return into;
}
const SECURITY_HEADER_LIST = Object.entries(SECURITY_HEADERS);

/** the query string of a request URL as sent (after `?`; '' without one) */
export function queryOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

/** a weak comparison of If-None-Match with an ETag (RFC 9110 13.1.2): `*`, or any listed tag equal but for W/ */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === etag || ifNoneMatch.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return (tag.startsWith('W/') ? tag.slice(2) : tag) === opaque;
  });
}

/**
 * The encoding a served answer is sent in: the one the client prefers of br and gzip, from
 * COMPRESS_MIN_BYTES up (made once per age, api/served.ts); none: its JSON bytes.
 */
export function servedEncoding(answer: ServedAnswer, acceptEncoding: string | undefined): Encoding | undefined {
  if (acceptEncoding === undefined || answer.bytes.length < COMPRESS_MIN_BYTES) return undefined;
  return (negotiate(acceptEncoding, ENCODINGS) as Encoding | null) ?? undefined;
}

/** a served answer's own headers in the order they are set, in `into`: its validator, its type, its encoding */
export function servedHeaders(answer: ServedAnswer, encoding: Encoding | undefined, into: Record<string, string> = {}): Record<string, string> {
  if (answer.etag !== undefined) into.etag = answer.etag;
  into['content-type'] = JSON_TYPE;
  if (encoding) {
    into['content-encoding'] = encoding;
    into.vary = 'accept-encoding';
  }
  return into;
}

/**
 * Sends a served operation's answer: 304 with no body when the client holds it (If-None-Match:
 * not billed, the metering plugin bills 200s only), else its bytes in the encoding the client
 * prefers (servedEncoding), with its headers (servedHeaders), as the served lane (api/lane.ts)
 * sends a 200.
 */
function sendServed(req: FastifyRequest, reply: FastifyReply, answer: ServedAnswer): FastifyReply {
  const held = req.headers['if-none-match'];
  if (answer.etag !== undefined && held !== undefined && etagMatches(held, answer.etag)) return reply.header('etag', answer.etag).code(304).send();
  const encoding = servedEncoding(answer, req.headers['accept-encoding']);
  return reply.headers(servedHeaders(answer, encoding)).send(encoding ? answer.encoded(encoding) : answer.bytes);
}

/**
 * The handler of an operation route. The plugins before it authenticated the call and checked
 * its limits (api/plugins/auth.ts, limits.ts); the metering plugin bills it once it succeeded.
 * Here: validate, run, answer; the operations that project one snapshot answer from the response
 * cache's bytes.
 */
export function createOperationHandler(op: AnyOperation, deps: { responses: ResponseCache; walletAuth?: WalletAuth; base?: string }) {
  const where = op.method === 'GET' ? 'query' : 'body';
  const served = op.served !== undefined;
  const walletAuth = op.walletAuth ? deps.walletAuth : undefined;
  if (op.walletAuth && !walletAuth) throw new Error(`operation ${op.id} needs the wallet authorization`);
  async function run(req: FastifyRequest, reply: FastifyReply, key: ApiKeyRecord, request: string | undefined): Promise<unknown> {
    if (walletAuth && op.walletAuth === 'typed') {
      const walletClaim = walletAuth.claim(req.headers);
      const input = parseInput(op.request, requestBody(req), where);
      return op.handler(input, { key, now: req.at, requestId: req.id, walletClaim, authorizeTyped: (build) => walletAuth.authorizeTyped({ partner: key.orgId, headers: req.headers }, build) });
    }
    const auth = walletAuth ? await authorizeWallet(walletAuth, req, key, deps.base ?? '') : undefined;
    const input = parseInput(op.request, op.method === 'GET' ? req.query : requestBody(req), where);
    const ctx = auth === undefined ? { key, now: req.at, requestId: req.id, ip: req.ip } : { key, now: req.at, requestId: req.id, ip: req.ip, wallet: auth.wallet, authorization: auth.messageHash, walletChains: auth.chains };
    if (op.perItem) {
      const out = await op.handler(input, ctx);
      req.billedUnits = op.cost * op.perItem.billed(out);
      return out;
    }
    if (!served) return op.handler(input, ctx);
    return sendServed(req, reply, await deps.responses.serve(op, input, ctx, request));
  }
  // not async: a repeated call of a served operation is answered from the cache's bytes without a promise
  return (req: FastifyRequest, reply: FastifyReply): unknown => {
    const key = req.apiKey;
    if (!key) throw new ApiError('invalid_api_key', 'the API key is unknown or revoked');
    if (!served) return run(req, reply, key, undefined);
    const request = requestText(req);
    const hit = deps.responses.hit(op, request, req.at);
    if (hit) return sendServed(req, reply, hit);
    return run(req, reply, key, request);
  };
}

/**
 * The end user's wallet authorization of an execution-relay call (docs/architecture.md "Decisions": the
 * canonical agent-API message): over the key's organisation, the method, the path below the base
 * and the query exactly as sent, and the raw body. Resolves to the signing wallet (lowercase) and
 * the signed message's hash.
 */
function authorizeWallet(walletAuth: WalletAuth, req: FastifyRequest, key: ApiKeyRecord, base: string): Promise<WalletAuthorized> {
  const full = req.url.split('?', 1)[0] as string;
  const path = full.startsWith(base) ? full.slice(base.length) : full;
  return walletAuth.authorize({ partner: key.orgId, method: req.method, path, query: queryOf(req.url), rawBody: req.rawBody ?? '', headers: req.headers });
}

/** the call's exact parameter text: a POST's body, a GET's query string */
function requestText(req: FastifyRequest): string {
  return req.method === 'GET' ? queryOf(req.url) : (req.rawBody ?? '');
}
