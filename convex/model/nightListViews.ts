/** What screens show of a live list: the list view and a comedian's recent spots. */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";

import { addDaysToDate } from "../lib/time";

import { isLocalDate } from "./claims";

import { invalid, MY_RECENT_LIMIT } from "../lib/nightListRules";
import { bySection, canHost, hasPriority, spotsOf, takenCount, upAndOnDeck, type List, type Spot } from "./nightLists";
import { micTimeZone } from "./nightListOpen";

// What screens show

export const spotViewValidator = v.object({
  _id: v.id("listSpots"),
  name: v.string(),
  section: v.union(v.literal("pool"), v.literal("list"), v.literal("waitlist")),
  /** 1-based place in its section. */
  place: v.number(),
  state: v.union(v.literal("waiting"), v.literal("up"), v.literal("done"), v.literal("no_show")),
  walkIn: v.boolean(),
  priority: v.boolean(),
  bumped: v.boolean(),
  drawIndex: v.union(v.number(), v.null()),
  loggedMinutes: v.union(v.number(), v.null()),
  isMine: v.boolean(),
  onDeck: v.boolean(),
});
export type SpotView = Infer<typeof spotViewValidator>;

export const listViewValidator = v.object({
  _id: v.id("nightLists"),
  micId: v.id("sceneItems"),
  micTitle: v.string(),
  timeZone: v.string(),
  date: v.string(),
  status: v.union(v.literal("open"), v.literal("closed")),
  closedReason: v.union(v.literal("ended"), v.literal("cancelled"), v.null()),
  spots: v.number(),
  waitlistSpots: v.number(),
  setMinutes: v.number(),
  lightMinutes: v.number(),
  mode: v.union(v.literal("first_come"), v.literal("lottery")),
  drawAt: v.union(v.number(), v.null()),
  drawnAt: v.union(v.number(), v.null()),
  bucket: v.boolean(),
  signupOpensAt: v.number(),
  version: v.number(),
  taken: v.number(),
  /** The running order, the waitlist and (before a draw) the lottery pool, each in order. */
  list: v.array(spotViewValidator),
  waitlist: v.array(spotViewValidator),
  pool: v.array(spotViewValidator),
  upNow: v.union(spotViewValidator, v.null()),
  onDeck: v.union(spotViewValidator, v.null()),
  upStartedAt: v.union(v.number(), v.null()),
});
export type ListView = Infer<typeof listViewValidator>;

export const currentResultValidator = v.object({
  list: v.union(listViewValidator, v.null()),
  canHost: v.boolean(),
  /** The viewer was bumped or waitlisted at the mic's last list: placed first at the next one. */
  hasPriority: v.boolean(),
});

function toView({
  list,
  item,
  spots,
  viewer,
}: {
  list: List;
  item: Doc<"sceneItems">;
  spots: Spot[];
  viewer: Id<"users"> | null;
}): ListView {
  const listed = bySection(spots, "list");
  const { up, onDeck } = upAndOnDeck(listed);
  const view = (s: Spot, i: number): SpotView => ({
    _id: s._id,
    name: s.name,
    section: s.section,
    place: i + 1,
    state: s.state,
    walkIn: s.userId === undefined,
    priority: s.priority,
    bumped: s.bumped,
    drawIndex: s.drawIndex ?? null,
    loggedMinutes: s.loggedMinutes ?? null,
    isMine: viewer !== null && s.userId === viewer,
    onDeck: onDeck !== null && s._id === onDeck._id,
  });
  const listViews = listed.map(view);
  return {
    _id: list._id,
    micId: list.micId,
    micTitle: item.title,
    timeZone: micTimeZone(item),
    date: list.date,
    status: list.status,
    closedReason: list.closedReason ?? null,
    spots: list.spots,
    waitlistSpots: list.waitlistSpots,
    setMinutes: list.setMinutes,
    lightMinutes: list.lightMinutes,
    mode: list.mode,
    drawAt: list.drawAt ?? null,
    drawnAt: list.drawnAt ?? null,
    bucket: list.bucket,
    signupOpensAt: list.signupOpensAt,
    version: list.version,
    taken: takenCount(spots),
    list: listViews,
    waitlist: bySection(spots, "waitlist").map(view),
    pool: bySection(spots, "pool").map(view),
    upNow: up === null ? null : (listViews.find((s) => s._id === up._id) ?? null),
    onDeck: onDeck === null ? null : (listViews.find((s) => s._id === onDeck._id) ?? null),
    upStartedAt: up?.startedAt ?? null,
  };
}

/**
 * The mic's latest list on or after `sinceDate` (the client passes yesterday
 * in the mic's zone, so a night running past midnight stays current), with
 * whether the viewer hosts it and has priority there.
 */
export async function current(
  ctx: QueryCtx,
  { viewer, micId, sinceDate }: { viewer: Id<"users"> | null; micId: Id<"sceneItems">; sinceDate: string },
): Promise<Infer<typeof currentResultValidator>> {
  if (!isLocalDate(sinceDate)) invalid("Date must be written YYYY-MM-DD");
  const item = await ctx.db.get("sceneItems", micId);
  if (item === null || item.status !== "active") return { list: null, canHost: false, hasPriority: false };
  const list = await ctx.db
    .query("nightLists")
    .withIndex("by_mic_and_date", (q) => q.eq("micId", micId).gte("date", sinceDate))
    .order("desc")
    .first();
  const [spots, host, priority] = await Promise.all([
    list === null ? Promise.resolve([]) : spotsOf(ctx, list._id),
    viewer === null ? Promise.resolve(false) : canHost(ctx, viewer, item),
    viewer === null
      ? Promise.resolve(false)
      : hasPriority(ctx, { userId: viewer, micId, beforeDate: list?.date ?? addDaysToDate(sinceDate, 2) }),
  ]);
  return { list: list === null ? null : toView({ list, item, spots, viewer }), canHost: host, hasPriority: priority };
}

export const myRecentValidator = v.object({
  spotId: v.id("listSpots"),
  listId: v.id("nightLists"),
  micId: v.id("sceneItems"),
  micTitle: v.string(),
  date: v.string(),
  listStatus: v.union(v.literal("open"), v.literal("closed")),
  closedReason: v.union(v.literal("ended"), v.literal("cancelled"), v.null()),
  section: v.union(v.literal("pool"), v.literal("list"), v.literal("waitlist")),
  state: v.union(v.literal("waiting"), v.literal("up"), v.literal("done"), v.literal("no_show")),
  onDeck: v.boolean(),
  name: v.string(),
  performanceId: v.union(v.id("performances"), v.null()),
});

/** The comedian's newest spots with their lists' state, for the in-app notices ("You're on deck", set logged, cancelled). */
export async function myRecent(ctx: QueryCtx, userId: Id<"users">): Promise<Infer<typeof myRecentValidator>[]> {
  const mine = await ctx.db
    .query("listSpots")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .order("desc")
    .take(MY_RECENT_LIMIT);
  const out: Infer<typeof myRecentValidator>[] = [];
  for (const spot of mine) {
    const [list, item] = await Promise.all([
      ctx.db.get("nightLists", spot.listId),
      ctx.db.get("sceneItems", spot.micId),
    ]);
    if (list === null || item === null) continue;
    let onDeck = false;
    if (spot.section === "list" && spot.state === "waiting" && list.status === "open") {
      const listed = bySection(await spotsOf(ctx, list._id), "list");
      onDeck = upAndOnDeck(listed).onDeck?._id === spot._id;
    }
    out.push({
      spotId: spot._id,
      listId: list._id,
      micId: spot.micId,
      micTitle: item.title,
      date: list.date,
      listStatus: list.status,
      closedReason: list.closedReason ?? null,
      section: spot.section,
      state: spot.state,
      onDeck,
      name: spot.name,
      performanceId: spot.performanceId ?? null,
    });
  }
  return out;
}
