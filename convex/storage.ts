import { internalMutation } from "./functions";
import { v } from "convex/values";
import { internal } from "./_generated/api";

/**
 * Uploads nobody attached are deleted once they are this old. A photo is
 * attached (profiles.setPhoto) right after its upload, and an upload URL lives
 * an hour at most (10 minutes on the local backend), so an hour after the
 * upload a file no profile refers to was abandoned (or uploaded only to use up
 * space).
 */
export const UNATTACHED_UPLOAD_GRACE_MS = 60 * 60 * 1000;
const BATCH = 100;

/**
 * Cron (hourly): deletes stored files older than the grace period that no
 * profile uses as its photo (the app's only reference to `_storage`; add any
 * new one here). Walks `_storage` oldest first in batches, rescheduling itself
 * with the cursor while there are more.
 */
export const deleteUnattachedUploads = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ checked: v.number(), deleted: v.number(), more: v.boolean() }),
  handler: async (ctx, { cursor }) => {
    const cutoff = Date.now() - UNATTACHED_UPLOAD_GRACE_MS;
    const page = await ctx.db.system
      .query("_storage")
      .withIndex("by_creation_time", (q) => q.lt("_creationTime", cutoff))
      .paginate({ numItems: BATCH, cursor: cursor ?? null });
    let deleted = 0;
    for (const file of page.page) {
      const owner = await ctx.db
        .query("profiles")
        .withIndex("by_photoStorageId", (q) => q.eq("photoStorageId", file._id))
        .first();
      if (owner === null) {
        await ctx.storage.delete(file._id);
        deleted++;
      }
    }
    if (!page.isDone) {
      await ctx.scheduler.runAfter(0, internal.storage.deleteUnattachedUploads, { cursor: page.continueCursor });
    }
    return { checked: page.page.length, deleted, more: !page.isDone };
  },
});
