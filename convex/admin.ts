import { v } from "convex/values";
import { adminMutation, adminQuery, internalMutation } from "./functions";
import * as Admin from "./model/admin";
import { setAdminFor } from "./model/profiles";
import { removeSceneItem, sceneItemValidator } from "./model/scene";

/**
 * Grants or revokes admin rights on one account. Internal on purpose: no
 * public function can make anyone an admin. Run it with the backend CLI:
 * `npm run backend -- run admin:setAdmin '{"email":"x@y.z","isAdmin":true}'`
 * (or `npx convex run admin:setAdmin ...` against Convex). An email shared by
 * several accounts is refused with their ids; pass `"userId"` then.
 */
export const setAdmin = internalMutation({
  args: { email: v.optional(v.string()), userId: v.optional(v.id("users")), isAdmin: v.boolean() },
  returns: v.object({ userId: v.id("users"), email: v.union(v.string(), v.null()), isAdmin: v.boolean() }),
  handler: async (ctx, { email, userId, isAdmin }) => {
    const changed = await setAdminFor(ctx, { email, userId }, isAdmin);
    return { ...changed, isAdmin };
  },
});

/** Every scene item for the admin list, newest first, optionally searched
 * over title, venue and city (active and inactive alike). */
export const listMics = adminQuery({
  args: { search: v.optional(v.string()) },
  returns: v.array(sceneItemValidator),
  handler: async (ctx, { search }) => await Admin.listMics(ctx, search),
});

/** The most pending claims and open reports the admin's badges count; past it they say "1000+". */
export const QUEUE_COUNT_CAP = 1000;

/** How many claims wait for a decision and how many reports are open (each
 * counted up to QUEUE_COUNT_CAP + 1), for the badges over the paged queues. */
export const queueCounts = adminQuery({
  args: {},
  returns: v.object({ pendingClaims: v.number(), openReports: v.number(), cap: v.number() }),
  handler: async (ctx) => {
    const [claims, reports] = await Promise.all([
      ctx.db
        .query("micClaims")
        .withIndex("by_status", (q) => q.eq("status", "pending"))
        .take(QUEUE_COUNT_CAP + 1),
      ctx.db
        .query("problemReports")
        .withIndex("by_status", (q) => q.eq("status", "open"))
        .take(QUEUE_COUNT_CAP + 1),
    ]);
    return { pendingClaims: claims.length, openReports: reports.length, cap: QUEUE_COUNT_CAP };
  },
});

/** Edits a mic's title, venue, city, type, day, time, status and cost info. */
export const updateMic = adminMutation({
  args: Admin.adminMicEditValidator,
  returns: sceneItemValidator,
  handler: async (ctx, edit) => await Admin.updateMic(ctx, edit, Date.now()),
});

/** Deletes a mic and what hangs off it (sets keep their venue name). */
export const deleteMic = adminMutation({
  args: { id: v.id("sceneItems") },
  returns: v.object({ updatedSets: v.number() }),
  handler: async (ctx, { id }) => await removeSceneItem(ctx, ctx.userId, id),
});
