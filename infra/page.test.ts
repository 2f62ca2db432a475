import { describe, expect, it } from 'vitest';
import { compareKeys, keysetPage } from './page.ts';

interface Item {
  id: string;
  score: number;
}
const key = (i: Item) => [-i.score, i.id];
const items = (n: number): Item[] => Array.from({ length: n }, (_, i) => ({ id: `w${String(i).padStart(3, '0')}`, score: (i * 37) % 101 }));

function all(list: Item[], limit: number): Item[] {
  const out: Item[] = [];
  let after: readonly (string | number)[] | undefined;
  for (;;) {
    const p = keysetPage(list, key, { limit, after });
    out.push(...p.items);
    if (!p.next) return out;
    after = p.next;
  }
}

describe('keyset pages', () => {
  it('pages through every item once, in order, whatever the page size; ranks continue across pages', () => {
    const list = items(149);
    const sorted = [...list].sort((a, b) => compareKeys(key(a), key(b)));
    for (const limit of [1, 7, 100, 149, 500]) expect(all(list, limit)).toEqual(sorted);
    const second = keysetPage(list, key, { limit: 100, after: keysetPage(list, key, { limit: 100 }).next ?? undefined });
    expect(second.firstRank).toBe(101);
    expect(second.items).toHaveLength(49);
    expect(second.next).toBeNull();
  });

  it('is stable under updates: items entering or leaving before the cursor neither repeat nor skip the items after it (an offset would)', () => {
    const list = items(60);
    const first = keysetPage(list, key, { limit: 20 });
    const sorted = [...list].sort((a, b) => compareKeys(key(a), key(b)));
    // between the calls: five new items rank at the top, three of the first page leave
    const changed = [...list.filter((i) => !first.items.slice(0, 3).includes(i)), ...Array.from({ length: 5 }, (_, n) => ({ id: `new${n}`, score: 1000 + n }))];
    const second = keysetPage(changed, key, { limit: 20, after: first.next ?? undefined });
    expect(second.items).toEqual(sorted.slice(20, 40));
    // an item after the cursor that left is not waited for; one that entered after it is seen
    const later = [...changed.filter((i) => i !== sorted[20]), { id: 'late', score: -1 }];
    const rest = [];
    for (let after = first.next ?? undefined; ; ) {
      const p = keysetPage(later, key, { limit: 20, after });
      rest.push(...p.items);
      if (!p.next) break;
      after = p.next;
    }
    expect(rest).toEqual([...sorted.slice(21), { id: 'late', score: -1 }]);
  });

  it('orders numbers as numbers and strings as strings, a shorter key first', () => {
    expect(compareKeys([-10, 'a'], [-9, 'a'])).toBeLessThan(0);
    expect(compareKeys([1, 'b'], [1, 'a'])).toBeGreaterThan(0);
    expect(compareKeys([1], [1, 'a'])).toBeLessThan(0);
    expect(compareKeys([2, 'x'], [2, 'x'])).toBe(0);
  });
});
