import type { Row, Store, TableName } from './types.ts';

/**
 * The latest rows of a table (those whose key starts with `prefix`, all when omitted) in keyset
 * pages of at most `pageSize`, by key: a scan of a whole table that never holds more than a page.
 * Over the bridge of `intel start` (infra/bridge/) a list is one message, decoded on the reading
 * thread in one go; a page bounds what the API thread decodes at a time.
 */
export async function* pagesOf(store: Pick<Store, 'list'>, table: TableName, opts: { prefix?: string; pageSize: number }): AsyncGenerator<Row[]> {
  let after: string | undefined;
  for (;;) {
    const rows = await store.list(table, { ...(opts.prefix !== undefined ? { prefix: opts.prefix } : {}), ...(after !== undefined ? { after } : {}), limit: opts.pageSize });
    if (rows.length > 0) yield rows;
    const last = rows[rows.length - 1];
    if (rows.length < opts.pageSize || !last) return;
    after = last.key;
  }
}
