/**
 * Keyset pages of a list (cursors on every list). A list is ordered by a sort key, a
 * tuple ending in the item's identity (a token or wallet address), so no two items share one; a
 * page is the `limit` items after a key. The cursor a page hands out is the key of its last item,
 * not an offset: items that enter, leave or move elsewhere in the list between two calls do not
 * shift the next page (an item whose own key moved across the cursor is seen twice or not at all,
 * as in any keyset pagination over live data).
 */

/** numbers and strings compared in order; a descending number is stored negated */
export type SortKey = readonly (number | string)[];

export interface Page {
  limit: number;
  /** the key of the last item of the previous page */
  after?: SortKey;
}

export function compareKeys(a: SortKey, b: SortKey): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/**
 * The page of `items` (in any order) after `page.after` by `key`: the items, the 1-based rank of
 * the first in the whole list, and the key to continue from (null on the last page).
 */
export function keysetPage<T>(items: readonly T[], key: (item: T) => SortKey, page: Page): { items: T[]; firstRank: number; next: SortKey | null } {
  const keyed = items.map((item) => ({ item, k: key(item) })).sort((a, b) => compareKeys(a.k, b.k));
  let from = 0;
  if (page.after) {
    const after = page.after;
    // the first item whose key is past the cursor (binary search: the list is sorted)
    let lo = 0;
    let hi = keyed.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareKeys((keyed[mid] as { k: SortKey }).k, after) <= 0) lo = mid + 1;
      else hi = mid;
    }
    from = lo;
  }
  const slice = keyed.slice(from, from + page.limit);
  const last = slice[slice.length - 1];
  return { items: slice.map((x) => x.item), firstRank: from + 1, next: last && from + page.limit < keyed.length ? last.k : null };
}
