import { existsSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import type { Row, TableName, UsageRecord } from './types.ts';
import { Tables } from './types.ts';

/**
 * The upgrade from the JSON-lines store (a data dir's `store/`: one `<table>.jsonl` per table,
 * `usage.jsonl`, a file per checkpoint) to LMDB: on the first open its rows are written into
 * the new store in one write transaction, which also marks the import done, so processes opening
 * at once import it once (the others wait for the transaction, then see the mark). The old
 * directory is then renamed `store.jsonl-imported`, kept until the operator removes it.
 */
export interface ImportSink {
  /** called inside the import's write transaction */
  upsert(table: TableName, rows: readonly Row[]): void;
  addUsage(records: readonly UsageRecord[]): void;
}

const MARK = 'jsonl-import';
export const IMPORTED_DIR = 'store.jsonl-imported';

export async function importJsonLines(dataDir: string, root: RootDatabase, sink: ImportSink): Promise<void> {
  const dir = join(dataDir, 'store');
  if (!existsSync(dir)) return;
  const meta = root.openDB<string, string>('#meta', { encoding: 'string' });
  root.transactionSync(() => {
    if (meta.get(MARK) !== undefined) return;
    for (const table of Object.values(Tables)) {
      if (table === Tables.checkpoints) sink.upsert(table, readCheckpoints(join(dir, table)));
      else sink.upsert(table, readJsonLines<Row>(join(dir, `${table}.jsonl`)));
    }
    sink.addUsage(readJsonLines<UsageRecord>(join(dir, 'usage.jsonl')));
    meta.putSync(MARK, new Date().toISOString());
  });
  try {
    renameSync(dir, join(dataDir, IMPORTED_DIR));
  } catch (err) {
    // another process opening at the same time renamed it first
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * The records of a JSON-lines file: a last line cut short or unparseable is the write a crash
 * interrupted and is left out; a bad line with records after it is damage, named by file and byte.
 */
export function readJsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const out: T[] = [];
  let bad: number | undefined;
  let pos = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; pos = nl + 1, nl = text.indexOf('\n', pos)) {
    if (nl === pos) continue;
    if (bad !== undefined) throw damaged(file, text, bad);
    try {
      out.push(JSON.parse(text.slice(pos, nl)) as T);
    } catch {
      bad = pos;
    }
  }
  return out;
}

function damaged(file: string, text: string, at: number): Error {
  const byte = Buffer.byteLength(text.slice(0, at));
  return new Error(`${file}: the line at byte ${byte} is not a JSON record and complete records follow it: the file is damaged; move it aside or cut the line out to import it`);
}

/** checkpoint files: a JSON line of the row without its body, then the body verbatim (older: the whole row as JSON) */
function readCheckpoints(dir: string): Row[] {
  if (!existsSync(dir)) return [];
  const rows: Row[] = [];
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.json')) continue;
    const text = readFileSync(join(dir, f), 'utf8');
    const nl = text.indexOf('\n');
    if (nl < 0) rows.push(JSON.parse(text) as Row);
    else rows.push({ ...(JSON.parse(text.slice(0, nl)) as Omit<Row, 'body'>), body: text.slice(nl + 1) });
  }
  return rows;
}
