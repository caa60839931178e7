import { afterEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { MAX_SEASON_MONTHS, SHARE_FIELDS } from "./lib/season";
import { expectAppError } from "./testing/test.expect";
import { createSceneItem, createUser, newTest, type TestBackend, type TestUser } from "./testing/test.setup";
import "./lib/time";

const ZONE = "America/New_York";

afterEach(() => {
  vi.useRealTimers();
});

/** The clock at `iso`, timers real so the scheduler runs. */
function clockAt(iso: string): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.parse(iso));
}

async function logAt(
  comic: TestUser,
  iso: string,
  minutes: number,
  where: { sceneItemId?: Id<"sceneItems">; venueName?: string } = { venueName: "The Back Room" },
) {
  const { performanceId } = await comic.asUser.mutation(api.performances.log, {
    minutes,
    performedAt: Date.parse(iso),
    tags: [],
    timeZone: ZONE,
    ...where,
  });
  return performanceId;
}

async function season(comic: TestUser, from: string, to: string, today = "2026-11-20") {
  return await comic.asUser.query(api.season.mine, { from, to, today });
}

async function monthRows(t: TestBackend, userId: Id<"users">) {
  return await t.run(async (ctx) =>
    (
      await ctx.db
        .query("seasonMonths")
        .withIndex("by_user_and_month", (q) => q.eq("userId", userId))
        .collect()
    ).map(({ month, sets, minutes, days, mics, otherSets }) => ({ month, sets, minutes, days, mics, otherSets })),
  );
}

describe("a season in review, from one rollup row per month", () => {
  test("no sets: every figure is zero and every list empty", async () => {
    const t = newTest();
    const comic = await createUser(t, { name: "Nora None", profile: { timeZone: ZONE } });
    expect(await season(comic, "2026-01", "2026-12")).toEqual({
      from: "2026-01",
      to: "2026-12",
      name: "Nora None",
      sets: 0,
      minutes: 0,
      distinctMics: 0,
      distinctCities: 0,
      longestDayStreak: 0,
      longestWeekStreak: 0,
      busiestMonth: null,
      topMics: [],
      cities: [],
      map: [],
      bits: [],
    });
    expect(await monthRows(t, comic.userId)).toEqual([]);
  });

  test("one set at a scene mic: one of everything, on the map and as the busiest month", async () => {
    const t = newTest();
    clockAt("2026-11-20T22:00:00-05:00");
    const comic = await createUser(t, { profile: { timeZone: ZONE } });
    const mic = await createSceneItem(t, { title: "Cellar Mic", city: "New York", latitude: 40.73, longitude: -73.99 });
    await logAt(comic, "2026-03-04T21:00:00-05:00", 7, { sceneItemId: mic });
    const s = await season(comic, "2026-01", "2026-12");
    expect(s).toMatchObject({
      sets: 1,
      minutes: 7,
      distinctMics: 1,
      distinctCities: 1,
      longestDayStreak: 1,
      busiestMonth: { month: "2026-03", sets: 1, minutes: 7 },
      topMics: [{ micId: mic, name: "Cellar Mic", city: "New York", sets: 1 }],
      cities: [{ name: "New York", sets: 1 }],
      map: [{ name: "Cellar Mic", latitude: 40.73, longitude: -73.99, sets: 1 }],
    });
    // A week of 7 minutes falls short of the default 15-minute goal.
    expect(s.longestWeekStreak).toBe(0);
    // The year before holds nothing.
    expect(await season(comic, "2025-01", "2025-12")).toMatchObject({ sets: 0, busiestMonth: null, topMics: [] });
  });

  test("a day streak runs across a month boundary; a period starting at the boundary cuts it", async () => {
    const t = newTest();
    clockAt("2026-11-20T22:00:00-05:00");
    const comic = await createUser(t, { profile: { timeZone: ZONE } });
    // Jan 30, Jan 31, Feb 1, Feb 2 (late evening, New York dates), then a gap, then Feb 10.
    for (const day of ["2026-01-30", "2026-01-31", "2026-02-01", "2026-02-02", "2026-02-10"]) {
      await logAt(comic, `${day}T23:30:00-05:00`, 5);
    }
    expect(await season(comic, "2026-01", "2026-02")).toMatchObject({
      sets: 5,
      minutes: 25,
      longestDayStreak: 4,
      busiestMonth: { month: "2026-02", sets: 3, minutes: 15 },
      distinctMics: 1,
      topMics: [{ micId: null, name: "The Back Room", city: null, sets: 5 }],
      distinctCities: 0,
      map: [],
    });
    expect(await season(comic, "2026-02", "2026-02")).toMatchObject({ sets: 3, longestDayStreak: 2 });
    expect(await season(comic, "2026-01", "2026-01")).toMatchObject({ sets: 2, longestDayStreak: 2 });
    // A tie for busiest month goes to the earlier one.
    await logAt(comic, "2026-01-05T21:00:00-05:00", 5);
    expect((await season(comic, "2026-01", "2026-02")).busiestMonth).toEqual({
      month: "2026-01",
      sets: 3,
      minutes: 15,
    });
  });

  test("edits move a set between months and mics; a deletion takes it away and an empty month's row goes", async () => {
    const t = newTest();
    clockAt("2026-11-20T22:00:00-05:00");
    const comic = await createUser(t, { profile: { timeZone: ZONE } });
    const a = await createSceneItem(t, { title: "Alpha", city: "Boston" });
    const b = await createSceneItem(t, { title: "Bravo", city: "New York" });
    const first = await logAt(comic, "2026-04-10T21:00:00-04:00", 5, { sceneItemId: a });
    await logAt(comic, "2026-04-11T21:00:00-04:00", 6, { sceneItemId: b });
    await logAt(comic, "2026-04-12T21:00:00-04:00", 4, { sceneItemId: b });
    let s = await season(comic, "2026-01", "2026-12");
    expect(s).toMatchObject({ sets: 3, minutes: 15, distinctMics: 2, distinctCities: 2, longestDayStreak: 3 });
    expect(s.topMics?.map((m) => [m.name, m.sets])).toEqual([
      ["Bravo", 2],
      ["Alpha", 1],
    ]);
    expect(s.cities).toEqual([
      { name: "New York", sets: 2 },
      { name: "Boston", sets: 1 },
    ]);

    // Moved to May, 9 minutes: April keeps two sets, May holds one.
    await comic.asUser.mutation(api.performances.update, {
      id: first,
      minutes: 9,
      performedAt: Date.parse("2026-05-01T21:00:00-04:00"),
    });
    expect((await monthRows(t, comic.userId)).map((r) => [r.month, r.sets, r.minutes])).toEqual([
      ["2026-04", 2, 10],
      ["2026-05", 1, 9],
    ]);
    s = await season(comic, "2026-04", "2026-05");
    expect(s).toMatchObject({ sets: 3, minutes: 19, longestDayStreak: 2 });

    await comic.asUser.mutation(api.performances.remove, { id: first });
    expect((await monthRows(t, comic.userId)).map((r) => r.month)).toEqual(["2026-04"]);
    s = await season(comic, "2026-01", "2026-12");
    expect(s).toMatchObject({ sets: 2, minutes: 10, distinctMics: 1, distinctCities: 1 });
  });

  test("the longest week streak counts goal weeks across the fall-back DST change, and the week in progress once met", async () => {
    const t = newTest();
    clockAt("2026-11-20T22:00:00-05:00"); // Friday of the week of Nov 15
    const comic = await createUser(t, { profile: { timeZone: ZONE } });
    await logAt(comic, "2026-10-27T21:00:00-04:00", 15); // week of Oct 25
    await logAt(comic, "2026-11-01T00:30:00-04:00", 5); // Sunday of the DST change
    await logAt(comic, "2026-11-07T23:30:00-05:00", 10); // its Saturday, after the clocks went back
    await logAt(comic, "2026-11-10T21:00:00-05:00", 20); // week of Nov 8
    expect((await season(comic, "2026-01", "2026-12")).longestWeekStreak).toBe(3);
    await logAt(comic, "2026-11-16T21:00:00-05:00", 15); // this week, met
    expect((await season(comic, "2026-01", "2026-12")).longestWeekStreak).toBe(4);
    // A period that ends in October counts only the week of Oct 25 (its last week).
    expect((await season(comic, "2026-01", "2026-10")).longestWeekStreak).toBe(1);
    // Before the streak: nothing.
    expect((await season(comic, "2026-01", "2026-09")).longestWeekStreak).toBe(0);
  });

  test("the bits that landed most in the period, from the bits' month rows", async () => {
    const t = newTest();
    clockAt("2026-11-20T22:00:00-05:00");
    const comic = await createUser(t, { profile: { timeZone: ZONE } });
    const bit = async (title: string) =>
      await comic.asUser.mutation(api.bits.create, { title, tags: [], status: "working" });
    const airport = await bit("Airport");
    const bank = await bit("Bank");
    const cats = await bit("Cats");
    const rate = async (iso: string, ratings: [Id<"bits">, "landed" | "okay" | "flat"][]) => {
      const performanceId = await logAt(comic, iso, 5);
      await comic.asUser.mutation(api.ratings.rate, {
        performanceId,
        ratings: ratings.map(([bitId, rating]) => ({ bitId, rating })),
      });
    };
    await rate("2026-06-01T21:00:00-04:00", [
      [airport, "landed"],
      [bank, "landed"],
      [cats, "flat"],
    ]);
    await rate("2026-07-01T21:00:00-04:00", [
      [airport, "landed"],
      [bank, "okay"],
    ]);
    await rate("2025-07-01T21:00:00-04:00", [[bank, "landed"]]);
    expect((await season(comic, "2026-01", "2026-12")).bits).toEqual([
      { title: "Airport", landed: 2, performed: 2 },
      { title: "Bank", landed: 1, performed: 2 },
    ]);
    expect((await season(comic, "2026-07", "2026-07")).bits).toEqual([{ title: "Airport", landed: 1, performed: 1 }]);
  });

  test("a custom range is checked: month format, order and at most ten years", async () => {
    const t = newTest();
    const comic = await createUser(t);
    await expectAppError(season(comic, "2026-13", "2026-12"), "INVALID_INPUT", "Choose a start and end month.");
    await expectAppError(season(comic, "2026-1", "2026-12"), "INVALID_INPUT", "Choose a start and end month.");
    await expectAppError(
      season(comic, "2026-05", "2026-04"),
      "INVALID_INPUT",
      "The end month must not be before the start month.",
    );
    await expectAppError(season(comic, "2016-01", "2026-01"), "INVALID_INPUT", "Choose a period of at most 10 years.");
    expect(MAX_SEASON_MONTHS).toBe(120);
    expect((await season(comic, "2016-02", "2026-01")).sets).toBe(0);
    await expectAppError(season(comic, "2026-01", "2026-12", "yesterday"), "INVALID_INPUT");
  });

  test("the backfill builds the same month rows the trigger keeps, and leaves built comedians alone", async () => {
    const t = newTest();
    clockAt("2026-11-20T22:00:00-05:00");
    const comic = await createUser(t, { profile: { timeZone: ZONE } });
    const mic = await createSceneItem(t, { title: "Cellar Mic" });
    await logAt(comic, "2026-01-31T21:00:00-05:00", 5, { sceneItemId: mic });
    await logAt(comic, "2026-02-01T21:00:00-05:00", 7);
    await logAt(comic, "2026-02-01T22:00:00-05:00", 3, { sceneItemId: mic });
    const kept = await monthRows(t, comic.userId);
    // As if the sets predated the table.
    await t.run(async (ctx) => {
      for (const row of await ctx.db.query("seasonMonths").collect()) await ctx.db.delete("seasonMonths", row._id);
    });
    expect(await t.mutation(internal.migrations.seasonMonths, {})).toMatchObject({ updated: 1, isDone: true });
    const rebuilt = await monthRows(t, comic.userId);
    const byMic = (rows: typeof kept) =>
      rows.map((r) => ({ ...r, mics: [...r.mics].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) }));
    expect(byMic(rebuilt)).toEqual(byMic(kept));
    expect(await t.mutation(internal.migrations.seasonMonths, {})).toMatchObject({ updated: 0 });
  });
});

describe("a public link to a season", () => {
  async function world() {
    const t = newTest();
    clockAt("2026-11-20T22:00:00-05:00");
    const comic = await createUser(t, { name: "Sally Share", profile: { timeZone: ZONE } });
    const stranger = await createUser(t);
    const mic = await createSceneItem(t, { title: "Cellar Mic", city: "New York" });
    await logAt(comic, "2026-03-04T21:00:00-05:00", 7, { sceneItemId: mic });
    await logAt(comic, "2026-03-05T21:00:00-05:00", 8, { sceneItemId: mic });
    return { t, comic, stranger };
  }

  test("shows only the chosen figures to anyone with the token, and stops when revoked", async () => {
    const { t, comic } = await world();
    const { id, token } = await comic.asUser.mutation(api.season.createShare, {
      from: "2026-01",
      to: "2026-12",
      fields: ["sets", "minutes", "name"],
    });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await t.mutation(api.season.openShared, { token })).toEqual({
      from: "2026-01",
      to: "2026-12",
      name: "Sally Share",
      sets: 2,
      minutes: 15,
    });
    expect(await comic.asUser.query(api.season.shares, {})).toEqual([
      { id, token, from: "2026-01", to: "2026-12", fields: ["name", "sets", "minutes"] },
    ]);
    // Another link of the same season shows the mics and streaks, without the name.
    const other = await comic.asUser.mutation(api.season.createShare, {
      from: "2026-03",
      to: "2026-03",
      fields: ["topMics", "streaks"],
    });
    const shown = await t.mutation(api.season.openShared, { token: other.token });
    expect(Object.keys(shown ?? {}).sort()).toEqual(["from", "longestDayStreak", "longestWeekStreak", "to", "topMics"]);
    expect(shown?.topMics?.[0]).toMatchObject({ name: "Cellar Mic", sets: 2 });

    await comic.asUser.mutation(api.season.revokeShare, { id });
    expect(await t.mutation(api.season.openShared, { token })).toBeNull();
    expect(await t.mutation(api.season.openShared, { token: other.token })).not.toBeNull();
  });

  test("unknown and overlong tokens open nothing; only the owner revokes; at least one field, at most five links", async () => {
    const { t, comic, stranger } = await world();
    expect(await t.mutation(api.season.openShared, { token: "x".repeat(43) })).toBeNull();
    await expectAppError(t.mutation(api.season.openShared, { token: "x".repeat(65) }), "INVALID_INPUT");
    expect(await t.mutation(api.season.openShared, { token: "x".repeat(64) })).toBeNull();
    const { id } = await comic.asUser.mutation(api.season.createShare, {
      from: "2026-01",
      to: "2026-12",
      fields: ["sets"],
    });
    await expectAppError(stranger.asUser.mutation(api.season.revokeShare, { id }), "NOT_FOUND");
    expect(await comic.asUser.query(api.season.shares, {})).toHaveLength(1);
    expect(await stranger.asUser.query(api.season.shares, {})).toEqual([]);
    await expectAppError(
      comic.asUser.mutation(api.season.createShare, { from: "2026-01", to: "2026-12", fields: [] }),
      "INVALID_INPUT",
      "Choose at least one number to show.",
    );
    await expectAppError(
      comic.asUser.mutation(api.season.createShare, { from: "2026-12", to: "2026-01", fields: ["sets"] }),
      "INVALID_INPUT",
    );
    for (let i = 0; i < 4; i++) {
      await comic.asUser.mutation(api.season.createShare, {
        from: "2026-01",
        to: "2026-12",
        fields: [...SHARE_FIELDS],
      });
    }
    await expectAppError(
      comic.asUser.mutation(api.season.createShare, { from: "2026-01", to: "2026-12", fields: ["sets"] }),
      "INVALID_INPUT",
      "You can have 5 public links at once. Revoke one first.",
    );
  });

  test("one link opened over and over is rate limited", async () => {
    const { t, comic } = await world();
    const { token } = await comic.asUser.mutation(api.season.createShare, {
      from: "2026-01",
      to: "2026-12",
      fields: ["sets"],
    });
    for (let i = 0; i < 60; i++) await t.mutation(api.season.openShared, { token });
    const data = await expectAppError(t.mutation(api.season.openShared, { token }), "RATE_LIMITED");
    expect(data).toMatchObject({ limit: "seasonShareOpenLink" });
  });

  test("goes with the account, and is in its export", async () => {
    const { t, comic } = await world();
    const { token } = await comic.asUser.mutation(api.season.createShare, {
      from: "2026-01",
      to: "2026-12",
      fields: ["sets"],
    });
    const exported = await comic.asUser.query(api.account.exportData, {});
    expect(exported.seasonLinks).toEqual([
      expect.objectContaining({ token, from: "2026-01", to: "2026-12", fields: ["sets"] }),
    ]);
    await comic.asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" });
    expect(await t.mutation(api.season.openShared, { token })).toBeNull();
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const left = await t.run(async (ctx) => ({
      shares: (await ctx.db.query("seasonShares").collect()).length,
      months: (await ctx.db.query("seasonMonths").collect()).filter((r) => r.userId === comic.userId).length,
    }));
    expect(left).toEqual({ shares: 0, months: 0 });
  });
});
