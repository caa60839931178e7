/**
 * Mic invariants (kept by model/micTriggers): `checkInCount` (queued check-ins included) equals the check-in rows;
 * one check-in per comedian, mic and local day, one favourite per mic, each naming an existing mic and user;
 * a verified mic has `lastVerifiedAt`, an expiry 30 days on and 2+ comedians in the 30 days up to it.
 * Also counts active mics per city (./community) and check-ins per comedian and month (./badges).
 */
import type { Doc, Id } from "../../_generated/dataModel";
import type { QueryCtx } from "../../_generated/server";
import { DEFAULT_TIME_ZONE, localDateString } from "../../lib/time";
import { unfoldedCheckIns, VERIFICATION_PERIOD_MS, VERIFY_MIN_COMEDIANS } from "../micTriggers";
import { cityKey } from "../stats";
import { checkFollower } from "./followers";
import { checkLinks, checkRows, type Finisher, type PageCheck } from "./page";

/** A verified item needs its expiry and two comedians among its check-ins of the 30 days up to lastVerifiedAt. */
async function checkVerification(ctx: QueryCtx, item: Doc<"sceneItems">, problems: string[]): Promise<void> {
  if (item.verifiedCheckIns30d <= 0) return;
  if (item.lastVerifiedAt === undefined) {
    problems.push(`sceneItems ${item._id}: verified without lastVerifiedAt`);
    return;
  }
  const at = item.lastVerifiedAt;
  if (item.verificationExpiresAt !== at + VERIFICATION_PERIOD_MS) {
    problems.push(`sceneItems ${item._id}: verified, but its expiry is not 30 days after lastVerifiedAt`);
  }
  const comedians = new Set<string>();
  // Stops as soon as enough comedians are found: a busy mic is not read whole.
  for await (const c of ctx.db.query("checkIns").withIndex("by_item_and_time", (q) =>
    q
      .eq("sceneItemId", item._id)
      .gt("checkedInAt", at - VERIFICATION_PERIOD_MS)
      .lte("checkedInAt", at),
  )) {
    comedians.add(c.userId);
    if (comedians.size >= VERIFY_MIN_COMEDIANS) return;
  }
  problems.push(
    `sceneItems ${item._id}: verified, but only ${comedians.size} comedian(s) checked in in the 30 days before lastVerifiedAt`,
  );
}

/** Rows of one comedian and mic (and day) read to count duplicates: a page of
 * rows that each have this many twins stays far under Convex's 32,000
 * documents read per query. */
const SAME_ROWS_READ = 20;

/** "2", or "20 or more" when the read stopped at {@link SAME_ROWS_READ}. */
const rowCount = (n: number) => (n >= SAME_ROWS_READ ? `${SAME_ROWS_READ} or more` : `${n}`);

const sceneItems: PageCheck = (p) =>
  checkRows(p, "sceneItems", async (item) => {
    if (item.status === "active") p.counters.add("activeInCity", cityKey(item.city));
    // Check-ins not folded into the row yet wait in its queue (model/micTriggers).
    const count = item.checkInCount + (await unfoldedCheckIns(p.ctx, item._id));
    if (count !== 0) p.counters.add("storedCheckIns", item._id, count);
    await checkVerification(p.ctx, item, p.problems);
  });

const checkIns: PageCheck = (p) => {
  const { ctx, problems, counters, exists } = p;
  const zones = new Map<string, Promise<string>>();
  const zoneOf = (userId: Id<"users">) => {
    let zone = zones.get(userId);
    if (!zone) {
      zone = ctx.db
        .query("profiles")
        .withIndex("by_userId", (q) => q.eq("userId", userId))
        .first()
        .then((profile) => profile?.timeZone ?? DEFAULT_TIME_ZONE);
      zones.set(userId, zone);
    }
    return zone;
  };
  return checkRows(p, "checkIns", async (c) => {
    await checkLinks(p, "checkIns", { _id: c._id, userId: c.userId, itemId: c.sceneItemId });
    const same = await ctx.db
      .query("checkIns")
      .withIndex("by_user_item_and_date", (q) =>
        q.eq("userId", c.userId).eq("sceneItemId", c.sceneItemId).eq("localDate", c.localDate),
      )
      .take(SAME_ROWS_READ);
    if (same.length > 1 && same[0]._id === c._id) {
      problems.push(
        `checkIns: ${rowCount(same.length)} rows for user ${c.userId} at mic ${c.sceneItemId} on ${c.localDate}`,
      );
    }
    if (await exists.item(c.sceneItemId)) counters.add("checkInRows", c.sceneItemId);
    if (await exists.user(c.userId)) {
      const month = localDateString(c.checkedInAt, await zoneOf(c.userId)).slice(0, 7);
      counters.add("monthCheckIns", `${c.userId}|${month}`);
    }
  });
};

const favorites: PageCheck = (p) =>
  checkRows(p, "favorites", async (f) => {
    await checkLinks(p, "favorites", { _id: f._id, userId: f.userId, itemId: f.sceneItemId });
    await checkFollower(p, f.userId, f.sceneItemId);
    const same = await p.ctx.db
      .query("favorites")
      .withIndex("by_user_and_item", (q) => q.eq("userId", f.userId).eq("sceneItemId", f.sceneItemId))
      .take(SAME_ROWS_READ);
    if (same.length > 1 && same[0]._id === f._id) {
      p.problems.push(`favorites: ${rowCount(same.length)} rows for user ${f.userId} for mic ${f.sceneItemId}`);
    }
  });

export const micPages = { sceneItems, checkIns, favorites };

/** Check-in counters against the check-in rows (of existing mics). */
export const finishMics: Finisher = (totals, problems) => {
  const stored = totals.counter("storedCheckIns");
  const rowsPerItem = totals.counter("checkInRows");
  for (const itemId of new Set([...stored.keys(), ...rowsPerItem.keys()])) {
    const count = stored.get(itemId) ?? 0;
    const rows = rowsPerItem.get(itemId) ?? 0;
    if (count !== rows) problems.push(`sceneItems ${itemId}: checkInCount ${count} but ${rows} check-in rows`);
  }
};
