import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { freshness, nightsOverlap } from "./lib/tonight";
import { NO_PLAN_FILTERS, type PlanFilters } from "./model/tonight";
import { createSceneItem, createUser, newTest } from "./testing/test.setup";
import { DAY, titles, WED_NOON, createFreeEarlyAndPaidPrime } from "./testing/test.tonight";

describe("scene.listPage plan filters", () => {
  test("free only, sign-up, time of day and hide stale narrow the server's pages, with type and day", async () => {
    const t = newTest();
    const now = WED_NOON;
    await createFreeEarlyAndPaidPrime(t);
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
    await t.run((ctx) => ctx.db.insert("micClaims", { micId: eight, claimantId: host.userId, status: "approved" }));
    const half = await createSceneItem(t, { title: "Half past", dayOfWeek: 3, startTimeLocal: "20:30" });
    const nine = await createSceneItem(t, { title: "Nine", dayOfWeek: 3, startTimeLocal: "21:00" });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(WED_NOON);
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
      nowMs: WED_NOON,
    });
    const statusOf = Object.fromEntries(
      week.items.map((i) => [i.title, "nightStatus" in i ? (i.nightStatus ?? null) : null]),
    );
    expect(statusOf).toEqual({ Eight: "cancelled", "Half past": null, Nine: null });
  });
});

describe("freshness and overlap rules", () => {
  const now = WED_NOON;
  test("fresh up to 14 days, ageing up to 45, stale after or never; the latest confirmation of any kind counts", () => {
    expect(freshness({}, now).grade).toBe("stale");
    // Never confirmed: new for two weeks after it was added (seconds after the viewer's clock too), then stale.
    expect(freshness({ _creationTime: now + 30_000 }, now).grade).toBe("new");
    expect(freshness({ _creationTime: now - 14 * DAY }, now).grade).toBe("new");
    expect(freshness({ _creationTime: now - 15 * DAY }, now).grade).toBe("stale");
    expect(freshness({ _creationTime: now - 2 * DAY, lastCheckInAt: now - 50 * DAY }, now).grade).toBe("stale");
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
