import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { expectAppError } from "./testing/test.expect";
import { checkAllInvariants } from "./testing/test.invariants";
import {
  DAY,
  MINUTE,
  NOW,
  nyWed,
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

/** The rows of the list as stored: section and rank of each name. */
async function stored(listId: string) {
  const rows = await t.run(async (ctx) => await ctx.db.query("listSpots").collect());
  return rows.filter((r) => r.listId === listId).map((r) => [r.name, r.section, r.rank]);
}

describe("a sign-up writes only its own row", () => {
  test("sign-ups are stored pending, shown in arrival order, and a host change writes what everyone saw", async () => {
    const listId = await openList({ spots: 2, waitlistSpots: 2 });
    const users = await comics(5);
    for (const u of users) await u.asUser.mutation(api.nightLists.signUp, { listId });
    const { version } = await listOf();
    // Nothing but their own rows: every sign-up is pending and the list's version never moved.
    expect(new Set((await stored(listId)).map(([, section]) => section))).toEqual(new Set(["pending"]));
    expect(version).toBe(1);

    const seen = await listOf();
    expect(names(seen.list)).toEqual(["Comic 1", "Comic 2"]);
    expect(names(seen.waitlist)).toEqual(["Comic 3", "Comic 4"]);
    expect(seen.taken).toBe(2);
    expect((await view(users[4])).notShown).toBe("full");

    // Everyone who signed up before the walk-in is ahead of it: no room is left.
    await expectAppError(
      host.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "Walk-in Wes" }),
      "LIST_FULL",
      "The list and its waitlist are full.",
    );
    await host.asUser.mutation(api.nightLists.move, { listId, spotId: seen.list[1]._id, toIndex: 0, version });
    const after = await listOf();
    expect(names(after.list)).toEqual(["Comic 2", "Comic 1"]);
    expect(names(after.waitlist)).toEqual(["Comic 3", "Comic 4"]);
    expect(after.version).toBe(version + 1);
    expect(await stored(listId)).toEqual(
      expect.arrayContaining([
        ["Comic 2", "list", 0],
        ["Comic 1", "list", 1],
        ["Comic 3", "waitlist", 0],
        ["Comic 4", "waitlist", 1],
        // Past the waitlist: still pending, first in line for a place.
        ["Comic 5", "pending", 0],
      ]),
    );
    expect(await checkAllInvariants(t)).toEqual({ ok: true, problems: [] });
  });

  test("a walk-in added while sign-ups are pending goes after them, not ahead", async () => {
    const listId = await openList({ spots: 3, waitlistSpots: 2 });
    const [a, b] = await comics(2);
    await a.asUser.mutation(api.nightLists.signUp, { listId });
    await b.asUser.mutation(api.nightLists.signUp, { listId });
    await host.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "Walk-in Wes" });
    expect(names((await listOf()).list)).toEqual(["Comic 1", "Comic 2", "Walk-in Wes"]);
  });

  test("a priority sign-up still goes ahead of everyone waiting without priority", async () => {
    const week1 = await openList({ spots: 1, waitlistSpots: 1 });
    const [a, b, c] = await comics(3);
    await a.asUser.mutation(api.nightLists.signUp, { listId: week1 });
    await b.asUser.mutation(api.nightLists.signUp, { listId: week1 });
    // Never closed by the host: Comic 2 was shown on the waitlist, which gives priority next week.
    vi.setSystemTime(NOW + 7 * DAY);
    const week2 = await openList({ spots: 2, waitlistSpots: 2, date: "2026-12-02" });
    await a.asUser.mutation(api.nightLists.signUp, { listId: week2 });
    await c.asUser.mutation(api.nightLists.signUp, { listId: week2 });
    await b.asUser.mutation(api.nightLists.signUp, { listId: week2 });
    const list = (await view(undefined, "2026-12-01")).list!;
    expect(names(list.list)).toEqual(["Comic 2", "Comic 1"]);
    expect(names(list.waitlist)).toEqual(["Comic 3"]);
    await host.asUser.mutation(api.nightLists.close, { listId: week2 });
    const closed = (await view(undefined, "2026-12-01")).list!;
    expect([names(closed.list), names(closed.waitlist)]).toEqual([names(list.list), names(list.waitlist)]);
  });

  test("a lottery's pool is not capped by the spots: ten names for a 3 + 1 list", async () => {
    const listId = await openList({ spots: 3, waitlistSpots: 1, mode: "lottery", drawAt: nyWed("20:15") });
    const users = await comics(10);
    for (const u of users) await u.asUser.mutation(api.nightLists.signUp, { listId });
    expect((await listOf()).pool).toHaveLength(10);
    await host.asUser.mutation(api.nightLists.draw, { listId });
    const drawn = await listOf();
    expect(drawn.list).toHaveLength(3);
    expect(drawn.waitlist).toHaveLength(7);
    expect(drawn.pool).toHaveLength(0);
  });
});

describe("the host removes any name", () => {
  test("from the running order (the waitlist moves up), the waitlist, the pool and a walk-in", async () => {
    const listId = await openList({ spots: 2, waitlistSpots: 2 });
    const [a, b, c] = await comics(3);
    for (const u of [a, b, c]) await u.asUser.mutation(api.nightLists.signUp, { listId });
    await host.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "Spam Sam" });
    let list = await listOf();
    expect(names(list.waitlist)).toEqual(["Comic 3", "Spam Sam"]);
    await host.asUser.mutation(api.nightLists.remove, { listId, spotId: list.list[0]._id, version: list.version });
    list = await listOf();
    expect(names(list.list)).toEqual(["Comic 2", "Comic 3"]);
    expect(list.waitlist.map((s) => [s.name, s.place])).toEqual([["Spam Sam", 1]]);
    await host.asUser.mutation(api.nightLists.remove, { listId, spotId: list.waitlist[0]._id, version: list.version });
    // A walk-in's row goes; a comedian's stays as removed, so they cannot sign up again tonight.
    expect((await stored(listId)).map(([name]) => name)).not.toContain("Spam Sam");
    expect((await view(a)).notShown).toBe("removed");
    await expectAppError(
      a.asUser.mutation(api.nightLists.signUp, { listId }),
      "FORBIDDEN",
      "The host took your name off tonight's list.",
    );
    await expectAppError(a.asUser.mutation(api.nightLists.dropOut, { listId }), "NOT_FOUND");
    expect((await a.asUser.query(api.nightLists.myRecent, {})).map((s) => s.listId)).not.toContain(listId);

    const lottery = await openList({
      spots: 3,
      waitlistSpots: 1,
      mode: "lottery",
      drawAt: nyWed("20:15"),
      date: "2026-11-26",
      signupOpensAt: NOW,
    });
    await c.asUser.mutation(api.nightLists.signUp, { listId: lottery });
    const pool = (await view(undefined, "2026-11-25")).list!;
    expect(names(pool.pool)).toEqual(["Comic 3"]);
    await host.asUser.mutation(api.nightLists.remove, {
      listId: lottery,
      spotId: pool.pool[0]._id,
      version: pool.version,
    });
    expect((await view(undefined, "2026-11-25")).list!.pool).toEqual([]);
  });

  test("only the host or an admin removes, against the version they saw, and never a set that started", async () => {
    const listId = await openList({ spots: 2 });
    const [a, b] = await comics(2);
    await a.asUser.mutation(api.nightLists.signUp, { listId });
    await b.asUser.mutation(api.nightLists.signUp, { listId });
    let list = await listOf();
    const before = await snapshot();
    await expectAppError(
      a.asUser.mutation(api.nightLists.remove, { listId, spotId: list.list[1]._id, version: list.version }),
      "FORBIDDEN",
      "Only the mic's host or an admin can run the list.",
    );
    await expectAppError(
      host.asUser.mutation(api.nightLists.remove, { listId, spotId: list.list[1]._id, version: list.version + 1 }),
      "LIST_STALE",
    );
    expect(await snapshot()).toEqual(before);
    await host.asUser.mutation(api.nightLists.upNow, { listId, spotId: list.list[0]._id });
    list = await listOf();
    await expectAppError(
      host.asUser.mutation(api.nightLists.remove, { listId, spotId: list.list[0]._id, version: list.version }),
      "INVALID_INPUT",
      "A set that has started stays on the list.",
    );
  });
});

describe("the host corrects a walk-in's name", () => {
  test("the new name shows on the list at once, trimmed; the list's version does not move", async () => {
    const listId = await openList({ spots: 3 });
    const [a] = await comics(1);
    await a.asUser.mutation(api.nightLists.signUp, { listId });
    await host.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "Wes" });
    let list = await listOf();
    const walkIn = list.list.find((s) => s.name === "Wes")!;
    await host.asUser.mutation(api.nightLists.renameWalkIn, { listId, spotId: walkIn._id, name: "  Wesley Snipes  " });
    const renamed = await listOf();
    expect(names(renamed.list)).toEqual(["Comic 1", "Wesley Snipes"]);
    expect(renamed.version).toBe(list.version);
    // A reorder made against the list the host saw before the rename still goes through.
    await host.asUser.mutation(api.nightLists.move, { listId, spotId: walkIn._id, toIndex: 0, version: list.version });
    list = await listOf();
    expect(names(list.list)).toEqual(["Wesley Snipes", "Comic 1"]);
  });

  test("refused: blank, over 60 characters, a comedian's own spot, another list's spot, a stranger, a closed list", async () => {
    const listId = await openList({ spots: 3 });
    const [a] = await comics(1);
    await a.asUser.mutation(api.nightLists.signUp, { listId });
    await host.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "Wes" });
    const list = await listOf();
    const [comedian, walkIn] = list.list;
    const other = await openList({ spots: 3, date: "2026-11-26", signupOpensAt: NOW });
    const before = await snapshot();
    const rename = (name: string, spotId = walkIn._id, who = host) =>
      who.asUser.mutation(api.nightLists.renameWalkIn, { listId, spotId, name });
    await expectAppError(rename("   "), "INVALID_INPUT", "Please enter the comedian's name");
    await expectAppError(rename("W".repeat(61)), "INVALID_INPUT", "Names must be 60 characters or fewer");
    await expectAppError(rename("Someone Else", comedian._id), "INVALID_INPUT");
    await expectAppError(
      rename("Wes 2", walkIn._id, a),
      "FORBIDDEN",
      "Only the mic's host or an admin can run the list.",
    );
    await expectAppError(
      host.asUser.mutation(api.nightLists.renameWalkIn, { listId: other, spotId: walkIn._id, name: "Wes 2" }),
      "NOT_FOUND",
    );
    expect(await snapshot()).toEqual(before);
    await host.asUser.mutation(api.nightLists.renameWalkIn, { listId, spotId: walkIn._id, name: "W".repeat(60) });
    await host.asUser.mutation(api.nightLists.close, { listId });
    await expectAppError(rename("Wes"), "LIST_CLOSED", "This list is closed.");
  });
});

describe("online sign-up wants an account a day old", () => {
  test("a fresh account is refused with a clear message and writes nothing; a day later it signs up", async () => {
    vi.stubEnv("LIST_MIN_ACCOUNT_AGE_HOURS", "24");
    const listId = await openList();
    const [fresh] = await comics(1);
    const before = await snapshot();
    await expectAppError(
      fresh.asUser.mutation(api.nightLists.signUp, { listId }),
      "FORBIDDEN",
      "New accounts can sign up online a day after they're made. Ask the host to add you as a walk-in tonight.",
    );
    expect(await snapshot()).toEqual(before);
    // The host adds them as a walk-in meanwhile.
    await host.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "Comic 1" });
    vi.setSystemTime(NOW + DAY + MINUTE);
    const tomorrow = await openList({ date: "2026-11-26" });
    await fresh.asUser.mutation(api.nightLists.signUp, { listId: tomorrow });
    expect((await view(fresh, "2026-11-25")).list!.list).toMatchObject([{ name: "Comic 1", isMine: true }]);
  });
});
