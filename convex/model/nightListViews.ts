/** What screens show of a live list: the list view and a comedian's recent spots. */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";

import { MY_RECENT_LIMIT } from "../lib/nightListRules";
import { bySection, canHost, hasPriority, spotsOf, upAndOnDeck, type List, type Spot } from "./nightLists";
import { micTimeZone } from "./nightListOpen";
import { derive, freePlaces, listTaken, pendingOf, placedOf, type Sections } from "./nightListPlacement";

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
});

function toView({ list, item, sections }: { list: List; item: Doc<"sceneItems">; sections: Sections }): ListView {
  const listed = sections.list;
  const { up, onDeck } = upAndOnDeck(listed);
  const view = (s: Spot, i: number): SpotView => ({
    _id: s._id,
    name: s.name,
    section: s.section as SpotView["section"],
    place: i + 1,
    state: s.state,
    walkIn: s.userId === undefined,
    priority: s.priority,
    bumped: s.bumped,
    drawIndex: s.drawIndex ?? null,
    loggedMinutes: s.loggedMinutes ?? null,
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
    taken: listTaken(listed),
    list: listViews,
    waitlist: sections.waitlist.map(view),
    pool: sections.pool.map(view),
    upNow: up === null ? null : (listViews.find((s) => s._id === up._id) ?? null),
    onDeck: onDeck === null ? null : (listViews.find((s) => s._id === onDeck._id) ?? null),
    upStartedAt: up?.startedAt ?? null,
  };
}

/** The mic's newest list (any night; the client shows it while it is tonight's or last night's). */
async function latestList(ctx: QueryCtx, micId: Id<"sceneItems">): Promise<List | null> {
  return await ctx.db
    .query("nightLists")
    .withIndex("by_mic_and_date", (q) => q.eq("micId", micId))
    .order("desc")
    .first();
}

/**
 * The mic's newest list as everyone sees it, the pending sign-ups placed in
 * arrival order. It reads nothing about the caller (no `ctx.auth`), so every
 * viewer of a night shares one execution; who is who comes from {@link viewer}.
 */
export async function current(
  ctx: QueryCtx,
  { micId }: { micId: Id<"sceneItems"> },
): Promise<Infer<typeof currentResultValidator>> {
  const item = await ctx.db.get("sceneItems", micId);
  if (item === null || item.status !== "active") return { list: null };
  const list = await latestList(ctx, micId);
  if (list === null) return { list: null };
  const placed = await placedOf(ctx, list._id);
  const pending = await pendingOf(ctx, list._id, freePlaces(list, placed));
  return { list: toView({ list, item, sections: derive(list, placed, pending).sections }) };
}

export const viewerValidator = v.object({
  /** The mic's newest list (null when it never had one). */
  listId: v.union(v.id("nightLists"), v.null()),
  canHost: v.boolean(),
  /** The viewer was bumped or waitlisted at the list before the newest one: placed first on it. */
  hasPriority: v.boolean(),
  /** The viewer was bumped or waitlisted on the newest list: placed first at the one after it. */
  hasPriorityNext: v.boolean(),
  /** The viewer's own row on the newest list: a place in the shared view, or not shown (the list was full, or the host removed them). */
  mine: v.union(v.object({ spotId: v.id("listSpots"), removed: v.boolean() }), v.null()),
});

/** What only the caller sees of a mic's newest list: whether they host it, their priority and their own row. */
export async function viewer(
  ctx: QueryCtx,
  { viewer, micId }: { viewer: Id<"users"> | null; micId: Id<"sceneItems"> },
): Promise<Infer<typeof viewerValidator>> {
  const none = { listId: null, canHost: false, hasPriority: false, hasPriorityNext: false, mine: null };
  const item = await ctx.db.get("sceneItems", micId);
  if (item === null || item.status !== "active") return none;
  const list = await latestList(ctx, micId);
  if (viewer === null) return { ...none, listId: list?._id ?? null };
  const [host, priority, mine] = await Promise.all([
    canHost(ctx, viewer, item),
    list === null ? Promise.resolve(false) : hasPriority(ctx, { userId: viewer, micId, beforeDate: list.date }),
    list === null
      ? Promise.resolve(null)
      : ctx.db
          .query("listSpots")
          .withIndex("by_list_and_user", (q) => q.eq("listId", list._id).eq("userId", viewer))
          .first(),
  ]);
  const priorityNext =
    list !== null && list.closedReason !== "cancelled" && mine !== null && (mine.bumped || mine.section === "waitlist");
  return {
    listId: list?._id ?? null,
    canHost: host,
    hasPriority: priority,
    hasPriorityNext: priorityNext,
    mine: mine === null ? null : { spotId: mine._id, removed: mine.section === "removed" },
  };
}

export const myRecentValidator = v.object({
  spotId: v.id("listSpots"),
  listId: v.id("nightLists"),
  micId: v.id("sceneItems"),
  micTitle: v.string(),
  date: v.string(),
  listStatus: v.union(v.literal("open"), v.literal("closed")),
  closedReason: v.union(v.literal("ended"), v.literal("cancelled"), v.null()),
  /** "pending": signed up, place not written yet (the list view shows it). */
  section: v.union(v.literal("pool"), v.literal("list"), v.literal("waitlist"), v.literal("pending")),
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
    if (spot.section === "removed") continue;
    const [list, item] = await Promise.all([
      ctx.db.get("nightLists", spot.listId),
      ctx.db.get("sceneItems", spot.micId),
    ]);
    if (list === null || item === null) continue;
    let onDeck = false;
    if (spot.section === "list" && spot.state === "waiting" && list.status === "open") {
      // Placed rows only: on deck is the first waiting name, placed by the host's last change.
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
