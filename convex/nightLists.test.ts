import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { createAdmin, createSceneItem, createUser, newTest, type TestBackend, type TestUser } from "./test.setup";
import { checkAllInvariants } from "./test.invariants";
import { expectAppError } from "./test.expect";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const VENUE = { latitude: 40.7411, longitude: -73.9897 };
/** Wednesday 2026-11-25 in New York (UTC-5 in November). */
const nyWed = (hhmm: string) => Date.parse(`2026-11-25T${hhmm}:00-05:00`);
const TONIGHT = "2026-11-25";
const NOW = nyWed("19:45");

let t: TestBackend;
let host: TestUser;
let mic: Id<"sceneItems">;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  t = newTest();
  host = await createUser(t, { name: "Hana Host" });
  mic = await createSceneItem(t, {
    title: "Wednesday Laughs",
    dayOfWeek: 3,
    startTimeLocal: "20:00",
    listTimeLocal: "19:30",
    performanceMinutes: 7,
    ...VENUE,
  });
  // The host is the mic's approved claimant.
  await t.run(async (ctx) => {
    await ctx.db.insert("micClaims", { micId: mic, claimantId: host.userId, status: "approved" });
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

type OpenOptions = Partial<{
  spots: number;
  waitlistSpots: number;
  mode: "first_come" | "lottery";
  drawAt: number;
  bucket: boolean;
  signupOpensAt: number;
  date: string;
  setMinutes: number;
}>;

async function openList(opts: OpenOptions = {}, by: TestUser = host, micId = mic) {
  return await by.asUser.mutation(api.nightLists.open, {
    micId,
    date: opts.date ?? TONIGHT,
    spots: opts.spots ?? 3,
    waitlistSpots: opts.waitlistSpots ?? 2,
    lightMinutes: 1,
    mode: opts.mode ?? "first_come",
    ...(opts.setMinutes !== undefined ? { setMinutes: opts.setMinutes } : {}),
    ...(opts.drawAt !== undefined ? { drawAt: opts.drawAt } : {}),
    ...(opts.bucket !== undefined ? { bucket: opts.bucket } : {}),
    ...(opts.signupOpensAt !== undefined ? { signupOpensAt: opts.signupOpensAt } : {}),
  });
}

async function view(as?: TestUser, sinceDate = "2026-11-24") {
  const caller = as ? as.asUser : t;
  const result = await caller.query(api.nightLists.current, { micId: mic, sinceDate });
  return result;
}

async function listOf(as?: TestUser) {
  const result = await view(as);
  if (result.list === null) throw new Error("no list");
  return result.list;
}

const names = (spots: Array<{ name: string }>) => spots.map((s) => s.name);

async function comics(n: number, prefix = "Comic"): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 1; i <= n; i++) out.push(await createUser(t, { name: `${prefix} ${i}`, withStats: true }));
  return out;
}

async function snapshot() {
  return await t.run(async (ctx) => ({
    lists: await ctx.db.query("nightLists").collect(),
    spots: await ctx.db.query("listSpots").collect(),
    sets: await ctx.db.query("performances").collect(),
    checkIns: await ctx.db.query("checkIns").collect(),
  }));
}

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
    expect(await a.asUser.mutation(api.nightLists.signUp, { listId })).toMatchObject({ section: "list" });
    await b.asUser.mutation(api.nightLists.signUp, { listId });
    expect(await c.asUser.mutation(api.nightLists.signUp, { listId })).toMatchObject({ section: "waitlist" });

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
    await expectAppError(
      d.asUser.mutation(api.nightLists.signUp, { listId }),
      "LIST_FULL",
      "The list and its waitlist are full.",
    );
    await expectAppError(t.mutation(api.nightLists.signUp, { listId }), "NOT_SIGNED_IN");
    expect(await snapshot()).toEqual(before);
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
    // Two comedians checked in through the list: the mic is verified.
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
    // An unvetted account makes up a mic (it is its creator, so it may run the list).
    const maker = await createUser(t, { name: "Mick Maker", withStats: true });
    const madeUp = await createSceneItem(t, {
      title: "Made Up Mic",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      performanceMinutes: 5,
      createdBy: maker.userId,
      ...VENUE,
    });
    const listId = await openList({ spots: 3 }, maker, madeUp);
    const [puppet] = await comics(1, "Puppet");
    await puppet.asUser.mutation(api.nightLists.signUp, { listId });
    await maker.asUser.mutation(api.nightLists.signUp, { listId });
    const spots = (await maker.asUser.query(api.nightLists.current, { micId: madeUp, sinceDate: TONIGHT })).list!.list;
    for (const spot of spots) {
      await maker.asUser.mutation(api.nightLists.upNow, { listId, spotId: spot._id });
      const result = await maker.asUser.mutation(api.nightLists.done, { listId, spotId: spot._id, useTimer: false });
      expect(result.performanceId).not.toBeNull();
    }
    // Both sets are logged, but neither counts as a check-in.
    expect(await t.run(async (ctx) => (await ctx.db.query("checkIns").collect()).length)).toBe(0);
    const item = await t.run(async (ctx) => await ctx.db.get("sceneItems", madeUp));
    expect(item?.checkInCount ?? 0).toBe(0);

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
    const plainList = await openList({ spots: 3, mode: "lottery", drawAt: nyWed("20:15") }, host, other);
    const [a, b] = await comics(2);
    await a.asUser.mutation(api.nightLists.signUp, { listId: bucketList });
    await a.asUser.mutation(api.nightLists.signUp, { listId: plainList });
    await t.mutation(internal.nightLists.drawDue, { listId: bucketList });
    await t.mutation(internal.nightLists.drawDue, { listId: plainList });
    expect(await b.asUser.mutation(api.nightLists.signUp, { listId: bucketList })).toMatchObject({
      section: "waitlist",
    });
    expect(await b.asUser.mutation(api.nightLists.signUp, { listId: plainList })).toMatchObject({ section: "list" });
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
