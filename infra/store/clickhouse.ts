import { createClient } from '@clickhouse/client';
import type { ClickHouseClient } from '@clickhouse/client';
import { SqlFragment, sql, sqlIdent, sqlTable } from '../sql/escape.ts';
import type { Row, Store, TableName, UsageRecord, UsageTotal } from './types.ts';
import { HistoryTables, Tables } from './types.ts';

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
 * - usage: ReplacingMergeTree ORDER BY (day, id), deduplicated by id at read, then summed.
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
  const migrationsTable = table('schema_migrations');

  function rowsDdl(name: TableName): string {
    const engine = HistoryTables.has(name)
      ? 'ReplacingMergeTree(written_at) ORDER BY (key, version)'
      : 'ReplacingMergeTree(version) ORDER BY key';
    return `CREATE TABLE IF NOT EXISTS ${table(name).text} (
      key String, version UInt64, deleted UInt8, body String, written_at UInt64
    ) ENGINE = ${engine}`;
  }

  /** append-only: a released migration never changes, a change is a new version */
  const migrations: Migration[] = [
    {
      version: 1,
      name: 'rows tables and usage',
      statements: [
        ...Object.values(Tables).filter((t) => t !== Tables.checkpoints).map(rowsDdl),
        `CREATE TABLE IF NOT EXISTS ${usageTable.text} (
          id String, day String, key_id String, org_id String, operation String,
          units Float64, requests UInt64, written_at UInt64
        ) ENGINE = ReplacingMergeTree(written_at) ORDER BY (day, id)`,
      ],
    },
    { version: 2, name: 'worker checkpoints', statements: [rowsDdl(Tables.checkpoints)] },
  ];

  async function query<T>(q: SqlFragment): Promise<T[]> {
    const rs = await client.query({ query: q.text, format: 'JSONEachRow' });
    return rs.json<T>();
  }

  async function command(statement: string): Promise<void> {
    await client.command({ query: statement });
  }

  interface LatestRow {
    key: string;
    version: string | number;
    deleted: number;
    body: string;
  }

  const toRow = (r: { key: string; version: string | number; deleted: number; body: string }): Row =>
    r.deleted ? { key: r.key, version: Number(r.version), deleted: true, body: r.body } : { key: r.key, version: Number(r.version), body: r.body };

  /** latest version per key among rows matching `where`, deleted keys dropped */
  function latest(name: TableName, where: SqlFragment): SqlFragment {
    return sql`SELECT key, tupleElement(t, 1) AS version, tupleElement(t, 2) AS deleted, tupleElement(t, 3) AS body
      FROM (
        SELECT key, argMax(tuple(version, deleted, body), tuple(version, written_at)) AS t
        FROM ${table(name)} WHERE ${where} GROUP BY key
      )
      WHERE deleted = 0`;
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
        await client.insert({
          table: migrationsTable.text,
          values: [{ version: m.version, name: m.name, applied_at: Date.now() }],
          format: 'JSONEachRow',
        });
      }
    },

    async upsert(name, rows) {
      checkOpen();
      if (rows.length === 0) return;
      for (const r of rows) checkVersion(r);
      await client.insert({
        table: table(name).text,
        values: rows.map((r) => ({
          key: r.key,
          version: r.version,
          deleted: r.deleted ? 1 : 0,
          body: r.body,
          written_at: writeStamp(),
        })),
        format: 'JSONEachRow',
      });
    },

    async get(name, key) {
      checkOpen();
      const rows = await query<LatestRow>(latest(name, sql`key = ${key}`));
      return rows[0] ? toRow(rows[0]) : undefined;
    },

    async list(name, o = {}) {
      checkOpen();
      checkLimit(o.limit);
      const where = o.prefix ? sql`startsWith(key, ${o.prefix})` : new SqlFragment('1');
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

    async addUsage(records: UsageRecord[]) {
      checkOpen();
      if (records.length === 0) return;
      await client.insert({
        table: usageTable.text,
        values: records.map((r) => ({
          id: r.id,
          day: r.day,
          key_id: r.keyId,
          org_id: r.orgId,
          operation: r.operation,
          units: r.units,
          requests: r.requests,
          written_at: writeStamp(),
        })),
        format: 'JSONEachRow',
      });
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

/** Drops a database (tests clean up their unique databases with it). */
export async function dropClickHouseDatabase(url: string, database: string): Promise<void> {
  const client = createClient({ url });
  try {
    await client.command({ query: `DROP DATABASE IF EXISTS ${sqlIdent(database).text}` });
  } finally {
    await client.close();
  }
}
