import type { Id } from "../../../convex/_generated/dataModel";
import type { EventChoice } from "@/lib/wizardSlots";

type Match = { _id: Id<"sceneItems">; title: string };

/** The venue's own events first, then similar ones, each once. */
export function mergeMatches<T extends Match>(atVenue: readonly T[], similar: readonly T[]): T[] {
  const seen = new Set<string>();
  const merged: T[] = [];
  for (const item of [...atVenue, ...similar]) {
    if (seen.has(item._id)) continue;
    seen.add(item._id);
    merged.push(item);
  }
  return merged;
}

/**
 * The choice the event step starts with (part 2 §4): the one match when there
 * is exactly one, 'none' (new event) when there are none, and nothing when
 * the comedian must pick between several.
 */
export function initialEventChoice(matches: readonly Match[]): EventChoice | null {
  if (matches.length === 0) return { kind: "none" };
  if (matches.length === 1) return { kind: "existing", sceneItemId: matches[0]._id, title: matches[0].title };
  return null;
}
