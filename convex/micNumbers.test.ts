import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import "./lib/time";
import { createUser, type TestUser } from "./testing/test.setup";
import { comics, host, mic, nyWed, openList, t, useWednesdayNight } from "./testing/test.nightLists";
import { triggers } from "./triggers";

useWednesdayNight();

const MIN = 60_000;

type Night = {
  date: string;
  spots?: number;
  /** Online sign-ups. */
  signUps?: number;
  lottery?: { drawn: number };
  cancelled?: boolean;
  /** Minutes after 20:00 (the listed start) the first set went up, then 10 minutes a set. */
  firstSetLate?: number;
  setsUp?: number;
  closed?: boolean;
  /** Comedians whose own spot this night is (in the lottery's draw: drawn first). */
  mine?: TestUser[];
};

/** A night written as the app writes it (through the triggers), with its spots and its end. */
async function night(n: Night): Promise<Id<"nightLists">> {
  const others = await Promise.all(
    Array.from(
      { length: Math.max(0, (n.signUps ?? 0) - (n.mine?.length ?? 0)) },
      async () => (await createUser(t)).userId,
    ),
  );
  const people = [...(n.mine ?? []).map((m) => m.userId), ...others];
  const opens = Date.parse(`${n.date}T19:30:00-05:00`);
  return await t.run(async (raw) => {
    const { db } = triggers.wrapDB(raw);
    const spots = n.spots ?? 5;
    const listId = await db.insert("nightLists", {
      micId: mic,
      date: n.date,
      status: "open",
      openedBy: host.userId,
      spots,
      waitlistSpots: 5,
      setMinutes: 5,
      lightMinutes: 1,
      mode: n.lottery ? "lottery" : "first_come",
      bucket: false,
      signupOpensAt: opens,
      version: 1,
    });
    const ids: Id<"listSpots">[] = [];
    for (const [i, userId] of people.entries()) {
      const drawn = n.lottery !== undefined && i < n.lottery.drawn;
      ids.push(
        await db.insert("listSpots", {
          listId,
          micId: mic,
          userId,
          name: `Comic ${i}`,
          section: n.lottery ? (drawn ? "list" : "waitlist") : i < spots ? "list" : "waitlist",
          rank: i,
          state: "waiting",
          priority: false,
          bumped: false,
          ...(n.lottery ? { drawIndex: i + 1 } : {}),
        }),
      );
    }
    if (n.lottery) await db.patch("nightLists", listId, { drawnAt: opens + 30 * MIN, version: 2 });
    for (let k = 0; k < (n.setsUp ?? 0); k++) {
      const startedAt = Date.parse(`${n.date}T20:00:00-05:00`) + ((n.firstSetLate ?? 0) + 10 * k) * MIN;
      await db.patch("listSpots", ids[k], { state: "done", startedAt, endedAt: startedAt + 5 * MIN });
    }
    if (n.closed !== false) {
      await db.patch("nightLists", listId, {
        status: "closed",
        closedReason: n.cancelled ? "cancelled" : "ended",
        version: 3,
      });
    }
    return listId;
  });
}

async function numbers(as?: TestUser) {
  return await (as ? as.asUser : t).query(api.micNumbers.forMic, { micId: mic });
}

describe("a mic's numbers from its own lists", () => {
  test("no lists yet, and one night: not enough nights yet, nothing shown", async () => {
    expect(await numbers()).toMatchObject({ nights: 0, enough: false, typicalSignUps: null, lotteryChance: null });
    await night({ date: "2026-11-04", signUps: 12, setsUp: 5 });
    expect(await numbers()).toMatchObject({ nights: 1, held: 1, enough: false, typicalSignUps: null });
  });

  test("sign-ups against spots, how often and how fast it fills, the wait and the real start", async () => {
    await night({ date: "2026-11-04", spots: 5, signUps: 4, setsUp: 4, firstSetLate: 5 });
    await night({ date: "2026-11-11", spots: 5, signUps: 8, setsUp: 5, firstSetLate: 15 });
    await night({ date: "2026-11-18", spots: 5, signUps: 6, setsUp: 5, firstSetLate: 10 });
    // A cancelled night counts against reliability, not in the figures.
    await night({ date: "2026-11-21", spots: 5, signUps: 3, cancelled: true });
    // Tonight's list is still open: not counted until it closes.
    await night({ date: "2026-11-25", spots: 5, signUps: 20, closed: false });
    const n = await numbers();
    expect(n).toMatchObject({ nights: 4, held: 3, cancelled: 1, enough: true });
    expect(n).toMatchObject({ typicalSignUps: 6, busiestSignUps: 8, typicalSpots: 5 });
    // Two of three first-come nights filled.
    expect(n.fillRate).toBe(67);
    expect(n.typicalFillMinutes).not.toBeNull();
    // Sets at 20:05.., 20:15.., 20:10..: waits from the 19:30 list time, over 14 sets.
    const waits = [0, 1, 2, 3]
      .map((k) => 35 + 10 * k)
      .concat(
        [0, 1, 2, 3, 4].map((k) => 45 + 10 * k),
        [0, 1, 2, 3, 4].map((k) => 40 + 10 * k),
      );
    expect(n.typicalWaitMinutes).toBe(Math.round(waits.reduce((a, b) => a + b, 0) / waits.length));
    expect(n.typicalLateMinutes).toBe(10);
    expect(n.lotteryChance).toBeNull();
  });

  test("too few comedians over enough nights shows nothing", async () => {
    for (const date of ["2026-10-28", "2026-11-04", "2026-11-11"]) await night({ date, signUps: 2, setsUp: 2 });
    expect(await numbers()).toMatchObject({ held: 3, enough: false, typicalSignUps: null });
  });

  test("the lottery's odds over drawn lotteries, and the viewer's own draws; a lottery never drawn counts for nothing", async () => {
    const [me] = await comics(1, "Me");
    await night({ date: "2026-10-21", signUps: 10, lottery: { drawn: 5 }, mine: [me] });
    await night({ date: "2026-10-28", signUps: 10, lottery: { drawn: 5 } });
    await night({ date: "2026-11-04", signUps: 8, lottery: { drawn: 4 }, mine: [me] });
    expect(await numbers(me)).toMatchObject({ enough: true, lotteries: 3, lotteryChance: 50 });
    expect((await numbers(me)).myLottery).toEqual({ drawn: 2, entered: 2 });
    expect((await numbers()).myLottery).toBeNull();
    // Never drawn (the host closed it first): no odds from it.
    await t.run(async (raw) => {
      const { db } = triggers.wrapDB(raw);
      const listId = await db.insert("nightLists", {
        micId: mic,
        date: "2026-11-11",
        status: "open",
        openedBy: host.userId,
        spots: 5,
        waitlistSpots: 5,
        setMinutes: 5,
        lightMinutes: 1,
        mode: "lottery",
        bucket: false,
        signupOpensAt: 0,
        version: 1,
      });
      await db.patch("nightLists", listId, { status: "closed", closedReason: "ended", version: 2 });
    });
    expect(await numbers(me)).toMatchObject({ held: 4, lotteries: 3, lotteryChance: 50 });
  });

  test("a night run through the app's own list feeds the numbers", async () => {
    const listId = await openList({ spots: 2 });
    const users = await comics(3);
    for (const u of users) await u.asUser.mutation(api.nightLists.signUp, { listId });
    await host.asUser.mutation(api.nightLists.close, { listId });
    const row = await t.run(async (ctx) =>
      ctx.db
        .query("micNights")
        .withIndex("by_list", (q) => q.eq("listId", listId))
        .unique(),
    );
    expect(row).toMatchObject({ closed: true, cancelled: false, spots: 2, signUps: 3, comedians: 3 });
    expect(row?.fillMinutes).toBe(Math.round((nyWed("19:45") - nyWed("19:30")) / MIN));
  });
});
