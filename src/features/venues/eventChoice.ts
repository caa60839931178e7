import type { Id } from "@convex/_generated/dataModel";
import type { EventChoice } from "@/lib/wizardPartProps";

type Match = { _id: Id<"sceneItems">; title: string };

/** The similar events that are not already among the venue's own. */
export function otherMatches<T extends Match>(atVenue: readonly T[], similar: readonly T[]): T[] {
  const own = new Set<string>(atVenue.map((item) => item._id));
  return similar.filter((item) => !own.has(item._id));
}

/**
 * The choice the event step starts with: the one match when there
 * is exactly one, 'none' (new event) when there are none, and nothing when
 * the comedian must pick between several.
 */
export function initialEventChoice(matches: readonly Match[]): EventChoice | null {
  if (matches.length === 0) return { kind: "none" };
  if (matches.length === 1) return { kind: "existing", sceneItemId: matches[0]._id, title: matches[0].title };
  return null;
}
