/**
 * Full-text search for the local backend: one inverted index per schema
 * search index, ranking results by relevance as Convex does (instead of
 * convex-test's scan that keeps any document where any query term starts any
 * word, in insertion order).
 *
 * Rules chosen (after Convex's "Full Text Search" docs, which run Tantivy):
 *
 * - Tokens: the text is split on every character that is not a Unicode letter
 *   or digit and each piece is lower-cased (Tantivy's SimpleTokenizer +
 *   LowerCaser). The search text and the query are tokenised alike.
 * - Matching: every query term but the last matches whole words only; the last
 *   term matches any word it is a prefix of (itself included). A document
 *   matches when at least one term matches (OR, as Convex). No fuzzy matching.
 *   An empty query (no tokens) matches nothing.
 * - Filters: `.eq(field, value)` filter expressions keep documents whose field
 *   equals the value (convex's compareValues); they apply before the limit.
 * - Score: first the number of distinct query terms a document matches (so a
 *   document matching every term ranks above any matching fewer), then BM25
 *   (k1 = 1.2, b = 0.75, idf = ln(1 + (N - n + 0.5) / (n + 0.5)) as Tantivy,
 *   term frequency capped at 15) summed over the terms, the last term counting
 *   its best-scoring expansion; ties go to the newer document (_creationTime
 *   desc, then _id desc). N, n and the average length are those of the
 *   committed documents; a transaction's own pending documents are scored
 *   against those statistics.
 * - Limit: a search query returns at most {@link SEARCH_RESULT_LIMIT} results
 *   (`.collect()` included), as Convex. Each page of a paginated search reads
 *   at most that many after its cursor.
 *
 * Storage: a document gets an integer slot; a posting list (term -> array of
 * `slot * 16 + min(tf, 15)`) per term, a sorted vocabulary for prefix
 * expansion, a length per slot. A commit moves only the postings of the terms
 * of a changed search field (a patch that leaves the text alone touches
 * nothing but the slot's document). A search reads the postings of its terms
 * and the documents they name, not the table.
 */
export const SEARCH_RESULT_LIMIT = 1024;

const K1 = 1.2;
const B = 0.75;
const TF_CAP = 15;
/** A posting is `slot << TF_SHIFT | tf`: slot = entry >>> TF_SHIFT, tf = entry & TF_MASK (slots stay far below 2^27). */
const TF_SHIFT = 4;
const TF_MASK = (1 << TF_SHIFT) - 1;

/*
 * No `Math.*` in the loops below that run per posting, per term of a document
 * or per pending document: under convex-test (and so in the backend's
 * functions) `Math` is a global read through an AsyncLocalStorage getter
 * (its per-function stubs), which costs more than the arithmetic itself.
 * Shifts, masks and comparisons do the same work locally, and the one
 * function needed (log) is read from `Math` once, when this module loads.
 */

/** Math.log taken once at load: idf runs per term and per prefix expansion. */
const ln = Math.log;

/** The term frequency a posting keeps (capped at TF_CAP). */
function cappedTf(tf: number): number {
  return tf < TF_CAP ? tf : TF_CAP;
}

type Doc = Record<string, any> & { _id: string; _creationTime: number };

/** Lower-cased runs of letters and digits. */
export function tokenize(text: unknown): string[] {
  if (typeof text !== "string") return [];
  const pieces = text.match(/[\p{L}\p{N}]+/gu);
  if (!pieces) return [];
  return pieces.map((p) => p.toLowerCase());
}

/** The query's whole terms (deduplicated) and its last, prefix, term. */
export type SearchTerms = { whole: string[]; prefix: string | null };

export function parseSearchQuery(query: string): SearchTerms {
  const tokens = tokenize(query);
  if (tokens.length === 0) return { whole: [], prefix: null };
  const prefix = tokens[tokens.length - 1];
  // A whole term equal to the prefix term adds nothing the prefix does not match.
  const whole = [...new Set(tokens.slice(0, -1))].filter((t) => t !== prefix);
  return { whole, prefix };
}

/** Rank key: terms matched, score, _creationTime, _id; larger ranks first. */
export type RankKey = [number, number, number, string];

/** Negative when `a` ranks before `b`. */
export function compareRank(a: RankKey, b: RankKey): number {
  if (a[0] !== b[0]) return b[0] - a[0];
  if (a[1] !== b[1]) return b[1] > a[1] ? 1 : -1;
  if (a[2] !== b[2]) return b[2] > a[2] ? 1 : -1;
  return a[3] === b[3] ? 0 : b[3] > a[3] ? 1 : -1;
}

export type Ranked = { doc: Doc; key: RankKey };

function termFrequencies(tokens: string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}

/** BM25 of one term in one document: the one formula committed and pending documents share. */
function bm25Score(idf: number, tf: number, length: number, averageLength: number): number {
  return (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / averageLength));
}

export class InvertedIndex {
  private slotOf = new Map<string, number>();
  private docs: (Doc | null)[] = [];
  private lengths: number[] = [];
  private free: number[] = [];
  private postings = new Map<string, number[]>();
  /** Every term with postings, sorted (UTF-16 order, enough for prefix ranges). */
  private vocab: string[] = [];
  private totalLength = 0;
  private matchedBySlot = new Uint16Array(0);
  private scoreBySlot = new Float64Array(0);
  private prefixBySlot = new Float64Array(0);

  constructor(private readonly text: (doc: Doc) => unknown) {}

  get size(): number {
    return this.slotOf.size;
  }

  /** Builds from committed documents (one pass; the vocabulary sorted once). */
  load(docs: Iterable<Doc>): void {
    for (const doc of docs) this.insertPostings(doc, false);
    this.vocab = [...this.postings.keys()].sort();
  }

  /** Applies one committed write (old and new version of a document). */
  apply(old: Doc | undefined, doc: Doc | null): void {
    if (old && doc) {
      const slot = this.slotOf.get(old._id);
      if (slot !== undefined && this.text(old) === this.text(doc)) {
        this.docs[slot] = doc;
        return;
      }
    }
    if (old) this.removePostings(old);
    if (doc) this.insertPostings(doc, true);
  }

  private insertPostings(doc: Doc, keepVocab: boolean): void {
    let slot = this.free.pop();
    if (slot === undefined) slot = this.docs.length;
    this.slotOf.set(doc._id, slot);
    this.docs[slot] = doc;
    const tokens = tokenize(this.text(doc));
    this.lengths[slot] = tokens.length;
    this.totalLength += tokens.length;
    for (const [term, tf] of termFrequencies(tokens)) {
      let list = this.postings.get(term);
      if (!list) {
        this.postings.set(term, (list = []));
        if (keepVocab) this.vocab.splice(this.vocabPosition(term), 0, term);
      }
      list.push((slot << TF_SHIFT) | cappedTf(tf));
    }
  }

  private removePostings(old: Doc): void {
    const slot = this.slotOf.get(old._id);
    if (slot === undefined) return;
    const doc = this.docs[slot]!;
    const tokens = tokenize(this.text(doc));
    for (const [term, tf] of termFrequencies(tokens)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const i = list.indexOf((slot << TF_SHIFT) | cappedTf(tf));
      if (i < 0) continue;
      list[i] = list[list.length - 1];
      list.pop();
      if (list.length === 0) {
        this.postings.delete(term);
        const at = this.vocabPosition(term);
        if (this.vocab[at] === term) this.vocab.splice(at, 1);
      }
    }
    this.totalLength -= this.lengths[slot];
    this.slotOf.delete(old._id);
    this.docs[slot] = null;
    this.free.push(slot);
  }

  /** First vocabulary position whose term is >= `term`. */
  private vocabPosition(term: string): number {
    let lo = 0;
    let hi = this.vocab.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.vocab[mid] < term) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The vocabulary terms starting with `prefix`. */
  expand(prefix: string): string[] {
    const out: string[] = [];
    for (let i = this.vocabPosition(prefix); i < this.vocab.length && this.vocab[i].startsWith(prefix); i++) {
      out.push(this.vocab[i]);
    }
    return out;
  }

  private idf(term: string): number {
    const n = this.postings.get(term)?.length ?? 0;
    const N = this.size;
    return ln(1 + (N - n + 0.5) / (n + 0.5));
  }

  /** Average words per document (1 for an empty index). */
  private averageLength(): number {
    return this.size > 0 ? this.totalLength / this.size || 1 : 1;
  }

  private bm25(idf: number, tf: number, length: number): number {
    return bm25Score(idf, tf, length, this.averageLength());
  }

  /**
   * The documents matching `terms` and `keep`, ranked, strictly after `after`
   * when given, at most `limit` of them. `pending` (the transaction's writes to
   * the table, by id) replaces committed documents with the same id.
   */
  search(
    terms: SearchTerms,
    keep: (doc: Doc) => boolean,
    pending: ReadonlyMap<string, Doc | null>,
    after: RankKey | null,
    limit: number,
  ): Ranked[] {
    if (terms.prefix === null || limit <= 0) return [];
    const avg = this.averageLength();
    // Per slot: terms matched and score (reused arrays, reset after use).
    if (this.matchedBySlot.length < this.docs.length) {
      this.matchedBySlot = new Uint16Array(Math.max(Math.ceil(this.docs.length * 1.25), 1024));
      this.scoreBySlot = new Float64Array(this.matchedBySlot.length);
      this.prefixBySlot = new Float64Array(this.matchedBySlot.length);
    }
    const matched = this.matchedBySlot;
    const score = this.scoreBySlot;
    const prefixScore = this.prefixBySlot;
    const touched: number[] = [];
    const lengths = this.lengths;
    const bm25 = (idf: number, tf: number, length: number) => bm25Score(idf, tf, length, avg);
    for (const term of terms.whole) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = this.idf(term);
      for (const entry of list) {
        const slot = entry >>> TF_SHIFT;
        if (matched[slot] === 0) touched.push(slot);
        matched[slot]++;
        score[slot] += bm25(idf, entry & TF_MASK, lengths[slot]);
      }
    }
    for (const term of this.expand(terms.prefix)) {
      const list = this.postings.get(term)!;
      const idf = this.idf(term);
      for (const entry of list) {
        const slot = entry >>> TF_SHIFT;
        const s = bm25(idf, entry & TF_MASK, lengths[slot]);
        if (prefixScore[slot] === 0) {
          if (matched[slot] === 0) touched.push(slot);
          prefixScore[slot] = s;
        } else if (s > prefixScore[slot]) prefixScore[slot] = s;
      }
    }
    // Candidates with their (terms matched, score) as one number for a quick top-k.
    const slots: number[] = [];
    const coarse: number[] = [];
    const ms: number[] = [];
    const ss: number[] = [];
    // A candidate whose coarse value is above the cursor's ranks before it.
    const afterCoarse = after ? after[0] * 1e6 + after[1] : Infinity;
    for (const slot of touched) {
      let m = matched[slot];
      let s = score[slot];
      if (prefixScore[slot] > 0) {
        m++;
        s += prefixScore[slot];
      }
      matched[slot] = 0;
      score[slot] = 0;
      prefixScore[slot] = 0;
      const c = m * 1e6 + s;
      if (c > afterCoarse) continue; // ranks before the cursor
      const doc = this.docs[slot]!;
      // Equal coarse values: the exact rank key decides (before the top-k, which must only see rows after the cursor).
      if (after && c === afterCoarse && compareRank([m, s, doc._creationTime, doc._id], after) <= 0) continue;
      if (pending.has(doc._id) || !keep(doc)) continue;
      slots.push(slot);
      coarse.push(c);
      ms.push(m);
      ss.push(s);
    }
    const results: Ranked[] = [];
    const consider = (doc: Doc, m: number, s: number) => {
      const key: RankKey = [m, s, doc._creationTime, doc._id];
      if (after && compareRank(key, after) <= 0) return;
      results.push({ doc, key });
    };
    // m * 1e6 + s never decreases with (m, s), so everything ranking in the top
    // `limit` has a coarse value at least the limit-th largest.
    let threshold = -Infinity;
    if (slots.length > limit) {
      const copy = Float64Array.from(coarse);
      copy.sort();
      threshold = copy[copy.length - limit];
    }
    for (let i = 0; i < slots.length; i++) {
      if (coarse[i] < threshold) continue;
      consider(this.docs[slots[i]]!, ms[i], ss[i]);
    }
    for (const doc of pending.values()) {
      if (doc === null || !keep(doc)) continue;
      const [m, s] = this.scoreText(terms, this.text(doc));
      if (m > 0) consider(doc, m, s);
    }
    return topRanked(results, limit);
  }

  /** Terms matched and score of a text not in the index (a pending document). */
  private scoreText(terms: SearchTerms, text: unknown): [number, number] {
    const tokens = tokenize(text);
    const tf = termFrequencies(tokens);
    let m = 0;
    let s = 0;
    for (const term of terms.whole) {
      const f = tf.get(term);
      if (f === undefined) continue;
      m++;
      s += this.bm25(this.idf(term), cappedTf(f), tokens.length);
    }
    let best = -1;
    for (const [term, f] of tf) {
      if (!term.startsWith(terms.prefix!)) continue;
      const termScore = this.bm25(this.idf(term), cappedTf(f), tokens.length);
      if (termScore > best) best = termScore;
    }
    if (best >= 0) {
      m++;
      s += best;
    }
    return [m, s];
  }
}

/** The `limit` best of `results`, ranked (a full sort only of what is kept). */
function topRanked(results: Ranked[], limit: number): Ranked[] {
  const cmp = (a: Ranked, b: Ranked) => compareRank(a.key, b.key);
  if (results.length > limit * 4) {
    // Quickselect the best `limit` first, then sort only those.
    select(results, limit, cmp);
    results.length = limit;
  }
  results.sort(cmp);
  return results.length > limit ? results.slice(0, limit) : results;
}

/** Reorders `xs` so its first `k` elements are the k smallest under `cmp` (quickselect). */
function select<T>(xs: T[], k: number, cmp: (a: T, b: T) => number): void {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const pivot = xs[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (cmp(xs[i], pivot) < 0) i++;
      while (cmp(xs[j], pivot) > 0) j--;
      if (i <= j) {
        const t = xs[i];
        xs[i] = xs[j];
        xs[j] = t;
        i++;
        j--;
      }
    }
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}
