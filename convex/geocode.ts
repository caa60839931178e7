import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalQuery } from "./_generated/server";
import { internalMutation } from "./functions";
import { appError, ErrorCode } from "./errors";
import { userAction } from "./functions";
import {
  GEOCODE_REQUESTS_PER_SECOND,
  geocodeAddress,
  geocodeQuery,
  MISSING_KEY_REASON,
  setCoordinates,
  type GeocodeCandidate,
} from "./model/admin";
import { isAdmin } from "./model/access";
import { sceneItemStatus } from "./schema";

const PAGE_SIZE = 100;

/** Whether the user carries the admin role (actions cannot read the database). */
export const callerIsAdmin = internalQuery({
  args: { userId: v.id("users") },
  returns: v.boolean(),
  handler: async (ctx, { userId }) => await isAdmin(ctx, userId),
});

/** One page of items of a status that have no coordinates (no geohash). */
export const missingCoordinatesPage = internalQuery({
  args: { status: sceneItemStatus, paginationOpts: paginationOptsValidator },
  handler: async (ctx, { status, paginationOpts }) => {
    const page = await ctx.db
      .query("sceneItems")
      .withIndex("by_status_and_geohash", (q) => q.eq("status", status).eq("geohash", undefined))
      .paginate(paginationOpts);
    return {
      ...page,
      page: page.page.map((item): GeocodeCandidate => ({
        id: item._id,
        title: item.title,
        venueName: item.venueName,
        city: item.city,
        address: item.address,
      })),
    };
  },
});

/** Stores the coordinates found for an item. */
export const saveCoordinates = internalMutation({
  args: { id: v.id("sceneItems"), latitude: v.number(), longitude: v.number() },
  returns: v.boolean(),
  handler: async (ctx, { id, latitude, longitude }) => await setCoordinates(ctx, { id, latitude, longitude }),
});

const failureValidator = v.object({ id: v.id("sceneItems"), title: v.string(), reason: v.string() });

/**
 * Admin only: geocodes every scene item (active or inactive) that has no
 * coordinates with Google Geocoding and the server's GOOGLE_MAPS_API_KEY, at
 * most five requests a second. Failures (no key, no match, quota, denied,
 * network) are reported per item; the action itself does not throw for them.
 */
export const fixCoordinates = userAction({
  args: {},
  returns: v.object({ updated: v.number(), failed: v.number(), failures: v.array(failureValidator) }),
  handler: async (ctx) => {
    if (!(await ctx.runQuery(internal.geocode.callerIsAdmin, { userId: ctx.userId }))) {
      throw appError(ErrorCode.FORBIDDEN, "Admins only.");
    }

    const candidates: GeocodeCandidate[] = [];
    for (const status of ["active", "inactive"] as const) {
      let cursor: string | null = null;
      for (;;) {
        const result: { page: GeocodeCandidate[]; isDone: boolean; continueCursor: string } = await ctx.runQuery(
          internal.geocode.missingCoordinatesPage,
          {
            status,
            paginationOpts: { numItems: PAGE_SIZE, cursor },
          },
        );
        candidates.push(...result.page);
        if (result.isDone) break;
        cursor = result.continueCursor;
      }
    }

    const apiKey = process.env.GOOGLE_MAPS_API_KEY?.trim();
    const failures: { id: GeocodeCandidate["id"]; title: string; reason: string }[] = [];
    if (!apiKey) {
      for (const item of candidates) failures.push({ id: item.id, title: item.title, reason: MISSING_KEY_REASON });
      return { updated: 0, failed: failures.length, failures };
    }

    const spacingMs = 1000 / GEOCODE_REQUESTS_PER_SECOND;
    let updated = 0;
    let lastStart = 0;
    for (const item of candidates) {
      // Space request starts so Google never sees more than five a second.
      const wait = lastStart + spacingMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      lastStart = Date.now();
      const result = await geocodeAddress(geocodeQuery(item), apiKey);
      if (!result.ok) {
        failures.push({ id: item.id, title: item.title, reason: result.reason });
        continue;
      }
      const saved = await ctx.runMutation(internal.geocode.saveCoordinates, {
        id: item.id,
        latitude: result.latitude,
        longitude: result.longitude,
      });
      if (saved) updated++;
      else failures.push({ id: item.id, title: item.title, reason: "The item was deleted" });
    }
    return { updated, failed: failures.length, failures };
  },
});
