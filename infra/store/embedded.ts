import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import type { Database, RootDatabase } from 'lmdb';
import { importJsonLines } from './jsonl-import.ts';
import { decodeRow, encodeRow, expiryOf, versionOf } from './row-codec.ts';
import type { Row, Store, TableName, UsageRecord, UsageTotal } from './types.ts';
import { ExpiringTables, HistoryTables, Tables } from './types.ts';

/**
 * The embedded store: one LMDB environment (lmdb-js) in the data dir, `store.mdb`. Rows stay on
 * disk, memory-mapped, and are read when asked for; keys are ordered, so a prefix or keyset list
 * is a cursor walk. Every process over the data dir (the engine, the ingest, the keys CLI, jobs)
 * opens the same file: LMDB serializes writers across processes with its lock file, so a write
 * transaction's read-then-write (the version check, a claim) is atomic for all of them, and a
 * process killed holding that lock releases it.
 *
 * What survives what: a write is one synchronous transaction, committed to the OS's page cache
 * when the call resolves, so a killed process loses nothing acknowledged and never leaves a
 * partial write. The file is fdatasync'd off the event loop at most `syncIntervalMs` (100 ms) after
 * a write, not at every commit (a commit that waits for the disk would make a worker's batch of
 * several writes wait for each; docs/operations.md "Tuning the process"): a power loss can lose the last fraction of a second of writes, as the
 * JSON-lines store before it could.
 */
export interface EmbeddedStoreOptions {
  dataDir: string;
  /** keep at most this many versions per key in history tables */
  historyPerKey?: number;
  /** at most this long after a write resolved, the file is fdatasync'd (ms; default 100) */
  syncIntervalMs?: number;
}

/** LMDB's named databases: one per table, one per history table, and the store's own */
const MAX_DBS = 64;
/** expired rows are dropped this many per write transaction, so other writers and the event loop get turns */
const EXPIRE_CHUNK = 2_000;

type Rows = Database<Buffer, string>;
type HistoryKey = [string, number];
type ExpiryKey = [string, number, string];
type UsageKey = [string, string];

const EMPTY = Buffer.alloc(0);

export class EmbeddedStore implements Store {
  readonly kind = 'embedded';
  private closed = false;
  private syncTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly latest = new Map<TableName, Rows>();
  private readonly versions = new Map<TableName, Database<Buffer, HistoryKey>>();
  /** expiring tables' latest rows by [table, expiresAt, key], so expiry walks only what is due */
  private readonly expiry: Database<Buffer, ExpiryKey>;
  /** usage records by [day, id], and the day each record id was counted on */
  private readonly usageRows: Database<UsageRecord, UsageKey>;
  private readonly usageIds: Database<string, string>;

  private constructor(
    private readonly root: RootDatabase,
    private readonly historyPerKey: number,
    private readonly syncIntervalMs: number,
  ) {
    for (const name of Object.values(Tables)) {
      this.latest.set(name, root.openDB<Buffer, string>(name, { encoding: 'binary' }));
      if (HistoryTables.has(name)) this.versions.set(name, root.openDB<Buffer, HistoryKey>(`${name}#versions`, { encoding: 'binary' }));
    }
    this.expiry = root.openDB<Buffer, ExpiryKey>('#expiry', { encoding: 'binary' });
    this.usageRows = root.openDB<UsageRecord, UsageKey>('#usage', { encoding: 'msgpack' });
    this.usageIds = root.openDB<string, string>('#usage-ids', { encoding: 'string' });
  }

  static async open(opts: EmbeddedStoreOptions): Promise<EmbeddedStore> {
    mkdirSync(opts.dataDir, { recursive: true });
    // commits are not synced one by one: `sync` does it in the background
    const root = open({ path: join(opts.dataDir, 'store.mdb'), maxDbs: MAX_DBS, noSync: true });
    const store = new EmbeddedStore(root, opts.historyPerKey ?? 500, opts.syncIntervalMs ?? 100);
    try {
      await importJsonLines(opts.dataDir, root, {
        upsert: (table, rows) => store.writeRows(table, rows),
        addUsage: (records) => store.writeUsage(records),
      });
    } catch (err) {
      await root.close();
      throw err;
    }
    return store;
  }

  async migrate(): Promise<void> {
    // the named databases exist from open: nothing to migrate
  }

  async upsert(table: TableName, rows: Row[]): Promise<void> {
    this.checkOpen();
    if (rows.length === 0) return;
    this.write(() => this.writeRows(table, rows));
  }

  async claim(table: TableName, row: Row): Promise<boolean> {
    this.checkOpen();
    if (table === Tables.checkpoints) throw new Error(`${table} does not take claims`);
    const rows = this.rows(table);
    // LMDB runs one write transaction at a time across every process: the check and the write are one step
    return this.write(() => {
      if (rows.doesExist(row.key)) return false;
      this.writeRows(table, [row]);
      return true;
    });
  }

  async get(table: TableName, key: string): Promise<Row | undefined> {
    this.checkOpen();
    const buf = this.rows(table).getBinary(key);
    if (!buf) return undefined;
    const row = decodeRow(key, buf);
    return row.deleted ? undefined : row;
  }

  async list(table: TableName, o: { prefix?: string; after?: string; limit?: number } = {}): Promise<Row[]> {
    this.checkOpen();
    const prefix = o.prefix ?? '';
    const start = o.after !== undefined && o.after > prefix ? o.after : prefix;
    const out: Row[] = [];
    if (o.limit !== undefined && o.limit <= 0) return out;
    for (const { key, value } of this.rows(table).getRange({ start, exclusiveStart: start === o.after })) {
      if (!key.startsWith(prefix)) break;
      const row = decodeRow(key, value);
      if (row.deleted) continue;
      out.push(row);
      if (out.length === o.limit) break;
    }
    return out;
  }

  async history(table: TableName, key: string, o: { limit?: number; beforeVersion?: number } = {}): Promise<Row[]> {
    this.checkOpen();
    const versions = this.versions.get(table);
    const out: Row[] = [];
    if (!versions || (o.limit !== undefined && o.limit <= 0)) return out;
    const before = o.beforeVersion ?? Infinity;
    for (const { key: [k, version], value } of versions.getRange({ start: [key, before], reverse: true })) {
      if (k !== key) break;
      if (version >= before) continue;
      out.push(decodeRow(key, value));
      if (out.length === o.limit) break;
    }
    return out;
  }

  async expire(table: TableName, now: number): Promise<void> {
    this.checkOpen();
    if (!ExpiringTables.has(table)) throw new Error(`${table} is not an expiring table`);
    const rows = this.rows(table);
    for (;;) {
      const due: ExpiryKey[] = [];
      for (const k of this.expiry.getKeys({ start: [table], limit: EXPIRE_CHUNK })) {
        if (k[0] !== table || k[1] >= now) break;
        due.push(k);
      }
      if (due.length === 0) return;
      this.write(() => {
        for (const k of due) {
          // the row may have been replaced since the walk: its own index entry says when it expires
          const cur = rows.getBinaryFast(k[2]);
          if (cur && expiryOf(cur) === k[1]) rows.removeSync(k[2]);
          this.expiry.removeSync(k);
        }
      });
      if (due.length < EXPIRE_CHUNK) return;
      await new Promise((r) => setImmediate(r));
    }
  }

  async addUsage(records: UsageRecord[]): Promise<void> {
    this.checkOpen();
    if (records.length === 0) return;
    this.write(() => this.writeUsage(records));
  }

  async usage(day: string, o: { keyId?: string } = {}): Promise<UsageTotal[]> {
    this.checkOpen();
    const sums = new Map<string, UsageTotal>();
    for (const { key, value: u } of this.usageRows.getRange({ start: [day] })) {
      if (key[0] !== day) break;
      if (o.keyId && u.keyId !== o.keyId) continue;
      const k = `${u.keyId}\u0000${u.operation}`;
      const s = sums.get(k) ?? { day, keyId: u.keyId, orgId: u.orgId, operation: u.operation, units: 0, requests: 0 };
      s.units += u.units;
      s.requests += u.requests;
      sums.set(k, s);
    }
    return [...sums.values()];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.syncTimer);
    await this.sync();
    await this.root.close();
  }

  /** `fn` as one write transaction (waiting for another process's to end), the file synced soon after */
  private write<T>(fn: () => T): T {
    const out = this.root.transactionSync(fn);
    this.syncTimer ??= setTimeout(() => {
      this.syncTimer = undefined;
      this.sync().catch((err: unknown) => process.emitWarning(`embedded store: fdatasync failed: ${String(err)}`, 'FsyncWarning'));
    }, this.syncIntervalMs).unref();
    return out;
  }

  /** the file fdatasync'd, off the event loop */
  private sync(): Promise<void> {
    // lmdb-js's environment sync (mdb_env_sync on its own thread), which its types leave out
    const env = this.root as unknown as { sync(done: (err?: unknown) => void): void };
    return new Promise((ok, fail) => env.sync((err) => (err ? fail(err) : ok())));
  }

  /** inside a write transaction: each row replaces its key's row unless that one has a higher version */
  private writeRows(table: TableName, rows: readonly Row[]): void {
    const latest = this.rows(table);
    const versions = this.versions.get(table);
    const expiring = ExpiringTables.has(table);
    for (const r of rows) {
      const value = encodeRow(r);
      if (versions) this.keepVersion(versions, r, value);
      const cur = latest.getBinaryFast(r.key);
      if (cur && versionOf(cur) > r.version) continue;
      const was = cur && expiryOf(cur);
      if (was !== undefined) this.expiry.removeSync([table, was, r.key]);
      latest.putSync(r.key, value);
      if (expiring && r.expiresAt !== undefined) this.expiry.putSync([table, r.expiresAt, r.key], EMPTY);
    }
  }

  /** inside a write transaction: a history table keeps each version, at most `historyPerKey` of a key (the newest) */
  private keepVersion(versions: Database<Buffer, HistoryKey>, r: Row, value: Buffer): void {
    versions.putSync([r.key, r.version], value);
    for (const k of versions.getKeys({ start: [r.key, Infinity], reverse: true, offset: this.historyPerKey })) {
      if (k[0] !== r.key) break;
      versions.removeSync(k);
    }
  }

  /** inside a write transaction: a record id is counted once, on the day it was first written */
  private writeUsage(records: readonly UsageRecord[]): void {
    for (const r of records) {
      if (this.usageIds.doesExist(r.id)) continue;
      this.usageIds.putSync(r.id, r.day);
      this.usageRows.putSync([r.day, r.id], r);
    }
  }

  private rows(table: TableName): Rows {
    const db = this.latest.get(table);
    if (!db) throw new Error(`unknown table ${table}`);
    return db;
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('store is closed');
  }
}

export function createEmbeddedStore(opts: EmbeddedStoreOptions): Promise<Store> {
  return EmbeddedStore.open(opts);
}
