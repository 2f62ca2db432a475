import { createHash } from 'node:crypto';
import { createPublicClient, hashMessage, hashTypedData, http, isAddress, isErc6492Signature, isErc8010Signature, numberToHex, recoverMessageAddress, recoverTypedDataAddress, serializeSignature } from 'viem';
import type { Address, Hex, PublicClient, TypedDataDefinition } from 'viem';
import type { Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { EvmChainSlugs } from '../schemas/chains.ts';
import type { EvmChainSlug } from '../schemas/chains.ts';
import { ApiError } from '../schemas/errors.ts';

/** Seconds a wallet authorization stays valid, and how far ahead of our clock it may be. */
export const WALLET_AUTH_MAX_AGE_S = 300;
export const WALLET_AUTH_MAX_SKEW_S = 30;
/**
 * Seconds after its timestamp that a replay-guard entry is kept: a message of timestamp t
 * validates only while our clock is within [t - 30 s, t + 300 s]; the 30 s beyond that cover API
 * processes whose clocks differ. Past it the message can never validate again.
 */
export const WALLET_AUTH_GUARD_S = WALLET_AUTH_MAX_AGE_S + WALLET_AUTH_MAX_SKEW_S;
/** how often expired guard entries are dropped (the store's table and this process's memory) */
const SWEEP_EVERY_MS = 60_000;

/** secp256k1's group order; a signature's s above n/2 is the malleable (high-s) twin of a low-s one */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = SECP256K1_N / 2n;

export interface AgentMessageParts {
  /** org id of the API key the request came with */
  partner: string;
  method: string;
  /** the path without the base and the query, as sent */
  path: string;
  /** the raw query string after `?`, as sent; empty when none */
  query: string;
  /** the body's exact text (empty when none) */
  rawBody: string;
  wallet: string;
  /** unix seconds */
  timestamp: number;
}

/**
 * The canonical agent-API message the end user signs with EIP-191 personal_sign (docs/architecture.md, "Decisions"):
 * lines joined by `\n`.
 */
export function canonicalAgentMessage(p: AgentMessageParts): string {
  return [
    'intel-agent-api',
    `partner:${p.partner}`,
    `method:${p.method.toUpperCase()}`,
    `path:${p.path}`,
    `query:${p.query}`,
    `body-sha256:${createHash('sha256').update(p.rawBody).digest('hex')}`,
    `wallet:${p.wallet.toLowerCase()}`,
    `timestamp:${p.timestamp}`,
  ].join('\n');
}

/** An ECDSA signature's parts: from 65 bytes (r, s, v as 27/28 or 0/1) or 64 (EIP-2098 compact). */
interface Ecdsa {
  r: bigint;
  s: bigint;
  yParity: 0 | 1;
}

/** the ECDSA reading of a signature; undefined for other shapes (a contract wallet's own format) */
function ecdsaOf(sig: Hex): Ecdsa | undefined {
  const bytes = (sig.length - 2) / 2;
  if (bytes !== 64 && bytes !== 65) return undefined;
  const r = BigInt(`0x${sig.slice(2, 66)}`);
  const word = BigInt(`0x${sig.slice(66, 130)}`);
  if (bytes === 64) return { r, s: word & ((1n << 255n) - 1n), yParity: word >> 255n === 1n ? 1 : 0 };
  const v = Number.parseInt(sig.slice(130, 132), 16);
  if (v === 0 || v === 27) return { r, s: word, yParity: 0 };
  if (v === 1 || v === 28) return { r, s: word, yParity: 1 };
  return undefined;
}

const NOT_SIGNED = 'X-Wallet-Signature is not the wallet’s signature of the canonical agent-API message';
const NOT_SIGNED_GRANT =
  'X-Wallet-Signature is not the wallet’s EIP-712 signature of this agent grant (the typed data /copy/agent-grant answers for this body, wallet and X-Auth-Timestamp: venue, leader, caps, limits, expiry, session key)';
/** the refusal of a signature that is not the wallet's over what it had to sign */
const notSignedOf = (signed: Signed) => ('message' in signed ? NOT_SIGNED : NOT_SIGNED_GRANT);

/** the EVM JSON-RPC URL of each chain that has one configured (RPC_URL_<CHAIN>) */
export type ChainRpcUrls = Partial<Record<EvmChainSlug, string>>;

export interface WalletAuthOptions {
  /** where the replay guard is kept (Tables.walletAuthGuard): every API process and a restart see it */
  store: Store;
  /** contract wallets (EIP-1271, EIP-6492) verify through these; EOAs never touch the network */
  rpcUrls?: ChainRpcUrls;
  now?: () => number;
  /** a background sweep of expired guard entries failed */
  onError?: (err: unknown) => void;
}

export interface WalletAuthRequest extends Omit<AgentMessageParts, 'wallet' | 'timestamp'> {
  headers: Record<string, string | string[] | undefined>;
}

export interface WalletAuth {
  /**
   * Verifies the three wallet headers of an execution route: present and well formed (401
   * wallet_auth_required), fresh (401 wallet_auth_expired), signed by the wallet over the
   * canonical message (an EOA's low-s ECDSA signature, or a contract wallet's EIP-1271 / EIP-6492
   * answer on its chain), and not accepted before (401 wallet_auth_required). Returns the wallet,
   * lowercase, and the signed message's EIP-191 hash (an operation that creates something keys it
   * on that hash, so even a replay racing through two API processes creates it once). For a
   * contract wallet, also `chains`: the chains on which its signature verified. A contract proves
   * control of its address on its own chain only (another chain's contract at the same address may
   * be someone else's), so what the call reaches must live on one of them; an EOA's key controls its
   * address on every chain (`chains` absent).
   */
  authorize(req: WalletAuthRequest): Promise<WalletAuthorized>;
  /** the three headers read (401 when missing, malformed or stale), before anything is verified: who claims to sign, and when */
  claim(headers: WalletAuthRequest['headers']): { wallet: string; timestamp: number };
  /**
   * Verifies an EIP-712 signature (an agent grant) as `authorize` does the message: `build` gives
   * the typed data the claimed wallet must have signed at its timestamp, and the chain a contract
   * wallet's signature verifies on (none: every configured chain); accepted once (keyed on the
   * typed data's hash)
   */
  authorizeTyped(req: Pick<WalletAuthRequest, 'partner' | 'headers'>, build: (claim: { wallet: string; timestamp: number }) => Promise<{ typedData: TypedDataDefinition; chain?: string }>): Promise<WalletAuthorized>;
  /** waits for a sweep in progress */
  close(): Promise<void>;
}

export interface WalletAuthorized {
  wallet: string;
  messageHash: string;
  /** a contract wallet: the chains on which its signature verified (absent for an EOA's signature) */
  chains?: EvmChainSlug[];
}

/** a guard row's body: the message was accepted, for good */
interface GuardBody {
  state: 'accepted';
  wallet: string;
  partner: string;
  /** ms when the row was written */
  at: number;
}

type Reservation = {
  /** claims the message in the store: true when this request is the one that accepts it */
  accept(): Promise<boolean>;
  release(): void;
};

/**
 * The replay guard, keyed on the signed message's EIP-191 hash: the same authorization in another
 * encoding (v as 1b or 00, compact or full, a high-s twin) is the same message, so it is one entry.
 *
 * In this process: reserve, verify, then accept or release. The reservation is taken synchronously
 * right after the in-process check (no await in between), so of any number of requests for one
 * message in this process exactly one verifies (one ECDSA recovery or contract call for 30 copies);
 * the others wait for its outcome. If its signature was wrong (a forgery with a guessed message,
 * another partner's key) the reservation is released and the next waiter verifies its own, so a
 * legitimate user whose request comes with or after a forged one is never locked out.
 *
 * Across processes: a verified message is accepted by a claim in the store (`Store.claim`, a
 * conditional write the store decides for every process at once), so of the processes that
 * verified the same message exactly one accepts it; a forgery never claims anything. A message
 * already claimed is refused without verifying (a restart, another process's acceptance).
 */
function createGuard(store: Store) {
  /** messages being verified in this process: resolves true when accepted, false when released */
  const flights = new Map<string, Promise<boolean>>();
  /** messages accepted in this process, by the time their entry expires */
  const accepted = new Map<string, number>();

  async function reserve(hash: Hex, who: Omit<GuardBody, 'state' | 'at'>, at: number, expiresAt: number): Promise<Reservation | 'used'> {
    for (;;) {
      if (accepted.has(hash)) return 'used';
      const flight = flights.get(hash);
      if (!flight) break;
      if (await flight) return 'used';
    }
    // reserved right after the checks above, with no await in between
    let settle!: (ok: boolean) => void;
    flights.set(hash, new Promise<boolean>((resolve) => (settle = resolve)));
    const finish = (ok: boolean) => {
      if (ok) accepted.set(hash, expiresAt);
      flights.delete(hash);
      settle(ok);
    };
    try {
      // accepted before (another process, or before a restart): refused without verifying
      if (await store.get(Tables.walletAuthGuard, hash)) {
        finish(true);
        return 'used';
      }
    } catch (err) {
      finish(false);
      throw err;
    }
    const body = JSON.stringify({ state: 'accepted', ...who, at } satisfies GuardBody);
    return {
      async accept() {
        try {
          return await store.claim(Tables.walletAuthGuard, { key: hash, version: 1, body, expiresAt });
        } finally {
          // held as used here even when the claim failed or lost (the call fails): fail closed
          finish(true);
        }
      },
      release: () => finish(false),
    };
  }

  function forgetBefore(nowMs: number): void {
    for (const [hash, exp] of accepted) if (exp < nowMs) accepted.delete(hash);
  }

  return { reserve, forgetBefore };
}

/** `chain` of a JSON body when it names an EVM chain: the chain a contract wallet lives on */
function chainOfBody(rawBody: string): EvmChainSlug | undefined {
  if (!rawBody.includes('"chain"')) return undefined;
  try {
    const chain = (JSON.parse(rawBody) as { chain?: unknown } | null)?.chain;
    return (EvmChainSlugs as readonly unknown[]).includes(chain) ? (chain as EvmChainSlug) : undefined;
  } catch {
    return undefined;
  }
}

/** what the wallet signed: the canonical message (EIP-191), or typed data (EIP-712, an agent grant) */
type Signed = { message: string } | { typedData: TypedDataDefinition };

/** the headers' reading: the wallet (lowercase), the timestamp, the signature and its ECDSA parts */
interface WalletClaim {
  wallet: string;
  timestamp: number;
  signature: Hex;
  ecdsa: Ecdsa | undefined;
}

/** the address an ECDSA signature of the message or typed data recovers to (lowercase); undefined when it recovers to none */
async function recoveredBy(signed: Signed, ecdsa: Ecdsa): Promise<string | undefined> {
  try {
    const signature = serializeSignature({ r: numberToHex(ecdsa.r, { size: 32 }), s: numberToHex(ecdsa.s, { size: 32 }), yParity: ecdsa.yParity });
    const signer = 'message' in signed ? await recoverMessageAddress({ message: signed.message, signature }) : await recoverTypedDataAddress({ ...signed.typedData, signature });
    return signer.toLowerCase();
  } catch {
    // not a recoverable ECDSA signature: maybe a contract wallet's
    return undefined;
  }
}

export function createWalletAuth(opts: WalletAuthOptions): WalletAuth {
  const now = opts.now ?? Date.now;
  const guard = createGuard(opts.store);
  const rpcUrls = opts.rpcUrls ?? {};
  const clients = new Map<EvmChainSlug, PublicClient>();
  const clientOf = (chain: EvmChainSlug, url: string): PublicClient => {
    let c = clients.get(chain);
    if (!c) {
      c = createPublicClient({ transport: http(url, { retryCount: 1, timeout: 10_000 }) });
      clients.set(chain, c);
    }
    return c;
  };

  let lastSweep = -Infinity;
  let sweeping: Promise<void> | undefined;
  function sweep(nowMs: number): void {
    if (sweeping || nowMs - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = nowMs;
    guard.forgetBefore(nowMs);
    sweeping = opts.store
      .expire(Tables.walletAuthGuard, nowMs)
      .catch((err: unknown) => opts.onError?.(err))
      .finally(() => (sweeping = undefined));
  }

  const refused = (detail: string) => new ApiError('wallet_auth_required', detail);

  /**
   * Whether the wallet signed the message or typed data: `{}` for an EOA's signature, `{ chains }`
   * for a contract wallet's (every configured chain on which it verified, or the one named), false
   * when it did not; ApiError when it cannot be told
   */
  async function verified(wallet: Address, signed: Signed, signature: Hex, ecdsa: Ecdsa | undefined, named: EvmChainSlug | undefined): Promise<false | { chains?: EvmChainSlug[] }> {
    // an EOA: recovery from the signature, no network
    if (ecdsa && (await recoveredBy(signed, ecdsa)) === wallet.toLowerCase()) return {};
    // a contract wallet: EIP-1271 on its chain, or EIP-6492 before it is deployed (viem's
    // public-client verifyMessage / verifyTypedData, which call the universal validator without deploying it)
    const chains = named ? [named] : EvmChainSlugs.filter((c) => rpcUrls[c]);
    const configured = chains.filter((c) => rpcUrls[c]);
    if (configured.length === 0) {
      const rpc = named ? `RPC_URL_${named.toUpperCase()}` : 'RPC_URL_<CHAIN>';
      throw refused(
        `${notSignedOf(signed)}: it is not ${wallet.toLowerCase()}'s ECDSA signature, and a smart-contract wallet (EIP-1271, or EIP-6492 before deployment) ` +
          `verifies only through its chain's RPC, which this deployment does not have (the operator sets ${rpc})`,
      );
    }
    let unanswered: EvmChainSlug | undefined;
    const on: EvmChainSlug[] = [];
    for (const chain of configured) {
      const client = clientOf(chain, rpcUrls[chain] as string);
      try {
        // viem's verify answers false when the call fails (it cannot tell a dead RPC from a
        // refusing wallet): a read first tells them apart. No code and no wrapper that deploys or
        // delegates it (EIP-6492, ERC-8010): an EOA, whose signature was checked above
        const code = await client.getCode({ address: wallet });
        if (!code && !isErc6492Signature(signature) && !isErc8010Signature(signature)) continue;
        const ok = 'message' in signed ? await client.verifyMessage({ address: wallet, message: signed.message, signature }) : await client.verifyTypedData({ address: wallet, ...signed.typedData, signature } as Parameters<PublicClient['verifyTypedData']>[0]);
        if (ok) on.push(chain);
      } catch {
        unanswered = chain;
      }
    }
    // verified somewhere: what the call reaches must live there (a chain that did not answer proves nothing)
    if (on.length > 0) return { chains: on };
    if (unanswered) {
      throw new ApiError('execution_unavailable', `the ${unanswered} RPC did not answer while verifying the contract wallet's signature; retry with the same headers`);
    }
    return false;
  }

  /** the three headers, well formed and fresh (401 otherwise): the claimed wallet, the timestamp, the signature */
  function claimOf(headers: WalletAuthRequest['headers']): WalletClaim {
    const h = (n: string) => {
      const v = headers[n];
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
    };
    const wallet = h('x-wallet-address');
    const signature = h('x-wallet-signature');
    const ts = h('x-auth-timestamp');
    if (!wallet || !signature || !ts) {
      throw refused('execution routes need X-Wallet-Address, X-Wallet-Signature and X-Auth-Timestamp');
    }
    if (!isAddress(wallet, { strict: true })) throw refused('X-Wallet-Address must be a 0x-prefixed 20-byte hex address (mixed case must pass the EIP-55 checksum)');
    if (!/^\d{1,12}$/.test(ts)) throw refused('X-Auth-Timestamp must be unix seconds');
    const t = Number(ts);
    const nowS = Math.floor(now() / 1000);
    if (t < nowS - WALLET_AUTH_MAX_AGE_S || t > nowS + WALLET_AUTH_MAX_SKEW_S) {
      throw new ApiError(
        'wallet_auth_expired',
        `X-Auth-Timestamp must be within the last ${WALLET_AUTH_MAX_AGE_S} seconds and at most ${WALLET_AUTH_MAX_SKEW_S} seconds ahead (now ${nowS})`,
      );
    }
    if (!/^0x(?:[0-9a-fA-F]{2})+$/.test(signature)) throw refused('X-Wallet-Signature must be 0x-prefixed hex bytes');
    const sig = signature.toLowerCase() as Hex;
    const ecdsa = ecdsaOf(sig);
    if (ecdsa && ecdsa.s > HALF_N) throw refused('X-Wallet-Signature has a high s (above secp256k1 n/2): send the low-s form');
    return { wallet: wallet.toLowerCase(), timestamp: t, signature: sig, ecdsa };
  }

  /** reserve the signed hash, verify, accept or release (createGuard) */
  async function guarded(hash: Hex, claim: WalletClaim, partner: string, signed: Signed, named: EvmChainSlug | undefined): Promise<WalletAuthorized> {
    const nowMs = now();
    sweep(nowMs);
    const reservation = await guard.reserve(hash, { wallet: claim.wallet, partner }, nowMs, (claim.timestamp + WALLET_AUTH_GUARD_S) * 1000);
    const used = () => refused('this wallet authorization was accepted already: sign a new message (a new X-Auth-Timestamp)');
    if (reservation === 'used') throw used();
    let ok: Awaited<ReturnType<typeof verified>>;
    try {
      ok = await verified(claim.wallet as Address, signed, claim.signature, claim.ecdsa, named);
    } catch (err) {
      reservation.release();
      throw err;
    }
    if (!ok) {
      reservation.release();
      throw refused(notSignedOf(signed));
    }
    // the store decides between processes: exactly one claim of the hash wins
    if (!(await reservation.accept())) throw used();
    return { wallet: claim.wallet, messageHash: hash, ...ok };
  }

  return {
    async authorize(req) {
      const claim = claimOf(req.headers);
      const message = canonicalAgentMessage({ ...req, wallet: claim.wallet, timestamp: claim.timestamp });
      const named = chainOfBody(req.rawBody);
      return guarded(hashMessage(message), claim, req.partner, { message }, named);
    },
    claim: (headers) => {
      const { wallet, timestamp } = claimOf(headers);
      return { wallet, timestamp };
    },
    async authorizeTyped(req, build) {
      const claim = claimOf(req.headers);
      const { typedData, chain } = await build({ wallet: claim.wallet, timestamp: claim.timestamp });
      const named = (EvmChainSlugs as readonly string[]).includes(chain ?? '') ? (chain as EvmChainSlug) : undefined;
      return guarded(hashTypedData(typedData), claim, req.partner, { typedData }, named);
    },
    async close() {
      await sweeping;
    },
  };
}
