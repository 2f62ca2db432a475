import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync, statSync } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonLines, replaceFileSync } from '../files.ts';
import type { Row, Store, TableName, UsageRecord, UsageTotal } from './types.ts';
import { ExpiringTables, HistoryTables, Tables } from './types.ts';

/**
 * The embedded store: every table is held in memory and backed by an append-only JSON-lines
 * file in the data directory. Opening replays the file (a torn last line from a crash is
 * dropped) and rewrites it compacted when it carries many superseded rows.
 *
 * The checkpoints table is different: its rows are large (a partition's worker state) and
 * rewritten often, so each key is one file, written off the event loop and replaced by an atomic
 * rename (a crash leaves the old checkpoint or the new one, never a torn one), read when asked
 * for and never held in memory.
 */
/** a blob's body is written in slices of this many characters, each encoded on its own */
const BLOB_SLICE_CHARS = 256 * 1024;

export interface EmbeddedStoreOptions {
  dataDir: string;
  /** keep at most this many versions per key in history tables */
  historyPerKey?: number;
}

interface TableState {
  latest: Map<string, Row>;
  history?: Map<string, Row[]>;
  file: string;
  /** rows appended to the file since it was last compacted */
  fileRows: number;
  /** bytes of the file folded in so far */
  pos: number;
  /** live rows at the last compaction check */
  liveAtCheck: number;
}

function newer(a: Row, b: Row | undefined): boolean {
  return !b || a.version >= b.version;
}

function readLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  const out: T[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      break;
    }
  }
  return out;
}

function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sizeOf(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

/** the complete lines of a file from a byte position */
function readFrom(file: string, pos: number, size: number): { lines: string[]; consumed: number } {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(size - pos);
    readSync(fd, buf, 0, buf.length, pos);
    const text = buf.toString('utf8');
    const end = text.lastIndexOf('\n');
    if (end < 0) return { lines: [], consumed: 0 };
    return { lines: text.slice(0, end).split('\n').filter(Boolean), consumed: Buffer.byteLength(text.slice(0, end + 1)) };
  } finally {
    closeSync(fd);
  }
}

export async function createEmbeddedStore(opts: EmbeddedStoreOptions): Promise<Store> {
  const dir = join(opts.dataDir, 'store');
  mkdirSync(dir, { recursive: true });
  const historyPerKey = opts.historyPerKey ?? 500;
  const tables = new Map<TableName, TableState>();
  let closed = false;

  function applyRow(t: TableState, r: Row): void {
    if (t.history) {
      const list = t.history.get(r.key) ?? [];
      const i = list.findIndex((x) => x.version === r.version);
      if (i >= 0) list[i] = r;
      else {
        list.push(r);
        list.sort((a, b) => b.version - a.version);
        if (list.length > historyPerKey) list.length = historyPerKey;
      }
      t.history.set(r.key, list);
    }
    if (newer(r, t.latest.get(r.key))) t.latest.set(r.key, r);
  }

  function liveRows(t: TableState): Row[] {
    if (t.history) return [...t.history.values()].flat();
    return [...t.latest.values()];
  }

  const blobDir = join(dir, Tables.checkpoints);
  mkdirSync(blobDir, { recursive: true });
  const blobFile = (key: string) => join(blobDir, `${encodeURIComponent(key)}.json`);
  // temporary files a crashed writer left (`<key>.json.<pid>.tmp`, the pid no longer running)
  for (const f of readdirSync(blobDir)) {
    const pid = Number(/\.(\d+)\.tmp$/.exec(f)?.[1]);
    if (Number.isInteger(pid) && !processRunning(pid)) rmSync(join(blobDir, f), { force: true });
  }
  /** a blob as its file holds it: one JSON line of the row without its body, then the body verbatim */
  function parseBlob(text: string): Row {
    const nl = text.indexOf('\n');
    // files written before the body was kept verbatim: the whole row as one JSON object
    if (nl < 0) return JSON.parse(text) as Row;
    const meta = JSON.parse(text.slice(0, nl)) as Omit<Row, 'body'>;
    return { ...meta, body: text.slice(nl + 1) };
  }
  async function readBlob(key: string): Promise<Row | undefined> {
    try {
      return parseBlob(await readFile(blobFile(key), 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }
  /** the version of a stored blob, from its first line (no body read) */
  async function blobVersion(key: string): Promise<number> {
    let fh: FileHandle;
    try {
      fh = await open(blobFile(key), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return -1;
      throw err;
    }
    try {
      const { buffer, bytesRead } = await fh.read({ buffer: Buffer.alloc(4096), position: 0 });
      const head = buffer.subarray(0, bytesRead).toString('utf8');
      const nl = head.indexOf('\n');
      if (nl >= 0) return (JSON.parse(head.slice(0, nl)) as Row).version;
    } finally {
      await fh.close();
    }
    return (await readBlob(key))?.version ?? -1;
  }
  /** versions of the blobs this process wrote or read: a lower version than the stored one is not written */
  const blobVersions = new Map<string, number>();
  /** per key, the write in progress: writes of one key run one after another */
  const blobWrites = new Map<string, Promise<void>>();
  /**
   * A blob is written off the event loop: its body (megabytes of worker state) goes to a temporary
   * file in slices and replaces the old file by an atomic rename, so a crash of the process leaves
   * the old checkpoint or the new one, never a torn one. Not fsynced, like the rest of the embedded
   * store and log: the embedded mode survives a killed process, not a lost machine (a sync here took
   * about a second under the backfill's writes).
   */
  async function writeBlobNow(r: Row): Promise<void> {
    let known = blobVersions.get(r.key);
    if (known === undefined) known = await blobVersion(r.key);
    if (known > r.version) return;
    const file = blobFile(r.key);
    const tmp = `${file}.${process.pid}.tmp`;
    const { body, ...meta } = r;
    const fh = await open(tmp, 'w');
    try {
      await fh.write(`${JSON.stringify(meta)}\n`);
      for (let i = 0; i < body.length; i += BLOB_SLICE_CHARS) await fh.write(body.slice(i, i + BLOB_SLICE_CHARS));
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
    blobVersions.set(r.key, r.version);
  }
  function writeBlob(r: Row): Promise<void> {
    const next = (blobWrites.get(r.key) ?? Promise.resolve()).then(() => writeBlobNow(r));
    const settled = next.catch(() => undefined);
    blobWrites.set(r.key, settled);
    void settled.then(() => {
      if (blobWrites.get(r.key) === settled) blobWrites.delete(r.key);
    });
    return next;
  }
  const isBlob = (name: TableName) => name === Tables.checkpoints;

  for (const name of Object.values(Tables)) {
    if (isBlob(name)) continue;
    const file = join(dir, `${name}.jsonl`);
    const t: TableState = { latest: new Map(), file, fileRows: 0, pos: 0, liveAtCheck: 0 };
    load(t, name);
    tables.set(name, t);
  }

  function load(t: TableState, name: TableName): void {
    t.latest = new Map();
    t.history = HistoryTables.has(name) ? new Map() : undefined;
    const rows = readLines<Row>(t.file);
    for (const r of rows) applyRow(t, r);
    const live = liveRows(t);
    if (rows.length > live.length * 2 + 100) replaceFileSync(t.file, jsonLines(live));
    t.fileRows = Math.min(rows.length, live.length);
    t.liveAtCheck = live.length;
    t.pos = sizeOf(t.file);
  }

  /** fold in rows another process appended since we last looked */
  function catchUp(t: TableState, name: TableName): void {
    const size = sizeOf(t.file);
    if (size === t.pos) return;
    if (size < t.pos) return load(t, name); // compacted by the other process
    const { lines, consumed } = readFrom(t.file, t.pos, size);
    for (const l of lines) {
      try {
        applyRow(t, JSON.parse(l) as Row);
      } catch {
        break;
      }
    }
    t.fileRows += lines.length;
    t.pos += consumed;
  }

  const usageFile = join(dir, 'usage.jsonl');
  const usage = new Map<string, UsageRecord>();
  for (const u of readLines<UsageRecord>(usageFile)) usage.set(u.id, u);

  function table(name: TableName): TableState {
    const t = tables.get(name);
    if (!t) throw new Error(`unknown table ${name}`);
    return t;
  }

  function checkOpen(): void {
    if (closed) throw new Error('store is closed');
  }

  const store: Store = {
    kind: 'embedded',
    async migrate() {
      // tables exist from open: nothing to migrate in the embedded store
    },
    async upsert(name, rows) {
      checkOpen();
      if (rows.length === 0) return;
      if (isBlob(name)) {
        for (const r of rows) await writeBlob(r);
        return;
      }
      const t = table(name);
      catchUp(t, name);
      const text = jsonLines(rows);
      appendFileSync(t.file, text);
      t.pos += Buffer.byteLength(text);
      for (const r of rows) applyRow(t, r);
      t.fileRows += rows.length;
      // compact when the file carries many superseded rows (history tables drop versions past the cap)
      if (t.fileRows > t.liveAtCheck * 3 + 2000) {
        const all = liveRows(t);
        t.liveAtCheck = all.length;
        if (t.fileRows > all.length * 2) {
          replaceFileSync(t.file, jsonLines(all));
          t.fileRows = all.length;
          t.pos = sizeOf(t.file);
        }
      }
    },
    async get(name, key) {
      checkOpen();
      if (isBlob(name)) {
        const r = await readBlob(key);
        return r && !r.deleted ? r : undefined;
      }
      const t = table(name);
      catchUp(t, name);
      const r = t.latest.get(key);
      return r && !r.deleted ? r : undefined;
    },
    async list(name, o = {}) {
      checkOpen();
      if (isBlob(name)) {
        const keys = readdirSync(blobDir)
          .filter((f) => f.endsWith('.json'))
          .map((f) => decodeURIComponent(f.slice(0, -'.json'.length)))
          .filter((k) => !o.prefix || k.startsWith(o.prefix))
          .sort();
        const rows: Row[] = [];
        for (const k of keys) {
          const r = await readBlob(k);
          if (r && !r.deleted) rows.push(r);
        }
        return o.limit !== undefined ? rows.slice(0, o.limit) : rows;
      }
      catchUp(table(name), name);
      const out: Row[] = [];
      for (const r of table(name).latest.values()) {
        if (r.deleted) continue;
        if (o.prefix && !r.key.startsWith(o.prefix)) continue;
        out.push(r);
      }
      out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      return o.limit !== undefined ? out.slice(0, o.limit) : out;
    },
    async history(name, key, o = {}) {
      checkOpen();
      const t = table(name);
      let list = t.history ? (t.history.get(key) ?? []) : [];
      if (o.beforeVersion !== undefined) list = list.filter((r) => r.version < (o.beforeVersion as number));
      return o.limit !== undefined ? list.slice(0, o.limit) : [...list];
    },
    async expire(name, now) {
      checkOpen();
      if (!ExpiringTables.has(name)) throw new Error(`${name} is not an expiring table`);
      const t = table(name);
      catchUp(t, name);
      let dropped = 0;
      for (const [key, r] of t.latest) {
        if (r.expiresAt !== undefined && r.expiresAt < now) {
          t.latest.delete(key);
          dropped++;
        }
      }
      if (dropped === 0) return;
      // gone for good: the file is rewritten with the live rows (a reopen replays no expired row)
      const live = liveRows(t);
      replaceFileSync(t.file, jsonLines(live));
      t.fileRows = live.length;
      t.liveAtCheck = live.length;
      t.pos = sizeOf(t.file);
    },
    async addUsage(records) {
      checkOpen();
      const fresh = records.filter((r) => !usage.has(r.id));
      if (fresh.length === 0) return;
      appendFileSync(usageFile, jsonLines(fresh));
      for (const r of fresh) usage.set(r.id, r);
    },
    async usage(day, o = {}) {
      checkOpen();
      const sums = new Map<string, UsageTotal>();
      for (const u of usage.values()) {
        if (u.day !== day) continue;
        if (o.keyId && u.keyId !== o.keyId) continue;
        const k = `${u.keyId}\u0000${u.operation}`;
        const s = sums.get(k) ?? { day, keyId: u.keyId, orgId: u.orgId, operation: u.operation, units: 0, requests: 0 };
        s.units += u.units;
        s.requests += u.requests;
        sums.set(k, s);
      }
      return [...sums.values()];
    },
    async close() {
      closed = true;
      // checkpoints being written finish first
      await Promise.all(blobWrites.values());
    },
  };
  return store;
}
