import { describe, expect, test } from "vitest";
import { internal as dev } from "../convex-dev/_generated/api";
import { api } from "./_generated/api";
import { expectAppError } from "./testing/test.expect";
import { createSceneItem, createUser, newTest } from "./testing/test.setup";

const HOUR = 60 * 60 * 1000;

describe("history.list", () => {
  test("pages the caller's sets newest first, with venue names", async () => {
    const t = newTest();
    const mic = await createSceneItem(t, { venueName: "The Creek and the Cave", title: "Monday Mic" });
    const { asUser } = await createUser(t);
    const other = await createUser(t);
    const now = Date.now();
    // Logged out of order: the list still comes back by performedAt.
    const times = [5, 1, 3, 2, 4].map((h) => now - h * HOUR);
    for (const [i, performedAt] of times.entries()) {
      await asUser.mutation(api.performances.log, {
        minutes: i + 1,
        performedAt,
        tags: [],
        ...(i === 0 ? { sceneItemId: mic } : { venueName: i === 1 ? "Basement Show" : "Somewhere" }),
      });
    }
    // A set kept from before venues were required (or whose mic was removed) has no venue.
    await t.run(async (ctx) => {
      const set = (await ctx.db.query("performances").collect()).find((p) => p.minutes === 3)!;
      await ctx.db.patch("performances", set._id, { venueName: undefined });
    });
    await other.asUser.mutation(api.performances.log, {
      minutes: 9,
      performedAt: now - HOUR,
      tags: [],
      venueName: "Elsewhere",
    });

    const first = await asUser.query(api.history.list, { paginationOpts: { numItems: 2, cursor: null } });
    expect(first.isDone).toBe(false);
    const second = await asUser.query(api.history.list, {
      paginationOpts: { numItems: 2, cursor: first.continueCursor },
    });
    const third = await asUser.query(api.history.list, {
      paginationOpts: { numItems: 2, cursor: second.continueCursor },
    });
    expect(third.isDone).toBe(true);
    const rows = [...first.page, ...second.page, ...third.page];
    expect(rows.map((r) => r.performedAt)).toEqual([...times].sort((a, b) => b - a));
    expect(rows.every((r) => r.minutes !== 9)).toBe(true);

    const byMinutes = new Map(rows.map((r) => [r.minutes, r]));
    expect(byMinutes.get(1)).toMatchObject({
      venueName: "The Creek and the Cave",
      eventTitle: "Monday Mic",
      sceneItemId: mic,
    });
    expect(byMinutes.get(2)).toMatchObject({ venueName: "Basement Show", sceneItemId: null });
    expect(byMinutes.get(3)).toMatchObject({ venueName: "Unknown Venue", notes: null });
  });

  test("shows an edit and forgets a deleted set", async () => {
    const t = newTest();
    const { asUser } = await createUser(t);
    const { performanceId } = await asUser.mutation(api.performances.log, {
      minutes: 5,
      performedAt: Date.now() - HOUR,
      tags: ["riff"],
      notes: "Closer killed",
      venueName: "The Stand",
    });
    const page = async () =>
      (await asUser.query(api.history.list, { paginationOpts: { numItems: 25, cursor: null } })).page;
    expect(await page()).toMatchObject([{ minutes: 5, tags: ["riff"], notes: "Closer killed" }]);
    await asUser.mutation(api.performances.update, {
      id: performanceId,
      minutes: 7,
      notes: null,
      tags: null,
      performedAt: Date.now() - 2 * HOUR,
    });
    expect(await page()).toMatchObject([{ minutes: 7, tags: [], notes: null }]);
    await asUser.mutation(api.performances.remove, { id: performanceId });
    expect(await page()).toEqual([]);
  });

  test("needs a signed-in caller", async () => {
    const t = newTest();
    await expectAppError(
      t.query(api.history.list, { paginationOpts: { numItems: 25, cursor: null } }),
      "NOT_SIGNED_IN",
      /sign in/i,
    );
    await expectAppError(t.query(api.history.stats, {}), "NOT_SIGNED_IN", /sign in/i);
  });
});

describe("history.stats", () => {
  test("totals and the rounded average, zeros before the first set", async () => {
    const t = newTest();
    const { asUser } = await createUser(t);
    expect(await asUser.query(api.history.stats, {})).toEqual({ totalSets: 0, totalMinutes: 0, averageMinutes: 0 });
    for (const minutes of [5, 6, 6]) {
      await asUser.mutation(api.performances.log, {
        minutes,
        performedAt: Date.now() - HOUR,
        tags: [],
        venueName: "The Stand",
      });
    }
    expect(await asUser.query(api.history.stats, {})).toEqual({ totalSets: 3, totalMinutes: 17, averageMinutes: 6 });
  });
});

describe("fixtures.insertSets", () => {
  test("adds daily one-minute sets with the totals kept right", async () => {
    const t = newTest();
    const { asUser } = await createUser(t, { email: "bulk@example.com" });
    expect(
      await t.mutation(dev.fixtures.insertSets, {
        email: "Bulk@example.com",
        count: 30,
        venueName: "Bulk Bar",
      }),
    ).toBe(30);
    expect(await asUser.query(api.history.stats, {})).toEqual({ totalSets: 30, totalMinutes: 30, averageMinutes: 1 });
    const page = await asUser.query(api.history.list, { paginationOpts: { numItems: 25, cursor: null } });
    expect(page.page).toHaveLength(25);
    expect(page.page[0]).toMatchObject({ venueName: "Bulk Bar", minutes: 1 });
  });
});
