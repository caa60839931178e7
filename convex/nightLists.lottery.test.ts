import { describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { createSceneItem } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import {
  MINUTE,
  DAY,
  nyWed,
  NOW,
  t,
  host,
  openList,
  view,
  listOf,
  names,
  comics,
  snapshot,
  useWednesdayNight,
} from "./testing/test.nightLists";

useWednesdayNight();

describe("the lottery", () => {
  test("sign-ups go into the pool; the draw uses the server's randomness and records its order", async () => {
    const listId = await openList({ spots: 2, waitlistSpots: 3, mode: "lottery", drawAt: nyWed("20:15") });
    const users = await comics(4);
    for (const u of users) await u.asUser.mutation(api.nightLists.signUp, { listId });
    let list = await listOf(users[0]);
    expect(list.pool).toHaveLength(4);
    expect(list.list).toHaveLength(0);
    expect(list.pool[0].isMine).toBe(true);
    expect(list.drawAt).toBe(nyWed("20:15"));

    expect(await host.asUser.mutation(api.nightLists.draw, { listId })).toBe(4);
    list = await listOf();
    expect(list.pool).toHaveLength(0);
    expect(list.list).toHaveLength(2);
    expect(list.waitlist).toHaveLength(2);
    expect([...list.list, ...list.waitlist].map((s) => s.drawIndex)).toEqual([1, 2, 3, 4]);
    expect(new Set(names([...list.list, ...list.waitlist])).size).toBe(4);
    expect(list.drawnAt).toBe(NOW);
    await expectAppError(
      host.asUser.mutation(api.nightLists.draw, { listId }),
      "INVALID_INPUT",
      "The lottery has already been drawn.",
    );
    // The scheduled draw finds it drawn and does nothing.
    const before = await snapshot();
    await t.mutation(internal.nightLists.drawDue, { listId });
    expect(await snapshot()).toEqual(before);
  });

  test("after a bucket draw late sign-ups go to the waitlist; without a bucket they fill free spots", async () => {
    const bucketList = await openList({ spots: 3, mode: "lottery", drawAt: nyWed("20:15"), bucket: true });
    const other = await createSceneItem(t, {
      title: "Other Mic",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      createdBy: host.userId,
    });
    await t.run(async (ctx) => {
      await ctx.db.insert("micClaims", { micId: other, claimantId: host.userId, status: "approved" });
    });
    const plainList = await openList({ spots: 3, mode: "lottery", drawAt: nyWed("20:15") }, host, other);
    const [a, b] = await comics(2);
    await a.asUser.mutation(api.nightLists.signUp, { listId: bucketList });
    await a.asUser.mutation(api.nightLists.signUp, { listId: plainList });
    await t.mutation(internal.nightLists.drawDue, { listId: bucketList });
    await t.mutation(internal.nightLists.drawDue, { listId: plainList });
    await b.asUser.mutation(api.nightLists.signUp, { listId: bucketList });
    await b.asUser.mutation(api.nightLists.signUp, { listId: plainList });
    expect(names((await listOf(b)).waitlist)).toEqual(["Comic 2"]);
    expect(names((await view(b, "2026-11-24", other)).list!.list)).toEqual(["Comic 1", "Comic 2"]);
  });
});

describe("bumped comedians first next week", () => {
  test("bumped and waitlisted comedians are placed first at the next first-come list and drawn first in a lottery", async () => {
    const week1 = await openList({ spots: 2, waitlistSpots: 3 });
    const [a, b, c, d] = await comics(4);
    for (const u of [a, b, c, d]) await u.asUser.mutation(api.nightLists.signUp, { listId: week1 });
    const list = await listOf();
    await host.asUser.mutation(api.nightLists.bump, { listId: week1, spotId: list.list[1]._id, version: list.version });
    // Now: list Comic 1, Comic 3; waitlist Comic 2 (bumped), Comic 4.
    await host.asUser.mutation(api.nightLists.close, { listId: week1 });
    await expectAppError(
      d.asUser.mutation(api.nightLists.dropOut, { listId: week1 }),
      "LIST_CLOSED",
      "This list is closed.",
    );

    vi.setSystemTime(NOW + 7 * DAY);
    expect((await view(b, "2026-12-01")).hasPriority).toBe(true);
    expect((await view(a, "2026-12-01")).hasPriority).toBe(false);
    const week2 = await openList({ spots: 2, waitlistSpots: 3, date: "2026-12-02" });
    await a.asUser.mutation(api.nightLists.signUp, { listId: week2 });
    await c.asUser.mutation(api.nightLists.signUp, { listId: week2 });
    await d.asUser.mutation(api.nightLists.signUp, { listId: week2 });
    const now = (await view(undefined, "2026-12-01")).list!;
    expect(names(now.list)).toEqual(["Comic 4", "Comic 1"]);
    expect(now.list[0].priority).toBe(true);
    // The list was full: the last one waiting without priority heads the waitlist.
    expect(names(now.waitlist)).toEqual(["Comic 3"]);
    await b.asUser.mutation(api.nightLists.signUp, { listId: week2 });
    const after = (await view(undefined, "2026-12-01")).list!;
    expect(names(after.list)).toEqual(["Comic 4", "Comic 2"]);
    expect(names(after.waitlist)).toEqual(["Comic 1", "Comic 3"]);
  });

  test("a lottery draws priority names first", async () => {
    const week1 = await openList({ spots: 1, waitlistSpots: 1 });
    const [a, b] = await comics(2);
    await a.asUser.mutation(api.nightLists.signUp, { listId: week1 });
    await b.asUser.mutation(api.nightLists.signUp, { listId: week1 });
    vi.setSystemTime(NOW + 7 * DAY);
    const others = await comics(8, "Newcomer");
    const week2 = await openList({
      spots: 1,
      waitlistSpots: 9,
      date: "2026-12-02",
      mode: "lottery",
      drawAt: NOW + 7 * DAY + 30 * MINUTE,
    });
    for (const u of others) await u.asUser.mutation(api.nightLists.signUp, { listId: week2 });
    await b.asUser.mutation(api.nightLists.signUp, { listId: week2 });
    await host.asUser.mutation(api.nightLists.draw, { listId: week2 });
    const drawn = (await view(undefined, "2026-12-01")).list!;
    expect(drawn.list.map((s) => [s.name, s.drawIndex])).toEqual([["Comic 2", 1]]);
  });
});
