import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { type PlanFilters } from "./model/tonight";
import { expectAppError } from "./testing/test.expect";
import { createAdmin, createSceneItem, createUser, newTest } from "./testing/test.setup";
import {
  MANHATTAN,
  DAY,
  type Args,
  tonight,
  titles,
  WED_EVENING,
  WED_NOON,
  createFreeEarlyAndPaidPrime,
} from "./testing/test.tonight";

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

  test("without a location, the viewer's region: zones on the same clock, or the default one for a clock no mic keeps", async () => {
    const t = newTest();
    await createSceneItem(t, { title: "New York", dayOfWeek: 3, startTimeLocal: "20:00" });
    await createSceneItem(t, { title: "Detroit", dayOfWeek: 3, startTimeLocal: "20:30", timeZone: "America/Detroit" });
    await createSceneItem(t, { title: "Chicago", dayOfWeek: 3, startTimeLocal: "20:00", timeZone: "America/Chicago" });
    const inDetroit = await tonight(t, { nowMs: WED_EVENING, timeZone: "America/Detroit" });
    expect(titles(inDetroit.nights)).toEqual(["New York", "Detroit"]);
    const inNewYork = await tonight(t, { nowMs: WED_EVENING, timeZone: "America/New_York" });
    expect(titles(inNewYork.nights)).toEqual(["New York", "Detroit"]);
    // No mic keeps UTC's clock: a browser there sees New York's region, not nothing.
    const inUtc = await tonight(t, { nowMs: WED_EVENING, timeZone: "UTC" });
    expect(titles(inUtc.nights)).toEqual(["New York", "Detroit"]);
    // Nor once one does (01:00 Thursday on UTC is tonight there): UTC names no place, so New York's
    // nights never vanish from a UTC browser when such a mic is added. London keeps UTC's clock and sees it.
    await createSceneItem(t, { title: "Greenwich", dayOfWeek: 4, startTimeLocal: "01:00", timeZone: "UTC" });
    for (const timeZone of ["UTC", "Etc/UTC", "GMT"]) {
      expect(titles((await tonight(t, { nowMs: WED_EVENING, timeZone })).nights)).toEqual(["New York", "Detroit"]);
    }
    const inLondon = await tonight(t, { nowMs: WED_EVENING, timeZone: "Europe/London" });
    expect(titles(inLondon.nights)).toEqual(["Greenwich"]);
    const inChicago = await tonight(t, { nowMs: WED_EVENING, timeZone: "America/Chicago" });
    expect(titles(inChicago.nights)).toEqual(["Chicago"]);
  });

  test("a city's time zone is that of its mics: Tonight in it shows the city's nights wherever the browser is", async () => {
    const t = newTest();
    await createSceneItem(t, { title: "New York", dayOfWeek: 3, startTimeLocal: "20:00", city: "New York" });
    await createSceneItem(t, {
      title: "Windy Room",
      venueName: "Lakeside",
      city: "Chicago",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      timeZone: "America/Chicago",
    });
    // A mic named after the city elsewhere does not decide it, nor do mics saved from browsers on UTC.
    await createSceneItem(t, { title: "Chicago Style", city: "Brooklyn", dayOfWeek: 3, startTimeLocal: "21:00" });
    for (const title of ["Midnight One", "Midnight Two"]) {
      await createSceneItem(t, { title, city: "Chicago", dayOfWeek: 4, startTimeLocal: "00:00", timeZone: "UTC" });
    }
    const zone = await t.query(api.tonight.cityTimeZone, { city: "  chicago " });
    expect(zone).toBe("America/Chicago");
    expect(titles((await tonight(t, { nowMs: WED_EVENING, timeZone: zone! })).nights)).toEqual(["Windy Room"]);
    expect(await t.query(api.tonight.cityTimeZone, { city: "Nowhere" })).toBeNull();
    expect(await t.query(api.tonight.cityTimeZone, { city: "   " })).toBeNull();
    await expectAppError(t.query(api.tonight.cityTimeZone, { city: "c".repeat(81) }), "INVALID_INPUT");
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
      await ctx.db.insert("micClaims", { micId: early, claimantId: host.userId, status: "approved" });
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
    const now = WED_NOON;
    await createFreeEarlyAndPaidPrime(t, { lastCheckInAt: now - 20 * DAY });
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
