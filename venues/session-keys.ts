/**
 * Session keys of the EVM spot venue: one secp256k1 key per agent, derived from the service's
 * master secret, so no key is stored and the same agent always gets the same key.
 */
import { createHmac } from 'node:crypto';
import { toHex, type Hex, type LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** order of the secp256k1 group: a private key is in [1, n - 1] */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** HMAC-SHA256(secret, agentId) reduced into [1, n - 1]: the agent's session private key */
export function deriveSessionKey(secret: string, agentId: string): Hex {
  if (secret.length === 0) throw new Error('deriveSessionKey: empty secret');
  const digest = BigInt(`0x${createHmac('sha256', secret).update(agentId).digest('hex')}`);
  return toHex((digest % (SECP256K1_N - 1n)) + 1n, { size: 32 });
}

/** `sessionKeyFor` for the venue: the agent's session key as a local signer */
export function sessionKeysFrom(secret: string): (agentId: string) => LocalAccount {
  return (agentId) => privateKeyToAccount(deriveSessionKey(secret, agentId));
}
