import { z } from 'zod';
import { ChainSlugs, EvmChainSlugs } from '../schemas/chains.ts';
import type { ChainSlug, EvmChainSlug } from '../schemas/chains.ts';

/**
 * Configuration, read once from the environment at the entry point, validated here, then passed
 * down. Nothing below the entry point reads process.env.
 */
const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

type Up = Uppercase<EvmChainSlug>;

/**
 * Per-chain EVM settings, all optional (defaults per chain live in ingest/evm-runtime.ts):
 *   CONFIRMATIONS_<CHAIN>   blocks a block needs before its events are published (1 = the head)
 *   START_BLOCK_<CHAIN>     first block to ingest; the gap to the head is backfilled on first start
 *   WETH_<CHAIN>            wrapped native token (a quote asset)
 *   STABLES_<CHAIN>         comma-separated stablecoins priced at 1 USD (quote assets)
 *   WETH_USD_POOL_<CHAIN>   a WETH/stablecoin Uniswap V2 pair or V3 pool that prices WETH in USD
 *   WETH_USD_<CHAIN>        or a fixed WETH price in USD
 *   ROUTERS_<CHAIN>         comma-separated routers whose swaps are attributed to the tx sender
 *   V3_FACTORIES_<CHAIN>    comma-separated Uniswap V3 factories (a token's V3 pools, found by fee tier)
 *   V3_POSITION_MANAGERS_<CHAIN>  comma-separated V3 NonfungiblePositionManagers (V3 liquidity custody)
 *   LP_LOCKERS_<CHAIN>      comma-separated LP lock contracts (LP tokens they hold count as locked)
 *   CONTRACT_READS_<CHAIN>  read token contracts (trade simulation, owner powers, pools); default true
 *   RPC_RPS_<CHAIN>         JSON-RPC requests per second the RPC allows (default 50; devnet 2000)
 *   COPY_VALIDATOR_<CHAIN>  copy trading (evm-spot): the SessionSwapValidator module sessions are enabled on
 *   COPY_ROUTER_<CHAIN>     the Uniswap V2 router02 sessions swap through
 *   COPY_ENTRYPOINT_<CHAIN> the ERC-4337 EntryPoint v0.8 (default its canonical address)
 *                           (the devnet takes all three from its deployment file)
 */
const evmChainKeys = Object.fromEntries(
  EvmChainSlugs.flatMap((slug) => {
    const S = slug.toUpperCase();
    return [
      [`CONFIRMATIONS_${S}`, z.coerce.number().int().min(1).max(1000).optional()],
      [`START_BLOCK_${S}`, z.coerce.number().int().nonnegative().optional()],
      [`WETH_${S}`, z.string().optional()],
      [`STABLES_${S}`, z.string().optional()],
      [`WETH_USD_POOL_${S}`, z.string().optional()],
      [`WETH_USD_${S}`, z.coerce.number().positive().optional()],
      [`ROUTERS_${S}`, z.string().optional()],
      [`V3_FACTORIES_${S}`, z.string().optional()],
      [`V3_POSITION_MANAGERS_${S}`, z.string().optional()],
      [`LP_LOCKERS_${S}`, z.string().optional()],
      [`CONTRACT_READS_${S}`, bool.optional()],
      [`RPC_RPS_${S}`, z.coerce.number().positive().optional()],
      [`COPY_VALIDATOR_${S}`, z.string().optional()],
      [`COPY_ROUTER_${S}`, z.string().optional()],
      [`COPY_ENTRYPOINT_${S}`, z.string().optional()],
    ];
  }),
) as { [K in `CONFIRMATIONS_${Up}` | `START_BLOCK_${Up}` | `WETH_USD_${Up}` | `RPC_RPS_${Up}`]: z.ZodOptional<z.ZodCoercedNumber> } & {
  [K in
    | `WETH_${Up}`
    | `STABLES_${Up}`
    | `WETH_USD_POOL_${Up}`
    | `ROUTERS_${Up}`
    | `V3_FACTORIES_${Up}`
    | `V3_POSITION_MANAGERS_${Up}`
    | `LP_LOCKERS_${Up}`
    | `COPY_VALIDATOR_${Up}`
    | `COPY_ROUTER_${Up}`
    | `COPY_ENTRYPOINT_${Up}`]: z.ZodOptional<z.ZodString>;
} & { [K in `CONTRACT_READS_${Up}`]: z.ZodOptional<typeof bool> };

export const ConfigSchema = z.object({
  ...evmChainKeys,
  /**
   * the deployment JSON `infra/devnet/devnet.sh deploy` writes (WETH, USDC, router, pairs of the
   * devnet); default /tmp/intel-devnet-<port of RPC_URL_DEVNET>/deployment.json
   */
  DEVNET_DEPLOYMENT_FILE: z.string().optional(),
  /**
   * copy trading: the master secret the agents' session keys are derived from; default a random
   * secret kept in DATA_DIR/copy-session-secret (mode 0600). Losing it orphans live sessions.
   */
  COPY_SESSION_SECRET: z.string().min(32).optional(),
  /** copy trading: private key of the EOA that relays user operations (EntryPoint handleOps) and pays gas; unset, live execution is unconfigured */
  COPY_RELAYER_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte private key')
    .optional(),
  /**
   * copy trading on perpetuals: Hyperliquid's HTTP API (https://api.hyperliquid.xyz, or a server
   * speaking it); unset, live hyperliquid agents are unconfigured (paper works everywhere)
   */
  COPY_HYPERLIQUID_URL: z.string().url().optional(),
  /** the Hyperliquid API is the testnet's: actions are signed for it */
  COPY_HYPERLIQUID_TESTNET: bool.default(false),
  /**
   * copy trading on the prediction market (in validation): Polymarket's CLOB API
   * (https://clob.polymarket.com, or a server speaking it); unset, live polymarket agents are
   * unconfigured
   */
  COPY_POLYMARKET_URL: z.string().url().optional(),
  /** the chain the CLOB's exchange contracts are on (orders are signed for it): 137 Polygon, 80002 Amoy */
  COPY_POLYMARKET_CHAIN_ID: z.coerce
    .number()
    .refine((n) => n === 137 || n === 80002, 'must be 137 or 80002')
    .default(137),
  /**
   * a third-party candle source speaking GeckoTerminal's API v2 (e.g. https://api.geckoterminal.com/api/v2):
   * hourly candles of the tokens the EVM chains follow, for price action where swaps are sparse
   */
  CANDLES_URL: z.string().url().optional(),
  /** seconds between two rounds of the candle source over the followed tokens */
  CANDLES_POLL_SEC: z.coerce.number().int().min(10).default(300),
  /** requests per minute the candle source allows (GeckoTerminal's public API: 30) */
  CANDLES_RPM: z.coerce.number().positive().default(30),
  /** seconds between the ingestion-lag log lines of each EVM chain */
  INGEST_LAG_LOG_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /**
   * the operator endpoints (`/metrics`, `/healthz`, `/readyz`): never on the partners' port; by
   * default on 127.0.0.1 and PORT + 1000 (0, an ephemeral port, when PORT is 0)
   */
  OPS_HOST: z.string().default('127.0.0.1'),
  OPS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** a request's headers must arrive within this (a client trickling header lines is cut) */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** a whole request, body included, must arrive within this (a trickled body is cut) */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** an idle keep-alive connection is closed after this */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** a connection with no traffic either way is closed after this */
  HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** connections the partners' port holds at once; more are closed as they are accepted */
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1024),
  /** requests one keep-alive connection serves before it is closed (0: no limit) */
  HTTP_MAX_REQUESTS_PER_SOCKET: z.coerce.number().int().min(0).default(10_000),
  /**
   * which peers' X-Forwarded-For is believed for the client address (the per-address throttle of
   * unknown keys): empty (default) believes nobody; a number of proxy hops; or a comma-separated
   * list of addresses, CIDR ranges or `loopback` / `linklocal` / `uniquelocal`. Behind a reverse
   * proxy that is not trusted, every client is the proxy's address and they share one allowance.
   */
  HTTP_TRUST_PROXY: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const t = v.trim();
      if (t === '' || t === 'false') return false as const;
      if (/^\d+$/.test(t)) return Number(t);
      const list = t.split(',').map((s) => s.trim()).filter((s) => s !== '');
      const bad = list.find((s) => !/^(loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(\/\d{1,3})?)$/.test(s));
      if (bad !== undefined) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `not an address, CIDR range or loopback/linklocal/uniquelocal: ${bad}` });
        return z.NEVER;
      }
      return list;
    }),
  /**
   * calls with an unknown or revoked key one client address may make per minute; beyond it, keys
   * not already cached answer 429 without a store read (IPv6 addresses count per /64)
   */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(30),
  /** /readyz is ready only when every ingested chain's newest snapshot is at most this old (the engine caught up) */
  READY_MAX_AGE_SECONDS: z.coerce.number().int().min(1).default(900),
  /**
   * `intel start` (the API beside the engine or the ingest): the nice steps every other thread of
   * the process runs below the thread answering reads (Linux; infra/priority.ts); 0 leaves them equal
   */
  BACKGROUND_NICE: z.coerce.number().int().min(0).max(19).default(19),
  /**
   * `intel start` (Linux, with util-linux's chrt): every other thread of the process in SCHED_IDLE
   * as well, so it gives a core up at once to the thread answering reads (infra/priority.ts)
   */
  BACKGROUND_IDLE: bool.default(true),
  /** a shutdown (SIGTERM, SIGINT) that has not drained, flushed and committed within this ends the process anyway */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /** stream events each API process keeps for resuming WebSocket clients (GET /v1/stream, `since`) */
  STREAM_RETENTION: z.coerce.number().int().min(100).max(1_000_000).default(10_000),
  /** topics one WebSocket connection may subscribe to */
  STREAM_MAX_TOPICS: z.coerce.number().int().min(1).max(10_000).default(100),
  /**
   * the base URL printed to users (defaults to http://HOST:PORT); the console's one canonical
   * origin: its sign-in messages and e-mail links name it, never a request's Host header
   */
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DEFAULT_CHAIN: z.enum(ChainSlugs).default('sim'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** seed of the built-in simulator */
  SIM_SEED: z.coerce.number().int().default(42),
  /** simulated seconds per real second once the backfilled history is published */
  SIM_SPEED: z.coerce.number().positive().max(100_000).default(1),
  /** days of history the simulator backfills on first start */
  SIM_HISTORY_DAYS: z.coerce.number().positive().max(60).default(10),
  /** days after the first start over which the simulator's stories keep playing out live */
  SIM_FUTURE_DAYS: z.coerce.number().min(0).max(60).default(4),
  SIM_ENABLED: bool.default(true),
  /** seconds a resolved API key stays cached (revocation delay) */
  KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** units across all keys per UTC day */
  DAILY_UNIT_BUDGET: z.coerce.number().int().positive().default(1_000_000),
  /**
   * units an organisation's keys may spend together per UTC day, by the calling key's plan (so more
   * keys, or a rotated one, buy no more units); default the plan's per-key quota (enterprise: none)
   */
  ORG_DAILY_UNITS_SANDBOX: z.coerce.number().int().positive().optional(),
  ORG_DAILY_UNITS_FREE: z.coerce.number().int().positive().optional(),
  ORG_DAILY_UNITS_PRO: z.coerce.number().int().positive().optional(),
  ORG_DAILY_UNITS_ENTERPRISE: z.coerce.number().int().positive().optional(),
  /** the share (0..1) of DAILY_UNIT_BUDGET that sandbox keys may use together: live partners keep the rest */
  SANDBOX_BUDGET_SHARE: z.coerce.number().min(0).max(1).default(0.2),
  /** seconds boards (radar, conviction) are cached */
  BOARD_CACHE_SECONDS: z.coerce.number().int().min(0).default(120),
  /** engine flush interval */
  ENGINE_FLUSH_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  LOG_PARTITIONS: z.coerce.number().int().min(1).max(256).default(4),
  /** distributed mode: retention of the Kafka topics that are not compacted (workers restore from checkpoints) */
  LOG_RETENTION_HOURS: z.coerce.number().positive().max(24 * 365).default(168),
  /**
   * the least and the most time between two checkpoints of a fold worker's partition; between the
   * two a checkpoint is written once replaying what it would cover costs more than writing it
   */
  CHECKPOINT_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  CHECKPOINT_MAX_INTERVAL_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  /** distributed mode: comma-separated brokers; empty means the in-process log */
  KAFKA_BROKERS: z.string().optional(),
  /** distributed mode: ClickHouse HTTP URL; empty means the embedded store */
  CLICKHOUSE_URL: z.string().url().optional(),
  CLICKHOUSE_DATABASE: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).default('intel'),
  /**
   * distributed mode: prepended to every Kafka topic and consumer group of this deployment, so
   * several deployments (or test runs) can share one cluster; empty means the bare names
   */
  TOPIC_PREFIX: z.string().regex(/^[A-Za-z0-9._-]*$/).optional(),
  /** OpenAI-compatible endpoint for model-written text; the template writer when unset */
  WRITER_URL: z.string().url().optional(),
  WRITER_API_KEY: z.string().optional(),
  WRITER_MODEL: z.string().default('gpt-4o-mini'),
  /**
   * webhook endpoints on localhost, loopback or private-network addresses (http allowed for them):
   * for development and tests only; off, a partner could make the deployment POST to its own
   * operator port or store
   */
  WEBHOOKS_ALLOW_LOCAL: bool.default(false),
  /** the partner console at /console (sign-in, keys, usage, webhooks, go live); on by default */
  CONSOLE_ENABLED: bool.default(true),
  /** hours a console session lasts (it can be revoked sooner) */
  CONSOLE_SESSION_HOURS: z.coerce.number().positive().max(24 * 90).default(168),
  /** console sign-in attempts (nonces, e-mail links, verifications) one client address may make per minute */
  CONSOLE_SIGNIN_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * unrevoked keys a sandbox (live) organisation may hold when keys are minted from the console
   * or by `intel keys create --org`; beyond it, 409 key_limit (revoked keys do not count)
   */
  KEYS_PER_ORG_SANDBOX: z.coerce.number().int().min(1).max(100_000).default(5),
  KEYS_PER_ORG_LIVE: z.coerce.number().int().min(1).max(100_000).default(25),
  /** wallet challenges and e-mail links asked for one wallet or e-mail address per hour, from any address */
  CONSOLE_SIGNIN_PER_IDENTITY_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  /** organisations first sign-ins may create per client address and hour */
  CONSOLE_SIGNUPS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(5),
  /** keys the console creates per client address and hour, and per member and hour */
  CONSOLE_KEY_CREATES_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  /** SMTP server for the console's e-mail sign-in links (e.g. smtps://user:pass@host:465); unset, links are written to the log */
  CONSOLE_SMTP_URL: z.string().url().optional(),
  /** the From address of sign-in e-mails */
  CONSOLE_MAIL_FROM: z.string().default('console@localhost'),
  /** the built-in venue simulator (a perps venue and a prediction venue, both `sim`); runs unless a venue URL is configured */
  VENUE_SIM_ENABLED: bool.default(true),
  /** Hyperliquid-compatible WebSocket (wss://api.hyperliquid.xyz/ws); the perps adapter runs when set */
  PERPS_WS_URL: z.string().optional(),
  /** comma-separated accounts whose fills the perps adapter subscribes to (userFills) */
  PERPS_USERS: z.string().optional(),
  /** Polymarket real-time data socket (wss://ws-live-data.polymarket.com): activity/trades; the prediction adapter runs when set */
  PREDICTION_WS_URL: z.string().optional(),
  /** comma-separated proxy wallets to keep from the trades feed (all when unset) */
  PREDICTION_WALLETS: z.string().optional(),
  RPC_URL_DEVNET: z.string().optional(),
  RPC_URL_ETHEREUM: z.string().optional(),
  RPC_URL_BASE: z.string().optional(),
  RPC_URL_ARBITRUM: z.string().optional(),
  RPC_URL_OPTIMISM: z.string().optional(),
  RPC_URL_POLYGON: z.string().optional(),
  RPC_URL_BSC: z.string().optional(),
});
export type Config = z.infer<typeof ConfigSchema>;

/** the EVM JSON-RPC URL of each chain that has one (RPC_URL_<CHAIN>) */
export function evmRpcUrls(config: Config): Partial<Record<EvmChainSlug, string>> {
  const out: Partial<Record<EvmChainSlug, string>> = {};
  for (const slug of EvmChainSlugs) {
    const url = config[`RPC_URL_${slug.toUpperCase() as Up}`];
    if (url) out[slug] = url;
  }
  return out;
}

/** the operator port: OPS_PORT, else PORT + 1000 (0, ephemeral, when PORT is 0 or that is out of range) */
export function opsPort(config: Pick<Config, 'OPS_PORT' | 'PORT'>): number {
  if (config.OPS_PORT !== undefined) return config.OPS_PORT;
  return config.PORT === 0 || config.PORT + 1000 > 65535 ? 0 : config.PORT + 1000;
}

/**
 * The chains this deployment ingests, so the API can refuse the others (docs/architecture.md "Decisions":
 * chains): the default chain, the simulator's when it runs, and every EVM chain with an
 * RPC_URL_<CHAIN>. The one place this is decided.
 */
export function ingestedChains(config: Config): ChainSlug[] {
  const chains = new Set<ChainSlug>([config.DEFAULT_CHAIN]);
  if (config.SIM_ENABLED) chains.add('sim');
  for (const slug of Object.keys(evmRpcUrls(config)) as EvmChainSlug[]) chains.add(slug);
  return ChainSlugs.filter((c) => chains.has(c));
}

/** a host name or address only this machine reaches */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Why the API must not start, if it must not: a console reachable from other machines needs
 * PUBLIC_URL, since without it the sign-in messages and e-mail links could only name whatever
 * Host a request claims (a phishing page's own).
 */
export function consoleOriginProblem(config: Pick<Config, 'CONSOLE_ENABLED' | 'PUBLIC_URL' | 'HOST'>): string | undefined {
  if (!config.CONSOLE_ENABLED || config.PUBLIC_URL || isLoopbackHost(config.HOST)) return undefined;
  return (
    `the partner console listens on ${config.HOST}, which is not a loopback address, and PUBLIC_URL is unset: ` +
    'set PUBLIC_URL to the origin partners open (e.g. https://intel.example.com); its sign-in messages and e-mail links name it. ' +
    'Or set CONSOLE_ENABLED=false, or HOST=127.0.0.1.'
  );
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  // empty strings mean unset
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
