/**
 * A typed client of the intel API: openapi-fetch over the types openapi-typescript generates
 * from the published OpenAPI document (client/schema.ts, `npm run client:generate`). It sends the
 * key with every call and, for the copy-trading relay (`/copy/agent/*`), signs each call with the
 * end user's wallet (the canonical agent-API message, EIP-191 personal_sign); an agent's creation
 * is signed as the EIP-712 grant `/copy/agent-grant` answers for it (what the wallet shows).
 *
 *   const intel = createIntelClient({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey });
 *   const { data, error } = await intel.POST('/token-intel', { body: { token } });
 *
 * It imports nothing of the service: a partner can copy this folder (with openapi-fetch).
 */
import createClient from 'openapi-fetch';
import type { Client, Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';
/** the named answer and message shapes of the document, e.g. `Schemas['TokenIntelResponse']` */
export type Schemas = components['schemas'];
export type IntelClient = Client<paths>;

/** the operations that need the end user's wallet authorization besides the key */
export const RELAY_PATH_PREFIX = '/copy/agent/';
/** the one relay operation signed as EIP-712 typed data (its grant), not as the canonical message */
const CREATE_PATH = '/copy/agent/create';

/** what signs for the end user: a viem account (`privateKeyToAccount`, a wallet client's account) fits */
export interface WalletSigner {
  address: string;
  signMessage(args: { message: string }): Promise<string>;
  /** EIP-712 (eth_signTypedData_v4): an agent's creation signs its grant */
  signTypedData(args: AgentGrantTypedData): Promise<string>;
}

/** the grant a wallet signs to create an agent (`/copy/agent-grant`'s `typedData`) */
export type AgentGrantTypedData = Schemas['CopyAgentGrantResponse']['typedData'];

/** creation: the grant the API answers for this body, wallet and timestamp, signed as typed data; or the API's refusal of the body */
async function signedGrant(opts: IntelClientOptions, signer: WalletSigner, rawBody: string, timestamp: number): Promise<string | Response> {
  const body = JSON.stringify({ ...(JSON.parse(rawBody || '{}') as object), wallet: signer.address, timestamp });
  const request = new Request(`${opts.baseUrl.replace(/\/+$/, '')}/copy/agent-grant`, { method: 'POST', headers: { authorization: `Bearer ${opts.apiKey}`, 'content-type': 'application/json' }, body });
  const res = await (opts.fetch ?? globalThis.fetch)(request);
  if (!res.ok) return res;
  return signer.signTypedData(((await res.json()) as Schemas['CopyAgentGrantResponse']).typedData);
}

export interface IntelClientOptions {
  /** the API's base, with its version: `http://127.0.0.1:8080/v1` */
  baseUrl: string;
  /** sent as `Authorization: Bearer <key>` */
  apiKey: string;
  /** the relay (`/copy/agent/*`): the end user's wallet, which signs each call */
  walletSigner?: WalletSigner;
  /** with walletSigner: the organisation id of the API key (the console shows it), signed in every relay call */
  partner?: string;
  /** unix ms for the signed timestamp (default Date.now) */
  now?: () => number;
  /** default globalThis.fetch */
  fetch?: (request: Request) => Promise<Response>;
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** The canonical agent-API message (the docs' "Copy-trading execution"): `name:value` lines under `intel-agent-api`. */
export async function agentApiMessage(p: { partner: string; method: string; path: string; query: string; rawBody: string; wallet: string; timestamp: number }): Promise<string> {
  const bodyHash = hex(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(p.rawBody)));
  const fields: [string, string | number][] = [
    ['partner', p.partner],
    ['method', p.method.toUpperCase()],
    ['path', p.path],
    ['query', p.query],
    ['body-sha256', bodyHash],
    ['wallet', p.wallet.toLowerCase()],
    ['timestamp', p.timestamp],
  ];
  return ['intel-agent-api', ...fields.map(([name, value]) => `${name}:${value}`)].join('\n');
}

/** signs a relay call as it is sent: the path below the base, the raw query and body, now */
function walletAuthorization(opts: IntelClientOptions): Middleware {
  const basePath = new URL(opts.baseUrl).pathname.replace(/\/+$/, '');
  const now = opts.now ?? Date.now;
  return {
    async onRequest({ request, schemaPath }) {
      if (!schemaPath.startsWith(RELAY_PATH_PREFIX)) return undefined;
      const signer = opts.walletSigner;
      if (!signer || !opts.partner) throw new Error(`${schemaPath} needs the end user's wallet: create the client with walletSigner and partner`);
      const url = new URL(request.url);
      const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
      const timestamp = Math.floor(now() / 1000);
      const rawBody = request.body ? await request.clone().text() : '';
      let signature: string | Response;
      if (schemaPath === CREATE_PATH) signature = await signedGrant(opts, signer, rawBody, timestamp);
      else signature = await signer.signMessage({ message: await agentApiMessage({ partner: opts.partner, method: request.method, path, query: url.search.replace(/^\?/, ''), rawBody, wallet: signer.address, timestamp }) });
      // the grant refused the body: its answer is the creation's
      if (signature instanceof Response) return signature;
      request.headers.set('x-wallet-address', signer.address);
      request.headers.set('x-auth-timestamp', String(timestamp));
      request.headers.set('x-wallet-signature', signature);
      return request;
    },
  };
}

export function createIntelClient(opts: IntelClientOptions): IntelClient {
  const client = createClient<paths>({
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${opts.apiKey}` },
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  client.use(walletAuthorization(opts));
  return client;
}
