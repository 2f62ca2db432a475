import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { appendSync, createFileSyncer, cutTornTailSync, jsonLines, readJsonLines, readJsonLinesSliced, replaceFileSync, syncDir, warnTornTail, writeSynced } from '../files.ts';
import type { TornTail } from '../files.ts';
import { SLICE_MS, slicer } from '../pause.ts';
import type { Row, Store, TableName, UsageRecord, UsageTotal } from './types.ts';
import { ExpiringTables, HistoryTables, Tables } from './types.ts';

/**
 * The embedded store: every table is held in memory and backed by an append-only JSON-lines
 * file in the data directory. Opening replays the file and rewrites it compacted when it carries
 * many superseded rows. Several processes may open one data dir (the keys CLI beside `intel
 * start`): each folds in the rows the others appended before it reads or writes a table.
 *
 * Crash safety (infra/files.ts says what survives what): a torn tail, the rows a killed process
 * was appending, is cut off at open and before any append, so a row is never appended after a
 * partial one; a damaged line with rows after it is an error naming the file and byte, never a
 * silent truncation. Bytes past the last complete row may also be another live process's append in
 * flight: while another process has the store open (`store/open/`), they are cut only once they
 * have stayed incomplete for TAIL_SETTLE_MS. Table files are fdatasync'd in the background every
 * `syncIntervalMs` (100 ms), checkpoints before their rename.
 *
 * The checkpoints table is different: its rows are large (a partition's worker state) and
 * rewritten often, so each key is one file, written off the event loop and replaced by an atomic
 * rename (a crash leaves the old checkpoint or the new one, never a torn one), read when asked
 * for and never held in memory.
 */
/** a blob's body is written in slices of this many characters, each encoded on its own */
const BLOB_SLICE_CHARS = 256 * 1024;

/** how long bytes past the last complete row must stay incomplete, while another process has the store open, to be a torn tail */
const TAIL_SETTLE_MS = 250;

export interface EmbeddedStoreOptions {
  dataDir: string;
  /** keep at most this many versions per key in history tables */
  historyPerKey?: number;
  /** at most this long after a write resolved, the table files it appended to are fdatasync'd (ms; default 100) */
  syncIntervalMs?: number;
  /** a torn tail was cut off a table file (default: a process warning) */
  onTornTail?: (t: TornTail) => void;
  /** tables read from their file only when first read, or in the background `warmAfterMs` after the open (default: LAZY_TABLES) */
  lazyTables?: readonly TableName[];
  /** default 30 s: after the start's catch-up */
  warmAfterMs?: number;
}

/**
 * Tables nothing reads at start, read in when first asked for (or in the background, in slices,
 * once the start is over), and appended to meanwhile without reading them: the leader trades (a
 * week of every graded wallet's trades, read by the copy dry run and the retention job) were the
 * largest file of a data dir (40 MB after a 20-day history), and reading them was the part of a
 * restart that grew with the chain's activity.
 */
const LAZY_TABLES: readonly TableName[] = [Tables.leaderTrades];

/** an append-only JSON-lines file as this process has read it */
interface LinesFile {
  file: string;
  /** bytes folded in so far: the end of the last complete record, where this process appends */
  pos: number;
  /** the inode read (0: no file yet): a compaction by another process replaces the file */
  ino: number;
  /** a torn tail being cut: writes wait for it, in order */
  repairing?: Promise<void>;
}

interface TableState extends LinesFile {
  /** not read in yet (a lazy table): appends go to its file only (see `warm`) */
  cold?: boolean;
  /** being read in */
  warming?: Promise<void>;
  latest: Map<string, Row>;
  history?: Map<string, Row[]>;
  /** rows appended to the file since it was last compacted */
  fileRows: number;
  /** live rows at the last compaction check */
  liveAtCheck: number;
}

function newer(a: Row, b: Row | undefined): boolean {
  return !b || a.version >= b.version;
}

function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** how long a claim waits for another process's claim of the same table before it fails */
const CLAIM_LOCK_WAIT_MS = 5_000;

/**
 * Runs `fn` holding `file` as a lock shared by every process over the data dir: the file is
 * created exclusively (O_EXCL, which the filesystem decides for all of them at once) with the
 * holder's pid, and removed after. A lock whose holder is no longer running (it crashed holding it)
 * is broken; a live holder is waited for, at most CLAIM_LOCK_WAIT_MS.
 */
async function withLockFile<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + CLAIM_LOCK_WAIT_MS;
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(file, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (fd !== undefined) {
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    }
    const holder = Number(readFileOr(file));
    // a holder that has not written its pid yet reads as 0: it is running, so wait for it
    if (holder > 0 && !processRunning(holder)) rmSync(file, { force: true });
    else if (Date.now() > deadline) throw new Error(`${file}: another process has held this lock for ${CLAIM_LOCK_WAIT_MS} ms`);
    else await sleep(2);
  }
  try {
    return await fn();
  } finally {
    rmSync(file, { force: true });
  }
}

function readFileOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

export async function createEmbeddedStore(opts: EmbeddedStoreOptions): Promise<Store> {
  const dir = join(opts.dataDir, 'store');
  mkdirSync(dir, { recursive: true });
  const historyPerKey = opts.historyPerKey ?? 500;
  const onTornTail = opts.onTornTail ?? warnTornTail;
  const syncer = createFileSyncer({ intervalMs: opts.syncIntervalMs ?? 100 });
  const tables = new Map<TableName, TableState>();
  let closed = false;

  /**
   * The processes that have the store open, one file each (`<pid>.<random>`), so a process knows
   * whether bytes past the last complete row may be another's append in flight; a crashed
   * process's file is removed by the next open.
   */
  const openDir = join(dir, 'open');
  mkdirSync(openDir, { recursive: true });
  const openFile = join(openDir, `${process.pid}.${randomBytes(4).toString('hex')}`);
  const pidOf = (f: string) => Number(f.split('.')[0]);
  for (const f of readdirSync(openDir)) if (!processRunning(pidOf(f))) rmSync(join(openDir, f), { force: true });
  writeFileSync(openFile, '');
  /** another process has the store open (this process's own writes are never seen half done) */
  const othersOpen = () => readdirSync(openDir).some((f) => pidOf(f) !== process.pid && processRunning(pidOf(f)));

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
  // temporary files a crashed writer left (`<key>.json.<pid>.tmp`, `<table>.jsonl.<pid>.tmp`: the pid no longer running)
  for (const d of [blobDir, dir]) {
    for (const f of readdirSync(d)) {
      const pid = Number(/\.(\d+)\.tmp$/.exec(f)?.[1]);
      if (Number.isInteger(pid) && !processRunning(pid)) rmSync(join(d, f), { force: true });
    }
  }
  /** a blob as its file holds it: one JSON line of the row without its body, then the body verbatim */
  function parseBlob(file: string, text: string): Row {
    try {
      const nl = text.indexOf('\n');
      // files written before the body was kept verbatim: the whole row as one JSON object
      if (nl < 0) return JSON.parse(text) as Row;
      const meta = JSON.parse(text.slice(0, nl)) as Omit<Row, 'body'>;
      return { ...meta, body: text.slice(nl + 1) };
    } catch (err) {
      // written whole, synced and renamed into place: a blob that does not parse was damaged after
      throw new Error(`${file}: damaged checkpoint (${String(err)}); move it aside to rebuild its partition from the log`, { cause: err });
    }
  }
  async function readBlob(key: string): Promise<Row | undefined> {
    const file = blobFile(key);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    return parseBlob(file, text);
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
      if (nl >= 0) return parseBlob(blobFile(key), head.slice(0, nl + 1)).version;
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
   * file in slices, is fdatasync'd, and replaces the old file by an atomic rename, so a killed
   * process or a power loss leaves the old checkpoint or the new one, never a torn or empty one
   * (a worker releases the log's records a checkpoint covers once it is written). The directory
   * entry is synced before the write resolves (about a millisecond, off the event loop): a worker
   * drops the log segments a checkpoint covers as soon as it is written, so its rename must not
   * wait for the background sync of the table files.
   */
  async function writeBlobNow(r: Row): Promise<void> {
    let known = blobVersions.get(r.key);
    if (known === undefined) known = await blobVersion(r.key);
    if (known > r.version) return;
    const file = blobFile(r.key);
    const tmp = `${file}.${process.pid}.tmp`;
    const { body, ...meta } = r;
    await writeSynced(tmp, async (fh) => {
      await fh.write(`${JSON.stringify(meta)}\n`);
      for (let i = 0; i < body.length; i += BLOB_SLICE_CHARS) await fh.write(body.slice(i, i + BLOB_SLICE_CHARS));
    });
    await rename(tmp, file);
    await syncDir(blobDir);
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

  /**
   * Fold in the records of a lines file from where this process stopped (all of it when it was
   * replaced or cut by another process); returns the bytes past the last complete record (a torn
   * tail, or an append in flight). A damaged line with records after it throws CorruptFileError.
   */
  function readOn<T>(f: LinesFile, apply: (v: T) => void, reset: () => void): number {
    const st = statOf(f.file);
    if (!st) {
      if (f.ino !== 0) {
        reset();
        f.pos = 0;
        f.ino = 0;
      }
      return 0;
    }
    if (st.ino !== f.ino || st.size < f.pos) {
      reset();
      f.pos = 0;
      f.ino = st.ino;
    }
    if (st.size === f.pos) return 0;
    const { values, end } = readJsonLines<T>(f.file, f.pos, st.size);
    for (const v of values) apply(v);
    f.pos = end;
    return st.size - end;
  }

  /**
   * Fold in a lines file to its end, cutting any torn tail (one cut at a time per file: other
   * writers wait for it). `catchUp` folds in what other processes appended and returns the bytes
   * past the last complete record.
   */
  async function catchUpToEnd(f: LinesFile, catchUp: () => number): Promise<void> {
    if (f.repairing) await f.repairing;
    while (catchUp() > 0) {
      f.repairing ??= cutTornTail(f, catchUp).finally(() => (f.repairing = undefined));
      await f.repairing;
    }
  }

  /** Append to a lines file, after any torn tail is cut: a record is never written after a partial one. */
  async function appendLines(f: LinesFile, catchUp: () => number, text: string): Promise<void> {
    await catchUpToEnd(f, catchUp);
    const buf = Buffer.from(text);
    const created = f.ino === 0;
    const before = f.pos;
    const { ino, size } = appendSync(f.file, buf);
    // another process appended between the read and this write (or replaced the file): the next
    // read folds in its rows and these again (upserts and usage ids make that harmless)
    if (created || ino === f.ino) f.ino = ino;
    if (ino === f.ino && size === before + buf.length) f.pos = size;
    syncer.dirty(f.file, created);
  }

  /**
   * Bytes past the last complete record are cut off, unless another process that has the store
   * open completes them within TAIL_SETTLE_MS (its append was in flight).
   */
  async function cutTornTail(f: LinesFile, catchUp: () => number): Promise<void> {
    if (othersOpen()) {
      const until = Date.now() + TAIL_SETTLE_MS;
      while (Date.now() < until) {
        await sleep(25);
        if (catchUp() === 0) return;
      }
    }
    const cut = cutTornTailSync(f.file, f.pos, f.ino);
    if (cut) onTornTail(cut);
  }

  function resetTable(t: TableState, name: TableName): void {
    t.latest = new Map();
    t.history = HistoryTables.has(name) ? new Map() : undefined;
    t.fileRows = 0;
  }

  /** fold in rows another process appended since we last looked (all rows: at open, or after another process compacted the file) */
  function catchUp(t: TableState, name: TableName): number {
    return readOn<Row>(
      t,
      (r) => {
        applyRow(t, r);
        t.fileRows++;
      },
      () => resetTable(t, name),
    );
  }

  /** rewrite a table's file with its live rows (compaction, expiry) */
  function rewrite(t: TableState): void {
    const live = liveRows(t);
    replaceFileSync(t.file, jsonLines(live));
    rewritten(t, live.length);
  }

  /** the table's file now holds exactly its `rows` live rows */
  function rewritten(t: TableState, rows: number): void {
    const st = statSync(t.file);
    t.fileRows = rows;
    t.liveAtCheck = rows;
    t.pos = st.size;
    t.ino = st.ino;
  }

  /**
   * `rewrite` without stalling the process: the live rows serialized in slices and written off the
   * event loop (a 16 MB table took 180 ms of one synchronous turn, every reader waiting behind it).
   * This process's writes to the table wait for it (`repairing`); a row another process appended
   * meanwhile would be lost with the old file, so then the rows are folded in and it is done again.
   * `drop`: rows that must not be written (expired), also when folding in brings them back.
   */
  async function compact(t: TableState, name: TableName, drop?: (r: Row) => boolean): Promise<void> {
    while (t.repairing) await t.repairing;
    const run = async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        catchUp(t, name);
        if (drop) for (const [key, r] of t.latest) if (drop(r)) t.latest.delete(key);
        const seen = { pos: t.pos, ino: t.ino };
        const live = liveRows(t);
        const tmp = `${t.file}.${process.pid}.tmp`;
        await writeSynced(tmp, async (fh) => {
          const slice = slicer(SLICE_MS);
          let chunk: string[] = [];
          let chars = 0;
          for (const r of live) {
            const line = `${JSON.stringify(r)}\n`;
            chunk.push(line);
            chars += line.length;
            if (chars >= 1 << 20) {
              await fh.write(chunk.join(''));
              chunk = [];
              chars = 0;
            }
            if (slice.due()) await slice.next();
          }
          if (chunk.length > 0) await fh.write(chunk.join(''));
        });
        const st = statOf(t.file);
        if (st && (st.ino !== seen.ino || st.size !== seen.pos)) {
          await rm(tmp, { force: true });
          continue;
        }
        await rename(tmp, t.file);
        await syncDir(dir);
        rewritten(t, live.length);
        return;
      }
      throw new Error(`${t.file}: other processes kept appending while it was compacted (5 tries); it is compacted on a later write`);
    };
    t.repairing = run().finally(() => (t.repairing = undefined));
    await t.repairing;
  }

  async function load(t: TableState, name: TableName): Promise<void> {
    await catchUpToEnd(t, () => catchUp(t, name));
    const live = liveRows(t);
    if (t.fileRows > live.length * 2 + 100) rewrite(t);
    t.fileRows = Math.min(t.fileRows, live.length);
    t.liveAtCheck = live.length;
  }

  const lazy = new Set(opts.lazyTables ?? LAZY_TABLES);
  for (const name of Object.values(Tables)) {
    if (isBlob(name)) continue;
    const t: TableState = { latest: new Map(), file: join(dir, `${name}.jsonl`), fileRows: 0, pos: 0, ino: 0, liveAtCheck: 0 };
    resetTable(t, name);
    if (lazy.has(name)) t.cold = true;
    else await load(t, name);
    tables.set(name, t);
  }
  if (lazy.size > 0) {
    const timer = setTimeout(() => {
      for (const name of lazy) if (!closed) warm(name).catch((err: unknown) => process.emitWarning(`${table(name).file}: reading it in failed (${String(err)}); it is read again when asked for`));
    }, opts.warmAfterMs ?? 30_000);
    timer.unref();
  }

  /**
   * A lazy table read in: its file parsed in slices (the process keeps answering), then folded to
   * its end as at open (what was appended meanwhile, a torn tail cut). Appends made while it was
   * cold went to the file only, in order, so reading the file gives the table they made.
   */
  async function warm(name: TableName): Promise<TableState> {
    const t = table(name);
    if (!t.cold) return t;
    t.warming ??= (async () => {
      const st = statOf(t.file);
      if (st) {
        const { end } = await readJsonLinesSliced<Row>(
          t.file,
          (r) => {
            applyRow(t, r);
            t.fileRows++;
          },
          0,
          st.size,
        );
        t.pos = end;
        t.ino = st.ino;
      }
      t.cold = false;
      await load(t, name);
    })().finally(() => (t.warming = undefined));
    await t.warming;
    return t;
  }

  /**
   * How a cold table's file ends: with a complete row, or empty, or not there yet, and rows can be
   * appended without reading it; or `torn` (a crash's last append, or another process's in
   * flight), and it is read in first, as any table is before an append.
   */
  function endOf(t: TableState): 'missing' | 'clean' | 'torn' {
    const st = statOf(t.file);
    if (!st) return 'missing';
    if (st.size === 0) return 'clean';
    const fd = openSync(t.file, 'r');
    try {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, st.size - 1);
      return last[0] === 10 ? 'clean' : 'torn';
    } finally {
      closeSync(fd);
    }
  }

  const usageFile: LinesFile = { file: join(dir, 'usage.jsonl'), pos: 0, ino: 0 };
  const usage = new Map<string, UsageRecord>();
  const usageCatchUp = () =>
    readOn<UsageRecord>(
      usageFile,
      (u) => void (usage.has(u.id) || usage.set(u.id, u)),
      () => usage.clear(),
    );
  await catchUpToEnd(usageFile, usageCatchUp);

  function table(name: TableName): TableState {
    const t = tables.get(name);
    if (!t) throw new Error(`unknown table ${name}`);
    return t;
  }

  function checkOpen(): void {
    if (closed) throw new Error('store is closed');
  }

  /** per table: this process's claim in progress (claims of one table wait for each other) */
  const claiming = new Map<TableName, Promise<unknown>>();

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
      const cold = table(name);
      const end = cold.cold && !cold.warming ? endOf(cold) : 'torn';
      if (end !== 'torn') {
        appendSync(cold.file, Buffer.from(jsonLines(rows)));
        syncer.dirty(cold.file, end === 'missing');
        return;
      }
      const t = await warm(name);
      await appendLines(t, () => catchUp(t, name), jsonLines(rows));
      for (const r of rows) applyRow(t, r);
      t.fileRows += rows.length;
      // compact when the file carries many superseded rows (history tables drop versions past the cap)
      if (t.fileRows > t.liveAtCheck * 3 + 2000) {
        const all = liveRows(t);
        t.liveAtCheck = all.length;
        if (t.fileRows > all.length * 2) await compact(t, name);
      }
    },
    async claim(name, row) {
      checkOpen();
      if (isBlob(name)) throw new Error(`${name} does not take claims`);
      const t = await warm(name);
      // one claim of a table at a time in this process, then across processes (the lock file)
      const previous = claiming.get(name) ?? Promise.resolve();
      const mine = previous.then(() =>
        withLockFile(join(dir, `${name}.claim.lock`), async () => {
          await catchUpToEnd(t, () => catchUp(t, name));
          if (t.latest.has(row.key)) return false;
          await store.upsert(name, [row]);
          return true;
        }),
      );
      claiming.set(name, mine.catch(() => undefined));
      return mine;
    },
    async get(name, key) {
      checkOpen();
      if (isBlob(name)) {
        const r = await readBlob(key);
        return r && !r.deleted ? r : undefined;
      }
      const t = await warm(name);
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
          .filter((k) => (!o.prefix || k.startsWith(o.prefix)) && (o.after === undefined || k > o.after))
          .sort();
        const rows: Row[] = [];
        for (const k of keys) {
          const r = await readBlob(k);
          if (r && !r.deleted) rows.push(r);
        }
        return o.limit !== undefined ? rows.slice(0, o.limit) : rows;
      }
      const t = await warm(name);
      catchUp(t, name);
      const out: Row[] = [];
      for (const r of t.latest.values()) {
        if (r.deleted) continue;
        if (o.prefix && !r.key.startsWith(o.prefix)) continue;
        if (o.after !== undefined && r.key <= o.after) continue;
        out.push(r);
      }
      out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      return o.limit !== undefined ? out.slice(0, o.limit) : out;
    },
    async history(name, key, o = {}) {
      checkOpen();
      const t = await warm(name);
      let list = t.history ? (t.history.get(key) ?? []) : [];
      if (o.beforeVersion !== undefined) list = list.filter((r) => r.version < (o.beforeVersion as number));
      return o.limit !== undefined ? list.slice(0, o.limit) : [...list];
    },
    async expire(name, now) {
      checkOpen();
      if (!ExpiringTables.has(name)) throw new Error(`${name} is not an expiring table`);
      const t = await warm(name);
      if (t.repairing) await t.repairing;
      catchUp(t, name);
      const expired = (r: Row) => r.expiresAt !== undefined && r.expiresAt < now;
      let dropped = 0;
      for (const [key, r] of t.latest) {
        if (expired(r)) {
          t.latest.delete(key);
          dropped++;
        }
      }
      if (dropped === 0) return;
      // gone for good: the file is rewritten with the live rows (a reopen replays no expired row)
      await compact(t, name, expired);
    },
    async addUsage(records) {
      checkOpen();
      if (usageFile.repairing) await usageFile.repairing;
      usageCatchUp();
      const fresh = records.filter((r) => !usage.has(r.id));
      if (fresh.length === 0) return;
      await appendLines(usageFile, usageCatchUp, jsonLines(fresh));
      for (const r of fresh) if (!usage.has(r.id)) usage.set(r.id, r);
    },
    async usage(day, o = {}) {
      checkOpen();
      usageCatchUp();
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
      if (closed) return;
      closed = true;
      // checkpoints being written finish first, then everything written is synced
      await Promise.all(blobWrites.values());
      try {
        await syncer.flush();
      } finally {
        rmSync(openFile, { force: true });
      }
    },
  };
  return store;
}
