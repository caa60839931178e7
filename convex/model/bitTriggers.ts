/**
 * The one owner of what is derived from a comedian's material:
 *
 * - a bit's `bitTags` rows (one per tag, carrying the bit's archived flag,
 *   status and title for the library's tag filter) follow every write of
 *   the bit, and go with it.
 */
import type { Change, Triggers } from "convex-helpers/server/triggers";
import type { DataModel, Doc } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { tagKey } from "../lib/bitRules";
import { MAX_BIT_TAGS } from "../lib/bitRules";

/** Registers the material triggers (called once, from `convex/triggers.ts`). */
export function registerBitTriggers(triggers: Triggers<DataModel>): void {
  triggers.register("bits", followBitTags);
}

/** What a bit's tag rows copy from it. */
function tagFacts(bit: Doc<"bits"> | null): string {
  if (bit === null) return "";
  return JSON.stringify([bit.tags.map(tagKey), bit.archived, bit.status, bit.titleKey]);
}

/** Rewrites a bit's tag rows when its tags, status, archived flag or title changed (its numbers moving leave them be). */
async function followBitTags(ctx: MutationCtx, change: Change<DataModel, "bits">): Promise<void> {
  const { oldDoc, newDoc } = change;
  if (tagFacts(oldDoc) === tagFacts(newDoc)) return;
  if (oldDoc !== null) {
    const rows = await ctx.db
      .query("bitTags")
      .withIndex("by_bit", (q) => q.eq("bitId", change.id))
      .take(MAX_BIT_TAGS * 2);
    for (const row of rows) await ctx.db.delete("bitTags", row._id);
  }
  if (newDoc === null) return;
  for (const tag of new Set(newDoc.tags.map(tagKey))) {
    await ctx.db.insert("bitTags", {
      userId: newDoc.userId,
      bitId: newDoc._id,
      tag,
      archived: newDoc.archived,
      status: newDoc.status,
      titleKey: newDoc.titleKey,
    });
  }
}
