import { createPublicClient, http, isAddress, isHex, verifyMessage } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { parseSiweMessage, validateSiweMessage, verifySiweMessage } from 'viem/siwe';
import type { SiweMessage } from 'viem/siwe';
import type { EvmChainSlug } from '../../schemas/chains.ts';
import type { ChainRpcUrls } from '../wallet-auth.ts';

/** EIP-155 chain ids of the EVM chains a deployment can have an RPC for (smart-contract wallets verify there) */
export const CHAIN_IDS: Record<number, EvmChainSlug> = {
  1: 'ethereum',
  10: 'optimism',
  56: 'bsc',
  137: 'polygon',
  8453: 'base',
  42161: 'arbitrum',
  31337: 'devnet',
};

/** how old a message's issued-at may be, and how far ahead of our clock */
export const SIWE_MAX_AGE_MS = 10 * 60_000;
export const SIWE_MAX_SKEW_MS = 60_000;

export type SiweCheck = { ok: true; message: SiweMessage & { address: Address; nonce: string } } | { ok: false; reason: string };

/**
 * The fields of an EIP-4361 message the server checks before the signature: version 1, our
 * domain and origin, an address, a nonce, a chain id, issued-at within the last 10 minutes (and
 * not ahead of our clock), not expired, not before its notBefore.
 */
export function checkSiweMessage(text: string, expected: { domain: string; origin: string }, now: number): SiweCheck {
  let m: ReturnType<typeof parseSiweMessage>;
  try {
    m = parseSiweMessage(text);
  } catch {
    return { ok: false, reason: 'the message is not an EIP-4361 (Sign-In with Ethereum) message' };
  }
  if (m.version !== '1') return { ok: false, reason: 'the message must be EIP-4361 version 1' };
  if (!m.address || !isAddress(m.address, { strict: false })) return { ok: false, reason: 'the message names no valid address' };
  if (!m.nonce) return { ok: false, reason: 'the message carries no nonce' };
  if (!m.chainId) return { ok: false, reason: 'the message carries no chain id' };
  if (m.domain !== expected.domain) return { ok: false, reason: `the message is for ${m.domain ?? 'no domain'}, not ${expected.domain}` };
  let origin: string | undefined;
  try {
    origin = m.uri ? new URL(m.uri).origin : undefined;
  } catch {
    origin = undefined;
  }
  if (origin !== expected.origin) return { ok: false, reason: `the message's URI must be at ${expected.origin}` };
  const issued = m.issuedAt?.getTime();
  if (issued === undefined || Number.isNaN(issued)) return { ok: false, reason: 'the message carries no issued-at time' };
  if (issued > now + SIWE_MAX_SKEW_MS || issued < now - SIWE_MAX_AGE_MS) return { ok: false, reason: 'the message was issued more than 10 minutes ago or in the future; sign in again' };
  if (!validateSiweMessage({ message: m, domain: expected.domain, time: new Date(now) })) return { ok: false, reason: 'the message has expired or is not valid yet' };
  return { ok: true, message: m as SiweMessage & { address: Address; nonce: string } };
}

/**
 * Whether the message's address signed it: an EOA's signature is recovered locally; otherwise a
 * smart-contract wallet (EIP-1271, or EIP-6492 before deployment) through the RPC of the message's
 * chain when the deployment has one, with viem's verifySiweMessage.
 */
export function createSiweVerifier(rpcUrls: ChainRpcUrls = {}) {
  const clients = new Map<EvmChainSlug, PublicClient>();
  return async function verify(text: string, message: SiweMessage & { address: Address }, signature: string): Promise<boolean> {
    if (!isHex(signature)) return false;
    const sig: Hex = signature;
    try {
      if (await verifyMessage({ address: message.address, message: text, signature: sig })) return true;
    } catch {
      // not a recoverable ECDSA signature: maybe a contract wallet's
    }
    const chain = message.chainId === undefined ? undefined : CHAIN_IDS[message.chainId];
    const url = chain ? rpcUrls[chain] : undefined;
    if (!chain || !url) return false;
    let client = clients.get(chain);
    if (!client) {
      client = createPublicClient({ transport: http(url, { retryCount: 1, timeout: 10_000 }) });
      clients.set(chain, client);
    }
    try {
      return await verifySiweMessage(client, { message: text, signature: sig, address: message.address });
    } catch {
      return false;
    }
  };
}
