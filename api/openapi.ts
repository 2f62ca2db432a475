import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import * as agentSchemas from '../schemas/agents.ts';
import * as commonSchemas from '../schemas/common.ts';
import * as copySchemas from '../schemas/copy.ts';
import { ErrorObject, ErrorStatus } from '../schemas/errors.ts';
import * as marketSchemas from '../schemas/market.ts';
import { StreamClientMessage, StreamServerMessage } from '../schemas/stream.ts';
import * as tokenSchemas from '../schemas/token.ts';
import * as trackRecordSchemas from '../schemas/trackrecord.ts';
import * as traderSchemas from '../schemas/trader.ts';
import * as venueSchemas from '../schemas/venues.ts';
import * as walletSchemas from '../schemas/wallet.ts';
import * as webhookSchemas from '../schemas/webhooks.ts';
import type { AnyOperation, CatalogEntry } from './operations.ts';
import { STREAM_ENDPOINT } from './stream/endpoint.ts';
import { API_VERSION } from './version.ts';

type JsonSchema = Record<string, unknown>;

/** the one value `null`, as OpenAPI 3.0 can say it (`nullable` needs a `type` beside it) */
const NULL_ONLY: JsonSchema = { type: 'string', nullable: true, enum: [null] };

/**
 * A schema as OpenAPI 3.0 linters and generators read it: zod writes a nullable reference as
 * `{nullable, allOf: [$ref]}`, which 3.0 does not allow (`nullable` only widens a `type` beside
 * it), a nullable enum without null among its values, and a described reference as
 * `{description, $ref}` (a $ref's siblings are ignored).
 */
export function openApi30(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openApi30);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, openApi30(v)]));
  if (out.nullable === true && out.type === undefined) {
    delete out.nullable;
    const alternatives = Array.isArray(out.allOf) && out.allOf.length === 1 ? out.allOf : Array.isArray(out.anyOf) ? out.anyOf : undefined;
    if (alternatives) {
      delete out.allOf;
      out.anyOf = [...(alternatives as unknown[]), NULL_ONLY];
    }
  }
  // a nullable enum lists null among its values (OpenAPI 3.0.3)
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  if (typeof out.$ref === 'string' && Object.keys(out).length > 1) {
    const { $ref, ...siblings } = out;
    return { ...siblings, allOf: [{ $ref }] };
  }
  return out;
}

function schemaOf(s: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const j = openApi30(z.toJSONSchema(s, { target: 'openapi-3.0', io, unrepresentable: 'any' })) as JsonSchema;
  delete j.$schema;
  return j;
}

const COMPONENTS = '#/components/schemas/';
/** the answer shapes a client may name: every zod schema the schemas/ modules export, by its export name */
const NAMED_MODULES = [commonSchemas, tokenSchemas, marketSchemas, traderSchemas, walletSchemas, copySchemas, venueSchemas, agentSchemas, trackRecordSchemas, webhookSchemas];

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/**
 * The responses as named component schemas (generated clients get named types): each
 * operation's response under `<OperationId>Response` (or the name schemas/ exports it as), and
 * every shared shape it uses that schemas/ exports by name ($ref'd, not inlined). Only the
 * components the answers reach are kept.
 */
function responseComponents(ops: AnyOperation[], stream: boolean): { refs: Map<z.ZodType, string>; schemas: Record<string, JsonSchema> } {
  const registry = z.registry<{ id: string }>();
  const refs = new Map<z.ZodType, string>();
  const add = (schema: z.ZodType, id: string) => {
    if (registry.has(schema) || [...refs.values()].includes(id)) return;
    registry.add(schema, { id });
    refs.set(schema, id);
  };
  add(ErrorObject, 'Error');
  add(CatalogResponse, 'Catalog');
  add(StreamServerMessage, 'StreamServerMessage');
  add(StreamClientMessage, 'StreamClientMessage');
  for (const m of NAMED_MODULES) for (const [name, value] of Object.entries(m)) if (value instanceof z.ZodType) add(value, name);
  for (const op of ops) add(op.response as z.ZodType, `${pascal(op.id)}Response`);
  const all = (openApi30(z.toJSONSchema(registry, { target: 'openapi-3.0', io: 'output', unrepresentable: 'any', uri: (id) => `${COMPONENTS}${id}` })) as { schemas: Record<string, JsonSchema> }).schemas;
  for (const s of Object.values(all)) delete s.$id;
  // what the operations' answers reach
  const keep = new Set<string>();
  const visit = (id: string) => {
    if (keep.has(id) || !all[id]) return;
    keep.add(id);
    JSON.stringify(all[id], (k, v: unknown) => {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENTS)) visit(v.slice(COMPONENTS.length));
      return v;
    });
  };
  visit('Error');
  visit('Catalog');
  if (stream) for (const id of ['StreamServerMessage', 'StreamClientMessage']) visit(id);
  for (const op of ops) visit(refs.get(op.response as z.ZodType) as string);
  return { refs, schemas: Object.fromEntries([...keep].sort().map((id) => [id, all[id] as JsonSchema])) };
}

/** A short type description of each input field for the catalog: `{ token: "Address (required)" }`. */
function describeInput(op: CatalogEntry): Record<string, string> {
  const j = schemaOf(op.request, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  const out: Record<string, string> = {};
  for (const [name, p] of Object.entries(j.properties ?? {})) {
    const type = Array.isArray(p.enum) ? (p.enum as unknown[]).join('|') : String(p.type ?? 'any');
    out[name] = `${type}${(j.required ?? []).includes(name) ? ' (required)' : ''}`;
  }
  return out;
}

export const CatalogResponse = z.object({
  name: z.string(),
  version: z.string(),
  auth: z.string(),
  metering: z.string(),
  note: z.string(),
  openapi: z.string().meta({ format: 'uri' }),
  docs: z.string().meta({ format: 'uri' }),
  count: z.number().int(),
  /** the chains this deployment ingests (docs/architecture.md "Decisions": chains) */
  chains: z.array(z.object({ slug: z.string() })).optional(),
  endpoints: z.array(
    z.object({
      path: z.string(),
      method: z.enum(['GET', 'POST']),
      cost: z.number().int(),
      input: z.record(z.string(), z.string()),
      returns: z.string(),
      group: z.string(),
    }),
  ),
});

export function buildCatalog(ops: CatalogEntry[], publicUrl: string) {
  return {
    name: 'intel',
    version: API_VERSION,
    auth: 'Authorization: Bearer <API_KEY> or x-api-key: <API_KEY>; every operation except GET / needs a key',
    metering: 'every successful call is billed in weighted units (X-Usage-Units); per-key rate limits by plan; a global daily data budget',
    note: 'derived intelligence only: verdicts, bands, scores, percentages and one-sentence texts; never raw provider data',
    openapi: `${publicUrl}/v1/openapi.json`,
    docs: `${publicUrl}/v1/docs`,
    count: ops.length,
    endpoints: ops.map((op) => ({
      path: op.path,
      method: op.method,
      cost: op.cost,
      input: describeInput(op),
      returns: op.returns,
      group: op.group,
    })),
  };
}

const errorRef = { $ref: '#/components/schemas/Error' };

/** X-RateLimit-* and the draft's RateLimit-Policy and RateLimit as every answer of a keyed route carries them (api/plugins/limits.ts); not required on errors raised before the key is known */
const rateLimitHeaders = {
  'X-RateLimit-Limit': { description: 'requests per minute allowed for the key', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'requests left in the current minute', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'seconds until a request slot frees in the window', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'the key\'s policies as draft-ietf-httpapi-ratelimit-headers-11 states them: `"minute";q=<requests>;w=60` and, with a daily unit quota, `"day";q=<units>;w=86400`', schema: { type: 'string' } },
  RateLimit: { description: 'what is left of each policy (draft-ietf-httpapi-ratelimit-headers-11): `"minute";r=<requests>;t=<seconds until one more is admitted>` and `"day";r=<units>;t=<seconds to UTC midnight>`; at r=0, t is the Retry-After', schema: { type: 'string' } },
};

/** the error answer of a status, as every operation shares it (components/responses/Error<status>) */
function errorResponse(status: number): Record<string, unknown> {
  const names = Object.entries(ErrorStatus)
    .filter(([, s]) => s === status)
    .map(([n]) => n)
    .join(', ');
  // every keyed answer states the key's limits; a 429 and a 503 say when to come back
  const headers: Record<string, unknown> = status === 401 ? {} : { ...rateLimitHeaders };
  if (status === 429 || status === 503) headers['Retry-After'] = { description: 'seconds to wait before calling again', schema: { type: 'integer' } };
  if (status === 426) headers.Upgrade = { description: 'the protocol to connect with', schema: { type: 'string', enum: ['websocket'] } };
  return { description: `Error (${names})`, ...(Object.keys(headers).length > 0 ? { headers } : {}), content: { 'application/json': { schema: errorRef } } };
}

/** the error statuses an operation answers, each a reference to the shared answer (noted in `used`) */
function errorResponses(op: Pick<AnyOperation, 'method' | 'cost' | 'rateLimited' | 'walletAuth'> & { path?: string }, used: Set<number>, more: number[] = []): Record<string, unknown> {
  const codes = new Set<number>([400, 401, 429, 500, 503, ...more]);
  if (op.method === 'POST') codes.add(404).add(413);
  if (op.rateLimited === false) codes.delete(429);
  if (op.cost === 0) codes.delete(503);
  // the execution relay: a venue the key is not entitled to, an agent whose state forbids the change
  if (op.walletAuth) codes.add(403).add(409);
  // an agent's grant: a venue the key is not entitled to
  if (op.path === '/copy/agent-grant') codes.add(403);
  const out: Record<string, unknown> = {};
  for (const c of [...codes].sort()) {
    used.add(c);
    out[String(c)] = { $ref: `#/components/responses/Error${c}` };
  }
  return out;
}

/** real subjects the document names as examples (clients and fuzzers then reach the handlers, not 404) */
export interface OpenApiExamples {
  chain?: string;
  token?: string;
  wallet?: string;
}

const JsonObject = z.record(z.string(), z.unknown());

/**
 * Each operation's live answer, recorded at build time by `npm run openapi:examples`
 * (scripts/openapi-examples.ts) from the app on the simulator: the request it sent and its 200
 * body (long arrays cut to a few items). The document shows them as the operations' examples.
 */
export const RecordedExamples = z.object({
  generated: z.object({ at: z.string(), by: z.string(), seed: z.number().int(), historyDays: z.number() }),
  /** the subjects the requests name (the simulator's), replaced by the deployment's own in its document */
  subjects: z.object({ chain: z.string(), token: z.string(), wallet: z.string() }),
  operations: z.record(
    z.string(),
    z.object({
      request: z.object({ query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(), body: JsonObject.optional() }),
      response: JsonObject,
    }),
  ),
});
export type RecordedExamples = z.infer<typeof RecordedExamples>;

/** where `npm run openapi:examples` writes the recorded answers (committed) */
export const RECORDED_EXAMPLES_FILE = fileURLToPath(new URL('./openapi-examples.json', import.meta.url));

let recordedCache: { value: RecordedExamples | undefined } | undefined;
/** the recorded answers, read once; none when the file is missing or not of this shape (the document then has no examples) */
export function recordedExamples(): RecordedExamples | undefined {
  if (!recordedCache) {
    let value: RecordedExamples | undefined;
    try {
      const parsed = RecordedExamples.safeParse(JSON.parse(readFileSync(RECORDED_EXAMPLES_FILE, 'utf8')));
      value = parsed.success ? parsed.data : undefined;
    } catch {
      value = undefined;
    }
    recordedCache = { value };
  }
  return recordedCache.value;
}

/** the request schema with examples on the fields that name a token or a wallet */
function withExamples(req: { properties?: Record<string, JsonSchema> }, ex: OpenApiExamples): void {
  const props = req.properties;
  if (!props) return;
  const set = (name: string, value: unknown) => {
    if (props[name] && value !== undefined) props[name] = { ...props[name], example: value };
  };
  set('token', ex.token);
  set('tokens', ex.token === undefined ? undefined : [ex.token]);
  set('wallet', ex.wallet);
  set('leader', ex.wallet);
  set('chain', ex.chain);
}

/**
 * A recorded request body naming this deployment's token and wallet where it named the
 * simulator's, so the example stays answerable on any deployment (as recorded where the
 * deployment knows none yet); other subjects (a venue account, a second token) stay as recorded.
 */
function answerableBody(body: Record<string, unknown>, recorded: RecordedExamples['subjects'], ex: OpenApiExamples): Record<string, unknown> {
  let text = JSON.stringify(body);
  if (ex.token) text = text.replaceAll(JSON.stringify(recorded.token), JSON.stringify(ex.token));
  if (ex.wallet) text = text.replaceAll(JSON.stringify(recorded.wallet), JSON.stringify(ex.wallet));
  return JSON.parse(text) as Record<string, unknown>;
}

/** the wallet authorization of the execution relay: three headers besides the key, all required together */
const WALLET_SCHEMES = {
  walletAddress: { type: 'apiKey', in: 'header', name: 'X-Wallet-Address', description: "the end user's wallet (an EOA, or a contract wallet verified through EIP-1271 / EIP-6492)" },
  walletSignature: { type: 'apiKey', in: 'header', name: 'X-Wallet-Signature', description: 'EIP-191 personal_sign signature of the canonical agent-API message (see the docs); for /copy/agent/create, the EIP-712 signature of the grant /copy/agent-grant answers; each is accepted once' },
  walletTimestamp: { type: 'apiKey', in: 'header', name: 'X-Auth-Timestamp', description: 'unix seconds signed in the message; valid for 300 s' },
};
const walletRequirement = Object.fromEntries(Object.keys(WALLET_SCHEMES).map((k) => [k, []]));

/** a link's request body: each field a runtime expression over the answer that feeds it */
type LinkBody = Record<string, string>;

const TOKEN_READS = ['tokenIntel', 'tokenSignal', 'tokenRisk', 'tokenOverview', 'tokenChanges'];
const moverToken: LinkBody = { chain: '$response.body#/chain', token: '$response.body#/movers/0/token' };
const agentId: LinkBody = { agentId: '$response.body#/agent/agentId' };
const endpointId: LinkBody = { endpointId: '$response.body#/endpointId' };

/**
 * The operations whose answer feeds another's request (OpenAPI links): what a client does next
 * with an id or a token it was given, and what a stateful fuzzer chains (create, then read and
 * delete what it created) instead of guessing ids that answer 404.
 */
const LINKS: Record<string, Record<string, { operationId: string; requestBody?: LinkBody; parameters?: Record<string, unknown> }>> = {
  webhookCreate: {
    list: { operationId: 'webhookList', parameters: { limit: 100 } },
    deliveries: { operationId: 'webhookDeliveries', requestBody: endpointId },
    delete: { operationId: 'webhookDelete', requestBody: endpointId },
  },
  copyAgentCreate: {
    get: { operationId: 'copyAgentGet', requestBody: agentId },
    pause: { operationId: 'copyAgentPause', requestBody: agentId },
    revoke: { operationId: 'copyAgentRevoke', requestBody: agentId },
  },
  marketMovers: Object.fromEntries(TOKEN_READS.map((id) => [id, { operationId: id, requestBody: moverToken }])),
  namedChainMovers: Object.fromEntries(TOKEN_READS.map((id) => [id, { operationId: id, requestBody: moverToken }])),
};

/** the links of an operation's answer to the operations this document has */
function linksOf(opId: string, present: Set<string>): Record<string, unknown> | undefined {
  const links = Object.entries(LINKS[opId] ?? {}).filter(([, link]) => present.has(link.operationId));
  return links.length > 0 ? Object.fromEntries(links) : undefined;
}

export interface OpenApiOptions {
  /** real subjects of this deployment (api/app.ts: from the replica) */
  examples?: OpenApiExamples;
  /** the live answers recorded at build time (api/openapi-examples.json) */
  recorded?: RecordedExamples;
  /** the live stream is served: `GET /stream` is documented */
  stream?: boolean;
}

const successHeaders = {
  'X-Usage-Units': { description: 'units billed for this call', schema: { type: 'integer' } },
  ...rateLimitHeaders,
  'X-Request-Id': { description: 'the id of this request (in our logs)', schema: { type: 'string' } },
};

/** query parameters from a GET's schema, with the recorded request's values as their examples */
function queryParameters(req: { properties?: Record<string, JsonSchema>; required?: string[] }, recorded?: Record<string, unknown>): unknown[] {
  return Object.entries(req.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: (req.required ?? []).includes(name),
    schema,
    ...(recorded?.[name] !== undefined ? { example: recorded[name] } : {}),
  }));
}

/**
 * `GET /stream`: OpenAPI 3.0 cannot describe WebSocket frames, so the upgrade is the 101 answer
 * and the frames' shapes are named schemas (StreamServerMessage, StreamClientMessage).
 */
function streamOperation(entry: CatalogEntry, usedErrors: Set<number>): Record<string, unknown> {
  const req = schemaOf(entry.request, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return {
    operationId: entry.id,
    summary: entry.summary,
    description: [
      `${entry.summary}. Connect with a WebSocket client (Upgrade: websocket) and the key in Authorization or x-api-key; a key, rate or query refused answers the JSON error before the upgrade.`,
      'The server sends JSON text frames (#/components/schemas/StreamServerMessage): first `hello` {stream, seq, retention, unitsPerEvent}, then `subscribed` / `unsubscribed`, `error`, and `event`s (`token.changed`, `board.changed`, `wallet.grade`), each with its `seq`.',
      'The client sends #/components/schemas/StreamClientMessage: {"type":"subscribe","topics":[…],"since"?:seq,"stream"?:id} or {"type":"unsubscribe","topics":[…]}; each counts as a request in the rate window. `topics`, `since` and `stream` in the query subscribe on connect.',
      `Cost: ${entry.cost} unit per event delivered (control messages are free); resume after a disconnect with since=<last seq> and stream=<hello's stream>.`,
    ].join('\n\n'),
    tags: [entry.group],
    security: [{ bearer: [] }, { apiKey: [] }],
    'x-units': entry.cost,
    'x-units-per': 'event',
    'x-websocket': { server: { $ref: `${COMPONENTS}StreamServerMessage` }, client: { $ref: `${COMPONENTS}StreamClientMessage` } },
    parameters: queryParameters(req),
    responses: {
      '101': {
        description: 'Switching Protocols: the WebSocket is open; every frame the server sends is one StreamServerMessage',
        headers: { Upgrade: { description: 'websocket', schema: { type: 'string', enum: ['websocket'] } } },
        content: { 'application/json': { schema: { $ref: `${COMPONENTS}StreamServerMessage` } } },
      },
      ...errorResponses({ method: 'GET', cost: 0 }, usedErrors, [426]),
    },
  };
}

export function buildOpenApi(ops: AnyOperation[], publicUrl: string, opts: OpenApiOptions = {}) {
  const examples = opts.examples ?? {};
  const paths: Record<string, Record<string, unknown>> = {};
  const components = responseComponents(ops, opts.stream === true);
  const usedErrors = new Set<number>();
  const present = new Set(ops.map((o) => o.id));
  for (const op of ops) {
    const links = linksOf(op.id, present);
    const req = schemaOf(op.request, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    withExamples(req, examples);
    const recorded = opts.recorded?.operations[op.id];
    const operation: Record<string, unknown> = {
      operationId: op.id,
      summary: op.summary,
      description: `${op.summary}. Cost: ${op.cost} unit${op.cost === 1 ? '' : 's'}.`,
      tags: [op.group],
      // the execution relay: the key and the end user's wallet authorization together
      security: op.walletAuth ? [{ bearer: [], ...walletRequirement }, { apiKey: [], ...walletRequirement }] : [{ bearer: [] }, { apiKey: [] }],
      'x-units': op.cost,
      responses: {
        '200': {
          description: op.returns,
          headers: op.served ? { ...successHeaders, ETag: { description: 'a weak validator of the answer (the version of the snapshot or board it projects): send it back as If-None-Match', schema: { type: 'string' } } } : successHeaders,
          content: {
            'application/json': {
              schema: { $ref: `${COMPONENTS}${components.refs.get(op.response as z.ZodType) as string}` },
              ...(recorded ? { example: recorded.response } : {}),
            },
          },
          ...(links ? { links } : {}),
        },
        ...(op.served
          ? {
              '304': {
                description: 'Not modified: the answer named by If-None-Match is still current (no newer snapshot has been written, the board has not been recomputed); not billed',
                headers: { ETag: { description: 'the validator of the current answer', schema: { type: 'string' } } },
              },
            }
          : {}),
        ...errorResponses(op, usedErrors),
      },
    };
    // snapshot reads answer 304 to the ETag of the answer the client holds
    const parameters: unknown[] = op.served
      ? [{ name: 'If-None-Match', in: 'header', required: false, description: 'the ETag of an answer held: 304, not billed, while the snapshot or board it projects is current', schema: { type: 'string' } }]
      : [];
    if (op.method === 'GET') {
      parameters.push(...queryParameters(req, recorded?.request.query));
    } else {
      const body = recorded?.request.body;
      operation.requestBody = {
        required: true,
        content: {
          'application/json': {
            schema: { ...req, additionalProperties: false },
            ...(body && opts.recorded ? { example: answerableBody(body, opts.recorded.subjects, examples) } : {}),
          },
        },
      };
    }
    if (parameters.length > 0 || op.method === 'GET') operation.parameters = parameters;
    paths[op.path] = { ...(paths[op.path] ?? {}), [op.method.toLowerCase()]: operation };
  }
  if (opts.stream) paths[STREAM_ENDPOINT.path] = { get: streamOperation(STREAM_ENDPOINT, usedErrors) };
  const catalog = opts.recorded?.operations.getCatalog;
  paths['/'] = {
    get: {
      operationId: 'getCatalog',
      summary: 'The catalog: service version and every operation with its cost (no key needed)',
      tags: ['infra'],
      security: [],
      responses: {
        '200': { description: 'the catalog', content: { 'application/json': { schema: { $ref: `${COMPONENTS}Catalog` }, ...(catalog ? { example: catalog.response } : {}) } } },
      },
    },
  };
  return {
    openapi: '3.0.3',
    info: {
      title: 'Intelligence Service',
      version: API_VERSION,
      description: 'Derived intelligence about crypto tokens, markets, traders and wallets. Every successful call is billed in weighted units.',
    },
    servers: [{ url: `${publicUrl}/v1` }, { url: `${publicUrl}/api/v1`, description: 'legacy base' }],
    tags: [...new Set(ops.map((o) => o.group))].map((name) => ({ name })),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        ...WALLET_SCHEMES,
      },
      schemas: components.schemas,
      responses: Object.fromEntries([...usedErrors].sort().map((c) => [`Error${c}`, errorResponse(c)])),
    },
    paths,
  };
}

