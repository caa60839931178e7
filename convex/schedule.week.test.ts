import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone (every date comes out in UTC).
import "./lib/time";
import { calendarRecurrence } from "./lib/recurrence";
import { createSceneItem, createUser } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import {
  BI_WEEKLY_TUESDAY,
  DAY,
  MONTHLY_ON_THE_25TH,
  NOW,
  t,
  at,
  weekOf,
  logSetAt,
  useSaturdayNoon,
} from "./testing/test.schedule";

useSaturdayNoon();

describe("schedule.week", () => {
  test("scheduled mics appear at their occurrences for every kind of recurrence", async () => {
    // Every item is created on Saturday 2026-11-21, the day its cadence counts from.
    const weekly = await createSceneItem(t, { title: "Weekly", dayOfWeek: 1, startTimeLocal: "19:30" });
    const biWeekly = await createSceneItem(t, BI_WEEKLY_TUESDAY);
    const monthly = await createSceneItem(t, MONTHLY_ON_THE_25TH);
    const oneTime = await createSceneItem(t, {
      title: "One-time",
      recurrence: "one-time",
      dayOfWeek: 4,
      startTimeLocal: "21:00",
    });
    const firstMonday = await createSceneItem(t, {
      title: "First Monday",
      recurrence: "custom",
      customRecurrenceDescription: "first Monday of each month",
      dayOfWeek: 1,
      startTimeLocal: "18:00",
    });
    const everyThree = await createSceneItem(t, {
      title: "Every 3 weeks",
      recurrence: "custom",
      customRecurrenceDescription: "every 3 weeks",
      dayOfWeek: 5,
      startTimeLocal: "19:00",
    });
    const comic = await createUser(t);
    for (const sceneItemId of [weekly, biWeekly, monthly, oneTime, firstMonday, everyThree]) {
      await comic.asUser.mutation(api.schedule.add, { sceneItemId });
    }
    const starts = async (date: string) =>
      (await comic.asUser.query(api.schedule.week, weekOf(date))).items.map((i) => [
        i.kind,
        i.title,
        new Date(i.startsAt).toISOString(),
      ]);

    expect(await starts("2026-11-23")).toEqual([
      ["scheduled", "Weekly", "2026-11-24T00:30:00.000Z"],
      ["scheduled", "Bi-weekly", "2026-11-25T01:00:00.000Z"],
      ["scheduled", "Monthly", "2026-11-26T00:00:00.000Z"],
      ["scheduled", "One-time", "2026-11-27T02:00:00.000Z"],
      ["scheduled", "Every 3 weeks", "2026-11-28T00:00:00.000Z"],
    ]);
    // The bi-weekly mic's off week; no 25th, no first Monday, the one-time show is over.
    expect(await starts("2026-12-02")).toEqual([["scheduled", "Weekly", "2026-12-01T00:30:00.000Z"]]);
    expect(await starts("2026-12-07")).toEqual([
      ["scheduled", "First Monday", "2026-12-07T23:00:00.000Z"],
      ["scheduled", "Weekly", "2026-12-08T00:30:00.000Z"],
      ["scheduled", "Bi-weekly", "2026-12-09T01:00:00.000Z"],
    ]);
    expect(await starts("2026-12-14")).toEqual([
      ["scheduled", "Weekly", "2026-12-15T00:30:00.000Z"],
      ["scheduled", "Every 3 weeks", "2026-12-19T00:00:00.000Z"],
    ]);
  });

  test("a bi-weekly mic with a chosen first date counts its cadence from that date", async () => {
    const mic = await createSceneItem(t, {
      recurrence: "bi-weekly",
      dayOfWeek: 1,
      startTimeLocal: "19:30",
      anchorDate: "2026-11-30",
    });
    const comic = await createUser(t);
    await comic.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    const startsIn = async (date: string) =>
      (await comic.asUser.query(api.schedule.week, weekOf(date))).items.map((i) => i.startsAt);
    expect(await startsIn("2026-11-23")).toEqual([]);
    expect(await startsIn("2026-11-30")).toEqual([at("2026-11-30T19:30:00-05:00")]);
    expect(await startsIn("2026-12-07")).toEqual([]);
    const [item] = await comic.asUser.query(api.schedule.calendar, { fromMs: NOW });
    expect(item.anchorDate).toBe("2026-11-30");
    expect(calendarRecurrence({ ...item, anchorDate: item.anchorDate ?? undefined }, NOW)?.startMs).toBe(
      at("2026-11-30T19:30:00-05:00"),
    );
  });

  test("a week with a DST change keeps wall-clock times", async () => {
    // New York falls back on Sunday 2026-11-01: Monday is EDT, Sunday EST.
    const monday = await createSceneItem(t, { title: "Mon", dayOfWeek: 1, startTimeLocal: "19:30" });
    const sunday = await createSceneItem(t, { title: "Sun", dayOfWeek: 0, startTimeLocal: "19:30" });
    const comic = await createUser(t);
    for (const sceneItemId of [monday, sunday]) {
      await t.run(async (ctx) => ctx.db.insert("scheduleEntries", { userId: comic.userId, sceneItemId, addedAt: NOW }));
    }
    const week = await comic.asUser.query(api.schedule.week, weekOf("2026-10-28", at("2026-10-20T12:00:00-04:00")));
    expect(week.items.map((i) => i.startsAt)).toEqual([
      at("2026-10-26T19:30:00-04:00"),
      at("2026-11-01T19:30:00-05:00"),
    ]);
  });

  test("the three kinds of item: scheduled mics, logged sets and mics the comedian created", async () => {
    const comic = await createUser(t, { withStats: true });
    const sundayMic = await createSceneItem(t, { title: "Sunday Mic", dayOfWeek: 0, startTimeLocal: "19:00" });
    const mondayMic = await createSceneItem(t, { title: "Monday Mic", dayOfWeek: 1, startTimeLocal: "19:30" });
    const mine = await createSceneItem(t, {
      title: "My Show",
      venueName: "My Bar",
      type: "show",
      dayOfWeek: 6,
      startTimeLocal: "20:00",
      createdBy: comic.userId,
    });
    const mineScheduled = await createSceneItem(t, {
      title: "My Mic",
      dayOfWeek: 0,
      startTimeLocal: "21:00",
      createdBy: comic.userId,
    });
    await createSceneItem(t, { title: "Retired", dayOfWeek: 6, status: "inactive", createdBy: comic.userId });
    const entry = await comic.asUser.mutation(api.schedule.add, { sceneItemId: sundayMic });
    await comic.asUser.mutation(api.schedule.add, { sceneItemId: mondayMic });
    await comic.asUser.mutation(api.schedule.add, { sceneItemId: mineScheduled });
    const atMic = await logSetAt(comic.userId, at("2026-11-16T19:40:00-05:00"), { sceneItemId: mondayMic, minutes: 7 });
    const named = await logSetAt(comic.userId, at("2026-11-18T22:00:00-05:00"), { venueName: "Basement" });
    const unnamed = await logSetAt(comic.userId, at("2026-11-19T22:00:00-05:00"), { minutes: 12 });
    await t.run(async (ctx) => {
      const row = await ctx.db
        .query("userStats")
        .withIndex("by_userId", (q) => q.eq("userId", comic.userId))
        .unique();
      await ctx.db.patch("userStats", row!._id, { totalSets: 40, uniqueVenues: 6, totalMinutes: 222 });
    });

    // Saturday noon: Monday's mic is over, so only the sets before today show, then the rest of the week.
    const week = await comic.asUser.query(api.schedule.week, weekOf("2026-11-21"));
    expect(week.items).toEqual([
      {
        kind: "session",
        performanceId: atMic,
        sceneItemId: mondayMic,
        title: "Monday Mic",
        venueName: "The Test Room",
        startsAt: at("2026-11-16T19:40:00-05:00"),
        minutes: 7,
      },
      {
        kind: "session",
        performanceId: named,
        sceneItemId: null,
        title: "Basement",
        venueName: "Basement",
        startsAt: at("2026-11-18T22:00:00-05:00"),
        minutes: 5,
      },
      {
        kind: "session",
        performanceId: unnamed,
        sceneItemId: null,
        title: "Unknown Venue",
        venueName: null,
        startsAt: at("2026-11-19T22:00:00-05:00"),
        minutes: 12,
      },
      {
        kind: "scene",
        sceneItemId: mine,
        title: "My Show",
        venueName: "My Bar",
        city: "New York",
        startsAt: at("2026-11-21T20:00:00-05:00"),
        type: "show",
      },
      {
        kind: "scheduled",
        entryId: entry.entryId,
        sceneItemId: sundayMic,
        title: "Sunday Mic",
        venueName: "The Test Room",
        city: "New York",
        startsAt: at("2026-11-22T19:00:00-05:00"),
        type: "open_mic",
        recurrence: "weekly",
      },
      expect.objectContaining({ kind: "scheduled", sceneItemId: mineScheduled, title: "My Mic" }),
    ]);
    expect(week.stats).toEqual({ upcoming: 3, totalSetsLogged: 40, uniqueVenues: 6, totalMinutes: 222 });
  });

  test("an occurrence is hidden from the boundary on, even before the cleanup runs", async () => {
    // Monday 2026-11-23 19:30 with 5-minute sets: over at 20:35 (60 + 5 minutes later).
    const mic = await createSceneItem(t, { dayOfWeek: 1, startTimeLocal: "19:30", performanceMinutes: 5 });
    const noLength = await createSceneItem(t, {
      title: "No length",
      dayOfWeek: 1,
      startTimeLocal: "19:30",
      performanceMinutes: undefined,
    });
    const comic = await createUser(t);
    await comic.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    await comic.asUser.mutation(api.schedule.add, { sceneItemId: noLength });
    const titlesAt = async (nowMs: number) =>
      (await comic.asUser.query(api.schedule.week, weekOf("2026-11-23", nowMs))).items.map((i) => i.title);
    const start = at("2026-11-23T19:30:00-05:00");
    expect(await titlesAt(start + 60 * 60_000 - 1)).toEqual(["No length", "Test Mic"]);
    expect(await titlesAt(start + 60 * 60_000)).toEqual(["Test Mic"]);
    expect(await titlesAt(start + 65 * 60_000 - 1)).toEqual(["Test Mic"]);
    expect(await titlesAt(start + 65 * 60_000)).toEqual([]);
  });

  test("an occurrence the cleanup marked done stays hidden; later ones show", async () => {
    const mic = await createSceneItem(t, { dayOfWeek: 1, startTimeLocal: "19:30" });
    const comic = await createUser(t);
    const { entryId } = await comic.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    await t.run(async (ctx) =>
      ctx.db.patch("scheduleEntries", entryId, { completedAt: at("2026-11-23T19:30:00-05:00") }),
    );
    expect((await comic.asUser.query(api.schedule.week, weekOf("2026-11-23"))).items).toEqual([]);
    expect((await comic.asUser.query(api.schedule.week, weekOf("2026-11-30"))).items).toHaveLength(1);
  });

  test("a set logged at a scheduled mic stands for that night's spot", async () => {
    const mic = await createSceneItem(t, { title: "Mic", dayOfWeek: 1, startTimeLocal: "19:30" });
    const other = await createSceneItem(t, { title: "Other", dayOfWeek: 1, startTimeLocal: "22:00" });
    const comic = await createUser(t);
    await comic.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    await comic.asUser.mutation(api.schedule.add, { sceneItemId: other });
    await logSetAt(comic.userId, at("2026-11-23T19:40:00-05:00"), { sceneItemId: mic });
    const week = await comic.asUser.query(api.schedule.week, weekOf("2026-11-23", at("2026-11-23T19:50:00-05:00")));
    expect(week.items.map((i) => [i.kind, i.title])).toEqual([
      ["session", "Mic"],
      ["scheduled", "Other"],
    ]);
  });

  test("a mic added twice shows once, with the latest entry", async () => {
    const mic = await createSceneItem(t);
    const comic = await createUser(t);
    const first = await comic.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    vi.setSystemTime(NOW + 8 * DAY);
    const second = await comic.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    expect(second.entryId).not.toBe(first.entryId);
    const week = await comic.asUser.query(api.schedule.week, weekOf("2026-12-02", NOW + 8 * DAY));
    expect(week.items).toEqual([expect.objectContaining({ kind: "scheduled", entryId: second.entryId })]);
  });

  test("only the caller's own entries, sets and mics are visible; anonymous callers are refused", async () => {
    const mic = await createSceneItem(t);
    const [me, you] = [await createUser(t), await createUser(t)];
    await createSceneItem(t, { title: "Yours", createdBy: you.userId, dayOfWeek: 2 });
    await you.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    await logSetAt(you.userId, at("2026-11-24T21:00:00-05:00"));
    expect(await me.asUser.query(api.schedule.week, weekOf("2026-11-23"))).toEqual({
      items: [],
      stats: { upcoming: 0, totalSetsLogged: 0, uniqueVenues: 0, totalMinutes: 0 },
    });
    expect((await you.asUser.query(api.schedule.week, weekOf("2026-11-23"))).items).toHaveLength(3);
    await expectAppError(t.query(api.schedule.week, weekOf("2026-11-23")), "NOT_SIGNED_IN");
  });

  test("a mic that is no longer active drops out", async () => {
    const mic = await createSceneItem(t);
    const comic = await createUser(t);
    await comic.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    await t.run(async (ctx) => ctx.db.patch("sceneItems", mic, { status: "inactive" }));
    expect((await comic.asUser.query(api.schedule.week, weekOf("2026-11-23"))).items).toEqual([]);
  });

  test("a range that is not a week is refused", async () => {
    const comic = await createUser(t);
    const w = weekOf("2026-11-23");
    await expectAppError(
      comic.asUser.query(api.schedule.week, { ...w, weekEndMs: w.weekStartMs + 40 * DAY }),
      "INVALID_INPUT",
    );
    await expectAppError(
      comic.asUser.query(api.schedule.week, { ...w, weekEndMs: w.weekStartMs - 1 }),
      "INVALID_INPUT",
    );
  });
});
