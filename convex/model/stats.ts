import { ShardedCounter } from "@convex-dev/sharded-counter";
import { components } from "../_generated/api";
import type { Doc } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";

/** The landing page's community figures. */
export type CommunityStats = {
  venues: number;
  hoursLogged: number;
  cities: number;
  comedians: number;
};

/**
 * The community totals, each a key of the `shardedCounter` component: active
 * mics, distinct cities with an active mic (rows of `cities`), comedians
 * (profiles) and minutes of every logged set. Every logged set adds to
 * `minutesLogged`; a single row would make every set of every comedian
 * conflict on Convex, so each total is spread over 16 shard rows (the minutes
 * over {@link MINUTES_SHARDS}) (a write
 * touches one at random, a read adds them up).
 */
export const COMMUNITY_TOTALS = ["venues", "cities", "comedians", "minutesLogged"] as const;
export type CommunityTotal = (typeof COMMUNITY_TOTALS)[number];
export type CommunityTotals = Record<CommunityTotal, number>;

/**
 * A counter client per call: `ShardedCounter` remembers the shard it last
 * wrote per key ("sticky" within a mutation), and a module-level instance
 * would keep that across requests when the module stays loaded, sending every
 * later write of the deployment to one shard: the hot row again.
 */
function counter(): ShardedCounter<CommunityTotal> {
  return new ShardedCounter<CommunityTotal>(components.shardedCounter, { shards: { minutesLogged: MINUTES_SHARDS } });
}

/**
 * Every set of every comedian adds to the minutes: with 16 shards, 100 sets
 * logged at once (the end of a night) had 20 fail past Convex's retries on a
 * shard; with 64 a set rarely meets another on its shard. Growing it is safe
 * (a read adds every shard row of the total).
 */
const MINUTES_SHARDS = 64;

/**
 * Adds `delta` (negative to take away) to one community total. Called by the
 * triggers that own the totals (model/statsTriggers: minutes and comedians;
 * model/micTriggers through the scene item helpers below: venues and cities)
 * and by migrations, never by a write site.
 */
export async function addToCommunityTotal(ctx: MutationCtx, total: CommunityTotal, delta: number): Promise<void> {
  if (delta === 0) return;
  await counter().add(ctx, total, delta);
}

/** The stored community totals as the counter holds them (0 for a total never written). */
export async function readCommunityTotals(ctx: QueryCtx): Promise<CommunityTotals> {
  const c = counter();
  const [venues, cities, comedians, minutesLogged] = await Promise.all(COMMUNITY_TOTALS.map((k) => c.count(ctx, k)));
  return { venues, cities, comedians, minutesLogged };
}

/** The fields of a scene item the community counters depend on. */
type CountedItem = Pick<Doc<"sceneItems">, "city" | "status">;

/** The city's row (null when the city was never counted). */
async function cityRow(ctx: MutationCtx, name: string): Promise<Doc<"cities"> | null> {
  return await ctx.db
    .query("cities")
    .withIndex("by_name", (q) => q.eq("name", name))
    .unique();
}

/** The city key scene items are counted under ("  Austin " and "Austin" are one city). */
export function cityKey(city: string): string {
  return city.trim();
}

/** Community figures as the landing page shows them; zeros on an empty database. */
export async function readCommunityStats(ctx: QueryCtx): Promise<CommunityStats> {
  const totals = await readCommunityTotals(ctx);
  // A total is never shown below zero, whatever a past bug may have left.
  const shown = (n: number) => Math.max(0, n);
  return {
    venues: shown(totals.venues),
    hoursLogged: Math.floor(shown(totals.minutesLogged) / 60),
    cities: shown(totals.cities),
    comedians: shown(totals.comedians),
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
  const city = await cityRow(ctx, name);
  let newCity = false;
  if (city === null) {
    await ctx.db.insert("cities", { name, items: 1 });
    newCity = true;
  } else {
    await ctx.db.patch("cities", city._id, { items: city.items + 1 });
    newCity = city.items === 0;
  }
  await addToCommunityTotal(ctx, "venues", 1);
  if (newCity) await addToCommunityTotal(ctx, "cities", 1);
}

/**
 * Uncounts a scene item that is deleted or deactivated (pass the item as it
 * was counted). A city whose last active item goes is removed from the count.
 */
export async function onSceneItemRemoved(ctx: MutationCtx, item: CountedItem): Promise<void> {
  if (item.status !== "active") return;
  const city = await cityRow(ctx, cityKey(item.city));
  let goneCity = false;
  if (city !== null && city.items > 0) {
    if (city.items === 1) {
      await ctx.db.delete("cities", city._id);
      goneCity = true;
    } else {
      await ctx.db.patch("cities", city._id, { items: city.items - 1 });
    }
  }
  await addToCommunityTotal(ctx, "venues", -1);
  if (goneCity) await addToCommunityTotal(ctx, "cities", -1);
}

/**
 * Re-counts an edited scene item when its city or status changed; a no-op
 * otherwise.
 */
export async function onSceneItemUpdated(
  ctx: MutationCtx,
  { before, after }: { before: CountedItem; after: CountedItem },
): Promise<void> {
  if (before.status === after.status && cityKey(before.city) === cityKey(after.city)) return;
  await onSceneItemRemoved(ctx, before);
  await onSceneItemCreated(ctx, after);
}
