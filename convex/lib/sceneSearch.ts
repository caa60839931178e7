/**
 * The scene search's one matching rule, shared by the server (scene.listPage,
 * after the search index) and the client (the distance filter's loaded pages):
 * every search word must start a word of the title, venue or city.
 */

/** The words of a search or of an item's text: lower-cased runs of letters and digits. */
export function searchTerms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term !== "");
}

/** Whether every search term starts one of the words of `text`. */
export function matchesEveryTerm(text: string, terms: readonly string[]): boolean {
  const words = searchTerms(text);
  return terms.every((term) => words.some((word) => word.startsWith(term)));
}
