import { createHash } from 'node:crypto';
import { verifyMessage } from 'viem';
import { ApiError } from '../schemas/errors.ts';

/** Seconds a wallet authorization stays valid, and how far ahead of our clock it may be. */
export const WALLET_AUTH_MAX_AGE_S = 300;
export const WALLET_AUTH_MAX_SKEW_S = 30;

/**
 * The canonical agent-API message the end user signs with EIP-191 personal_sign (DESIGN.md):
 * lines joined by `\n`.
 */
export function canonicalAgentMessage(p: { method: string; path: string; rawBody: string; wallet: string; timestamp: number }): string {
  return [
    'intel-agent-api',
    `method:${p.method.toUpperCase()}`,
    `path:${p.path}`,
    `body-sha256:${createHash('sha256').update(p.rawBody).digest('hex')}`,
    `wallet:${p.wallet.toLowerCase()}`,
    `timestamp:${p.timestamp}`,
  ].join('\n');
}

/**
 * Verifies the three wallet headers of an execution route: present (401 wallet_auth_required),
 * fresh (401 wallet_auth_expired), signed by the wallet over the canonical message, and not seen
 * before (a signature is accepted once).
 */
export function createWalletAuth(opts: { now?: () => number } = {}) {
  const now = opts.now ?? Date.now;
  /** signatures accepted within the validity window, by expiry */
  const seen = new Map<string, number>();
  return async (req: { method: string; path: string; rawBody: string; headers: Record<string, string | string[] | undefined> }): Promise<string> => {
    const h = (n: string) => {
      const v = req.headers[n];
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
    };
    const wallet = h('x-wallet-address');
    const signature = h('x-wallet-signature');
    const ts = h('x-auth-timestamp');
    if (!wallet || !signature || !ts) {
      throw new ApiError('wallet_auth_required', 'execution routes need X-Wallet-Address, X-Wallet-Signature and X-Auth-Timestamp');
    }
    if (!/^0x[0-9a-fA-F]{40}$/.test(wallet)) throw new ApiError('wallet_auth_required', 'X-Wallet-Address must be a 0x-prefixed 20-byte hex address');
    if (!/^\d{1,12}$/.test(ts)) throw new ApiError('wallet_auth_required', 'X-Auth-Timestamp must be unix seconds');
    const t = Number(ts);
    const nowS = Math.floor(now() / 1000);
    if (t < nowS - WALLET_AUTH_MAX_AGE_S || t > nowS + WALLET_AUTH_MAX_SKEW_S) {
      throw new ApiError('wallet_auth_expired', `X-Auth-Timestamp must be within the last ${WALLET_AUTH_MAX_AGE_S} seconds`);
    }
    for (const [sig, exp] of seen) if (exp < nowS) seen.delete(sig);
    if (seen.has(signature.toLowerCase())) throw new ApiError('wallet_auth_required', 'this signature was used already; sign a new message');
    const message = canonicalAgentMessage({ method: req.method, path: req.path, rawBody: req.rawBody, wallet, timestamp: t });
    let ok = false;
    try {
      ok = /^0x[0-9a-fA-F]+$/.test(signature) && (await verifyMessage({ address: wallet as `0x${string}`, message, signature: signature as `0x${string}` }));
    } catch {
      ok = false;
    }
    if (!ok) throw new ApiError('wallet_auth_required', 'X-Wallet-Signature is not the wallet’s signature of the canonical agent-API message');
    seen.set(signature.toLowerCase(), t + WALLET_AUTH_MAX_AGE_S);
    return wallet.toLowerCase();
  };
}
