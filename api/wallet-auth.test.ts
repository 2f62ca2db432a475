import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { canonicalAgentMessage, createWalletAuth } from './wallet-auth.ts';

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const NOW = 1_800_000_000_000;

async function signed(over: Partial<{ method: string; path: string; rawBody: string; timestamp: number }> = {}) {
  const p = { method: 'POST', path: '/copy/agent/start', rawBody: '{"leader":"x"}', timestamp: NOW / 1000, ...over };
  const signature = await account.signMessage({ message: canonicalAgentMessage({ ...p, wallet: account.address }) });
  return {
    method: p.method,
    path: p.path,
    rawBody: p.rawBody,
    headers: { 'x-wallet-address': account.address, 'x-wallet-signature': signature, 'x-auth-timestamp': String(p.timestamp) } as Record<string, string>,
  };
}

describe('wallet authorization of execution routes', () => {
  it('accepts the wallet signature of the canonical message once', async () => {
    const auth = createWalletAuth({ now: () => NOW });
    const req = await signed();
    expect(await auth(req)).toBe(account.address.toLowerCase());
    await expect(auth(req)).rejects.toMatchObject({ code: 'wallet_auth_required' });
  });

  it('answers wallet_auth_required without the headers or with a signature over another body', async () => {
    const auth = createWalletAuth({ now: () => NOW });
    await expect(auth({ method: 'POST', path: '/copy/agent/start', rawBody: '', headers: {} })).rejects.toMatchObject({ code: 'wallet_auth_required', status: 401 });
    const req = await signed();
    await expect(auth({ ...req, rawBody: '{"leader":"y"}' })).rejects.toMatchObject({ code: 'wallet_auth_required' });
  });

  it('answers wallet_auth_expired for a timestamp older than 300 s or too far ahead', async () => {
    const auth = createWalletAuth({ now: () => NOW });
    await expect(auth(await signed({ timestamp: NOW / 1000 - 301 }))).rejects.toMatchObject({ code: 'wallet_auth_expired', status: 401 });
    await expect(auth(await signed({ timestamp: NOW / 1000 + 31 }))).rejects.toMatchObject({ code: 'wallet_auth_expired' });
    expect(await auth(await signed({ timestamp: NOW / 1000 - 299 }))).toBe(account.address.toLowerCase());
  });
});
