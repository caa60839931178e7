/** Tag rules of the set details step: added on Enter or comma,
 * trimmed, empty ones dropped, duplicates ignored. */

export const QUICK_TAGS = ["crowd work", "new bits", "riff", "hosted", "booked", "open mic"] as const;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 40;

/** `tags` plus each comma-separated piece of `input` that is new (case-insensitively). */
export function addTags(tags: readonly string[], input: string): string[] {
  const result = [...tags];
  const seen = new Set(tags.map((t) => t.toLowerCase()));
  for (const piece of input.split(",")) {
    const tag = piece.trim().replace(/\s+/g, " ").slice(0, MAX_TAG_LENGTH);
    if (tag === "" || seen.has(tag.toLowerCase()) || result.length >= MAX_TAGS) continue;
    seen.add(tag.toLowerCase());
    result.push(tag);
  }
  return result;
}

export function removeTag(tags: readonly string[], tag: string): string[] {
  return tags.filter((t) => t !== tag);
}

/**
 * What typing into the tag box does: text before the last comma becomes tags,
 * the rest stays in the box.
 */
export function splitTypedTags(tags: readonly string[], typed: string): { tags: string[]; rest: string } {
  const lastComma = typed.lastIndexOf(",");
  if (lastComma < 0) return { tags: [...tags], rest: typed };
  return { tags: addTags(tags, typed.slice(0, lastComma)), rest: typed.slice(lastComma + 1).trimStart() };
}

/** Quick-add suggestions not yet on the set. */
export function remainingSuggestions(tags: readonly string[]): string[] {
  const have = new Set(tags.map((t) => t.toLowerCase()));
  return QUICK_TAGS.filter((t) => !have.has(t));
}
