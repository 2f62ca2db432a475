import { randomUUID } from 'node:crypto';
import { createClient } from '@clickhouse/client';
import type { ClickHouseClient } from '@clickhouse/client';
import { SqlFragment, sql, sqlIdent, sqlTable } from '../sql/escape.ts';
import type { Row, Store, TableName, UsageRecord, UsageTotal } from './types.ts';
import { ExpiringTables, HistoryTables, StoreUnavailableError, Tables } from './types.ts';

/**
 * The ClickHouse store (@clickhouse/client over HTTP, JSONEachRow). The SQL keeps to what
 * Debian's ClickHouse 18.16 supports and current ClickHouse still runs: MergeTree engines, argMax,
 * String bodies holding JSON, no query parameters (values are bound by infra/sql/escape.ts).
 *
 * Layout, one table per TableName (name + tableSuffix) in `database`:
 * - latest tables: ReplacingMergeTree(version) ORDER BY key; merges keep the highest version
 *   (the last written among equal ones), reads take argMax over (version, written_at) so they
 *   are right before merges too.
 * - history tables: ReplacingMergeTree(written_at) ORDER BY (key, version): every version is
 *   kept, a re-written version collapses to its last write; latest reads are the same argMax.
 * - expiring tables: a latest table with an `expires_at` column (ms, 0: never); `expire` deletes
 *   the rows past it with a mutation (ALTER TABLE … DELETE, which 18.16 runs in the background)
 *   and waits until the mutation is done.
 * - usage: ReplacingMergeTree ORDER BY (day, id), deduplicated by id at read, then summed.
 * - claims: MergeTree ORDER BY (tbl, key), every claim kept (never collapsed); see `claim`.
 * `written_at` is a per-process increasing microsecond stamp that orders writes of equal versions.
 */
export interface ClickHouseStoreOptions {
  /** http://host:8123 */
  url: string;
  /** created by migrate() if missing */
  database?: string;
  /** appended to every table name (tests use a unique suffix per run) */
  tableSuffix?: string;
  username?: string;
  password?: string;
  requestTimeoutMs?: number;
}

interface Migration {
  version: number;
  name: string;
  statements: string[];
}

let lastStamp = 0;
/** microseconds since epoch, strictly increasing within this process */
function writeStamp(): number {
  lastStamp = Math.max(Date.now() * 1000, lastStamp + 1);
  return lastStamp;
}

function checkVersion(r: Row): void {
  if (!Number.isSafeInteger(r.version) || r.version < 0) {
    throw new RangeError(`row ${JSON.stringify(r.key)}: version must be a non-negative safe integer, got ${r.version}`);
  }
}

/** errors of the connection, not of the statement: the server is down, refused, dropped the connection or timed out */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
function isUnreachable(err: unknown, depth = 0): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== 'object' || depth > 3) return false;
  if (typeof e.code === 'string' && UNREACHABLE_CODES.has(e.code)) return true;
  // @clickhouse/client's request timeout, and a socket closed before the answer
  if (typeof e.message === 'string' && /^Timeout error\.?$|socket hang up/i.test(e.message)) return true;
  return isUnreachable(e.cause, depth + 1);
}

function checkLimit(limit: number | undefined): void {
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) throw new RangeError(`bad limit ${limit}`);
}

export async function createClickHouseStore(opts: ClickHouseStoreOptions): Promise<Store> {
  const database = opts.database ?? 'intel';
  const suffix = opts.tableSuffix ?? '';
  sqlIdent(database);
  if (suffix) sqlIdent(`t${suffix}`);
  const client: ClickHouseClient = createClient({
    url: opts.url,
    username: opts.username ?? 'default',
    password: opts.password ?? '',
    request_timeout: opts.requestTimeoutMs ?? 30_000,
  });
  const ping = await client.ping();
  if (!ping.success) {
    await client.close();
    throw new Error(`ClickHouse at ${opts.url} does not answer`, { cause: ping.error });
  }

  const table = (name: string): SqlFragment => sqlTable(database, `${name}${suffix}`);
  const usageTable = table('usage');
  const claimsTable = table('claims');
  const migrationsTable = table('schema_migrations');

  function rowsDdl(name: TableName): string {
    const engine = HistoryTables.has(name)
      ? 'ReplacingMergeTree(written_at) ORDER BY (key, version)'
      : 'ReplacingMergeTree(version) ORDER BY key';
    const expires = ExpiringTables.has(name) ? ', expires_at UInt64' : '';
    return `CREATE TABLE IF NOT EXISTS ${table(name).text} (
      key String, version UInt64, deleted UInt8, body String, written_at UInt64${expires}
    ) ENGINE = ${engine}`;
  }

  /** the tables of the first migration (a released migration never changes: later tables come in their own) */
  const firstTables: TableName[] = [
    Tables.snapshots,
    Tables.snapshotHistory,
    Tables.apiKeys,
    Tables.orgs,
    Tables.cursors,
    Tables.trackRecords,
    Tables.meta,
  ];

  /** append-only: a released migration never changes, a change is a new version */
  const migrations: Migration[] = [
    {
      version: 1,
      name: 'rows tables and usage',
      statements: [
        ...firstTables.map(rowsDdl),
        `CREATE TABLE IF NOT EXISTS ${usageTable.text} (
          id String, day String, key_id String, org_id String, operation String,
          units Float64, requests UInt64, written_at UInt64
        ) ENGINE = ReplacingMergeTree(written_at) ORDER BY (day, id)`,
      ],
    },
    { version: 2, name: 'worker checkpoints', statements: [rowsDdl(Tables.checkpoints)] },
    { version: 3, name: 'wallet authorization replay guard', statements: [rowsDdl(Tables.walletAuthGuard)] },
    {
      version: 4,
      name: 'copy-trading agents, executions and webhooks',
      statements: [Tables.agents, Tables.executions, Tables.agentBooks, Tables.leaderTrades, Tables.webhookEndpoints, Tables.webhookOutbox, Tables.webhookDeliveries].map(rowsDdl),
    },
    {
      version: 5,
      name: 'partner console: members, identities, sessions, sign-in challenges, audit log',
      statements: [Tables.consoleMembers, Tables.consoleIdentities, Tables.consoleSessions, Tables.consoleChallenges, Tables.consoleAudit].map(rowsDdl),
    },
    { version: 6, name: 'scheduled jobs: leases', statements: [rowsDdl(Tables.jobLeases)] },
    { version: 7, name: 'partner console: invitations', statements: [rowsDdl(Tables.consoleInvitations)] },
    {
      version: 8,
      name: 'claims: conditional writes',
      statements: [
        `CREATE TABLE IF NOT EXISTS ${claimsTable.text} (
          tbl String, key String, claimant String, expires_at UInt64
        ) ENGINE = MergeTree ORDER BY (tbl, key)`,
      ],
    },
  ];

  /** a call to the server: a connection that fails is a StoreUnavailableError */
  async function reach<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!isUnreachable(err)) throw err;
      throw new StoreUnavailableError(`ClickHouse at ${opts.url} is unreachable: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }

  async function query<T>(q: SqlFragment): Promise<T[]> {
    return reach(async () => (await client.query({ query: q.text, format: 'JSONEachRow' })).json<T>());
  }

  async function command(statement: string): Promise<void> {
    await reach(() => client.command({ query: statement }));
  }

  async function insert(table: SqlFragment, values: Record<string, unknown>[]): Promise<void> {
    await reach(() => client.insert({ table: table.text, values, format: 'JSONEachRow' }));
  }

  interface LatestRow {
    key: string;
    version: string | number;
    deleted: number;
    body: string;
    /** expiring tables only */
    expires_at?: string | number;
  }

  const toRow = (r: LatestRow): Row => {
    const row: Row = r.deleted ? { key: r.key, version: Number(r.version), deleted: true, body: r.body } : { key: r.key, version: Number(r.version), body: r.body };
    if (r.expires_at !== undefined && Number(r.expires_at) > 0) row.expiresAt = Number(r.expires_at);
    return row;
  };

  /** latest version per key among rows matching `where`, deleted keys dropped */
  function latest(name: TableName, where: SqlFragment): SqlFragment {
    const expires = ExpiringTables.has(name);
    const picked = new SqlFragment(expires ? 'tuple(version, deleted, body, expires_at)' : 'tuple(version, deleted, body)');
    const expiresCol = new SqlFragment(expires ? ', tupleElement(t, 4) AS expires_at' : '');
    return sql`SELECT key, tupleElement(t, 1) AS version, tupleElement(t, 2) AS deleted, tupleElement(t, 3) AS body${expiresCol}
      FROM (
        SELECT key, argMax(${picked}, tuple(version, written_at)) AS t
        FROM ${table(name)} WHERE ${where} GROUP BY key
      )
      WHERE deleted = 0`;
  }

  /** deletes the rows matching `where` (a mutation) and waits until it is done */
  async function deleteWhere(name: string, where: SqlFragment): Promise<void> {
    const [found] = await query<{ n: string | number }>(sql`SELECT count() AS n FROM ${table(name)} WHERE ${where}`);
    if (Number(found?.n ?? 0) === 0) return;
    await command(sql`ALTER TABLE ${table(name)} DELETE WHERE ${where}`.text);
    // 18.16 has no mutations_sync: the mutation runs in the background, so wait until it is done
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [pending] = await query<{ n: string | number }>(
        sql`SELECT count() AS n FROM system.mutations WHERE database = ${database} AND table = ${`${name}${suffix}`} AND is_done = 0`,
      );
      if (Number(pending?.n ?? 0) === 0 || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  let closed = false;
  function checkOpen(): void {
    if (closed) throw new Error('store is closed');
  }

  const store: Store = {
    kind: 'clickhouse',

    async migrate() {
      checkOpen();
      await command(`CREATE DATABASE IF NOT EXISTS ${sqlIdent(database).text}`);
      await command(`CREATE TABLE IF NOT EXISTS ${migrationsTable.text} (
        version UInt32, name String, applied_at UInt64
      ) ENGINE = MergeTree ORDER BY version`);
      const applied = new Set(
        (await query<{ version: number }>(sql`SELECT DISTINCT version FROM ${migrationsTable}`)).map((r) => Number(r.version)),
      );
      for (const m of migrations) {
        if (applied.has(m.version)) continue;
        // statements are idempotent (IF NOT EXISTS), so two processes migrating at once is harmless
        for (const s of m.statements) await command(s);
        await insert(migrationsTable, [{ version: m.version, name: m.name, applied_at: Date.now() }]);
      }
    },

    async upsert(name, rows) {
      checkOpen();
      if (rows.length === 0) return;
      const expiring = ExpiringTables.has(name);
      for (const r of rows) {
        checkVersion(r);
        if (r.expiresAt !== undefined && (!expiring || !Number.isSafeInteger(r.expiresAt) || r.expiresAt <= 0)) {
          throw new RangeError(`row ${JSON.stringify(r.key)}: expiresAt is a positive integer of ms, on expiring tables only`);
        }
      }
      await insert(
        table(name),
        rows.map((r) => ({
          key: r.key,
          version: r.version,
          deleted: r.deleted ? 1 : 0,
          body: r.body,
          written_at: writeStamp(),
          ...(expiring ? { expires_at: r.expiresAt ?? 0 } : {}),
        })),
      );
    },

    async get(name, key) {
      checkOpen();
      const rows = await query<LatestRow>(latest(name, sql`key = ${key}`));
      return rows[0] ? toRow(rows[0]) : undefined;
    },

    async list(name, o = {}) {
      checkOpen();
      checkLimit(o.limit);
      const prefix = o.prefix ? sql`startsWith(key, ${o.prefix})` : new SqlFragment('1');
      // a key is one group of the argMax: filtering keys before it changes no key's latest row
      const where = o.after !== undefined ? sql`${prefix} AND key > ${o.after}` : prefix;
      const limit = o.limit !== undefined ? sql` LIMIT ${o.limit}` : new SqlFragment('');
      const rows = await query<LatestRow>(sql`${latest(name, where)} ORDER BY key${limit}`);
      return rows.map(toRow);
    },

    async history(name, key, o = {}) {
      checkOpen();
      checkLimit(o.limit);
      // like the embedded store: only history tables keep past versions
      if (!HistoryTables.has(name)) return [];
      const before = o.beforeVersion !== undefined ? sql` AND version < ${o.beforeVersion}` : new SqlFragment('');
      const limit = o.limit !== undefined ? sql` LIMIT ${o.limit}` : new SqlFragment('');
      const rows = await query<LatestRow>(sql`SELECT ${key} AS key, version, tupleElement(t, 1) AS deleted, tupleElement(t, 2) AS body
        FROM (
          SELECT version, argMax(tuple(deleted, body), written_at) AS t
          FROM ${table(name)} WHERE key = ${key}${before} GROUP BY version
        )
        ORDER BY version DESC${limit}`);
      return rows.map(toRow);
    },

    async expire(name, now) {
      checkOpen();
      if (!ExpiringTables.has(name)) throw new Error(`${name} is not an expiring table`);
      if (!Number.isSafeInteger(now)) throw new RangeError(`bad time ${now}`);
      const past = sql`expires_at > 0 AND expires_at < ${now}`;
      await deleteWhere(name, past);
      // the table's claims expire with its rows: the key can be claimed again
      await deleteWhere('claims', sql`tbl = ${name} AND ${past}`);
    },

    /**
     * ClickHouse 18.16 has no conditional insert, but it orders inserts: a MergeTree table numbers
     * each insert's part with the next block number as the part is added to the table, under the
     * table's lock, so a read that sees a part sees every part numbered before it. Each claim is
     * its own insert; the claimant then reads the key's claims and wins when its own is the first
     * (the lowest block; within a part merged since, the first row, as a merge keeps rows of equal
     * sorting keys in the order of their parts). Every claim that comes later sees the winner's.
     */
    async claim(name, row) {
      checkOpen();
      checkVersion(row);
      const claimant = randomUUID();
      await insert(claimsTable, [{ tbl: name, key: row.key, claimant, expires_at: row.expiresAt ?? 0 }]);
      const claims = await query<{ claimant: string; part: string }>(
        sql`SELECT claimant, _part AS part FROM ${claimsTable} WHERE tbl = ${name} AND key = ${row.key} SETTINGS max_threads = 1`,
      );
      if (firstClaim(claims) !== claimant) return false;
      await store.upsert(name, [row]);
      return true;
    },

    async addUsage(records: UsageRecord[]) {
      checkOpen();
      if (records.length === 0) return;
      await insert(
        usageTable,
        records.map((r) => ({
          id: r.id,
          day: r.day,
          key_id: r.keyId,
          org_id: r.orgId,
          operation: r.operation,
          units: r.units,
          requests: r.requests,
          written_at: writeStamp(),
        })),
      );
    },

    async usage(day, o = {}) {
      checkOpen();
      const byKey = o.keyId !== undefined ? sql` AND key_id = ${o.keyId}` : new SqlFragment('');
      // inner aliases differ from column names: ClickHouse would substitute them into WHERE
      const rows = await query<{ d: string; k: string; g: string; op: string; units: number; requests: string | number }>(
        sql`SELECT d, k, g, op, sum(u) AS units, sum(n) AS requests
          FROM (
            SELECT id, any(day) AS d, any(key_id) AS k, any(org_id) AS g, any(operation) AS op,
                   any(units) AS u, any(requests) AS n
            FROM ${usageTable} WHERE day = ${day}${byKey} GROUP BY id
          )
          GROUP BY d, k, g, op ORDER BY k, op, g`,
      );
      return rows.map(
        (r): UsageTotal => ({
          day: r.d,
          keyId: r.k,
          orgId: r.g,
          operation: r.op,
          units: Number(r.units),
          requests: Number(r.requests),
        }),
      );
    },

    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
  return store;
}

/** a part's first block number: its name is `<partition>_<min block>_<max block>_<level>[_<mutation>]` */
const minBlockOf = (part: string): number => Number(part.split('_')[1]);

/** the claimant of the first claim: the lowest block, and within one part the first row read (a stable sort keeps that order) */
function firstClaim(claims: { claimant: string; part: string }[]): string | undefined {
  return [...claims].sort((a, b) => minBlockOf(a.part) - minBlockOf(b.part))[0]?.claimant;
}

/** Drops a database (tests clean up their unique databases with it). */
export async function dropClickHouseDatabase(url: string, database: string): Promise<void> {
  const client = createClient({ url });
  try {
    await client.command({ query: `DROP DATABASE IF EXISTS ${sqlIdent(database).text}` });
  } finally {
    await client.close();
  }
}
