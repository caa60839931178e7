/**
 * A sorted list kept as a list of sorted chunks (the layout of Python's
 * `sortedcontainers`): finding a position is two binary searches, an insert or
 * a removal moves at most one chunk's elements (plus, rarely, the chunk list on
 * a split or when a chunk empties). Positions are (chunk, index) pairs, valid
 * until the next write.
 */
export type Pos = { c: number; i: number };

/** Default chunk size after a bulk build; a chunk splits at twice this. */
export const DEFAULT_CHUNK_LOAD = 512;

export class ChunkedSortedList<T> {
  private chunks: T[][] = [];
  size = 0;

  constructor(
    private readonly cmp: (a: T, b: T) => number,
    private readonly load = DEFAULT_CHUNK_LOAD,
  ) {}

  /** Replaces the contents with `items`, which must already be sorted by `cmp`. */
  loadSorted(items: T[]): void {
    this.chunks = [];
    for (let start = 0; start < items.length; start += this.load)
      this.chunks.push(items.slice(start, start + this.load));
    this.size = items.length;
  }

  get end(): Pos {
    return { c: this.chunks.length, i: 0 };
  }

  /**
   * The first position whose item is not `before`; `before` must hold for a
   * (possibly empty) prefix of the list and for nothing after it.
   */
  partition(before: (item: T) => boolean): Pos {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = chunks[mid];
      if (before(chunk[chunk.length - 1])) lo = mid + 1;
      else hi = mid;
    }
    if (lo === chunks.length) return { c: lo, i: 0 };
    const chunk = chunks[lo];
    let a = 0;
    let b = chunk.length - 1; // the last item is known not to be `before`
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (before(chunk[mid])) a = mid + 1;
      else b = mid;
    }
    return { c: lo, i: a };
  }

  private find(item: T): Pos | null {
    const pos = this.partition((x) => this.cmp(x, item) < 0);
    if (pos.c === this.chunks.length) return null;
    return this.cmp(this.chunks[pos.c][pos.i], item) === 0 ? pos : null;
  }

  insert(item: T): void {
    const chunks = this.chunks;
    this.size++;
    if (chunks.length === 0) {
      chunks.push([item]);
      return;
    }
    let { c, i } = this.partition((x) => this.cmp(x, item) < 0);
    if (c === chunks.length) {
      c--;
      i = chunks[c].length;
    }
    const chunk = chunks[c];
    chunk.splice(i, 0, item);
    if (chunk.length > 2 * this.load) chunks.splice(c + 1, 0, chunk.splice(this.load));
  }

  /** Removes the item that compares equal to `item`; false if there is none. */
  remove(item: T): boolean {
    const pos = this.find(item);
    if (!pos) return false;
    const chunk = this.chunks[pos.c];
    chunk.splice(pos.i, 1);
    if (chunk.length === 0) this.chunks.splice(pos.c, 1);
    this.size--;
    return true;
  }

  /** Puts `next` in the place of the item comparing equal to it (same sort key). */
  replace(next: T): boolean {
    const pos = this.find(next);
    if (!pos) return false;
    this.chunks[pos.c][pos.i] = next;
    return true;
  }

  static comparePos(a: Pos, b: Pos): number {
    return a.c - b.c || a.i - b.i;
  }

  /** Items from `from` (inclusive) up to `to` (exclusive), in order. */
  *forward(from: Pos, to: Pos): Generator<T> {
    const chunks = this.chunks;
    let { c, i } = from;
    while (c < to.c || (c === to.c && i < to.i)) {
      const chunk = chunks[c];
      if (i >= chunk.length) {
        c++;
        i = 0;
        continue;
      }
      yield chunk[i++];
    }
  }

  /** Items before `from` (exclusive) down to `to` (inclusive), in reverse order. */
  *backward(from: Pos, to: Pos): Generator<T> {
    const chunks = this.chunks;
    let { c, i } = from;
    for (;;) {
      // Step back one item.
      if (i > 0) i--;
      else {
        if (c === 0) return;
        c--;
        i = chunks[c].length - 1;
      }
      if (c < to.c || (c === to.c && i < to.i)) return;
      yield chunks[c][i];
    }
  }

  *all(): Generator<T> {
    for (const chunk of this.chunks) yield* chunk;
  }
}
