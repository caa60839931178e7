import type { Doc } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";

/** The landing page's community figures. */
export type CommunityStats = {
  venues: number;
  hoursLogged: number;
  cities: number;
  comedians: number;
};

/** The fields of a scene item the community counters depend on. */
type CountedItem = Pick<Doc<"sceneItems">, "city" | "status">;

async function readRow(ctx: QueryCtx) {
  return await ctx.db
    .query("siteStats")
    .withIndex("by_key", (q) => q.eq("key", "global"))
    .unique();
}

/** The singleton row, created (all zeros) the first time a figure changes. */
async function getOrCreateRow(ctx: MutationCtx): Promise<Doc<"siteStats">> {
  const row = await readRow(ctx);
  if (row !== null) return row;
  const id = await ctx.db.insert("siteStats", {
    key: "global",
    venues: 0,
    minutesLogged: 0,
    comedians: 0,
    cities: 0,
  });
  return (await ctx.db.get("siteStats", id))!;
}

/** The counters row and the city's row (null when the city was never counted). */
async function rowAndCity(ctx: MutationCtx, name: string): Promise<[Doc<"siteStats">, Doc<"cities"> | null]> {
  return await Promise.all([
    getOrCreateRow(ctx),
    ctx.db
      .query("cities")
      .withIndex("by_name", (q) => q.eq("name", name))
      .unique(),
  ]);
}

/** The city key scene items are counted under ("  Austin " and "Austin" are one city). */
export function cityKey(city: string): string {
  return city.trim();
}

/** Community figures as the landing page shows them; zeros on an empty database. */
export async function readCommunityStats(ctx: QueryCtx): Promise<CommunityStats> {
  const row = await readRow(ctx);
  if (row === null) return { venues: 0, hoursLogged: 0, cities: 0, comedians: 0 };
  return {
    venues: row.venues,
    hoursLogged: Math.floor(row.minutesLogged / 60),
    cities: row.cities,
    comedians: row.comedians,
  };
}

/**
 * Counts a new scene item: one more venue and, when it is the first active
 * item of its city, one more city. Inactive items are not counted, so call
 * {@link onSceneItemRemoved} before and this after a status change.
 */
export async function onSceneItemCreated(ctx: MutationCtx, item: CountedItem): Promise<void> {
  if (item.status !== "active") return;
  const name = cityKey(item.city);
  const [row, city] = await rowAndCity(ctx, name);
  let newCity = false;
  if (city === null) {
    await ctx.db.insert("cities", { name, items: 1 });
    newCity = true;
  } else {
    await ctx.db.patch("cities", city._id, { items: city.items + 1 });
    newCity = city.items === 0;
  }
  await ctx.db.patch("siteStats", row._id, {
    venues: row.venues + 1,
    cities: row.cities + (newCity ? 1 : 0),
  });
}

/**
 * Uncounts a scene item that is deleted or deactivated (pass the item as it
 * was counted). A city whose last active item goes is removed from the count.
 */
export async function onSceneItemRemoved(ctx: MutationCtx, item: CountedItem): Promise<void> {
  if (item.status !== "active") return;
  const name = cityKey(item.city);
  const [row, city] = await rowAndCity(ctx, name);
  let goneCity = false;
  if (city !== null && city.items > 0) {
    if (city.items === 1) {
      await ctx.db.delete("cities", city._id);
      goneCity = true;
    } else {
      await ctx.db.patch("cities", city._id, { items: city.items - 1 });
    }
  }
  await ctx.db.patch("siteStats", row._id, {
    venues: Math.max(0, row.venues - 1),
    cities: Math.max(0, row.cities - (goneCity ? 1 : 0)),
  });
}

/**
 * Re-counts an edited scene item when its city or status changed; a no-op
 * otherwise.
 */
export async function onSceneItemUpdated(ctx: MutationCtx, before: CountedItem, after: CountedItem): Promise<void> {
  if (before.status === after.status && cityKey(before.city) === cityKey(after.city)) return;
  await onSceneItemRemoved(ctx, before);
  await onSceneItemCreated(ctx, after);
}

/** Adds (or with a negative delta, takes away) logged minutes. */
export async function onMinutesChanged(ctx: MutationCtx, deltaMinutes: number): Promise<void> {
  if (deltaMinutes === 0) return;
  const row = await getOrCreateRow(ctx);
  await ctx.db.patch("siteStats", row._id, {
    minutesLogged: Math.max(0, row.minutesLogged + deltaMinutes),
  });
}

/** Counts a new comedian (called when their profile is created). */
export async function onComedianCreated(ctx: MutationCtx): Promise<void> {
  const row = await getOrCreateRow(ctx);
  await ctx.db.patch("siteStats", row._id, { comedians: row.comedians + 1 });
}

/** Uncounts a comedian whose profile is deleted (account deletion). */
export async function onComedianRemoved(ctx: MutationCtx): Promise<void> {
  const row = await getOrCreateRow(ctx);
  await ctx.db.patch("siteStats", row._id, { comedians: Math.max(0, row.comedians - 1) });
}
