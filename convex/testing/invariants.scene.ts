/**
 * The scene the invariant tests check and break (convex/invariants*.test.ts):
 * built through the public functions, plus the direct writes that break it.
 */
import { api } from "../_generated/api";
import type { Id, TableNames } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "../lib/time";
import { vi } from "vitest";
import { addToCommunityTotal, type CommunityTotal, type CommunityTotals, readCommunityTotals } from "../model/stats";
import {
  createAdmin,
  createSceneItem,
  createUser,
  foldQueuedCheckIns,
  newTest,
  sceneItemRow,
  type TestBackend,
  type TestUser,
} from "./test.setup";

export const DAY = 24 * 60 * 60 * 1000;
/** New York wall-clock time on Wednesday 2026-11-25 (UTC-5) as epoch ms. */
export const nyWed = (hhmm: string) => Date.parse(`2026-11-25T${hhmm}:00-05:00`);
export const VENUE = { latitude: 40.7411, longitude: -73.9897 };

/** An id of `table` that no longer exists (insert then delete). */
export async function goneId<T extends TableNames>(
  t: TestBackend,
  insert: (ctx: MutationCtx) => Promise<Id<T>>,
  table: T,
): Promise<Id<T>> {
  return await t.run(async (ctx) => {
    const id = await insert(ctx);
    await ctx.db.delete(table, id);
    return id;
  });
}

export type Scene = {
  t: TestBackend;
  mic: Id<"sceneItems">;
  other: Id<"sceneItems">;
  ana: TestUser;
  ben: TestUser;
  admin: TestUser;
  anaSets: Id<"performances">[];
};

/**
 * A small scene built only through the public functions, on Wednesday
 * 2026-11-25 at 19:45 in New York: Ana logs sets on three days (two mics and
 * a one-off venue), edits one and deletes one; Ana and Ben check in at the
 * Wednesday 20:00 mic (verifying it); favourites and schedule entries.
 */
export async function buildScene(): Promise<Scene> {
  const t = newTest();
  // Ana and Ben joined two days ago: only accounts a day old verify a mic.
  vi.setSystemTime(nyWed("19:45") - 2 * 24 * 60 * 60 * 1000);
  const ana = await createUser(t);
  const ben = await createUser(t);
  vi.setSystemTime(nyWed("19:45"));
  const mic = await createSceneItem(t, { dayOfWeek: 3, startTimeLocal: "20:00", ...VENUE, city: "New York" });
  const other = await createSceneItem(t, { title: "Other Mic", venueName: "Other Room", city: "Boston" });
  const admin = await createAdmin(t);
  const log = async (who: TestUser, minutes: number, performedAt: number, extra: object) =>
    (
      await who.asUser.mutation(api.performances.log, {
        minutes,
        performedAt,
        tags: [],
        timeZone: "America/New_York",
        ...extra,
      })
    ).performanceId;
  const now = nyWed("19:45");
  const anaSets = [
    await log(ana, 7, now - 2 * DAY, { sceneItemId: mic }),
    await log(ana, 5, now - DAY, { sceneItemId: other }),
    await log(ana, 10, now - 10 * 60_000, { sceneItemId: mic }),
    await log(ana, 4, now - 3 * DAY, { venueName: "Somebody's Loft" }),
    await log(ben, 6, now - DAY, { sceneItemId: mic }),
  ];
  await ana.asUser.mutation(api.performances.update, {
    id: anaSets[0],
    minutes: 9,
    performedAt: now - 2 * DAY,
    notes: "tight five",
  });
  await ana.asUser.mutation(api.performances.remove, { id: anaSets[3] });
  await ana.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...VENUE });
  await ben.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...VENUE });
  await foldQueuedCheckIns(t);
  await ana.asUser.mutation(api.favorites.add, { sceneItemId: mic });
  await ben.asUser.mutation(api.favorites.add, { sceneItemId: other });
  await ben.asUser.mutation(api.schedule.add, { sceneItemId: mic });
  return { t, mic, other, ana, ben, admin, anaSets };
}

/** A check-in row as written straight to the table (its mic's counter does not move), on 25 November unless `localDate`. */
export function checkInRow(
  user: TestUser,
  sceneItemId: Id<"sceneItems">,
  checkedInAt: number,
  localDate = "2026-11-25",
) {
  return { userId: user.userId, sceneItemId, checkedInAt, localDate };
}

export async function patchStats(t: TestBackend, user: TestUser, patch: Record<string, number>) {
  await t.run(async (ctx) => {
    const row = await ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", user.userId))
      .unique();
    await ctx.db.patch("userStats", row!._id, patch);
  });
}

/** `user`'s performanceDays row for `date` (the scene has one). */
export async function dayRow(ctx: MutationCtx, user: TestUser, date: string) {
  const day = await ctx.db
    .query("performanceDays")
    .withIndex("by_user_and_date", (q) => q.eq("userId", user.userId).eq("date", date))
    .unique();
  return day!;
}

/** Sets community totals to wrong values (the counter's shards are the component's). */
export async function patchSite(t: TestBackend, patch: Partial<CommunityTotals>) {
  await t.run(async (ctx) => {
    const stored = await readCommunityTotals(ctx);
    for (const [key, value] of Object.entries(patch) as Array<[CommunityTotal, number]>) {
      await addToCommunityTotal(ctx, key, value - stored[key]);
    }
  });
}

export function sceneItemDoc() {
  return sceneItemRow({
    title: "Gone",
    venueName: "Gone Room",
    city: "Nowhere",
    status: "inactive",
    searchText: "gone",
  });
}
