/**
 * The one place venue clients are built (docs/copy-execution.md): from the
 * deployment's venue configuration, for a live agent of a live organisation only. A paper agent, a
 * sandbox organisation or a venue whose live trading is off (LIVE_OFF) gets a PaperOnlyError before
 * any signer, key or transport exists, so paper mode is structurally unable to reach a venue.
 */
import { createPublicClient, http, parseEther } from 'viem';
import { readSessionModuleInstalled } from '../infra/session-account.ts';
import type { EvmSessionGrant } from '../schemas/evm-session.ts';
import type { Address, Hex, LocalAccount, PublicClient } from 'viem';
import { LIVE_OFF } from '../schemas/agents.ts';
import type { Agent, AgentSession } from '../schemas/agents.ts';
import { sessionKeysFrom } from './session-keys.ts';
import { PaperOnlyError } from './types.ts';
import type { Venue, VenueGateway } from './types.ts';
import type { EvmSpotVenueOptions } from './evm-spot.ts';

/** EVM spot on one chain: the contracts a session is bound to and the RPC that reaches them. */
export type EvmSpotChainConfig = Pick<EvmSpotVenueOptions, 'rpcUrl' | 'router' | 'weth' | 'usdStable' | 'entryPoint' | 'sessionValidator'>;

export interface VenueDeployment {
  /** master secret the agents' session keys derive from (never stored in the store) */
  sessionSecret: string;
  /** the EOA that relays user operations (handleOps) and pays their gas; none: live execution is unconfigured */
  relayerKey?: Hex;
  /** evm-spot per chain slug */
  evmSpot: Partial<Record<string, EvmSpotChainConfig>>;
  /** hyperliquid (perpetuals): the venue's HTTP API; none: unconfigured */
  hyperliquid?: { apiUrl: string; isTestnet: boolean };
  /** polymarket (prediction market, in validation): the CLOB's API; its live trading is off whatever is set (schemas/agents.ts LIVE_OFF) */
  polymarket?: { host: string; chainId: 137 | 80002 };
}

/**
 * The venues' modules (and the SDKs they bring: Hyperliquid's, Polymarket's CLOB client, the
 * smart-session encoders) load when a venue is first used, not with the process: the API thread
 * that answers the reads carries none of them (its heap after the imports: 34 MB, not 43; every
 * full collection walks it), and a deployment without live venues never loads them.
 */
const modules = {
  hyperliquid: () => import('./hyperliquid.ts'),
  evmSpot: () => import('./evm-spot.ts'),
};

/** a venue whose live trading is off: no session, signer or client is ever made for it */
function refuseLiveOff(venue: string): void {
  const off = LIVE_OFF[venue as Agent['venue']];
  if (off) throw new PaperOnlyError(off);
}

const jsonSafe = (calls: { to: Address; data: Hex; value: bigint }[]) => calls.map((c) => ({ to: c.to, data: c.data, value: c.value.toString() }));

export function createVenueGateway(d: VenueDeployment): VenueGateway {
  // the secret is read when a session key is first needed, never for paper
  let keys: ((agentId: string) => LocalAccount) | undefined;
  const sessionKeyFor = (agentId: string) => (keys ??= sessionKeysFrom(d.sessionSecret))(agentId);
  const clients = new Map<string, PublicClient>();
  // one client per venue (per chain for evm-spot), made once even when asked for concurrently
  const venues = new Map<string, Promise<Venue>>();
  const venueOnce = (key: string, make: () => Promise<Venue>): Promise<Venue> => {
    let v = venues.get(key);
    if (!v) {
      v = make();
      venues.set(key, v);
      v.catch(() => venues.delete(key));
    }
    return v;
  };
  const chainConfig = (chain: string): EvmSpotChainConfig => {
    const c = d.evmSpot[chain];
    if (!c || !d.relayerKey) throw new PaperOnlyError(`evm-spot on ${chain} is not configured on this deployment`);
    return c;
  };
  const hyperliquidConfig = () => {
    if (!d.hyperliquid) throw new PaperOnlyError('hyperliquid is not configured on this deployment');
    return d.hyperliquid;
  };
  const publicClient = (chain: string): PublicClient => {
    let c = clients.get(chain);
    if (!c) clients.set(chain, (c = createPublicClient({ transport: http(chainConfig(chain).rpcUrl), cacheTime: 0 })));
    return c;
  };

  return {
    configured: (venue, chain) => {
      if (venue === 'hyperliquid') return chain === 'hyperliquid' && d.hyperliquid !== undefined;
      if (LIVE_OFF[venue as Agent['venue']]) return false;
      return venue === 'evm-spot' && d.evmSpot[chain] !== undefined && d.relayerKey !== undefined;
    },

    sessionKey: (agentId) => sessionKeyFor(agentId).address.toLowerCase() as `0x${string}`,

    async sessionSetup(a): Promise<AgentSession> {
      refuseLiveOff(a.venue);
      if (a.venue === 'hyperliquid') {
        const hl = hyperliquidConfig();
        const agentAddress = sessionKeyFor(a.agentId).address.toLowerCase() as `0x${string}`;
        const { hyperliquidApproval } = await modules.hyperliquid();
        const { action, typedData } = hyperliquidApproval({ agentAddress, agentId: a.agentId, expiresAt: a.expiresAt, nonce: Date.now(), isTestnet: hl.isTestnet });
        return {
          account: a.account,
          sessionKey: agentAddress,
          setup: {
            how: "sign typedData with the account's wallet (EIP-712) and POST {action, nonce: action.nonce, signature: {r, s, v}} to the venue's /exchange: it approves the agent key under its name until the agent's expiry; replacing or removing that API wallet on the venue revokes it",
            exchange: `${hl.apiUrl.replace(/\/$/, '')}/exchange`,
            agentName: action.agentName,
            validUntil: a.expiresAt * 1000,
            action,
            typedData,
          },
        };
      }
      if (a.spendCapNative === undefined) throw new PaperOnlyError('an evm-spot session needs a spend cap');
      const c = chainConfig(a.chain);
      const sessionKey = sessionKeyFor(a.agentId).address.toLowerCase() as `0x${string}`;
      const capWei = parseEther(a.spendCapNative);
      // the venue buys with native: a stablecoin is spendable only when the user caps it here
      const grant: EvmSessionGrant = { sessionKey, router: c.router.toLowerCase() as `0x${string}`, validUntil: a.expiresAt, capNative: capWei.toString(), stables: a.stableCaps ?? [] };
      // an account that installed the module for an earlier agent only enables the new session
      const { evmSessionSetup } = await modules.evmSpot();
      const installed = await readSessionModuleInstalled(publicClient(a.chain), a.account, c.sessionValidator).catch(() => false);
      const setup = evmSessionSetup({ account: a.account, validator: c.sessionValidator, grant, installed });
      return {
        account: a.account,
        sessionKey,
        setup: {
          how: 'execute these calls once from the smart account (its owner signs): they install the session module (validator and executor) and enable the session with its grant',
          module: setup.module,
          entryPoint: c.entryPoint,
          router: c.router,
          capWei: capWei.toString(),
          validUntil: a.expiresAt,
          grant,
          calls: jsonSafe(setup.calls),
        },
      };
    },

    async sessionEnabled(agent: Agent) {
      if (agent.mode !== 'live' || !agent.session || LIVE_OFF[agent.venue]) return false;
      if (agent.venue === 'hyperliquid') {
        const { readHyperliquidAgent } = await modules.hyperliquid();
        const s = await readHyperliquidAgent(hyperliquidConfig().apiUrl, agent.session.account as `0x${string}`, agent.session.sessionKey as `0x${string}`);
        return s.approved && (s.validUntil === null || s.validUntil > Date.now());
      }
      const c = chainConfig(agent.chain);
      const { readEvmSession } = await modules.evmSpot();
      const s = await readEvmSession(publicClient(agent.chain), c.sessionValidator, agent.session.account as Address, agent.session.sessionKey as Address);
      const wanted = String(agent.session.setup.capWei ?? '');
      return (
        s.installed &&
        s.enabled &&
        !s.revoked &&
        s.router.toLowerCase() === c.router.toLowerCase() &&
        s.validUntil >= agent.limits.expiresAt &&
        (wanted === '' || s.capWei.toString() === wanted)
      );
    },

    async client(org, agent) {
      if (agent.mode !== 'live') throw new PaperOnlyError(`agent ${agent.agentId} runs in paper mode: no venue client is built for it`);
      if (!org.live) throw new PaperOnlyError(`organisation ${org.id} is a sandbox organisation: it trades on paper only`);
      if (agent.partner !== org.id) throw new PaperOnlyError(`agent ${agent.agentId} is not organisation ${org.id}'s`);
      refuseLiveOff(agent.venue);
      if (agent.venue === 'hyperliquid') {
        const hl = hyperliquidConfig();
        return venueOnce('hyperliquid', async () => (await modules.hyperliquid()).createHyperliquidVenue({ apiUrl: hl.apiUrl, isTestnet: hl.isTestnet, agentKeyFor: sessionKeyFor }));
      }
      if (agent.venue !== 'evm-spot') throw new PaperOnlyError(`venue ${agent.venue} has no client`);
      const c = chainConfig(agent.chain);
      return venueOnce(agent.chain, async () => (await modules.evmSpot()).createEvmSpotVenue({ ...c, chain: agent.chain, relayer: d.relayerKey as Hex, sessionKeyFor }));
    },
  };
}
