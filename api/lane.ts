import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, preParsingHookHandler } from 'fastify';
import type { KeyService } from '../infra/keys.ts';
import type { Meter } from './metering.ts';
import type { AnyOperation } from './operations.ts';
import { answerHeaders, newRequestId, queryOf, servedEncoding, servedHeaders } from './pipeline.ts';
import { cachedKeyOf, presentedKey } from './plugins/auth.ts';
import { debugging } from './plugins/errors.ts';
import type { Holds } from './plugins/limits.ts';
import { admit } from './plugins/limits.ts';
import { billCall } from './plugins/metering.ts';
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
 * The lane decides nothing of its own: it calls the functions the app's plugins call, in their
 * order, and answers only when all of them let the call through: the key cache knows the key
 * (auth: cachedKeyOf), the limits admit the call (admit, over the app's holds), the response
 * cache holds an answer for exactly this request text; it bills the call (billCall), counts it
 * (countCall) and sends the headers the app's hooks set (answerHeaders, admit's, servedHeaders).
 * Anything else goes to fastify untouched, which answers it in full: no key or an unknown one, a
 * refusal (429, 503 and their headers), a first call (validation, the handler, the track record),
 * an `Origin` (CORS), an `If-None-Match` (304), a body that is not small JSON, a path not written
 * exactly, debug logging. A POST body the lane read before it found no answer is handed on with
 * the request and parsed by fastify as if it came from the socket (`laneBodyHook`).
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
    const served = deps.responses.hit(op, request, now);
    if (!served) return false;
    const key = cachedKeyOf(deps.keys, plaintext, now);
    if (!key) return false;
    // set as the app's hooks set them, in their order: api/app.ts, @fastify/cors (a call without
    // Origin: `vary`), the limits, sendServed (api/pipeline.ts), metering, fastify; a header set
    // again keeps its first place, in an object as in fastify's reply
    const requestId = newRequestId();
    const headers = answerHeaders(requestId);
    headers.vary = 'Origin';
    // a refusal is the app's to answer, with its error
    if (admit(deps.meter, deps.holds, key, op, now, headers).refused) return false;
    const encoding = servedEncoding(served, req.headers['accept-encoding']);
    const body = encoding ? served.encoded(encoding) : served.bytes;
    servedHeaders(served, encoding, headers);
    headers['x-usage-units'] = billCall(deps.meter, key, op.id, op.cost, requestId, now);
    headers['content-length'] = String(body.length);
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
      if (!answer(req, res, op, queryOf(url))) next(req, res);
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
