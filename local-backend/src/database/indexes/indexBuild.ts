/**
 * Building an index in one go (issue 18 item 3: the first query after a start
 * builds the indexes it reads over a whole table, 150,000 mics at 800,000
 * documents).
 *
 * Sorting the documents with a comparator that walks their index keys field by
 * field (convex's compareValues order) cost about a second per index: some
 * three million comparator calls, each reading several fields. Here each field
 * is ranked once instead: its distinct values are sorted (strings and numbers
 * by the engine's own sort, no comparator call, then checked pair by pair
 * against {@link compareKeys}, so a string the two orders disagree on falls
 * back to sorting with compareKeys), every document gets its value's rank, and
 * the documents are ordered by their ranks with stable counting sorts from the
 * last field to the first (LSD radix). The order is exactly the comparator's;
 * a field holding NaN or -0 (whose distinct values a Map would merge) uses the
 * comparator sort throughout.
 */
import { compareKeys } from "./indexKeys.js";

/** The items ordered by their keys (`getters`, compared field by field with compareKeys); ties keep input order. */
export function sortByKeys<T>(items: readonly T[], getters: readonly ((item: T) => unknown)[]): T[] {
  const n = items.length;
  if (n < 2 || getters.length === 0) return items.slice();
  const ranks: Uint32Array[] = [];
  const cards: number[] = [];
  for (const get of getters) {
    const ranked = rankField(items, get);
    if (ranked === null) return comparatorSort(items, getters);
    ranks.push(ranked.rank);
    cards.push(ranked.distinct);
    // Every value distinct: the fields after this one never decide the order.
    if (ranked.distinct === n) break;
  }
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  for (let f = ranks.length - 1; f >= 0; f--) {
    const rank = ranks[f];
    const counts = new Uint32Array(cards[f] + 1);
    for (let i = 0; i < n; i++) counts[rank[i] + 1]++;
    for (let r = 1; r < counts.length; r++) counts[r] += counts[r - 1];
    for (let i = 0; i < n; i++) {
      const item = order[i];
      next[counts[rank[item]]++] = item;
    }
    [order, next] = [next, order];
  }
  const sorted = new Array<T>(n);
  for (let i = 0; i < n; i++) sorted[i] = items[order[i]];
  return sorted;
}

/** The sort this module replaces: every item's keys, compared field by field. */
function comparatorSort<T>(items: readonly T[], getters: readonly ((item: T) => unknown)[]): T[] {
  const keyed = items.map((item) => ({ item, key: getters.map((get) => get(item)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      const c = compareKeys(a.key[i], b.key[i]);
      if (c !== 0) return c;
    }
    return 0;
  });
  return keyed.map((k) => k.item);
}

type Ranked = { rank: Uint32Array; distinct: number };

/**
 * Each item's rank among the field's distinct values (equal values, as
 * compareKeys sees them, share a rank), and how many ranks there are; null
 * when the field holds NaN or -0.
 */
function rankField<T>(items: readonly T[], get: (item: T) => unknown): Ranked | null {
  const n = items.length;
  const values = new Array<unknown>(n);
  let strings = 0;
  let numbers = 0;
  let hasUndefined = false;
  let hasNull = false;
  let other = false;
  for (let i = 0; i < n; i++) {
    const value = get(items[i]);
    values[i] = value;
    if (typeof value === "string") strings++;
    else if (typeof value === "number") {
      if (value !== value || (value === 0 && 1 / value < 0)) return null;
      numbers++;
    } else if (value === undefined) hasUndefined = true;
    else if (value === null) hasNull = true;
    else other = true;
  }
  const simple = !other && (strings === 0 || numbers === 0);
  return (simple && rankSimple(values, strings > 0, hasUndefined, hasNull)) || rankAny(values);
}

/**
 * Ranks of a field whose values are strings or numbers (not both), besides
 * undefined and null (which sort first, in that order). Numbers: sorted as a
 * Float64Array, each item's rank found by binary search. Strings: the distinct
 * values found with a Map (one lookup per item, no string comparison), sorted
 * by the engine, each item given its value's place. Null if the engine's
 * string order disagrees with compareKeys (surrogate pairs).
 */
function rankSimple(values: unknown[], strings: boolean, hasUndefined: boolean, hasNull: boolean): Ranked | null {
  const nullRank = hasUndefined ? 1 : 0;
  const base = nullRank + (hasNull ? 1 : 0);
  const ranked = strings ? rankStrings(values, base) : rankNumbers(values, base);
  if (ranked === null) return null;
  const { rank } = ranked;
  if (base > 0) {
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value === undefined) rank[i] = 0;
      else if (value === null) rank[i] = nullRank;
    }
  }
  return ranked;
}

/** Ranks from `base` of the strings among `values` (see rankSimple); other values' ranks are left 0. */
function rankStrings(values: unknown[], base: number): Ranked | null {
  const n = values.length;
  const slotOf = new Map<string, number>();
  const distinct: string[] = [];
  const slot = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (typeof value !== "string") continue;
    let s = slotOf.get(value);
    if (s === undefined) {
      s = distinct.length;
      slotOf.set(value, s);
      distinct.push(value);
    }
    slot[i] = s;
  }
  // Sorted in place: a value's slot is found again through slotOf.
  const sorted = distinct.sort();
  const m = sorted.length;
  const rankOfSlot = new Uint32Array(m);
  for (let i = 0; i < m; i++) {
    if (i > 0 && compareKeys(sorted[i - 1], sorted[i]) >= 0) return null;
    rankOfSlot[slotOf.get(sorted[i])!] = base + i;
  }
  const rank = new Uint32Array(n);
  for (let i = 0; i < n; i++) if (typeof values[i] === "string") rank[i] = rankOfSlot[slot[i]];
  return { rank, distinct: base + m };
}

/** Ranks from `base` of the numbers among `values` (see rankSimple); other values' ranks are left 0. */
function rankNumbers(values: unknown[], base: number): Ranked {
  const n = values.length;
  const present = new Float64Array(n);
  let p = 0;
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (typeof value === "number") present[p++] = value;
  }
  const sorted = present.subarray(0, p).sort();
  let m = 0;
  for (let i = 0; i < p; i++) if (m === 0 || sorted[i] !== sorted[m - 1]) sorted[m++] = sorted[i];
  const rank = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (typeof value !== "number") continue;
    let lo = 0;
    let hi = m - 1; // the value is present: sorted[hi] >= value
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < value) lo = mid + 1;
      else hi = mid;
    }
    rank[i] = base + lo;
  }
  return { rank, distinct: base + m };
}

/** Ranks of any field: its distinct values (by identity) sorted with compareKeys, equal ones sharing a rank. */
function rankAny(values: unknown[]): Ranked {
  const n = values.length;
  const slotOf = new Map<unknown, number>();
  const distinct: unknown[] = [];
  const slot = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let s = slotOf.get(values[i]);
    if (s === undefined) {
      s = distinct.length;
      slotOf.set(values[i], s);
      distinct.push(values[i]);
    }
    slot[i] = s;
  }
  const bySlot = Array.from(distinct.keys()).sort((a, b) => compareKeys(distinct[a], distinct[b]));
  const rankOfSlot = new Uint32Array(distinct.length);
  let rank = 0;
  for (let i = 1; i < bySlot.length; i++) {
    if (compareKeys(distinct[bySlot[i - 1]], distinct[bySlot[i]]) !== 0) rank++;
    rankOfSlot[bySlot[i]] = rank;
  }
  const ranks = new Uint32Array(n);
  for (let i = 0; i < n; i++) ranks[i] = rankOfSlot[slot[i]];
  return { rank: ranks, distinct: distinct.length === 0 ? 0 : rank + 1 };
}
