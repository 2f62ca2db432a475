import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, preParsingHookHandler } from 'fastify';
import { markForeground } from '../infra/pause.ts';
import { SECURITY_HEADERS } from './http.ts';
import type { KeyService } from '../infra/keys.ts';
import type { Meter } from './metering.ts';
import type { AnyOperation } from './operations.ts';
import { JSON_TYPE, servedEncoding } from './pipeline.ts';
import { presentedKey } from './plugins/auth.ts';
import { debugging } from './plugins/errors.ts';
import type { Holds } from './plugins/limits.ts';
import { admission, admitCall } from './plugins/limits.ts';
import { countCall } from './plugins/metrics.ts';
import type { CallCounts } from './plugins/metrics.ts';
import type { ResponseCache } from './served.ts';

/** fastify's handler of a request (the app's routing) */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** a request the lane does not answer goes on to `next` (fastify), the same request */
export type ServedLane = ((req: IncomingMessage, res: ServerResponse, next: HttpHandler) => void) & {
  /** calls the lane answered itself */
  answered: number;
};

export interface ServedLaneDeps {
  /** the served operations (api/served.ts) the lane may answer, under every base */
  operations: AnyOperation[];
  bases: readonly string[];
  responses: ResponseCache;
  keys: Pick<KeyService, 'cached'>;
  meter: Meter;
  holds: Holds;
  counts?: CallCounts;
  logger?: FastifyBaseLogger;
  now?: () => number;
}

/** the security headers every answer carries (api/app.ts sets them first), as header lines */
const SECURITY_HEADER_LINES: string[] = Object.entries(SECURITY_HEADERS).flat();

/** POST bodies the lane reads: a served operation's request is a few fields */
const MAX_LANE_BODY = 16 * 1024;
/** the body the lane read of a request it handed on (fastify's parser reads it again: `laneBodyHook`) */
const LANE_BODY = Symbol('intel.laneBody');
type LaneRequest = IncomingMessage & { [LANE_BODY]?: Buffer };

/**
 * The served lane: the answer to a repeated call of a served operation (one snapshot projected,
 * its bytes cached by api/served.ts), sent before fastify sees the request. Such a call is most
 * of a partner's traffic, and through fastify it cost about twice the work of a bare server
 * answering the same bytes (request and reply objects, thirteen hooks, header validation per
 * header), with nothing left to decide: the key is cached, the limits admit it, the bytes exist.
 *
 * The lane answers only when everything the app would do is known to succeed, with what the app
 * would send, header for header: a key the key cache holds (auth), a call the rate limit, the
 * key's quota and the global budget admit (limits: the same holds), an answer the response cache
 * holds for exactly this request text; it bills the call (metering), counts it (metrics) and
 * marks the read (background work steps back, infra/pause.ts). Anything else goes to fastify
 * untouched, which answers it in full: no key or an unknown one, a refusal (429, 503 and their
 * headers), a first call (validation, the handler, the track record), an `Origin` (CORS), an
 * `If-None-Match` (304), a body that is not small JSON, a path not written exactly, debug logging.
 * A POST body the lane read before it found no answer is handed on with the request and parsed
 * by fastify as if it came from the socket (`laneBodyHook`).
 */
export function createServedLane(deps: ServedLaneDeps): ServedLane {
  const clock = deps.now ?? Date.now;
  const routes = new Map<string, AnyOperation>();
  for (const op of deps.operations) {
    if (!op.served || op.perItem || op.walletAuth) continue;
    for (const base of deps.bases) routes.set(`${op.method} ${base}${op.path}`, op);
  }

  /** answers the call of `op` with `request` (its parameter text) when it can; false: it did not */
  function answer(req: IncomingMessage, res: ServerResponse, op: AnyOperation, request: string): boolean {
    const plaintext = presentedKey(req);
    if (plaintext === undefined) return false;
    const now = clock();
    const key = deps.keys.cached(plaintext, now);
    if (!key) return false;
    const served = deps.responses.hit(op, request, now);
    if (!served) return false;
    // a refusal is the app's to answer, with its headers
    const a = admission(deps.meter, deps.holds, key, op, now);
    if (a.refused) return false;
    // admitted: from here on the call is answered 200 here
    markForeground(now);
    const rate = admitCall(deps.meter, key, op, a, now);
    const requestId = randomUUID();
    const encoding = servedEncoding(served, req.headers['accept-encoding']);
    const body = encoding ? served.encoded(encoding) : served.bytes;
    // in the order and with the values the app's hooks set them (api/app.ts, the CORS plugin for a
    // call without Origin, auth and limits, api/pipeline.ts sendServed, metering); fastify keeps a
    // header's first place when it is set again (vary)
    const headers: string[] = [
      ...SECURITY_HEADER_LINES,
      'x-request-id', requestId,
      'vary', encoding ? 'accept-encoding' : 'Origin',
      'x-ratelimit-limit', rate['x-ratelimit-limit'] as string,
      'x-ratelimit-remaining', rate['x-ratelimit-remaining'] as string,
      'x-ratelimit-reset', rate['x-ratelimit-reset'] as string,
    ];
    if (served.etag !== undefined) headers.push('etag', served.etag);
    headers.push('content-type', JSON_TYPE);
    if (encoding) headers.push('content-encoding', encoding);
    headers.push('x-usage-units', String(op.cost), 'content-length', String(body.length));
    if (op.cost > 0) deps.meter.bill({ keyId: key.id, orgId: key.orgId, operation: op.id, units: op.cost, requestId, sandbox: key.plan === 'sandbox' }, now);
    if (deps.counts) {
      const c = deps.counts.of(op.id);
      countCall(c, 200, op.cost);
      c.lane.n++;
    }
    res.writeHead(200, headers);
    res.end(body);
    lane.answered++;
    return true;
  }

  const lane: ServedLane = Object.assign((req: IncomingMessage, res: ServerResponse, next: HttpHandler): void => {
    const method = req.method;
    if ((method !== 'GET' && method !== 'POST') || routes.size === 0) return next(req, res);
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const op = routes.get(`${method} ${q < 0 ? url : url.slice(0, q)}`);
    const h = req.headers;
    if (!op || h.origin !== undefined || h['if-none-match'] !== undefined || h['transfer-encoding'] !== undefined || (deps.logger && debugging(deps.logger))) return next(req, res);
    if (method === 'GET') {
      if (h['content-length'] !== undefined && h['content-length'] !== '0') return next(req, res);
      if (!answer(req, res, op, q < 0 ? '' : url.slice(q + 1))) next(req, res);
      return;
    }
    const type = h['content-type'];
    const length = Number(h['content-length']);
    if (!(type === 'application/json' || type?.startsWith('application/json;')) || !(length >= 0 && length <= MAX_LANE_BODY) || h['content-encoding'] !== undefined) {
      return next(req, res);
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      if (answer(req, res, op, body.toString('utf8'))) return;
      (req as LaneRequest)[LANE_BODY] = body;
      next(req, res);
    });
  }, { answered: 0 });
  return lane;
}

/**
 * The root preParsing hook that gives fastify's body parser the body the served lane already read
 * of a request it handed on (a fresh stream of the same bytes; the socket has none left).
 */
export const laneBodyHook: preParsingHookHandler = (req, _reply, payload, done) => {
  const body = (req.raw as LaneRequest)[LANE_BODY];
  if (body === undefined) return done(null, payload);
  const stream = Readable.from([body], { objectMode: false }) as Readable & { receivedEncodedLength?: number };
  stream.receivedEncodedLength = body.length;
  done(null, stream);
};
