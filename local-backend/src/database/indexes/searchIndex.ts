/**
 * Full-text search for the local backend: one inverted index per schema
 * search index, matching and ranking as Convex's search does (Convex runs
 * Tantivy through its own query path, crates/search in convex-backend):
 *
 * - Tokens: the text is split on every character that is not alphabetic or
 *   numeric (Unicode Alphabetic / Number, Rust's `char::is_alphanumeric`),
 *   pieces of {@link MAX_TEXT_TERM_LENGTH} UTF-8 bytes or more are dropped,
 *   and the rest lower-cased per character (Tantivy's SimpleTokenizer,
 *   RemoveLongFilter(32), LowerCaser). Documents and queries alike.
 * - Query: its first {@link MAX_QUERY_TERMS} tokens (the rest is ignored, as
 *   Convex ignores it). Each token matches the same word exactly; the last
 *   one also matches, as a prefix, the words it starts. A document matches
 *   when it holds any matched word (OR). No fuzzy matching. No tokens, no
 *   results.
 * - Words looked up: every query token present in the index, then the words
 *   the last token starts, in term order, until {@link MAX_UNIQUE_QUERY_TERMS}
 *   distinct words (Convex's TokenMatchAggregator): a short prefix only
 *   reaches the first few dozen words it starts.
 * - Score: the sum over the matched words in a document of Tantivy's BM25
 *   (k1 = 1.2, b = 0.75, idf = ln(1 + (N - n + 0.5) / (n + 0.5)), the
 *   document length quantised to Tantivy's 256 field-norm buckets, f32
 *   arithmetic), a word reached only through the prefix weighted 0.5. N, n
 *   and the average length count the transaction's own pending writes, as
 *   Convex applies them to its memory index before searching.
 * - Order: score descending, then newest `_creationTime` first, then `_id`.
 * - Candidates: the best {@link MAX_CANDIDATE_REVISIONS} after the filter
 *   fields' equalities; a cursor only filters that list (indexedSearch.ts).
 *
 * Storage: a document gets an integer slot; a posting list (term -> array of
 * `slot * 16 + min(tf, 15)`, a larger tf kept aside) per term, a sorted
 * vocabulary for prefix expansion, a length per slot. A commit moves only the
 * postings of the terms of a changed search field. A search reads the
 * postings of its words and the documents they name, not the table.
 */

import type { Doc } from "../convexTestTypes.js";

/** Most candidates a search yields; reading one more throws (crates/search/src/constants.rs). */
export const MAX_CANDIDATE_REVISIONS = 1024;
/** Query tokens used; later ones are ignored. */
export const MAX_QUERY_TERMS = 16;
/** Tokens of this many UTF-8 bytes or more are dropped from documents and queries. */
export const MAX_TEXT_TERM_LENGTH = 32;
/** Most `.eq` filter expressions in one search. */
export const MAX_FILTER_CONDITIONS = 8;
/** Most distinct words one search looks up (its tokens, then prefix expansions). */
export const MAX_UNIQUE_QUERY_TERMS = 64;
/** Weight of a word matched only as a prefix expansion of the last token. */
export const PREFIX_BOOST = 0.5;

export const SCANNED_TOO_MANY_MESSAGE =
  `Search query scanned too many documents (fetched ${MAX_CANDIDATE_REVISIONS}). ` +
  "Consider using a smaller limit, paginating the query, or using a filter field to limit the number of documents pulled from the search index.";

/*
 * No `Math.*` in the loops below that run per posting, per term of a document
 * or per pending document: under convex-test (and so in the backend's
 * functions) `Math` is a global read through an AsyncLocalStorage getter
 * (its per-function stubs), which costs more than the arithmetic itself.
 * The functions needed are read from `Math` once, when this module loads.
 */
const ln = Math.log;
const f32 = Math.fround;

const TF_SHIFT = 4;
const TF_MASK = (1 << TF_SHIFT) - 1;

// BM25 constants as Tantivy's f32 values.
const K1 = f32(1.2);
const B = f32(0.75);
const ONE_MINUS_B = f32(1 - B);
const ONE_PLUS_K1 = f32(1 + K1);

/** Tantivy's field-norm buckets (Lucene's SmallFloat byte4): id -> the length it stands for. */
const FIELD_NORMS: number[] = [];
for (let id = 0; id < 256; id++) {
  if (id < 24) FIELD_NORMS.push(id);
  else {
    const i = id - 24;
    const shift = (i >>> 3) - 1;
    FIELD_NORMS.push(24 + (shift < 0 ? i & 7 : ((i & 7) | 8) * 2 ** shift));
  }
}

/** The bucket of a document length: the largest id whose length is at most `length`. */
export function fieldNormId(length: number): number {
  if (length < 40) return length; // ids 0..39 stand for themselves
  let lo = 40;
  let hi = 255;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (FIELD_NORMS[mid] <= length) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function fieldNormLength(id: number): number {
  return FIELD_NORMS[id];
}

const TOKEN = /[\p{Alphabetic}\p{N}]+/gu;

/** UTF-8 length of `s`, stopping once it reaches `cap`. */
function utf8LengthAtLeast(s: string, cap: number): boolean {
  if (s.length >= cap) return true;
  if (s.length * 3 < cap) return false;
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (bytes >= cap) return true;
  }
  return false;
}

/** Tantivy's lower-casing: per character, so a final capital sigma becomes σ, not ς. */
function lower(piece: string): string {
  return piece.includes("Σ") ? piece.replaceAll("Σ", "σ").toLowerCase() : piece.toLowerCase();
}

/** The words of a text, as Convex's search tokenizer makes them. */
export function tokenize(text: unknown): string[] {
  if (typeof text !== "string") return [];
  const pieces = text.match(TOKEN);
  if (!pieces) return [];
  const out: string[] = [];
  for (const piece of pieces) if (!utf8LengthAtLeast(piece, MAX_TEXT_TERM_LENGTH)) out.push(lower(piece));
  return out;
}

/** A search query's words: each token matched exactly (distinct), the last one also as a prefix. */
export type SearchTerms = { exact: string[]; prefix: string | null };

export function parseSearchQuery(query: string): SearchTerms {
  const tokens = tokenize(query).slice(0, MAX_QUERY_TERMS);
  if (tokens.length === 0) return { exact: [], prefix: null };
  return { exact: [...new Set(tokens)], prefix: tokens[tokens.length - 1] };
}

/** Whether a document's text holds a word the query matches (its read set, for conflicts and re-runs). */
export function textOverlaps(terms: SearchTerms, text: unknown): boolean {
  if (terms.prefix === null) return true; // no text terms: the filter fields decide
  const exact = terms.exact;
  const prefix = terms.prefix;
  for (const token of tokenize(text)) {
    if (token.startsWith(prefix)) return true;
    for (let i = 0; i < exact.length; i++) if (exact[i] === token) return true;
  }
  return false;
}

/** Rank key: score, _creationTime, _id. */
export type RankKey = [number, number, string];

/** Negative when `a` ranks before `b`: higher score, then newer, then smaller id. */
export function compareRank(a: RankKey, b: RankKey): number {
  if (a[0] !== b[0]) return b[0] > a[0] ? 1 : -1;
  if (a[1] !== b[1]) return b[1] > a[1] ? 1 : -1;
  return a[2] === b[2] ? 0 : a[2] < b[2] ? -1 : 1;
}

export type Ranked = { doc: Doc; key: RankKey };

function termFrequencies(tokens: string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}

/** Tantivy's idf in f32. */
function idf(n: number, N: number): number {
  const x = f32(f32(f32(N - n) + 0.5) / f32(f32(n) + 0.5));
  return f32(ln(f32(1 + x)));
}

/** Per field-norm bucket, k1 * (1 - b + b * length / average), in f32 (Tantivy's tf cache). */
function tfCache(averageLength: number): Float64Array {
  const cache = new Float64Array(256);
  for (let id = 0; id < 256; id++) {
    cache[id] = f32(K1 * f32(ONE_MINUS_B + f32(f32(B * FIELD_NORMS[id]) / averageLength)));
  }
  return cache;
}

export class InvertedIndex {
  private slotOf = new Map<string, number>();
  private docs: (Doc | null)[] = [];
  private lengths: number[] = [];
  private free: number[] = [];
  private postings = new Map<string, number[]>();
  /** Term frequencies of TF_MASK or more, by `${slot} ${term}`. */
  private bigTf = new Map<string, number>();
  /** Every term with postings, sorted (UTF-16 order, enough for prefix ranges). */
  private vocab: string[] = [];
  private totalLength = 0;
  private scoreBySlot = new Float64Array(0);

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
      if (tf >= TF_MASK) this.bigTf.set(`${slot} ${term}`, tf);
      list.push((slot << TF_SHIFT) | (tf < TF_MASK ? tf : TF_MASK));
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
      if (tf >= TF_MASK) this.bigTf.delete(`${slot} ${term}`);
      const i = list.indexOf((slot << TF_SHIFT) | (tf < TF_MASK ? tf : TF_MASK));
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

  /**
   * The words a query looks up, with their weight (1, or PREFIX_BOOST for a
   * prefix expansion), given the document frequency of each word.
   */
  private lookups(terms: SearchTerms, df: (term: string) => number, pendingTerms: string[]): Map<string, number> {
    const chosen = new Map<string, number>();
    for (const term of terms.exact) if (df(term) > 0) chosen.set(term, 1);
    const prefix = terms.prefix;
    if (prefix === null) return chosen;
    // Committed and pending-only words starting with the prefix, merged in term order.
    let i = this.vocabPosition(prefix);
    let j = 0;
    while (chosen.size < MAX_UNIQUE_QUERY_TERMS) {
      const a = i < this.vocab.length && this.vocab[i].startsWith(prefix) ? this.vocab[i] : null;
      const b = j < pendingTerms.length ? pendingTerms[j] : null;
      if (a === null && b === null) break;
      let term: string;
      if (b === null || (a !== null && a < b)) {
        term = a!;
        i++;
      } else {
        term = b;
        j++;
        if (a === b) i++;
      }
      if (!chosen.has(term) && df(term) > 0) chosen.set(term, PREFIX_BOOST);
    }
    return chosen;
  }

  /**
   * The best {@link MAX_CANDIDATE_REVISIONS} documents matching `terms` and
   * `keep`, ranked. `pending` (the transaction's writes to the table, by id)
   * replaces committed documents with the same id and counts in the statistics.
   */
  search(terms: SearchTerms, keep: (doc: Doc) => boolean, pending: ReadonlyMap<string, Doc | null>): Ranked[] {
    if (terms.prefix === null) return [];
    let N = this.size;
    let total = this.totalLength;
    const lengths = this.lengths;
    // The pending writes' effect on the statistics, and their documents' words.
    const dfDelta = new Map<string, number>();
    const pendingSlots = new Set<number>();
    const pendingDocs: { doc: Doc; tf: Map<string, number>; length: number }[] = [];
    for (const [id, doc] of pending) {
      const slot = this.slotOf.get(id);
      if (slot !== undefined) {
        pendingSlots.add(slot);
        N--;
        total -= lengths[slot];
        for (const term of new Set(tokenize(this.text(this.docs[slot]!)))) {
          dfDelta.set(term, (dfDelta.get(term) ?? 0) - 1);
        }
      }
      if (doc !== null) {
        const tokens = tokenize(this.text(doc));
        N++;
        total += tokens.length;
        const tf = termFrequencies(tokens);
        for (const term of tf.keys()) dfDelta.set(term, (dfDelta.get(term) ?? 0) + 1);
        pendingDocs.push({ doc, tf, length: tokens.length });
      }
    }
    const df = (term: string) => (this.postings.get(term)?.length ?? 0) + (dfDelta.get(term) ?? 0);
    const prefix = terms.prefix;
    const pendingTerms = [...dfDelta.keys()].filter((t) => t.startsWith(prefix) && !this.postings.has(t)).sort();
    const chosen = this.lookups(terms, df, pendingTerms);
    if (chosen.size === 0) return [];

    const docCount = N > 0 ? N : 1;
    const cache = tfCache(f32(f32(total) / f32(docCount)));
    if (this.scoreBySlot.length < this.docs.length) {
      const grown = this.docs.length + (this.docs.length >>> 2) + 1024;
      this.scoreBySlot = new Float64Array(grown);
    }
    const score = this.scoreBySlot;
    const touched: number[] = [];
    const weights = new Map<string, number>();
    for (const [term, boost] of chosen) {
      const weight = f32(f32(idf(df(term), docCount) * ONE_PLUS_K1) * boost);
      weights.set(term, weight);
      const list = this.postings.get(term);
      if (!list) continue;
      for (const entry of list) {
        const slot = entry >>> TF_SHIFT;
        if (pendingSlots.size > 0 && pendingSlots.has(slot)) continue;
        let tf = entry & TF_MASK;
        if (tf === TF_MASK) tf = this.bigTf.get(`${slot} ${term}`)!;
        const len = lengths[slot];
        const norm = cache[len < 40 ? len : fieldNormId(len)];
        const s = f32(weight * f32(tf / f32(tf + norm)));
        if (score[slot] === 0) touched.push(slot);
        score[slot] = f32(score[slot] + s);
      }
    }

    // Candidates passing the filter fields, then the best MAX_CANDIDATE_REVISIONS of them.
    const docs: Doc[] = [];
    const scores: number[] = [];
    for (const slot of touched) {
      const s = score[slot];
      score[slot] = 0;
      const doc = this.docs[slot]!;
      if (!keep(doc)) continue;
      docs.push(doc);
      scores.push(s);
    }
    for (const { doc, tf: freqs, length } of pendingDocs) {
      let s = 0;
      for (const [term, weight] of weights) {
        const tf = freqs.get(term);
        if (tf === undefined) continue;
        s = f32(s + f32(weight * f32(tf / f32(tf + cache[fieldNormId(length)]))));
      }
      if (s > 0 && keep(doc)) {
        docs.push(doc);
        scores.push(s);
      }
    }
    let threshold = -Infinity;
    if (scores.length > MAX_CANDIDATE_REVISIONS) {
      const sorted = Float64Array.from(scores).sort();
      threshold = sorted[sorted.length - MAX_CANDIDATE_REVISIONS];
    }
    const results: Ranked[] = [];
    for (let i = 0; i < docs.length; i++) {
      if (scores[i] < threshold) continue;
      const doc = docs[i];
      results.push({ doc, key: [scores[i], doc._creationTime, doc._id] });
    }
    results.sort((a, b) => compareRank(a.key, b.key));
    if (results.length > MAX_CANDIDATE_REVISIONS) results.length = MAX_CANDIDATE_REVISIONS;
    return results;
  }
}
