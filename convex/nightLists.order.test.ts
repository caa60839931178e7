import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { createUser, foldQueuedCheckIns } from "./testing/test.setup";
import { checkAllInvariants } from "./testing/test.invariants";
import { expectAppError } from "./testing/test.expect";
import {
  MINUTE,
  VENUE,
  TONIGHT,
  NOW,
  t,
  host,
  mic,
  openList,
  listOf,
  names,
  comics,
  snapshot,
  useWednesdayNight,
} from "./testing/test.nightLists";

useWednesdayNight();

describe("running order", () => {
  test("the host reorders against the version they saw; a stale version is refused and changes nothing", async () => {
    const listId = await openList({ spots: 3 });
    const users = await comics(3);
    for (const u of users) await u.asUser.mutation(api.nightLists.signUp, { listId });
    const seen = await listOf();
    await host.asUser.mutation(api.nightLists.move, {
      listId,
      spotId: seen.list[2]._id,
      toIndex: 0,
      version: seen.version,
    });
    const after = await listOf(users[2]);
    expect(names(after.list)).toEqual(["Comic 3", "Comic 1", "Comic 2"]);
    expect(after.list[0]).toMatchObject({ isMine: true, place: 1 });

    const before = await snapshot();
    await expectAppError(
      host.asUser.mutation(api.nightLists.move, {
        listId,
        spotId: seen.list[0]._id,
        toIndex: 2,
        version: seen.version,
      }),
      "LIST_STALE",
      "The list changed while you were looking at it. Please try again on the updated list.",
    );
    await expectAppError(
      host.asUser.mutation(api.nightLists.move, {
        listId,
        spotId: seen.list[0]._id,
        toIndex: 3,
        version: after.version,
      }),
      "INVALID_INPUT",
    );
    expect(await snapshot()).toEqual(before);
  });

  test("bumping moves a comedian to the top of the waitlist and the first waitlisted name up; a no-show frees a place too", async () => {
    const listId = await openList({ spots: 2, waitlistSpots: 3 });
    const [a, b, c, d] = await comics(4);
    for (const u of [a, b, c, d]) await u.asUser.mutation(api.nightLists.signUp, { listId });
    let list = await listOf();
    await host.asUser.mutation(api.nightLists.bump, { listId, spotId: list.list[0]._id, version: list.version });
    list = await listOf();
    expect(names(list.list)).toEqual(["Comic 2", "Comic 3"]);
    expect(list.waitlist.map((s) => [s.name, s.bumped])).toEqual([
      ["Comic 1", true],
      ["Comic 4", false],
    ]);
    await host.asUser.mutation(api.nightLists.noShow, { listId, spotId: list.list[0]._id, version: list.version });
    list = await listOf();
    expect(list.list.map((s) => [s.name, s.state])).toEqual([
      ["Comic 2", "no_show"],
      ["Comic 3", "waiting"],
      ["Comic 1", "waiting"],
    ]);
    expect(names(list.waitlist)).toEqual(["Comic 4"]);
    expect(list.taken).toBe(2);
  });

  test("up now, on deck and done: the set is logged by the same code as the log wizard and counts as a check-in", async () => {
    // These comedians' accounts are minutes old; verification normally wants a day (checkIns.test.ts).
    vi.stubEnv("VERIFIER_MIN_ACCOUNT_AGE_HOURS", "0");
    const listId = await openList({ spots: 3 });
    const [a, b] = await comics(2);
    await a.asUser.mutation(api.nightLists.signUp, { listId });
    await b.asUser.mutation(api.nightLists.signUp, { listId });
    await host.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "Walk-in Wally" });
    let list = await listOf(b);
    expect(list.onDeck?.name).toBe("Comic 1");
    await host.asUser.mutation(api.nightLists.upNow, { listId, spotId: list.list[0]._id });
    list = await listOf(b);
    expect(list.upNow?.name).toBe("Comic 1");
    expect(list.onDeck).toMatchObject({ name: "Comic 2", isMine: true });
    expect((await b.asUser.query(api.nightLists.myRecent, {}))[0]).toMatchObject({
      onDeck: true,
      micTitle: "Wednesday Laughs",
    });
    await expectAppError(
      host.asUser.mutation(api.nightLists.upNow, { listId, spotId: list.list[1]._id }),
      "INVALID_INPUT",
      "Comic 1 is still up: mark their set done first.",
    );
    await expectAppError(
      host.asUser.mutation(api.nightLists.done, { listId, spotId: list.list[1]._id, useTimer: false }),
      "INVALID_INPUT",
    );

    vi.setSystemTime(NOW + 6 * MINUTE + 10_000);
    const result = await host.asUser.mutation(api.nightLists.done, {
      listId,
      spotId: list.list[0]._id,
      useTimer: false,
    });
    expect(result.minutes).toBe(7);
    const mine = (await a.asUser.query(api.nightLists.myRecent, {}))[0];
    expect(mine).toMatchObject({ state: "done", performanceId: result.performanceId });

    // History, stats and the dashboard all see it.
    const history = await a.asUser.query(api.history.list, { paginationOpts: { numItems: 10, cursor: null } });
    expect(history.page).toHaveLength(1);
    expect(history.page[0]).toMatchObject({ minutes: 7, sceneItemId: mic });
    const stats = await a.asUser.query(api.stats.mine, { today: TONIGHT });
    expect(stats).toMatchObject({ totalMinutes: 7, totalSets: 1 });
    // The check-in for verification.
    const checkIns = await t.run(async (ctx) => await ctx.db.query("checkIns").collect());
    expect(checkIns.map((c) => [c.userId, c.sceneItemId, c.localDate])).toEqual([[a.userId, mic, TONIGHT]]);
    await foldQueuedCheckIns(t);
    expect((await t.run(async (ctx) => await ctx.db.get("sceneItems", mic)))?.checkInCount).toBe(1);

    // The timer's minutes when the host used it; a walk-in's set is logged for nobody.
    await host.asUser.mutation(api.nightLists.upNow, { listId, spotId: list.list[1]._id });
    vi.setSystemTime(NOW + 16 * MINUTE + 20_000);
    expect(
      (await host.asUser.mutation(api.nightLists.done, { listId, spotId: list.list[1]._id, useTimer: true })).minutes,
    ).toBe(10);
    await host.asUser.mutation(api.nightLists.upNow, { listId, spotId: list.list[2]._id });
    expect(
      await host.asUser.mutation(api.nightLists.done, { listId, spotId: list.list[2]._id, useTimer: false }),
    ).toEqual({
      performanceId: null,
      minutes: 7,
    });
    // Two comedians checked in through the list: the mic is verified (once their fold ran).
    await foldQueuedCheckIns(t);
    const item = await t.run(async (ctx) => await ctx.db.get("sceneItems", mic));
    expect(item?.verifiedCheckIns30d).toBe(2);
    expect(item?.checkInCount).toBe(2);

    // The logged set stays the comedian's: editable and deletable in their history.
    await a.asUser.mutation(api.performances.update, {
      id: result.performanceId!,
      minutes: 8,
      performedAt: NOW,
      notes: "killed",
    });
    await a.asUser.mutation(api.performances.remove, { id: result.performanceId! });
    expect((await a.asUser.query(api.stats.mine, { today: TONIGHT })).totalSets).toBe(0);
    expect(await checkAllInvariants(t)).toEqual({ ok: true, problems: [] });
  });

  test("a Done is a check-in only from a vetted host about someone else: a mic's creator cannot check in puppets or themselves", async () => {
    // An unvetted account makes up a mic: being its creator gives no host rights, so it cannot run a list there.
    const maker = await createUser(t, { name: "Mick Maker", withStats: true });
    const { sceneItemId: madeUp } = await maker.asUser.mutation(api.events.create, {
      venue: { venueName: "Made Up Room", address: "1 Made Up St, New York, NY", ...VENUE },
      details: {
        type: "open_mic",
        title: "Made Up Mic",
        dayOfWeek: 3,
        startTimeLocal: "20:00",
        recurrence: "weekly",
        signupMethod: "in_person",
      },
    });
    await expectAppError(openList({ spots: 3 }, maker, madeUp), "FORBIDDEN");
    expect(await t.run(async (ctx) => (await ctx.db.query("checkIns").collect()).length)).toBe(0);

    // The approved host marking their own set done gets it logged, not checked in either.
    const own = await openList({ spots: 3 });
    await host.asUser.mutation(api.nightLists.signUp, { listId: own });
    const mine = (await listOf(host)).list[0];
    await host.asUser.mutation(api.nightLists.upNow, { listId: own, spotId: mine._id });
    await host.asUser.mutation(api.nightLists.done, { listId: own, spotId: mine._id, useTimer: false });
    expect(await t.run(async (ctx) => (await ctx.db.query("checkIns").collect()).length)).toBe(0);
    expect(await checkAllInvariants(t)).toEqual({ ok: true, problems: [] });
  });

  test("a comedian who already checked in by phone gets the set logged but no second check-in", async () => {
    const listId = await openList();
    const [a] = await comics(1);
    await a.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...VENUE });
    await a.asUser.mutation(api.nightLists.signUp, { listId });
    const spot = (await listOf()).list[0];
    await host.asUser.mutation(api.nightLists.upNow, { listId, spotId: spot._id });
    await host.asUser.mutation(api.nightLists.done, { listId, spotId: spot._id, useTimer: false });
    expect(await t.run(async (ctx) => (await ctx.db.query("checkIns").collect()).length)).toBe(1);
    expect(await checkAllInvariants(t)).toEqual({ ok: true, problems: [] });
  });
});
