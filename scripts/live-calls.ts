/**
 * Every operation of the OpenAPI document called once against a running app, each with inputs
 * the app can answer: the subjects come from earlier answers (the conviction board's tokens, the
 * trader leaderboard's wallets, the venues' leaders); the webhook endpoint and the copy agent are
 * created first, and paused, resumed, revoked or deleted last. Used to record the document's
 * examples (scripts/openapi-examples.ts) and to test the client against the app
 * (test/e2e/client.test.ts), both through the client (client/index.ts).
 */
import type { IntelClient } from '../client/index.ts';
import type { Resolver } from '../api/webhooks/destination.ts';

export interface LiveRequest {
  operationId: string;
  method: 'GET' | 'POST';
  /** below the base, as the document names it */
  path: string;
  query?: Record<string, string | number | boolean>;
  body?: Record<string, unknown>;
}
export interface LiveAnswer {
  status: number;
  body: unknown;
}
export type Send = (request: LiveRequest) => Promise<LiveAnswer>;

interface DocOperation {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses: Record<string, unknown>;
}
/** what the calls read of the document */
export interface LiveDocument {
  paths: Record<string, Record<string, DocOperation>>;
}

/** what later calls name, read from earlier answers */
export interface Subjects {
  chain: string;
  tokens: string[];
  wallets: string[];
  perpAccount?: string;
  predictionAccount?: string;
  endpointId?: string;
  agentId?: string;
}

/**
 * a webhook URL on a reserved name (RFC 2606 `.example`): accepted where the app resolves names
 * with `exampleNames`, and never delivered to (no certificate is valid for the name)
 */
export const EXAMPLE_WEBHOOK_URL = 'https://partner.example/intel-webhooks';

/**
 * The resolver the app runs with where the live calls are made (the examples, the client's test):
 * RFC 2606's reserved names (`*.example`, `example.com` and its hosts) resolve to example.com's
 * public address; no DNS is asked, and any other name does not resolve.
 */
export const exampleNames: Resolver = async (host) => {
  if (host.endsWith('.example') || host === 'example.com' || host.endsWith('.example.com')) return [{ address: '93.184.216.34', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/** the calls whose answers name what the others need, first; the ones that end what they made, last */
const FIRST = ['getCatalog', 'convictionBoard', 'traderLeaderboard', 'copyPerpLeaders', 'copyPredictionLeaders', 'webhookCreate', 'copyAgentCreate'];
const LAST = ['webhookTest', 'webhookDeliveries', 'webhookDelete', 'copyAgentPause', 'copyAgentResume', 'copyAgentRevoke'];

/** a wallet that signs in the examples (its grant's answer names it; nothing is signed) */
const EXAMPLE_SIGNER = '0x5ad1e7c0de5ad1e7c0de5ad1e7c0de5ad1e7c0de';

/** the copy agent the examples create (and ask the grant of) */
const agentBody = (s: Subjects, nowS: number) => ({
  venue: 'evm-spot',
  leader: s.wallets[0],
  limits: { maxNotionalUsd: 250, dailyCapUsd: 1000, maxOpenPositions: 5, maxSlippageBps: 100, minLeaderGrade: 'watch', expiresAt: nowS + 30 * 86_400 },
});

/** inputs that are not read from a field's name alone */
function specialInput(id: string, s: Subjects, nowS: number): Record<string, unknown> | undefined {
  switch (id) {
    case 'webhookCreate':
      // with the live stream's events of the board and of a token pushed to it too
      return { url: EXAMPLE_WEBHOOK_URL, description: 'trading desk alerts', topics: [`board:${s.chain}`, ...s.tokens.slice(0, 1).map((t) => `token:${s.chain}:${t}`)] };
    case 'copyAgentCreate':
      return agentBody(s, nowS);
    case 'copyAgentGrant':
      // what the create would grant, for the wallet that would sign it now
      return { ...agentBody(s, nowS), wallet: EXAMPLE_SIGNER, timestamp: nowS };
    case 'perpWallet':
      return { wallet: s.perpAccount };
    case 'predictionWallet':
      return { wallet: s.predictionAccount };
    case 'copyAgentDryRun':
      return { agentId: s.agentId, trades: 5 };
    default:
      return undefined;
  }
}

/** a field's value from its name: the subjects, and short pages */
function byName(name: string, s: Subjects): unknown {
  const named: Record<string, unknown> = {
    token: s.tokens[0],
    tokens: s.tokens.slice(0, 3),
    wallet: s.wallets[0],
    wallets: s.wallets.slice(0, 2),
    leader: s.wallets[0],
    endpointId: s.endpointId,
    agentId: s.agentId,
    limit: 3,
  };
  return named[name];
}

function requestOf(path: string, method: 'GET' | 'POST', op: DocOperation, s: Subjects, nowS: number): LiveRequest {
  const special = specialInput(op.operationId, s, nowS);
  const fields =
    method === 'GET'
      ? (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: p.required === true }))
      : Object.keys(op.requestBody?.content['application/json']?.schema.properties ?? {}).map((name) => ({
          name,
          required: (op.requestBody?.content['application/json']?.schema.required ?? []).includes(name),
        }));
  const input: Record<string, unknown> = {};
  for (const f of fields) {
    const value = special ? special[f.name] : byName(f.name, s);
    if (value !== undefined) input[f.name] = value;
    else if (f.required) throw new Error(`${op.operationId}: no value for its required '${f.name}' (add one in scripts/live-calls.ts)`);
  }
  const request: LiveRequest = { operationId: op.operationId, method, path };
  if (method === 'POST') request.body = input;
  else if (Object.keys(input).length > 0) request.query = input as LiveRequest['query'];
  return request;
}

/** what an answer tells the later calls */
function learn(id: string, body: Record<string, unknown>, s: Subjects): void {
  const items = (field: string) => (Array.isArray(body[field]) ? (body[field] as Record<string, string>[]) : []);
  if (id === 'convictionBoard') {
    s.tokens = items('board').map((b) => b.token as string);
    s.chain = items('board')[0]?.chain ?? s.chain;
  }
  if (id === 'traderLeaderboard') s.wallets = items('leaders').map((l) => l.wallet as string);
  if (id === 'copyPerpLeaders') s.perpAccount = items('leaders')[0]?.wallet;
  if (id === 'copyPredictionLeaders') s.predictionAccount = items('leaders')[0]?.wallet;
  if (id === 'webhookCreate') s.endpointId = body.endpointId as string;
  if (id === 'copyAgentCreate') s.agentId = (body.agent as { agentId: string } | undefined)?.agentId;
}

/**
 * Calls every operation of the document that answers 200 (the stream, a WebSocket, is not one),
 * once each, in an order that lets each name what earlier answers named.
 */
export async function callEveryOperation(doc: LiveDocument, send: Send, opts: { now?: () => number } = {}): Promise<{ subjects: Subjects; calls: (LiveAnswer & { request: LiveRequest })[] }> {
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => op.responses['200'] !== undefined)
      .map(([method, op]) => ({ path, method: method.toUpperCase() as 'GET' | 'POST', op })),
  );
  const rank = (id: string) => (FIRST.includes(id) ? FIRST.indexOf(id) - FIRST.length : LAST.includes(id) ? 1 + LAST.indexOf(id) : 0);
  ops.sort((a, b) => rank(a.op.operationId) - rank(b.op.operationId));
  const s: Subjects = { chain: '', tokens: [], wallets: [] };
  const calls: (LiveAnswer & { request: LiveRequest })[] = [];
  for (const { path, method, op } of ops) {
    const request = requestOf(path, method, op, s, Math.floor((opts.now ?? Date.now)() / 1000));
    const answer = await send(request);
    calls.push({ request, ...answer });
    if (answer.status === 200) learn(op.operationId, answer.body as Record<string, unknown>, s);
  }
  return { subjects: s, calls };
}

/**
 * A Send through the typed client; a new client (its own key, so its own rate window) every
 * `callsPerClient` calls, so one pass stays within a sandbox key's rate.
 */
export function sendThrough(newClient: () => Promise<IntelClient>, callsPerClient = 40): Send {
  let client: IntelClient | undefined;
  let calls = 0;
  return async (r) => {
    if (!client || calls++ % callsPerClient === 0) client = await newClient();
    // the document's paths as strings: the typed calls are in the client's own test
    const init = { ...(r.query ? { params: { query: r.query } } : {}), ...(r.body ? { body: r.body } : {}) } as never;
    const res = r.method === 'GET' ? await client.GET(r.path as never, init) : await client.POST(r.path as never, init);
    return { status: res.response.status, body: (res.data ?? res.error) as unknown };
  };
}

/** items an example array keeps: enough to show the shape */
const KEEP_ITEMS = 3;

/** an answer with every array cut to its first items (a recorded example stays small) */
export function shortened(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, KEEP_ITEMS).map(shortened);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortened(v)]));
  return value;
}
