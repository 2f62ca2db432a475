import { closeSync, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The files of the embedded log, and what survives what.
 *
 * A killed process (SIGKILL, OOM, a crash) loses nothing a write acknowledged: an append is in the
 * OS's page cache when the call returns, a replaced file is renamed over the old one whole, and a
 * record the process was writing when it died is a torn tail that the next open cuts off (see
 * `readJsonLines`) before anything is appended after it.
 *
 * A power loss or a kernel crash loses what the OS had not written yet: appends are fdatasync'd in
 * the background by a `FileSyncer`, at most its interval (100 ms) after they were acknowledged plus
 * the time a sync in flight takes, so the last fraction of a second of acknowledged appends can be
 * lost (and torn: cut off at the next open like a killed process's). Replaced files are synced before
 * their rename and the directory after it, so they are the old version or the new one, never empty.
 */

/** fsync a directory, so a rename or a file created in it survives a power loss (no-op on Windows) */
export function syncDirSync(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** `syncDirSync` off the event loop */
export async function syncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

function writeAllSync(fd: number, buf: Buffer): void {
  for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
}

/**
 * Files the embedded log and store replace whole (offsets, released marks, compacted segments and
 * tables): the text goes to `<file>.tmp`, synced, renamed over the file, and the directory synced,
 * so a killed process or a power loss leaves the old content or the new, never a torn or empty file.
 */
export function replaceFileSync(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeAllSync(fd, Buffer.from(text));
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  syncDirSync(dirname(file));
}

/**
 * A new `file` (a replacement's temporary one) that `write` fills, synced to disk before it is
 * closed: what may be renamed over the file it replaces.
 */
export async function writeSynced(file: string, write: (fh: FileHandle) => Promise<unknown>): Promise<void> {
  const fh = await open(file, 'w');
  try {
    await write(fh);
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

/** `replaceFileSync` off the event loop; one at a time per file is the caller's to ensure */
export async function replaceFile(file: string, text: string): Promise<void> {
  const tmp = `${file}.tmp`;
  await writeSynced(tmp, (fh) => fh.writeFile(text));
  await rename(tmp, file);
  await syncDir(dirname(file));
}

/** values as JSON lines, each ending in a newline */
export function jsonLines(values: readonly unknown[]): string {
  return values.map((v) => `${JSON.stringify(v)}\n`).join('');
}

/** A line that is not a record with complete records after it: damage, not a crash mid-write. */
export class CorruptFileError extends Error {
  constructor(
    readonly file: string,
    /** byte offset of the damaged line */
    readonly offset: number,
  ) {
    super(
      `${file}: the line at byte ${offset} is not a JSON record and complete records follow it: the file is damaged ` +
        '(a torn write is only ever its last line). Nothing was truncated; move the file aside or cut the line out to open it.',
    );
    this.name = 'CorruptFileError';
  }
}

export interface JsonLines<T> {
  values: T[];
  /** byte offset just past the last complete record: where the next append belongs */
  end: number;
  /** size of the file read; `size - end` bytes are a torn tail */
  size: number;
}

/**
 * The records of a JSON-lines file from byte `from` (to `size`, by default its current size). A
 * record is one line holding a JSON object, ending in a newline (records are written whole with
 * their newline, so a line without one was cut short). What follows the last complete record and
 * is not one, a last line without its newline or a last line that does not parse, is a torn tail:
 * the write a crash interrupted. It is left out of `end`, for the caller to cut off before it
 * appends (a record appended after it would be glued to it and lost). A line that is not a record
 * with more lines after it is not a tear: CorruptFileError names the file and its byte offset.
 */
export function readJsonLines<T>(file: string, from = 0, size?: number): JsonLines<T> {
  const { buf, total } = readBytes(file, from, size);
  const values: T[] = [];
  const lines = parseJsonLines<T>(file, buf, from);
  for (let r = lines.next(); ; r = lines.next()) {
    if (r.done) return { values, end: r.value, size: total };
    values.push(r.value);
  }
}

/** bytes `from` to `size` (by default the file's current size) of a file */
function readBytes(file: string, from: number, size: number | undefined): { buf: Buffer; total: number } {
  const fd = openSync(file, 'r');
  try {
    const total = size ?? fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, total - from));
    for (let off = 0; off < buf.length; ) {
      const n = readSync(fd, buf, off, buf.length - off, from + off);
      if (n === 0) break;
      off += n;
    }
    return { buf, total };
  } finally {
    closeSync(fd);
  }
}

/** the records of `buf` (the bytes of `file` from `from`), one by one; returns where the complete records end (see readJsonLines) */
function* parseJsonLines<T>(file: string, buf: Buffer, from: number): Generator<T, number> {
  let pos = 0;
  let end = 0;
  /** a complete line that is not a record: the torn tail if nothing follows it */
  let bad: number | undefined;
  while (pos < buf.length) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0) {
      // the last line, without its newline: torn, unless a bad line came before it
      if (bad !== undefined) throw new CorruptFileError(file, from + bad);
      break;
    }
    if (nl > pos) {
      if (bad !== undefined) throw new CorruptFileError(file, from + bad);
      let v: unknown;
      try {
        v = JSON.parse(buf.toString('utf8', pos, nl));
      } catch {
        v = undefined;
      }
      if (typeof v === 'object' && v !== null) yield v as T;
      else bad = pos;
    }
    pos = nl + 1;
    if (bad === undefined) end = pos;
  }
  return from + end;
}

/** What a torn tail cut off: reported by the log and the store when they open (or append). */
export interface TornTail {
  file: string;
  /** bytes kept: the end of the last complete record */
  kept: number;
  /** bytes cut off */
  dropped: number;
}

export const warnTornTail = (t: TornTail): void =>
  process.emitWarning(`${t.file}: cut a torn tail of ${t.dropped} bytes at byte ${t.kept} (a write a crash interrupted)`, 'TornTailWarning');

/**
 * Cut a torn tail: the file back to `kept` bytes (the end of its last complete record), synced, so
 * the cut is durable before anything is appended after it. Returns what was cut, for the caller to
 * report; nothing when nothing lies past `kept`, or the file is gone or no longer the one read (`ino`).
 */
export function cutTornTailSync(file: string, kept: number, ino?: number): TornTail | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r+');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if ((ino !== undefined && st.ino !== ino) || st.size <= kept) return undefined;
    ftruncateSync(fd, kept);
    fdatasyncSync(fd);
    return { file, kept, dropped: st.size - kept };
  } finally {
    closeSync(fd);
  }
}

/**
 * Append `buf` to a file (created if missing) as one O_APPEND write; returns the file's inode and
 * its size just after the write. When the size is the size before plus `buf.length`, no other
 * process appended meanwhile and the write ends the file.
 */
export function appendSync(file: string, buf: Buffer): { ino: number; size: number } {
  const fd = openSync(file, 'a');
  try {
    writeAllSync(fd, buf);
    const st = fstatSync(fd);
    return { ino: st.ino, size: st.size };
  } finally {
    closeSync(fd);
  }
}

/**
 * Background fdatasync of append-only files (the log's segments, the store's tables): a writer
 * marks a file dirty after it appends; at most `intervalMs` later every dirty file is synced off
 * the event loop, then the directories files were created in. One round runs at a time, so under a
 * slow disk the window is the interval plus the round in flight. `flush()` resolves once
 * everything marked before it is durable (close; the log before it saves committed offsets).
 */
export interface FileSyncer {
  /** `created`: the append created the file, so its directory entry is synced too */
  dirty(file: string, created?: boolean): void;
  /** sync a directory in the next round (a rename in it) */
  dirtyDir(dir: string): void;
  flush(): Promise<void>;
}

export function createFileSyncer(o: { intervalMs: number; onError?: (err: unknown, file: string) => void }): FileSyncer {
  const files = new Set<string>();
  const dirs = new Set<string>();
  const onError = o.onError ?? ((err: unknown, file: string) => process.emitWarning(`fsync of ${file} failed: ${String(err)}`, 'FsyncWarning'));
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** rounds run one after another */
  let chain: Promise<void> = Promise.resolve();
  /** a round queued on the chain that has not started: it takes whatever is dirty when it starts */
  let queued: Promise<void> | undefined;

  async function syncFile(file: string): Promise<void> {
    const fh = await open(file, 'r');
    try {
      await fh.datasync();
    } finally {
      await fh.close();
    }
  }

  async function oneRound(): Promise<void> {
    queued = undefined;
    const fs = [...files];
    const ds = [...dirs];
    files.clear();
    dirs.clear();
    let failed: unknown;
    for (const [list, sync] of [
      [fs, syncFile],
      [ds, syncDir],
    ] as const) {
      for (const f of list) {
        try {
          await sync(f);
        } catch (err) {
          // a segment dropped or a table compacted since it was marked: nothing left to sync
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
          onError(err, f);
          failed ??= err;
        }
      }
    }
    if (failed !== undefined) throw failed;
  }

  function round(): Promise<void> {
    if (queued) return queued;
    const next = chain.then(oneRound);
    queued = next;
    chain = next.catch(() => undefined);
    return next;
  }

  function schedule(): void {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      // errors were reported file by file
      round().catch(() => undefined);
    }, o.intervalMs);
    timer.unref();
  }

  return {
    dirty(file, created = false) {
      files.add(file);
      if (created) dirs.add(dirname(file));
      schedule();
    },
    dirtyDir(dir) {
      dirs.add(dir);
      schedule();
    },
    flush() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      return round();
    },
  };
}
