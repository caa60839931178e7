import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { createAdmin } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import {
  DAY,
  nyWed,
  TONIGHT,
  NOW,
  t,
  host,
  mic,
  openList,
  view,
  listOf,
  names,
  comics,
  snapshot,
  useWednesdayNight,
} from "./testing/test.nightLists";

useWednesdayNight();

describe("opening a list", () => {
  test("the approved claimant opens tonight's list with the mic's set length and sign-up at the list time", async () => {
    const listId = await openList();
    const list = await listOf();
    expect(list._id).toBe(listId);
    expect(list).toMatchObject({
      date: TONIGHT,
      status: "open",
      spots: 3,
      waitlistSpots: 2,
      setMinutes: 7,
      lightMinutes: 1,
      mode: "first_come",
      signupOpensAt: nyWed("19:30"),
      taken: 0,
      micTitle: "Wednesday Laughs",
    });
    expect((await view(host)).canHost).toBe(true);
    expect((await view()).canHost).toBe(false);
  });

  test("an admin may open it; another comedian may not; anonymous callers are asked to sign in", async () => {
    const [other] = await comics(1);
    const before = await snapshot();
    await expectAppError(openList({}, other), "FORBIDDEN", "Only the mic's host or an admin can run the list.");
    await expectAppError(
      t.mutation(api.nightLists.open, { micId: mic, date: TONIGHT, spots: 3, lightMinutes: 1, mode: "first_come" }),
      "NOT_SIGNED_IN",
    );
    expect(await snapshot()).toEqual(before);
    const admin = await createAdmin(t);
    await openList({}, admin);
    expect((await listOf()).status).toBe("open");
  });

  test("bad settings, a second list for the night and a far-off date are refused and write nothing", async () => {
    await openList();
    const before = await snapshot();
    await expectAppError(openList(), "ALREADY_EXISTS", "Tonight's list is already open.");
    for (const bad of [
      { spots: 0 },
      { spots: 101 },
      { spots: 2.5 },
      { spots: Number.NaN },
      { waitlistSpots: -1 },
      { setMinutes: 61 },
    ]) {
      await expectAppError(openList({ ...bad, date: "2026-11-26" }), "INVALID_INPUT");
    }
    await expectAppError(openList({ date: "2026-12-25" }), "INVALID_INPUT");
    await expectAppError(openList({ date: "2026-02-30" }), "INVALID_INPUT");
    await expectAppError(
      openList({ date: "2026-11-26", mode: "lottery" }),
      "INVALID_INPUT",
      "Please choose when the lottery is drawn",
    );
    await expectAppError(openList({ date: "2026-11-26", mode: "lottery", drawAt: NOW + 10 * DAY }), "INVALID_INPUT");
    expect(await snapshot()).toEqual(before);
  });
});

describe("signing up (first come)", () => {
  test("places are live, once per night, the list fills then the waitlist, then it is full", async () => {
    const listId = await openList({ spots: 2, waitlistSpots: 1 });
    const [a, b, c, d] = await comics(4);
    const { spotId } = await a.asUser.mutation(api.nightLists.signUp, { listId });
    expect((await listOf(a)).list).toMatchObject([{ _id: spotId, section: "list", isMine: true }]);
    await b.asUser.mutation(api.nightLists.signUp, { listId });
    await c.asUser.mutation(api.nightLists.signUp, { listId });
    expect((await listOf(c)).waitlist).toMatchObject([{ name: "Comic 3", place: 1, isMine: true }]);

    const asB = await listOf(b);
    expect(names(asB.list)).toEqual(["Comic 1", "Comic 2"]);
    expect(asB.list.find((s) => s.isMine)).toMatchObject({ place: 2, section: "list" });
    expect(asB.waitlist).toHaveLength(1);
    expect(asB.taken).toBe(2);

    const before = await snapshot();
    await expectAppError(
      a.asUser.mutation(api.nightLists.signUp, { listId }),
      "ALREADY_EXISTS",
      "You're already on tonight's list.",
    );
    await expectAppError(t.mutation(api.nightLists.signUp, { listId }), "NOT_SIGNED_IN");
    expect(await snapshot()).toEqual(before);

    // Past the waitlist the comedian is told the list is full, and is first in line for a place.
    await d.asUser.mutation(api.nightLists.signUp, { listId });
    const asD = await view(d);
    expect(asD.notShown).toBe("full");
    expect(names([...asD.list!.list, ...asD.list!.waitlist])).toEqual(["Comic 1", "Comic 2", "Comic 3"]);
    await a.asUser.mutation(api.nightLists.dropOut, { listId });
    const after = await view(d);
    expect(after.notShown).toBeNull();
    expect(names(after.list!.list)).toEqual(["Comic 2", "Comic 3"]);
    expect(after.list!.waitlist).toMatchObject([{ name: "Comic 4", isMine: true }]);
  });

  test("online sign-up waits for its opening time", async () => {
    const listId = await openList({ signupOpensAt: nyWed("20:30") });
    const [a] = await comics(1);
    await expectAppError(
      a.asUser.mutation(api.nightLists.signUp, { listId }),
      "LIST_CLOSED",
      "Online sign-up hasn't opened yet.",
    );
    // The host can still add a walk-in.
    await host.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "  Walk-in Wanda " });
    expect(names((await listOf()).list)).toEqual(["Walk-in Wanda"]);
    expect((await listOf()).list[0].walkIn).toBe(true);
    vi.setSystemTime(nyWed("20:31"));
    await a.asUser.mutation(api.nightLists.signUp, { listId });
    expect(names((await listOf()).list)).toEqual(["Walk-in Wanda", "Comic 1"]);
  });

  test("dropping out moves everyone up and the first waitlisted name onto the list", async () => {
    const listId = await openList({ spots: 2, waitlistSpots: 2 });
    const [a, b, c, d] = await comics(4);
    for (const u of [a, b, c, d]) await u.asUser.mutation(api.nightLists.signUp, { listId });
    await a.asUser.mutation(api.nightLists.dropOut, { listId });
    const list = await listOf(d);
    expect(names(list.list)).toEqual(["Comic 2", "Comic 3"]);
    expect(list.waitlist.map((s) => [s.name, s.place, s.isMine])).toEqual([["Comic 4", 1, true]]);
    await expectAppError(
      a.asUser.mutation(api.nightLists.dropOut, { listId }),
      "NOT_FOUND",
      "You're not on this list.",
    );
    // A comedian can sign up again after dropping out (at the back).
    await a.asUser.mutation(api.nightLists.signUp, { listId });
    expect(names((await listOf()).waitlist)).toEqual(["Comic 4", "Comic 1"]);
  });

  test("walk-in names are trimmed and capped", async () => {
    const listId = await openList();
    const before = await snapshot();
    await expectAppError(host.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "   " }), "INVALID_INPUT");
    await expectAppError(
      host.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "x".repeat(61) }),
      "INVALID_INPUT",
    );
    expect(await snapshot()).toEqual(before);
  });
});

describe("only the host or an admin changes the list", () => {
  test("a comedian on the list can't reorder, bump, draw, run or close it; nothing changes", async () => {
    const listId = await openList({ spots: 3 });
    const [a, b] = await comics(2);
    await a.asUser.mutation(api.nightLists.signUp, { listId });
    await b.asUser.mutation(api.nightLists.signUp, { listId });
    const list = await listOf();
    const [first, second] = list.list;
    const before = await snapshot();
    const attempts = [
      a.asUser.mutation(api.nightLists.move, { listId, spotId: second._id, toIndex: 0, version: list.version }),
      a.asUser.mutation(api.nightLists.bump, { listId, spotId: second._id, version: list.version }),
      a.asUser.mutation(api.nightLists.noShow, { listId, spotId: second._id, version: list.version }),
      a.asUser.mutation(api.nightLists.upNow, { listId, spotId: first._id }),
      a.asUser.mutation(api.nightLists.draw, { listId }),
      a.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "Friend" }),
      a.asUser.mutation(api.nightLists.close, { listId }),
    ];
    for (const attempt of attempts)
      await expectAppError(attempt, "FORBIDDEN", "Only the mic's host or an admin can run the list.");
    expect(await snapshot()).toEqual(before);
  });

  test("an admin runs someone else's list", async () => {
    const listId = await openList();
    const admin = await createAdmin(t);
    await admin.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "Walk-in Will" });
    expect(names((await listOf()).list)).toEqual(["Walk-in Will"]);
  });
});

describe("cancelling tonight", () => {
  test("closes the list and tells everyone on it; nobody can sign up; restoring the night reopens it", async () => {
    const listId = await openList();
    const [a, b] = await comics(2);
    await a.asUser.mutation(api.nightLists.signUp, { listId });
    await host.asUser.mutation(api.claims.setCancelledDate, { micId: mic, date: TONIGHT, cancelled: true });
    const list = await listOf(a);
    expect(list).toMatchObject({ status: "closed", closedReason: "cancelled" });
    expect((await a.asUser.query(api.nightLists.myRecent, {}))[0]).toMatchObject({
      listStatus: "closed",
      closedReason: "cancelled",
    });
    const before = await snapshot();
    await expectAppError(
      b.asUser.mutation(api.nightLists.signUp, { listId }),
      "LIST_CLOSED",
      "Tonight was cancelled, so the list is closed.",
    );
    await expectAppError(host.asUser.mutation(api.nightLists.addWalkIn, { listId, name: "Late" }), "LIST_CLOSED");
    expect(await snapshot()).toEqual(before);
    await host.asUser.mutation(api.claims.setCancelledDate, { micId: mic, date: TONIGHT, cancelled: false });
    expect((await listOf()).status).toBe("open");
  });

  test("a cancelled night can't get a list", async () => {
    await host.asUser.mutation(api.claims.setCancelledDate, { micId: mic, date: TONIGHT, cancelled: true });
    await expectAppError(openList(), "LIST_CLOSED");
  });
});

describe("account deletion", () => {
  test("a deleted comedian's spots leave the lists", async () => {
    const listId = await openList();
    const [a] = await comics(1);
    await a.asUser.mutation(api.nightLists.signUp, { listId });
    await a.asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" });
    expect((await listOf()).list).toEqual([]);
  });
});
