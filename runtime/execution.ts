import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Address } from 'viem';
import type { Config } from '../infra/config.ts';
import { syncDirSync } from '../infra/files.ts';
import type { EvmChainSlug } from '../schemas/chains.ts';
import { createVenueGateway } from '../venues/factory.ts';
import type { EvmSpotChainConfig, VenueDeployment } from '../venues/factory.ts';
import type { VenueGateway } from '../venues/types.ts';
import { configuredEvmChains, devnetDeploymentFile, evmChainConfig, loadDeployment } from '../ingest/evm/chains.ts';

/** ERC-4337 EntryPoint v0.8's canonical address (the same on every chain it is deployed to) */
export const ENTRYPOINT_V08: Address = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108';

/**
 * The session keys' master secret: COPY_SESSION_SECRET, or a random one created once in the data
 * directory (mode 0600) so the embedded default keeps its agents' sessions across restarts. The
 * file appears whole or not at all: written and synced under a name of this process's, then
 * linked to its place (a link fails if another process put its own there first: theirs is used),
 * so a process starting beside another never reads it empty.
 */
function sessionSecret(config: Config): string {
  if (config.COPY_SESSION_SECRET) return config.COPY_SESSION_SECRET;
  const file = join(config.DATA_DIR, 'copy-session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, randomBytes(32).toString('hex'), { mode: 0o600, flush: true });
  try {
    linkSync(tmp, file);
    syncDirSync(config.DATA_DIR);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  return readFileSync(file, 'utf8').trim();
}

const up = (slug: EvmChainSlug) => slug.toUpperCase() as Uppercase<EvmChainSlug>;

/**
 * The execution venues this deployment can trade on, from the configuration: evm-spot on each
 * EVM chain with an RPC, a session validator and a router (the devnet takes its contracts from
 * its deployment file), live only with COPY_RELAYER_KEY. A chain missing any of it is not
 * configured: its live agents are refused with 503 gateway_unconfigured, paper works everywhere.
 */
export function venueDeploymentFromConfig(config: Config, log?: (msg: string) => void): VenueDeployment {
  const evmSpot: Partial<Record<string, EvmSpotChainConfig>> = {};
  for (const slug of configuredEvmChains(config)) {
    const S = up(slug);
    let validator = config[`COPY_VALIDATOR_${S}`] as Address | undefined;
    let router = config[`COPY_ROUTER_${S}`] as Address | undefined;
    let entryPoint = (config[`COPY_ENTRYPOINT_${S}`] as Address | undefined) ?? ENTRYPOINT_V08;
    let chain;
    try {
      chain = evmChainConfig(config, slug);
    } catch {
      continue;
    }
    let usdStable = chain.quotes.stables[0] as Address | undefined;
    if (slug === 'devnet') {
      try {
        const d = loadDeployment(devnetDeploymentFile(config));
        if (d.execution) {
          validator ??= d.execution.sessionValidator;
          entryPoint = (config[`COPY_ENTRYPOINT_${S}`] as Address | undefined) ?? d.execution.entryPoint;
        }
        router ??= d.router;
        usdStable ??= d.tokens.USDC;
      } catch {
        // no deployment file: the devnet's execution is not configured
      }
    }
    if (!validator || !router || !usdStable) {
      log?.(`copy trading on ${slug} is not configured: set COPY_VALIDATOR_${S} and COPY_ROUTER_${S} (and a stablecoin in STABLES_${S})`);
      continue;
    }
    evmSpot[slug] = { rpcUrl: chain.rpcUrl, router, weth: chain.quotes.weth as Address, usdStable, entryPoint, sessionValidator: validator };
  }
  // read (or created) when a session key is first derived: a paper-only deployment never touches it
  return {
    get sessionSecret() {
      return sessionSecret(config);
    },
    relayerKey: config.COPY_RELAYER_KEY as `0x${string}` | undefined,
    evmSpot,
    ...(config.COPY_HYPERLIQUID_URL ? { hyperliquid: { apiUrl: config.COPY_HYPERLIQUID_URL, isTestnet: config.COPY_HYPERLIQUID_TESTNET } } : {}),
    ...(config.COPY_POLYMARKET_URL ? { polymarket: { host: config.COPY_POLYMARKET_URL, chainId: config.COPY_POLYMARKET_CHAIN_ID as 137 | 80002 } } : {}),
  };
}

const gateways = new WeakMap<Config, VenueGateway>();

/**
 * The process's one gateway for a configuration: the API (revokes) and the copy worker (swaps)
 * send through the same venue clients, so the relayer's transactions go one at a time (each venue
 * serialises its handleOps) instead of two clients picking the same transaction nonce.
 */
export function venueGatewayFromConfig(config: Config, log?: (msg: string) => void): VenueGateway {
  let g = gateways.get(config);
  if (!g) gateways.set(config, (g = createVenueGateway(venueDeploymentFromConfig(config, log))));
  return g;
}
