import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { freshness, nightsOverlap } from "./lib/tonight";
import { encodeGeohash } from "./lib/geo";
import { NO_PLAN_FILTERS, tonightPage, type PlanFilters } from "./model/tonight";
import { expectAppError } from "./test.expect";
import { createAdmin, createSceneItem, createUser, newTest, type TestBackend } from "./test.setup";

const MANHATTAN = { lat: 40.7411, lng: -73.9897 };
const NY = "America/New_York";
const DAY = 24 * 60 * 60 * 1000;

type Args = {
  nowMs: number;
  timeZone?: string;
  area?: { lat: number; lng: number; radiusMiles: number };
  filters?: Partial<PlanFilters>;
  type?: "all" | "open_mic" | "show";
  search?: string;
  limit?: number;
};

function baseArgs(args: Args) {
  return {
    nowMs: args.nowMs,
    timeZone: args.timeZone ?? NY,
    ...(args.area ? { area: args.area } : {}),
    type: args.type ?? "all",
    search: args.search ?? "",
    filters: { ...NO_PLAN_FILTERS, ...args.filters },
  };
}

/**
 * The first `limit` nights (one page), whether more match (a page full to the
 * brim asks for one more to know), and, when nothing is on, tomorrow's first.
 */
async function tonight(t: TestBackend, args: Args) {
  const first = await t.query(api.tonight.list, {
    ...baseArgs(args),
    paginationOpts: { numItems: args.limit ?? 50, cursor: null },
  });
  let isDone = first.isDone;
  if (!isDone) {
    const next = await t.query(api.tonight.list, {
      ...baseArgs(args),
      paginationOpts: { numItems: 1, cursor: first.continueCursor },
    });
    isDone = next.isDone && next.page.length === 0;
  }
  const tomorrow = first.page.length === 0 ? await t.query(api.tonight.tomorrow, baseArgs(args)) : [];
  return { nights: first.page, isDone, tomorrow };
}

/** Every night, page by page (`numItems` a page), with each page's size. */
async function allPages(t: TestBackend, args: Args, numItems: number) {
  const nights = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const result: Awaited<ReturnType<typeof tonight>>["nights"] extends infer N
      ? { page: N; isDone: boolean; continueCursor: string }
      : never = await t.query(api.tonight.list, { ...baseArgs(args), paginationOpts: { numItems, cursor } });
    nights.push(...result.page);
    sizes.push(result.page.length);
    if (result.isDone) return { nights, sizes };
    cursor = result.continueCursor;
  }
  throw new Error("Tonight never finished paging");
}

const titles = (nights: Array<{ item: { title: string } }>) => nights.map((n) => n.item.title);

// Wednesday 25 November 2026, 19:45 in New York.
const WED_EVENING = Date.parse("2026-11-25T19:45:00-05:00");

describe("tonight.list", () => {
  test("today's nights in the viewer's time zone that have not ended, in start order", async () => {
    const t = newTest();
    await createSceneItem(t, { title: "Ended", dayOfWeek: 3, startTimeLocal: "18:00" }); // ends 19:05
    await createSceneItem(t, { title: "Late", dayOfWeek: 3, startTimeLocal: "21:00" });
    await createSceneItem(t, { title: "Running", dayOfWeek: 3, startTimeLocal: "19:30" });
    await createSceneItem(t, { title: "Eight", dayOfWeek: 3, startTimeLocal: "20:00" });
    await createSceneItem(t, { title: "Thursday", dayOfWeek: 4, startTimeLocal: "19:00" });
    await createSceneItem(t, { title: "Chicago", dayOfWeek: 3, startTimeLocal: "20:00", timeZone: "America/Chicago" });
    const result = await tonight(t, { nowMs: WED_EVENING });
    expect(titles(result.nights)).toEqual(["Running", "Eight", "Late"]);
    expect(result.isDone).toBe(true);
    expect(result.tomorrow).toEqual([]);
    expect(result.nights[1]).toMatchObject({
      date: "2026-11-25",
      startMs: Date.parse("2026-11-25T20:00:00-05:00"),
      endMs: Date.parse("2026-11-25T21:05:00-05:00"),
      status: null,
      distanceMiles: null,
    });

    const chicago = await tonight(t, { nowMs: WED_EVENING, timeZone: "America/Chicago" });
    expect(titles(chicago.nights)).toEqual(["Chicago"]);
  });

  test("each mic's own time zone decides its today; start order is by the real instant", async () => {
    const t = newTest();
    // 00:30 Thursday in New York is 23:30 Wednesday in Chicago.
    const now = Date.parse("2026-11-26T00:30:00-05:00");
    await createSceneItem(t, { title: "NY Thursday", dayOfWeek: 4, startTimeLocal: "19:00" });
    await createSceneItem(t, {
      title: "Chicago Wednesday late",
      dayOfWeek: 3,
      startTimeLocal: "23:00",
      timeZone: "America/Chicago",
    });
    await createSceneItem(t, { title: "NY Wednesday over", dayOfWeek: 3, startTimeLocal: "23:00" });
    await createSceneItem(t, {
      title: "Chicago Thursday",
      dayOfWeek: 4,
      startTimeLocal: "19:00",
      timeZone: "America/Chicago",
    });
    const result = await tonight(t, { nowMs: now, area: { ...MANHATTAN, radiusMiles: 10 } });
    expect(titles(result.nights)).toEqual(["Chicago Wednesday late", "NY Thursday"]);
    expect(result.nights[0]).toMatchObject({ date: "2026-11-25", startMs: Date.parse("2026-11-25T23:00:00-06:00") });
    expect(result.nights[0]!.distanceMiles).toBeCloseTo(0, 3);
  });

  test("past midnight a night still running stays, with yesterday's date", async () => {
    const t = newTest();
    const now = Date.parse("2026-11-26T00:30:00-05:00");
    await createSceneItem(t, { title: "Still on", dayOfWeek: 3, startTimeLocal: "23:45" }); // ends 00:50
    await createSceneItem(t, { title: "Over", dayOfWeek: 3, startTimeLocal: "23:00" }); // ends 00:05
    await createSceneItem(t, { title: "Tonight proper", dayOfWeek: 4, startTimeLocal: "20:00" });
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      const result = await tonight(t, { nowMs: now, area });
      expect(titles(result.nights)).toEqual(["Still on", "Tonight proper"]);
      expect(result.nights[0]!.date).toBe("2026-11-25");
      expect(result.nights[1]!.date).toBe("2026-11-26");
    }
    // At 00:51 the late night has ended.
    const later = await tonight(t, { nowMs: Date.parse("2026-11-26T00:51:00-05:00") });
    expect(titles(later.nights)).toEqual(["Tonight proper"]);
  });

  test("DST nights start at the right instant (fall back and spring forward)", async () => {
    const t = newTest();
    await createSceneItem(t, { title: "Sunday mic", dayOfWeek: 0, startTimeLocal: "20:00" });
    // Sunday 1 November 2026: clocks went back at 02:00.
    const fallBack = await tonight(t, { nowMs: Date.parse("2026-11-01T12:00:00-05:00") });
    expect(fallBack.nights[0]).toMatchObject({ date: "2026-11-01", startMs: Date.parse("2026-11-01T20:00:00-05:00") });
    // Sunday 8 March 2026: clocks went forward at 02:00.
    const springForward = await tonight(t, { nowMs: Date.parse("2026-03-08T12:00:00-04:00") });
    expect(springForward.nights[0]).toMatchObject({
      date: "2026-03-08",
      startMs: Date.parse("2026-03-08T20:00:00-04:00"),
    });
    // Past midnight on the night the clocks go back (01:30 EDT, then 01:05 EST an hour later).
    await createSceneItem(t, { title: "Saturday late", dayOfWeek: 6, startTimeLocal: "23:50", performanceMinutes: 10 }); // ends 01:00 EDT
    const firstOneThirty = Date.parse("2026-11-01T00:55:00-04:00");
    expect(titles((await tonight(t, { nowMs: firstOneThirty })).nights)).toEqual(["Saturday late", "Sunday mic"]);
    const afterFallBack = Date.parse("2026-11-01T01:05:00-05:00");
    expect(titles((await tonight(t, { nowMs: afterFallBack })).nights)).toEqual(["Sunday mic"]);
  });

  test("a bi-weekly mic on its off week is not on tonight", async () => {
    const t = newTest();
    await createSceneItem(t, {
      title: "On week",
      dayOfWeek: 3,
      startTimeLocal: "21:00",
      recurrence: "bi-weekly",
      anchorDate: "2026-11-25",
    });
    await createSceneItem(t, {
      title: "Off week",
      dayOfWeek: 3,
      startTimeLocal: "21:00",
      recurrence: "bi-weekly",
      anchorDate: "2026-11-18",
    });
    expect(titles((await tonight(t, { nowMs: WED_EVENING })).nights)).toEqual(["On week"]);
  });

  test("cancelled nights stay but go last; a host confirmation shows; both are per night", async () => {
    const t = newTest();
    const host = await createUser(t);
    const other = await createUser(t);
    const admin = await createAdmin(t);
    const early = await createSceneItem(t, {
      title: "Early",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      createdBy: host.userId,
    });
    const late = await createSceneItem(t, { title: "Late", dayOfWeek: 3, startTimeLocal: "21:00" });
    await t.run(async (ctx) => {
      await ctx.db.insert("micClaims", { micId: late, claimantId: host.userId, status: "approved" });
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(WED_EVENING);
    try {
      await host.asUser.mutation(api.claims.setCancelledDate, { micId: early, date: "2026-11-25", cancelled: true });
      await host.asUser.mutation(api.claims.setConfirmedDate, { micId: late, date: "2026-11-25", confirmed: true });
      await expect(
        other.asUser.mutation(api.claims.setConfirmedDate, { micId: late, date: "2026-11-25", confirmed: true }),
      ).rejects.toThrow();
      await expect(
        t.mutation(api.claims.setConfirmedDate, { micId: late, date: "2026-11-25", confirmed: true }),
      ).rejects.toThrow();
    } finally {
      vi.useRealTimers();
    }
    const result = await tonight(t, { nowMs: WED_EVENING });
    expect(result.nights.map((n) => [n.item.title, n.status])).toEqual([
      ["Late", "confirmed"],
      ["Early", "cancelled"],
    ]);
    const lateDoc = await t.run(async (ctx) => await ctx.db.get("sceneItems", late));
    expect(lateDoc?.lastConfirmedAt).toBe(WED_EVENING);
    // Next Wednesday is a new night: no status.
    const nextWeek = await tonight(t, { nowMs: WED_EVENING + 7 * DAY });
    expect(nextWeek.nights.map((n) => n.status)).toEqual([null, null]);

    // An admin confirms the cancelled night: it runs again and is confirmed.
    await admin.asUser.mutation(api.claims.setConfirmedDate, { micId: early, date: "2026-11-25", confirmed: true });
    const after = await tonight(t, { nowMs: WED_EVENING });
    expect(after.nights.map((n) => [n.item.title, n.status])).toEqual([
      ["Early", "confirmed"],
      ["Late", "confirmed"],
    ]);
    // Cancelling a confirmed night drops the confirmation.
    await host.asUser.mutation(api.claims.setCancelledDate, { micId: early, date: "2026-11-25", cancelled: true });
    const earlyDoc = await t.run(async (ctx) => await ctx.db.get("sceneItems", early as Id<"sceneItems">));
    expect(earlyDoc?.confirmedDates).toEqual([]);
    expect(earlyDoc?.cancelledDates).toEqual(["2026-11-25"]);
  });

  test("when nothing is on tonight it says so with tomorrow's first nights", async () => {
    const t = newTest();
    for (const [i, time] of ["22:00", "19:00", "20:00", "18:00", "21:00", "23:00", "17:00"].entries()) {
      await createSceneItem(t, { title: `Thu ${i} ${time}`, dayOfWeek: 4, startTimeLocal: time });
    }
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      const result = await tonight(t, { nowMs: WED_EVENING, area });
      expect(result.nights).toEqual([]);
      expect(result.tomorrow.map((n) => n.item.startTimeLocal)).toEqual(["17:00", "18:00", "19:00", "20:00", "21:00"]);
      expect(result.tomorrow[0]!.date).toBe("2026-11-26");
    }
  });

  test("filters: free only, sign-up method, time of day, stale, type and search combine", async () => {
    const t = newTest();
    const now = Date.parse("2026-11-25T12:00:00-05:00");
    await createSceneItem(t, {
      title: "Free early",
      dayOfWeek: 3,
      startTimeLocal: "18:00",
      lastCheckInAt: now - 3 * DAY,
    });
    await createSceneItem(t, {
      title: "Paid prime",
      dayOfWeek: 3,
      startTimeLocal: "19:30",
      costInfo: { type: "cover", coverAmount: 5 },
      lastCheckInAt: now - 20 * DAY,
    });
    await createSceneItem(t, { title: "Online late", dayOfWeek: 3, startTimeLocal: "21:30", signupMethod: "online" });
    await createSceneItem(t, {
      title: "Late show",
      type: "show",
      dayOfWeek: 3,
      startTimeLocal: "22:00",
      costInfo: null,
      signupMethod: undefined,
      lastConfirmedAt: now - DAY,
    });
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      const run = async (filters: Partial<PlanFilters>, extra: Partial<Args> = {}) =>
        titles((await tonight(t, { nowMs: now, area, filters, ...extra })).nights);
      expect(await run({})).toEqual(["Free early", "Paid prime", "Online late", "Late show"]);
      expect(await run({ freeOnly: true })).toEqual(["Free early", "Online late"]);
      expect(await run({ signup: "online" })).toEqual(["Online late"]);
      expect(await run({ signup: "in_person" })).toEqual(["Free early", "Paid prime"]);
      expect(await run({ timeOfDay: "early" })).toEqual(["Free early"]);
      expect(await run({ timeOfDay: "prime" })).toEqual(["Paid prime"]);
      expect(await run({ timeOfDay: "late" })).toEqual(["Online late", "Late show"]);
      expect(await run({ hideStale: true })).toEqual(["Free early", "Paid prime", "Late show"]);
      expect(await run({ timeOfDay: "late" }, { type: "show" })).toEqual(["Late show"]);
      expect(await run({ freeOnly: true }, { search: "onl" })).toEqual(["Online late"]);
    }
  });

  test("the limit pages: isDone is false while more nights match", async () => {
    const t = newTest();
    for (let i = 0; i < 5; i++)
      await createSceneItem(t, { title: `Mic ${i}`, dayOfWeek: 3, startTimeLocal: `20:${i}0` });
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      const first = await tonight(t, { nowMs: WED_EVENING, area, limit: 3 });
      expect(titles(first.nights)).toEqual(["Mic 0", "Mic 1", "Mic 2"]);
      expect(first.isDone).toBe(false);
      const all = await tonight(t, { nowMs: WED_EVENING, area, limit: 5 });
      expect(all.nights).toHaveLength(5);
      expect(all.isDone).toBe(true);
    }
  });

  test("around a point only the area's mics are read and shown, with their distance", async () => {
    const t = newTest();
    await createSceneItem(t, {
      title: "Near",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      latitude: 40.75,
      longitude: -73.99,
    });
    await createSceneItem(t, {
      title: "Brooklyn",
      dayOfWeek: 3,
      startTimeLocal: "20:30",
      latitude: 40.68,
      longitude: -73.97,
    });
    await createSceneItem(t, {
      title: "Boston",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      latitude: 42.36,
      longitude: -71.06,
    });
    const result = await tonight(t, { nowMs: WED_EVENING, area: { ...MANHATTAN, radiusMiles: 5 } });
    expect(titles(result.nights)).toEqual(["Near", "Brooklyn"]);
    expect(result.nights[1]!.distanceMiles).toBeGreaterThan(3);
    expect(result.nights[1]!.distanceMiles).toBeLessThan(5);
  });

  test("bad input is refused", async () => {
    const t = newTest();
    await expectAppError(tonight(t, { nowMs: Number.NaN }), "INVALID_INPUT", /time is not valid/);
    await expectAppError(
      tonight(t, { nowMs: WED_EVENING, timeZone: "Mars/Olympus" }),
      "INVALID_INPUT",
      /Unknown time zone/,
    );
    await expectAppError(tonight(t, { nowMs: WED_EVENING, limit: 1000 }), "INVALID_INPUT", /Limit/);
    await expectAppError(tonight(t, { nowMs: WED_EVENING, search: "x".repeat(101) }), "INVALID_INPUT", /too long/);
    await expectAppError(
      tonight(t, { nowMs: WED_EVENING, area: { ...MANHATTAN, radiusMiles: 500 } }),
      "INVALID_INPUT",
      /Distance/,
    );
  });
});

describe("scene.listPage plan filters", () => {
  test("free only, sign-up, time of day and hide stale narrow the server's pages, with type and day", async () => {
    const t = newTest();
    const now = Date.parse("2026-11-25T12:00:00-05:00");
    await createSceneItem(t, {
      title: "Free early",
      dayOfWeek: 3,
      startTimeLocal: "18:00",
      lastCheckInAt: now - 3 * DAY,
    });
    await createSceneItem(t, {
      title: "Paid prime",
      dayOfWeek: 3,
      startTimeLocal: "19:30",
      costInfo: { type: "cover", coverAmount: 5 },
    });
    await createSceneItem(t, {
      title: "Online late",
      dayOfWeek: 4,
      startTimeLocal: "21:30",
      signupMethod: "online",
      lastConfirmedAt: now - 50 * DAY,
    });
    const run = async (filters: Partial<PlanFilters>, day: number | null = null) => {
      const result = await t.query(api.scene.listPage, {
        type: "all",
        day,
        search: "",
        paginationOpts: { numItems: 50, cursor: null },
        filters: { ...NO_PLAN_FILTERS, ...filters },
        nowMs: now,
      });
      return titles(result.page.map((item) => ({ item })));
    };
    expect(await run({})).toEqual(["Free early", "Paid prime", "Online late"]);
    expect(await run({ freeOnly: true })).toEqual(["Free early", "Online late"]);
    expect(await run({ freeOnly: true }, 3)).toEqual(["Free early"]);
    expect(await run({ signup: "online" })).toEqual(["Online late"]);
    expect(await run({ timeOfDay: "prime" })).toEqual(["Paid prime"]);
    expect(await run({ timeOfDay: "late" })).toEqual(["Online late"]);
    expect(await run({ hideStale: true })).toEqual(["Free early"]);
  });
});

describe("the schedule and tonight's status", () => {
  test("adding a second mic for the same night warns of the overlap without blocking; the week shows each night's status", async () => {
    const t = newTest();
    const comic = await createUser(t, { withStats: true });
    const host = await createUser(t);
    const eight = await createSceneItem(t, {
      title: "Eight",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      performanceMinutes: 5,
      createdBy: host.userId,
    });
    const half = await createSceneItem(t, { title: "Half past", dayOfWeek: 3, startTimeLocal: "20:30" });
    const nine = await createSceneItem(t, { title: "Nine", dayOfWeek: 3, startTimeLocal: "21:00" });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse("2026-11-25T12:00:00-05:00"));
    try {
      const first = await comic.asUser.mutation(api.schedule.add, { sceneItemId: eight });
      expect(first.overlaps).toEqual([]);
      const second = await comic.asUser.mutation(api.schedule.add, { sceneItemId: half });
      expect(second.overlaps).toEqual([{ title: "Eight", startMs: Date.parse("2026-11-25T20:00:00-05:00") }]);
      const third = await comic.asUser.mutation(api.schedule.add, { sceneItemId: nine });
      expect(third.overlaps.map((o) => o.title)).toEqual(["Half past"]);
      await host.asUser.mutation(api.claims.setCancelledDate, { micId: eight, date: "2026-11-25", cancelled: true });
    } finally {
      vi.useRealTimers();
    }
    const week = await comic.asUser.query(api.schedule.week, {
      weekStartMs: Date.parse("2026-11-23T00:00:00-05:00"),
      weekEndMs: Date.parse("2026-11-29T23:59:59-05:00"),
      nowMs: Date.parse("2026-11-25T12:00:00-05:00"),
    });
    const statusOf = Object.fromEntries(
      week.items.map((i) => [i.title, "nightStatus" in i ? (i.nightStatus ?? null) : null]),
    );
    expect(statusOf).toEqual({ Eight: "cancelled", "Half past": null, Nine: null });
  });
});

describe("freshness and overlap rules", () => {
  const now = Date.parse("2026-11-25T12:00:00-05:00");
  test("fresh up to 14 days, ageing up to 45, stale after or never; the latest confirmation of any kind counts", () => {
    expect(freshness({}, now).grade).toBe("stale");
    expect(freshness({ lastCheckInAt: now - 14 * DAY }, now).grade).toBe("fresh");
    expect(freshness({ lastCheckInAt: now - 15 * DAY }, now).grade).toBe("ageing");
    expect(freshness({ lastCheckInAt: now - 45 * DAY }, now).grade).toBe("ageing");
    expect(freshness({ lastCheckInAt: now - 46 * DAY }, now).grade).toBe("stale");
    expect(freshness({ lastCheckInAt: now - 46 * DAY, lastConfirmedAt: now - DAY }, now)).toMatchObject({
      grade: "fresh",
      days: 1,
    });
  });
  test("two nights overlap from start to start + set length + 30 minutes", () => {
    const eight = Date.parse("2026-11-25T20:00:00-05:00");
    expect(nightsOverlap({ startMs: eight, performanceMinutes: 5 }, { startMs: eight + 30 * 60_000 })).toBe(true);
    expect(nightsOverlap({ startMs: eight, performanceMinutes: 5 }, { startMs: eight + 35 * 60_000 })).toBe(false);
    expect(nightsOverlap({ startMs: eight + 60 * 60_000 }, { startMs: eight, performanceMinutes: 10 })).toBe(false);
  });
});

/**
 * A query context whose reads are counted: every document a query yields
 * (iteration or `first`) or a `get` returns, as the engine counts documents read.
 */
function countingCtx<C extends { db: object }>(ctx: C): { ctx: C; reads: () => number } {
  let reads = 0;
  const wrapQuery = (q: unknown): unknown =>
    new Proxy(q as object, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop === Symbol.asyncIterator) {
          return () => {
            const it = (value as () => AsyncIterator<unknown>).call(target);
            return {
              next: async () => {
                const r = await it.next();
                if (!r.done) reads++;
                return r;
              },
            };
          };
        }
        if (prop === "first") {
          return async () => {
            const doc = await (value as () => Promise<unknown>).call(target);
            if (doc !== null) reads++;
            return doc;
          };
        }
        if (typeof value === "function" && ["withIndex", "order", "filter"].includes(String(prop))) {
          return (...a: unknown[]) => wrapQuery((value as (...x: unknown[]) => unknown).apply(target, a));
        }
        return typeof value === "function" ? (value as (...x: unknown[]) => unknown).bind(target) : value;
      },
    });
  const db = new Proxy(ctx.db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === "query") return (table: string) => wrapQuery((value as (t: string) => unknown).call(target, table));
      return typeof value === "function" ? (value as (...x: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ctx: { ...ctx, db }, reads: () => reads };
}

describe("tonight.list pages", () => {
  const key = (n: { item: { title: string }; status: string | null }) =>
    `${n.item.title}${n.status === "cancelled" ? " (cancelled)" : ""}`;

  test("pages across time zones keep the real start order, without gaps or repeats", async () => {
    const t = newTest();
    // 19:45 in New York is 18:45 in Chicago and 16:45 in Los Angeles; all in Manhattan.
    const mics: Array<[string, string, string]> = [
      ["NY 20:00", "20:00", NY],
      ["Chicago 19:30 (NY 20:30)", "19:30", "America/Chicago"],
      ["NY 20:15", "20:15", NY],
      ["LA 18:00 (NY 21:00)", "18:00", "America/Los_Angeles"],
      ["NY 21:30", "21:30", NY],
      ["Chicago 19:00 (NY 20:00)", "19:00", "America/Chicago"],
      ["Chicago 21:00 (NY 22:00)", "21:00", "America/Chicago"],
    ];
    for (const [title, startTimeLocal, timeZone] of mics) {
      await createSceneItem(t, { title, dayOfWeek: 3, startTimeLocal, timeZone });
    }
    const area = { ...MANHATTAN, radiusMiles: 10 };
    const whole = await tonight(t, { nowMs: WED_EVENING, area });
    const expected = [
      "Chicago 19:00 (NY 20:00)",
      "NY 20:00",
      "NY 20:15",
      "Chicago 19:30 (NY 20:30)",
      "LA 18:00 (NY 21:00)",
      "NY 21:30",
      "Chicago 21:00 (NY 22:00)",
    ];
    // Same instant (NY 20:00 and Chicago 19:00): the earlier local time, then creation order.
    expect(titles(whole.nights)).toEqual(expected);
    for (const size of [1, 2, 3]) {
      const paged = await allPages(t, { nowMs: WED_EVENING, area }, size);
      expect(titles(paged.nights)).toEqual(expected);
      expect(paged.sizes.slice(0, -1).every((n) => n === size)).toBe(true);
    }
    // Without an area, only the viewer's zone, still paged in order.
    const zone = await allPages(t, { nowMs: WED_EVENING, timeZone: "America/Chicago" }, 2);
    expect(titles(zone.nights)).toEqual([
      "Chicago 19:00 (NY 20:00)",
      "Chicago 19:30 (NY 20:30)",
      "Chicago 21:00 (NY 22:00)",
    ]);
  });

  test("past midnight, yesterday's running nights come first and page on into today's", async () => {
    const t = newTest();
    const now = Date.parse("2026-11-26T00:30:00-05:00"); // Thursday 00:30
    await createSceneItem(t, { title: "Wed 23:45", dayOfWeek: 3, startTimeLocal: "23:45" }); // ends 00:50
    await createSceneItem(t, { title: "Wed 23:30", dayOfWeek: 3, startTimeLocal: "23:30" }); // ends 00:35
    await createSceneItem(t, { title: "Wed 23:00", dayOfWeek: 3, startTimeLocal: "23:00" }); // over at 00:05
    await createSceneItem(t, { title: "Thu 00:15", dayOfWeek: 4, startTimeLocal: "00:15" });
    await createSceneItem(t, { title: "Thu 19:00", dayOfWeek: 4, startTimeLocal: "19:00" });
    await createSceneItem(t, { title: "Thu 20:00", dayOfWeek: 4, startTimeLocal: "20:00" });
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      const paged = await allPages(t, { nowMs: now, area }, 2);
      expect(titles(paged.nights)).toEqual(["Wed 23:30", "Wed 23:45", "Thu 00:15", "Thu 19:00", "Thu 20:00"]);
      expect(paged.nights.map((n) => n.date)).toEqual([
        "2026-11-25",
        "2026-11-25",
        "2026-11-26",
        "2026-11-26",
        "2026-11-26",
      ]);
    }
  });

  test("DST nights page without gaps: the fall-back night and a start inside the spring-forward gap", async () => {
    const t = newTest();
    // Saturday 31 October into Sunday 1 November 2026: clocks go back at 02:00.
    await createSceneItem(t, { title: "Sat 23:50", dayOfWeek: 6, startTimeLocal: "23:50", performanceMinutes: 10 });
    await createSceneItem(t, { title: "Sat 23:55", dayOfWeek: 6, startTimeLocal: "23:55", performanceMinutes: 10 });
    await createSceneItem(t, { title: "Sun 01:30", dayOfWeek: 0, startTimeLocal: "01:30" });
    await createSceneItem(t, { title: "Sun 20:00", dayOfWeek: 0, startTimeLocal: "20:00" });
    const fallBack = await allPages(t, { nowMs: Date.parse("2026-11-01T00:55:00-04:00") }, 1);
    expect(titles(fallBack.nights)).toEqual(["Sat 23:50", "Sat 23:55", "Sun 01:30", "Sun 20:00"]);
    expect(fallBack.nights[2]!.startMs).toBe(Date.parse("2026-11-01T01:30:00-04:00"));

    // Sunday 8 March 2026: 02:30 does not exist; it starts at 03:30 EDT but sorts at the jump (03:00), before 03:15.
    const spring = newTest();
    await createSceneItem(spring, { title: "Sun 02:30 (gap)", dayOfWeek: 0, startTimeLocal: "02:30" });
    await createSceneItem(spring, { title: "Sun 03:15", dayOfWeek: 0, startTimeLocal: "03:15" });
    await createSceneItem(spring, { title: "Sun 03:45", dayOfWeek: 0, startTimeLocal: "03:45" });
    const now = Date.parse("2026-03-08T01:00:00-05:00");
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      const paged = await allPages(spring, { nowMs: now, area }, 1);
      expect(titles(paged.nights)).toEqual(["Sun 02:30 (gap)", "Sun 03:15", "Sun 03:45"]);
      expect(paged.nights[0]!.startMs).toBe(Date.parse("2026-03-08T03:30:00-04:00"));
    }
  });

  test("cancelled nights come after every other night, across page boundaries", async () => {
    const t = newTest();
    const host = await createUser(t);
    const ids: Id<"sceneItems">[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(
        await createSceneItem(t, {
          title: `Mic ${i}`,
          dayOfWeek: 3,
          startTimeLocal: `20:0${i}`,
          createdBy: host.userId,
        }),
      );
    }
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(WED_EVENING);
    try {
      for (const i of [0, 2, 5]) {
        await host.asUser.mutation(api.claims.setCancelledDate, {
          micId: ids[i]!,
          date: "2026-11-25",
          cancelled: true,
        });
      }
    } finally {
      vi.useRealTimers();
    }
    const expected = [
      "Mic 1",
      "Mic 3",
      "Mic 4",
      "Mic 6",
      "Mic 0 (cancelled)",
      "Mic 2 (cancelled)",
      "Mic 5 (cancelled)",
    ];
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      for (const size of [1, 2, 3, 5, 50]) {
        const paged = await allPages(t, { nowMs: WED_EVENING, area }, size);
        expect(paged.nights.map(key)).toEqual(expected);
      }
    }
    // Greyed-out status comes with the night.
    const last = await allPages(t, { nowMs: WED_EVENING }, 3);
    expect(last.nights.slice(4).every((n) => n.status === "cancelled")).toBe(true);
  });

  test("a page re-run with its end cursor keeps its range when a night is cancelled or added", async () => {
    const t = newTest();
    const host = await createUser(t);
    const ids: Id<"sceneItems">[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(
        await createSceneItem(t, {
          title: `Mic ${i}`,
          dayOfWeek: 3,
          startTimeLocal: `20:${i}0`,
          createdBy: host.userId,
        }),
      );
    }
    const args = { ...baseArgs({ nowMs: WED_EVENING }) };
    const first = await t.query(api.tonight.list, { ...args, paginationOpts: { numItems: 2, cursor: null } });
    expect(titles(first.page)).toEqual(["Mic 0", "Mic 1"]);
    await createSceneItem(t, { title: "Mic 0b", dayOfWeek: 3, startTimeLocal: "20:05" });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(WED_EVENING);
    try {
      await host.asUser.mutation(api.claims.setCancelledDate, { micId: ids[1]!, date: "2026-11-25", cancelled: true });
    } finally {
      vi.useRealTimers();
    }
    const rerun = await t.query(api.tonight.list, {
      ...args,
      paginationOpts: { numItems: 2, cursor: null, endCursor: first.continueCursor },
    });
    // The new mic falls inside the pinned range; the cancelled one leaves it (it comes last).
    expect(titles(rerun.page)).toEqual(["Mic 0", "Mic 0b"]);
    expect(rerun.continueCursor).toBe(first.continueCursor);
    const rest = await t.query(api.tonight.list, {
      ...args,
      paginationOpts: { numItems: 50, cursor: first.continueCursor },
    });
    expect(rest.page.map(key)).toEqual(["Mic 2", "Mic 3", "Mic 1 (cancelled)"]);
    expect(rest.isDone).toBe(true);
  });

  test("a page reads its own nights plus one row per source, whatever the area's total", async () => {
    const t = newTest();
    const seed = async (count: number, offset: number) => {
      await t.run(async (ctx) => {
        for (let i = 0; i < count; i++) {
          const n = offset + i;
          const lat = 40.74 + ((n % 20) - 10) * 0.004;
          const lng = -73.99 + (Math.floor(n / 20) % 20) * 0.004;
          const hh = 20 + Math.floor((n % 240) / 60);
          const geohash = encodeGeohash(lat, lng, 6);
          await ctx.db.insert("sceneItems", {
            title: `Mic ${n}`,
            venueName: `Room ${n}`,
            city: "New York",
            type: "open_mic",
            latitude: lat,
            longitude: lng,
            dayOfWeek: 3,
            startTimeLocal: `${hh}:${String(n % 60).padStart(2, "0")}`,
            recurrence: "weekly",
            timeZone: NY,
            status: "active",
            checkInCount: 0,
            verifiedCheckIns30d: 0,
            geohash,
            areaCell: geohash.slice(0, 4),
            searchText: `mic ${n} room ${n} new york`,
          });
        }
      });
    };
    const readsOfPage = async (args: Args) =>
      await t.run(async (ctx) => {
        const counted = countingCtx(ctx);
        const page = await tonightPage(counted.ctx, {
          ...baseArgs(args),
          paginationOpts: { numItems: 10, cursor: null },
        });
        const second = await tonightPage(ctx, {
          ...baseArgs(args),
          paginationOpts: { numItems: 10, cursor: page.continueCursor },
        });
        const counted2 = countingCtx(ctx);
        await tonightPage(counted2.ctx, {
          ...baseArgs(args),
          paginationOpts: { numItems: 10, cursor: second.continueCursor },
        });
        return { first: counted.reads(), third: counted2.reads(), page };
      });
    await seed(40, 0);
    const area = { lat: 40.74, lng: -73.96, radiusMiles: 10 };
    const small = {
      zone: await readsOfPage({ nowMs: WED_EVENING }),
      area: await readsOfPage({ nowMs: WED_EVENING, area }),
    };
    await seed(400, 40);
    const big = {
      zone: await readsOfPage({ nowMs: WED_EVENING }),
      area: await readsOfPage({ nowMs: WED_EVENING, area }),
    };
    expect(big.zone.page.page).toHaveLength(10);
    expect(big.area.page.page).toHaveLength(10);
    // Ten nights, plus at most one row ahead per source (and one row per time zone per cell for the area).
    for (const m of [small.zone, small.area, big.zone, big.area]) {
      expect(m.first).toBeLessThanOrEqual(30);
      expect(m.third).toBeLessThanOrEqual(30);
    }
    // Ten times the mics, the same reads.
    expect(big.zone.first).toBeLessThanOrEqual(small.zone.first + 2);
    expect(big.area.first).toBeLessThanOrEqual(small.area.first + 5);
  });

  test("tomorrow holds its first five nights in start order, around a point too", async () => {
    const t = newTest();
    for (const time of ["22:00", "19:00", "20:00", "18:00", "21:00", "23:00"]) {
      await createSceneItem(t, { title: `Thu ${time}`, dayOfWeek: 4, startTimeLocal: time });
    }
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      const next = await t.query(api.tonight.tomorrow, baseArgs({ nowMs: WED_EVENING, area }));
      expect(titles(next)).toEqual(["Thu 18:00", "Thu 19:00", "Thu 20:00", "Thu 21:00", "Thu 22:00"]);
    }
  });

  test("a cursor that is not Tonight's is refused as an invalid cursor", async () => {
    const t = newTest();
    for (const cursor of [
      "nope",
      "{}",
      JSON.stringify({ v: 1, phase: 5, key: null }),
      JSON.stringify({ v: 1, phase: 0, key: [1, 2] }),
    ]) {
      await expectAppError(
        t.query(api.tonight.list, { ...baseArgs({ nowMs: WED_EVENING }), paginationOpts: { numItems: 5, cursor } }),
        "INVALID_INPUT",
        /cursor is not valid/,
      );
    }
  });
});
