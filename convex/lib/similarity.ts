/**
 * "Did you mean one of these?" in the log-a-set event step: word overlap
 * between what the comedian typed and existing event names.
 */

/** Matches must score strictly above this. */
export const SIMILARITY_THRESHOLD = 0.2;
/** Only this many candidates (the venue-name matches) are scored. */
export const SIMILARITY_CANDIDATE_LIMIT = 20;

/** Lower-cased words with punctuation and accents stripped ("Joe's Café!" -> joes, cafe). */
export function wordSet(text: string): Set<string> {
  const words = text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
  return new Set(words);
}

/** Jaccard similarity of the two word sets, 0..1 (0 when either is empty). */
export function wordOverlapScore(a: string, b: string): number {
  const wa = wordSet(a);
  const wb = wordSet(b);
  if (wa.size === 0 || wb.size === 0) return 0;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared);
}

/**
 * The best `limit` candidates scoring above 0.2, best first (ties keep input
 * order), looking only at the first 20 candidates.
 */
export function bestMatches<T>({
  query,
  candidates,
  getText,
  limit = 3,
}: {
  query: string;
  candidates: readonly T[];
  getText: (t: T) => string;
  limit?: number;
}): T[] {
  return candidates
    .slice(0, SIMILARITY_CANDIDATE_LIMIT)
    .map((candidate, index) => ({ candidate, index, score: wordOverlapScore(query, getText(candidate)) }))
    .filter((s) => s.score > SIMILARITY_THRESHOLD)
    .sort((x, y) => y.score - x.score || x.index - y.index)
    .slice(0, limit)
    .map((s) => s.candidate);
}
