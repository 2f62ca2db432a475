/**
 * The execution relay `/copy/agent/*` as a partner's backend calls it: the real app (buildApp)
 * over the embedded store in a directory, a partner's sandbox key, the canonical message signed
 * by the end user's wallet and sent with the three wallet headers through fastify inject.
 */
import type { FastifyInstance } from 'fastify';
import type { Hex, TypedDataDefinition } from 'viem';
import type { LocalAccount } from 'viem/accounts';
import { buildApp } from '../../api/app.ts';
import { createKeyService } from '../../infra/keys.ts';
import type { KeyService } from '../../infra/keys.ts';
import { createMeter } from '../../api/metering.ts';
import { createAgentOperations } from '../../api/routes/agents.ts';
import type { AgentService } from '../../api/routes/agents.ts';
import { createAgentService, paperOnlyVenues } from '../../relay/index.ts';
import { canonicalAgentMessage } from '../../api/wallet-auth.ts';
import type { AgentMessageParts, ChainRpcUrls } from '../../api/wallet-auth.ts';
import { createMemoryLog } from '../../infra/log/memory.ts';
import { createEmbeddedStore } from '../../infra/store/embedded.ts';
import type { Store } from '../../infra/store/types.ts';

export interface RelayApp {
  app: FastifyInstance;
  store: Store;
  keys: KeyService;
  /** the agent service behind the relay (what a user did on another chain, written directly) */
  agents: AgentService;
  close(): Promise<void>;
}

/** the real app over the embedded store in `dir` (a second boot over the same dir is a restart) */
export async function bootRelayApp(dir: string, opts: { now?: () => number; rpcUrls?: ChainRpcUrls } = {}): Promise<RelayApp> {
  const store = await createEmbeddedStore({ dataDir: dir });
  await store.migrate();
  const keys = createKeyService({ store, cacheTtlSeconds: 30 });
  const meter = await createMeter({ log: createMemoryLog(), store, runSink: false, now: opts.now });
  const now = opts.now ?? Date.now;
  const agents = createAgentService({ store, keys, venues: paperOnlyVenues, emit: async () => undefined, now, defaultChain: 'sim' });
  const operations = createAgentOperations(() => agents);
  const app = await buildApp({ operations, keys, meter, dailyUnitBudget: 1_000_000, publicUrl: () => 'http://x', store, rpcUrls: opts.rpcUrls, now: opts.now });
  return {
    app,
    store,
    keys,
    agents,
    async close() {
      await app.close();
      await meter.stop();
      await store.close();
    },
  };
}

/** a partner: a sandbox organisation and a key of it */
export async function relayPartner(keys: KeyService, name: string): Promise<{ org: string; key: string }> {
  const org = await keys.createOrg(name);
  return { org: org.id, key: (await keys.createKey(org.id, 'sandbox')).plaintext };
}

export interface RelayCall {
  /** org id of the key */
  partner: string;
  wallet: Hex;
  /** unix seconds */
  timestamp: number;
  method?: 'GET' | 'POST';
  /** below the base; default /copy/agent/list */
  path?: string;
  query?: string;
  /** default: `{"limit":20}` for POST, empty for GET */
  body?: string;
}

export function relayParts(c: RelayCall): AgentMessageParts {
  return {
    partner: c.partner,
    method: c.method ?? 'POST',
    path: c.path ?? '/copy/agent/list',
    query: c.query ?? '',
    rawBody: c.body ?? (c.method === 'GET' ? '' : '{"limit":20}'),
    wallet: c.wallet,
    timestamp: c.timestamp,
  };
}

/** the canonical message of the call signed with personal_sign by `by` */
export const signRelay = (c: RelayCall, by: LocalAccount): Promise<Hex> => by.signMessage({ message: canonicalAgentMessage(relayParts(c)) });

/** sends the call with the API key and a signature; `url` overrides what is sent as path and query */
export function sendRelay(app: FastifyInstance, key: string, c: RelayCall, signature: string, url?: string) {
  const p = relayParts(c);
  return app.inject({
    method: p.method as 'GET' | 'POST',
    url: url ?? `/v1${p.path}${p.query ? `?${p.query}` : ''}`,
    headers: {
      authorization: `Bearer ${key}`,
      ...(p.method === 'POST' ? { 'content-type': 'application/json' } : {}),
      'x-wallet-address': p.wallet,
      'x-wallet-signature': signature,
      'x-auth-timestamp': String(p.timestamp),
    },
    ...(p.method === 'POST' ? { payload: p.rawBody } : {}),
  });
}

/** the grant the API answers for a create call (its body, wallet and timestamp): the EIP-712 typed data the wallet signs */
export async function grantOf(app: FastifyInstance, key: string, c: RelayCall): Promise<TypedDataDefinition> {
  const r = await app.inject({
    method: 'POST',
    url: '/v1/copy/agent-grant',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ ...(JSON.parse(c.body ?? '{}') as object), wallet: c.wallet, timestamp: c.timestamp }),
  });
  if (r.statusCode !== 200) throw new Error(`grant refused: ${r.statusCode} ${r.body}`);
  return (r.json() as { typedData: TypedDataDefinition }).typedData;
}

type Answer = { statusCode: number; json(): unknown };
/** accepted: the authorization passed and the operation answered (its 200, or its 400 about the body it then read) */
export const accepted = (r: Answer) => r.statusCode === 200 || (r.statusCode === 400 && ['invalid_param', 'unknown_param'].includes((r.json() as { error: string }).error));
export const refused = (r: Answer, code = 'wallet_auth_required') => r.statusCode === 401 && (r.json() as { error: string }).error === code;
export const detail = (r: { json(): unknown }) => (r.json() as { detail: string }).detail;

const lastSigned = new Map<string, number>();

/**
 * A signed call of the relay over HTTP, as a partner's backend makes it for its user: the key,
 * the canonical message over the body signed by the user's wallet, the three wallet headers.
 */
export async function signedCall(
  baseUrl: string,
  key: { plaintext: string; orgId: string },
  by: LocalAccount,
  path: string,
  body: unknown,
  timestamp?: number,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const rawBody = JSON.stringify(body);
  // an authorization is accepted once: a repeated call (a poll) signs a later timestamp; a
  // creation's id derives from its wallet and timestamp, so every creation of a wallet signs its own
  const id = path === '/copy/agent/create' ? `${key.orgId}|${by.address}|create` : `${key.orgId}|${by.address}|${path}|${rawBody}`;
  const nowS = Math.floor(Date.now() / 1000);
  timestamp ??= Math.max(nowS - 250, (lastSigned.get(id) ?? 0) + 1);
  lastSigned.set(id, timestamp);
  const signature = path === '/copy/agent/create' ? await signGrant(baseUrl, key, by, body, timestamp) : await by.signMessage({ message: canonicalAgentMessage({ partner: key.orgId, method: 'POST', path, query: '', rawBody, wallet: by.address, timestamp }) });
  if (typeof signature !== 'string') return signature;
  const res = await fetch(`${baseUrl}/v1${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key.plaintext}`,
      'content-type': 'application/json',
      'x-wallet-address': by.address,
      'x-wallet-signature': signature,
      'x-auth-timestamp': String(timestamp),
    },
    body: rawBody,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/**
 * A creation's signature, as a partner's backend gets it: the grant the API answers for the body,
 * wallet and timestamp, signed by the wallet as EIP-712 typed data (what the wallet shows); the
 * grant's own answer when it refused the body
 */
export async function signGrant(
  baseUrl: string,
  key: { plaintext: string },
  by: LocalAccount,
  body: unknown,
  timestamp: number,
): Promise<string | { status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/v1/copy/agent-grant`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.plaintext}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...(body as object), wallet: by.address, timestamp }),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) return { status: res.status, json };
  return by.signTypedData(json.typedData as Parameters<LocalAccount['signTypedData']>[0]);
}
