import type { z } from 'zod';
import type { ApiKeyRecord } from '../infra/keys.ts';
import type { SnapshotEntry } from './replica.ts';
import type { WalletAuth } from './wallet-auth.ts';

export type Group = 'infra' | 'token' | 'market' | 'copytrading' | 'trader' | 'wallet' | 'signals';

/** What a handler knows about the call besides its validated input. */
export interface CallContext {
  key: ApiKeyRecord;
  /** ms since epoch when the request arrived */
  now: number;
  requestId: string;
  /** the client's address (as the app's trust-proxy setting reads it) */
  ip?: string;
  /** operations with `walletAuth`: the end user's wallet that signed the call (lowercase) */
  wallet?: string;
  /** operations with `walletAuth`: the EIP-191 hash of the signed message (accepted once) */
  authorization?: string;
  /** operations with `walletAuth`, signed by a contract wallet: the chains where its signature verified */
  walletChains?: readonly string[];
  /**
   * operations with `walletAuth: 'typed'`: the wallet and timestamp the headers claim (not yet
   * verified), and the verification of the typed data the handler builds from them and the input
   */
  walletClaim?: { wallet: string; timestamp: number };
  authorizeTyped?: WalletAuth['authorizeTyped'] extends (req: never, build: infer B) => infer R ? (build: B) => R : never;
}

/**
 * One operation of the API: the single source for the route, validation, metering, the
 * catalog and the OpenAPI document.
 */
export interface Operation<Req extends z.ZodObject = z.ZodObject, Res extends z.ZodType = z.ZodType, Src extends ServedSource = SnapshotEntry> {
  id: string;
  method: 'GET' | 'POST';
  /** path relative to the base, e.g. `/token-intel` */
  path: string;
  /** units billed per successful call */
  cost: number;
  group: Group;
  summary: string;
  /** one phrase for the catalog's `returns` */
  returns: string;
  /** body schema (POST) or query schema (GET); unknown properties are rejected with unknown_param */
  request: Req;
  response: Res;
  /** `GET /usage` is never rate limited */
  rateLimited?: boolean;
  /**
   * the execution relay (`/copy/agent/*`): besides the key, the end user's wallet authorization
   * over the call as sent (api/wallet-auth.ts), checked before the input is read; `typed`: the
   * headers are read before the input, and the handler verifies the EIP-712 typed data it builds
   * (agent creation: what the user grants, field by field)
   */
  walletAuth?: boolean | 'typed';
  handler: (input: z.output<Req>, ctx: CallContext) => Promise<z.input<Res>>;
  /**
   * Batch operations (`/tokens/*`): `cost` is the units of one item. The call holds `cost` ×
   * `items(body)` against the key's quota and the budget once its body is read, and is billed
   * `cost` × `billed(response)`, the items answered with a result (an item's error is not billed).
   */
  perItem?: {
    /** how many items the raw body asks for (before validation; a body the schema refuses asks for one) */
    items: (body: unknown) => number;
    /** how many items of the response were answered with a result */
    billed: (response: z.input<Res>) => number;
  };
  /**
   * Set on operations that project one snapshot (or a board they keep themselves: `source`) and
   * the parameters, where only `ageSeconds` depends on the time: their responses are cached as
   * bytes (api/served.ts).
   */
  served?: {
    /** the key of what the response projects: a replica key, unless `source` says otherwise */
    snapshot: (input: z.output<Req>) => string;
    /**
     * What the key holds now when it is not a replica snapshot (a board the operation keeps
     * itself): the answer cached over it is current while this returns the same object; undefined
     * while there is none or it expired. Default: the replica's entry of the key.
     */
    source?: (key: string, nowMs: number) => ServedSource | undefined;
    /** the response's `ageSeconds` at a time, exactly as the view computes it (null: it has none, a board over no token yet, and is not served from bytes) */
    ageSeconds: (snapshot: Src, nowMs: number) => number | null;
    /** whether the answer to this input may be cached (a call asking to recompute is not); default: every input */
    cacheable?: (input: z.output<Req>) => boolean;
  };
}

/**
 * What a served answer projects (api/served.ts): a replica snapshot, or what an operation keeps
 * itself (`served.source`), one object per version of it
 */
export interface ServedSource {
  /** changes whenever the content does: part of the answer's ETag */
  readonly version: number;
  /** ms since epoch after which the answer over it is no longer current; none: until replaced */
  readonly expiresAt?: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any, any>;

/**
 * What the catalog, the docs page and the OpenAPI document list of an endpoint: an operation, or
 * the live stream (a WebSocket, billed per event: api/stream/endpoint.ts).
 */
export type CatalogEntry = Pick<AnyOperation, 'id' | 'method' | 'path' | 'cost' | 'group' | 'summary' | 'returns' | 'request'>;

/**
 * What the auth, limits, metering and metrics plugins read of a route's `operation` config: an
 * operation, or a route outside the catalog that is keyed, limited and billed like one (the
 * execution relay).
 */
export type MeteredRoute = Pick<AnyOperation, 'id' | 'cost' | 'rateLimited' | 'perItem'>;

export function defineOperation<Req extends z.ZodObject, Res extends z.ZodType, Src extends ServedSource = SnapshotEntry>(op: Operation<Req, Res, Src>): AnyOperation {
  return op;
}
