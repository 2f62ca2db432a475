import { describe, expect, it } from 'vitest';
import type { Agent } from '../schemas/agents.ts';
import { EvmSessionGrant } from '../schemas/evm-session.ts';
import { createVenueGateway } from './factory.ts';
import type { EvmSpotChainConfig, VenueDeployment } from './factory.ts';
import { PaperOnlyError } from './types.ts';

const A = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as `0x${string}`;
const chain: EvmSpotChainConfig = { rpcUrl: 'http://127.0.0.1:9', router: A(1), weth: A(2), usdStable: A(3), entryPoint: A(4), sessionValidator: A(5) };

/** a deployment whose secret, relayer key and chain settings count every read */
function watched(): { d: VenueDeployment; reads: string[] } {
  const reads: string[] = [];
  const evmSpot = new Proxy({ devnet: chain } as Record<string, EvmSpotChainConfig>, {
    get: (t, k) => {
      reads.push(`evmSpot.${String(k)}`);
      return t[k as string];
    },
  });
  const d = {
    get sessionSecret() {
      reads.push('sessionSecret');
      return 'secret';
    },
    get relayerKey() {
      reads.push('relayerKey');
      return '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;
    },
    evmSpot,
  } as VenueDeployment;
  return { d, reads };
}

const agent = (a: Partial<Agent> = {}): Agent => ({
  agentId: 'ag_0123456789abcdef',
  partner: 'org_sandbox',
  wallet: A(9),
  mode: 'paper',
  venue: 'evm-spot',
  chain: 'devnet',
  leader: A(8),
  limits: { maxNotionalUsd: 10, dailyCapUsd: 100, maxOpenPositions: 1, maxSlippageBps: 100, minLeaderGrade: 'watch', expiresAt: 2_000_000_000 },
  state: 'active',
  stateReason: null,
  session: { account: A(9), sessionKey: A(7), setup: {} },
  createdAt: 0,
  updatedAt: 0,
  ...a,
});

describe('the venue factory and paper mode', () => {
  it('no signer, key or transport is ever built for a sandbox organisation or a paper agent', async () => {
    const { d, reads } = watched();
    const g = createVenueGateway(d);
    expect(reads).toEqual([]);
    // a sandbox organisation, even with a live agent record
    await expect(g.client({ id: 'org_sandbox', live: false }, agent({ mode: 'live' }))).rejects.toThrow(PaperOnlyError);
    // a paper agent of an organisation that has gone live since
    await expect(g.client({ id: 'org_sandbox', live: true }, agent({ mode: 'paper' }))).rejects.toThrow(PaperOnlyError);
    // another organisation's agent
    await expect(g.client({ id: 'org_other', live: true }, agent({ mode: 'live' }))).rejects.toThrow(PaperOnlyError);
    // a paper agent's session is never read on chain
    expect(await g.sessionEnabled(agent({ mode: 'paper' }))).toBe(false);
    // none of it touched the secret, the relayer's key or a chain's RPC
    expect(reads).toEqual([]);
  });

  it('a live agent of a live organisation gets the client, built from the configuration once per chain', async () => {
    const { d, reads } = watched();
    const g = createVenueGateway(d);
    const live = agent({ mode: 'live', partner: 'org_live' });
    const v = await g.client({ id: 'org_live', live: true }, live);
    expect(Object.keys(v).sort()).toEqual(['cancel', 'quote', 'revoke', 'submit', 'venue']);
    expect(await g.client({ id: 'org_live', live: true }, live)).toBe(v);
    expect(reads).toContain('relayerKey');
    expect(g.configured('evm-spot', 'devnet')).toBe(true);
    expect(g.configured('evm-spot', 'base')).toBe(false);
  });

  it("the session setup names the session key derived for the agent and the account's calls", async () => {
    const { d } = watched();
    const g = createVenueGateway(d);
    const s = await g.sessionSetup({ venue: 'evm-spot', agentId: 'ag_0123456789abcdef', chain: 'devnet', account: A(9), spendCapNative: '0.5', expiresAt: 2_000_000_000 });
    expect(s.sessionKey).toMatch(/^0x[0-9a-f]{40}$/);
    expect(s.setup).toMatchObject({ module: chain.sessionValidator, capWei: '500000000000000000', validUntil: 2_000_000_000 });
    expect((s.setup.calls as unknown[]).length).toBeGreaterThan(0);
    // the grant the calls enable: native cap from spendCapNative, no stablecoin unless capped
    expect(s.setup.grant).toEqual({ sessionKey: s.sessionKey, router: chain.router.toLowerCase(), validUntil: 2_000_000_000, capNative: '500000000000000000', stables: [] });
    const usdc = { token: A(7), cap: '50000000' };
    const withStable = await g.sessionSetup({ venue: 'evm-spot', agentId: 'ag_0123456789abcdef', chain: 'devnet', account: A(9), spendCapNative: '0.5', stableCaps: [usdc], expiresAt: 2_000_000_000 });
    expect(withStable.setup.grant).toMatchObject({ stables: [usdc] });
    expect(EvmSessionGrant.safeParse(withStable.setup.grant).success).toBe(true);
    // deterministic per agent, different across agents
    expect((await g.sessionSetup({ venue: 'evm-spot', agentId: 'ag_0123456789abcdef', chain: 'devnet', account: A(9), spendCapNative: '1', expiresAt: 2_000_000_000 })).sessionKey).toBe(s.sessionKey);
    expect((await g.sessionSetup({ venue: 'evm-spot', agentId: 'ag_fedcba9876543210', chain: 'devnet', account: A(9), spendCapNative: '1', expiresAt: 2_000_000_000 })).sessionKey).not.toBe(s.sessionKey);
    await expect(g.sessionSetup({ venue: 'evm-spot', agentId: 'ag_0123456789abcdef', chain: 'base', account: A(9), spendCapNative: '1', expiresAt: 2_000_000_000 })).rejects.toThrow(PaperOnlyError);
  });

  it('the perpetuals venue: clients only for live agents of a live organisation, once per venue; configured only where its API is', async () => {
    const g = createVenueGateway({ sessionSecret: 'secret', evmSpot: {}, hyperliquid: { apiUrl: 'http://127.0.0.1:9', isTestnet: false }, polymarket: { host: 'http://127.0.0.1:9', chainId: 137 } });
    for (const venue of ['hyperliquid'] as const) {
      const live = agent({ mode: 'live', partner: 'org_live', venue, chain: venue });
      await expect(g.client({ id: 'org_live', live: false }, live)).rejects.toThrow(PaperOnlyError);
      await expect(g.client({ id: 'org_live', live: true }, { ...live, mode: 'paper' })).rejects.toThrow(PaperOnlyError);
      const v = await g.client({ id: 'org_live', live: true }, live);
      expect(v.venue).toBe(venue);
      expect(await g.client({ id: 'org_live', live: true }, live)).toBe(v);
      expect(g.configured(venue, venue)).toBe(true);
      expect(g.configured(venue, 'sim')).toBe(false);
    }
    const bare = createVenueGateway({ sessionSecret: 'secret', evmSpot: {} });
    expect(bare.configured('hyperliquid', 'hyperliquid')).toBe(false);
    await expect(bare.client({ id: 'org_live', live: true }, agent({ mode: 'live', partner: 'org_live', venue: 'polymarket', chain: 'polymarket' }))).rejects.toThrow(PaperOnlyError);
  });

  it("the prediction market's live trading is off even where its API is configured: no session, signer or client for a live agent of an entitled organisation", async () => {
    const { d, reads } = watched();
    const g = createVenueGateway({ ...d, polymarket: { host: 'http://127.0.0.1:9', chainId: 137 } } as VenueDeployment);
    reads.length = 0;
    const live = agent({ mode: 'live', partner: 'org_live', venue: 'polymarket', chain: 'polymarket', session: { account: A(6), sessionKey: A(6), setup: {} } });
    expect(g.configured('polymarket', 'polymarket')).toBe(false);
    await expect(g.client({ id: 'org_live', live: true }, live)).rejects.toThrow(/live trading on polymarket is off/);
    await expect(g.sessionSetup({ venue: 'polymarket', agentId: live.agentId, chain: 'polymarket', account: A(9), expiresAt: 2_000_000_000 })).rejects.toThrow(PaperOnlyError);
    expect(await g.sessionEnabled(live)).toBe(false);
    // the refusal comes before the secret is read: no key of the agent's is derived
    expect(reads).toEqual([]);
  });
});
