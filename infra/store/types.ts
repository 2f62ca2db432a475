/**
 * The store: named tables of versioned rows. A row's identity is its `key`; reads see the row
 * with the highest `version` for a key (a tie is resolved by the later write). `deleted` rows
 * hide the key. Writes are idempotent upserts, so replays after a crash are harmless.
 * Two adapters (embedded, ClickHouse) pass one contract suite.
 */
export interface Row {
  key: string;
  version: number;
  deleted?: boolean;
  /** JSON text */
  body: string;
  /**
   * expiring tables only: ms since epoch after which the row can be dropped (`Store.expire`);
   * none: the row never expires. A key's later versions never expire before its earlier ones
   * (the embedded store drops a key whose latest row expired, ClickHouse the expired rows).
   */
  expiresAt?: number;
}

/**
 * Tables with latest-version semantics. `history` tables also keep every version for reads of
 * the past (token-changes, track records); the others keep only the latest.
 */
export const Tables = {
  /** latest snapshot per `kind:chain:entity` */
  snapshots: 'snapshots',
  /** every snapshot version, for token-changes and track records */
  snapshotHistory: 'snapshot_history',
  /** API keys by key id (hash); body has org, plan, revokedAt */
  apiKeys: 'api_keys',
  /** organisations */
  orgs: 'orgs',
  /** ingest cursors, fan-out cursors and the offsets of worker checkpoints */
  cursors: 'cursors',
  /**
   * worker checkpoints: one row per (group, topic, partition) holding the partition's state and
   * the offset it covers (the row's version), written in one atomic write; rows are large
   */
  checkpoints: 'checkpoints',
  /** recorded verdicts and signals, and their scores */
  trackRecords: 'track_records',
  /** misc service metadata (first-start marker, simulator genesis) */
  meta: 'meta',
  /**
   * the replay guard of the agent API's wallet authorizations (api/wallet-auth.ts): one row per
   * accepted signed message's hash, written by a claim (`Store.claim`) once its signature verified;
   * rows expire once their timestamp is past the acceptance window
   */
  walletAuthGuard: 'wallet_auth_guard',
  /** copy-trading agents by agent id (schemas/agents.ts Agent) */
  agents: 'agents',
  /**
   * copy-trading executions, keyed `agentId:day:tradeAt:trade` so one agent's day lists by prefix;
   * one row per (agent, leader trade): a replay never trades twice
   */
  executions: 'executions',
  /** each agent's book (spend today, open positions, the executions applied), by agent id */
  agentBooks: 'agent_books',
  /**
   * graded wallets' trades with the gates at the time (the copy dry run), one row per trade by
   * `chain:wallet:time:trade`; rows expire a week after the trade
   */
  leaderTrades: 'leader_trades',
  /** webhook endpoints by `orgId:endpointId` (the secret is kept to sign, shown once) */
  webhookEndpoints: 'webhook_endpoints',
  /** the webhook outbox: one row per (endpoint, event) until delivered or given up */
  webhookOutbox: 'webhook_outbox',
  /** the delivery log: one row per attempt, by `orgId:endpointId:<inverted ms>:eventId:attempt` (newest first); rows expire (kept 30 days) */
  webhookDeliveries: 'webhook_deliveries',
  /** the partner console's members by `orgId:memberId` (role owner or member) */
  consoleMembers: 'console_members',
  /** who signs in as whom: `wallet:<address>` or `email:<address>` → the member and its organisation */
  consoleIdentities: 'console_identities',
  /** console sessions by `orgId:sessionId` (the cookie's secret is kept as its hash); rows expire with the session */
  consoleSessions: 'console_sessions',
  /** sign-in challenges: SIWE nonces (`siwe:<nonce>`) and e-mail links (`email:<hash of the token>`), used once; rows expire */
  consoleChallenges: 'console_challenges',
  /** every state change made from the console, by `orgId:<inverted ms>:id` (newest first) */
  consoleAudit: 'console_audit',
  /**
   * invitations to join an organisation, each in two rows of one body: `org:<orgId>:<inviteId>`
   * (the organisation's list) and `to:<identity>:<inviteId>` (the invitee's); rows expire with it
   */
  consoleInvitations: 'console_invitations',
  /**
   * the scheduled jobs' leases (runtime/jobs.ts): one row per (job, scheduled time), the claims of
   * the processes that contend for it, then the winner's run and outcome; rows expire
   */
  jobLeases: 'job_leases',
} as const;
export type TableName = (typeof Tables)[keyof typeof Tables];

export const HistoryTables: ReadonlySet<TableName> = new Set([Tables.snapshotHistory]);

/** Tables whose rows carry `expiresAt` and are dropped by `Store.expire`, so they stay bounded. */
export const ExpiringTables: ReadonlySet<TableName> = new Set([
  Tables.walletAuthGuard,
  Tables.webhookDeliveries,
  Tables.leaderTrades,
  Tables.consoleSessions,
  Tables.consoleChallenges,
  Tables.jobLeases,
  Tables.consoleInvitations,
]);

/** One successful billed call. Summed per (day, keyId, operation). */
export interface UsageRecord {
  /** UTC day YYYY-MM-DD */
  day: string;
  keyId: string;
  orgId: string;
  operation: string;
  units: number;
  requests: number;
  /** identity of the record (request id) so that replays of the usage topic are not counted twice */
  id: string;
}

export interface UsageTotal {
  day: string;
  keyId: string;
  orgId: string;
  operation: string;
  units: number;
  requests: number;
}

export interface Store {
  readonly kind: 'embedded' | 'clickhouse';
  /** create tables (idempotent, versioned migrations) */
  migrate(): Promise<void>;
  upsert(table: TableName, rows: Row[]): Promise<void>;
  get(table: TableName, key: string): Promise<Row | undefined>;
  /**
   * latest rows whose key starts with prefix (all when omitted), deleted rows excluded, by key;
   * `after`: only keys after this one (a keyset page: a row written since is never skipped or
   * repeated, it falls before or after the key)
   */
  list(table: TableName, opts?: { prefix?: string; after?: string; limit?: number }): Promise<Row[]>;
  /** versions of one key, newest first (history tables only) */
  history(table: TableName, key: string, opts?: { limit?: number; beforeVersion?: number }): Promise<Row[]>;
  /**
   * drops, for good (every client, across reopen), the rows of an expiring table whose
   * `expiresAt` is before `now` (ms since epoch); reads never return them afterwards. Throws for
   * a table that is not expiring.
   */
  expire(table: TableName, now: number): Promise<void>;
  /**
   * Writes `row` only if the table holds no row of its key (deleted or expired ones included until
   * `expire` drops them): true when this call wrote it. The store decides for every client at once
   * (every process over the same data dir or server): of any number of concurrent claims of one key
   * exactly one is written and answered true. For keys written first by a claim (a replay guard).
   */
  claim(table: TableName, row: Row): Promise<boolean>;
  /** idempotent by record id */
  addUsage(records: UsageRecord[]): Promise<void>;
  /** totals for a day, optionally of one key */
  usage(day: string, opts?: { keyId?: string }): Promise<UsageTotal[]>;
  close(): Promise<void>;
}

/**
 * The store could not be reached (its server refused the connection, dropped it, or did not answer
 * within the request timeout): nothing is known to have happened, and the same call may succeed
 * later. What serves requests says so (503), what runs in the background retries.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}
