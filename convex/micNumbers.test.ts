import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { numbersLineText } from "./lib/micNumbersLine";
import { addDaysToDate } from "./lib/time";
import { MAX_CONFIRMED_DATES } from "./lib/tonight";
import * as MicNumbers from "./model/micNumbers";
import * as Tonight from "./model/tonight";
import { checkAllInvariants } from "./testing/test.invariants";
import { baseArgs } from "./testing/test.tonight";
import { createUser, sceneItemRow, type TestUser } from "./testing/test.setup";
import { comics, host, mic, nyWed, openList, t, TONIGHT, useWednesdayNight } from "./testing/test.nightLists";
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

/** The `count` Wednesdays before tonight, oldest first. */
function wednesdays(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    return addDaysToDate(TONIGHT, -7 * (count - i));
  });
}

/** Runs `read` in one query transaction and returns its result with the documents it read. */
async function withReads<T>(read: (ctx: Parameters<Parameters<typeof t.run>[0]>[0]) => Promise<T>) {
  return await t.run(async (ctx) => {
    const before = await ctx.meta.getTransactionMetrics();
    const result = await read(ctx);
    const after = await ctx.meta.getTransactionMetrics();
    return { result, documentsRead: after.documentsRead.used - before.documentsRead.used };
  });
}

const micRow = async () => await t.run(async (ctx) => await ctx.db.get("sceneItems", mic));

describe("the mic's numbers kept as one summary and a short line", () => {
  test("the event page reads the same documents for 3 nights as for 25", async () => {
    const me = (await comics(1, "Me"))[0];
    for (const date of wednesdays(3)) await night({ date, signUps: 4, setsUp: 4, firstSetLate: 15 });
    const few = await withReads((ctx) => MicNumbers.micNumbers(ctx, { micId: mic, viewer: me.userId }));
    expect(few.result).toMatchObject({ nights: 3, enough: true });
    for (const date of wednesdays(25).slice(0, 22)) await night({ date, signUps: 4, setsUp: 4, firstSetLate: 15 });
    const many = await withReads((ctx) => MicNumbers.micNumbers(ctx, { micId: mic, viewer: me.userId }));
    expect(many.result).toMatchObject({ nights: MicNumbers.NUMBERS_NIGHTS, enough: true });
    // One summary row, whatever the history.
    expect(many.documentsRead).toBe(1);
    expect(few.documentsRead).toBe(many.documentsRead);
  });

  test("no short line before enough nights; then one on the mic row, which Tonight returns without reading more", async () => {
    const tonight = async () =>
      await withReads((ctx) =>
        Tonight.tonightPage(ctx, {
          ...baseArgs({ nowMs: nyWed("12:00") }),
          paginationOpts: { numItems: 10, cursor: null },
        }),
      );
    const bare = await tonight();
    expect(bare.result.page.map((n) => n.item._id)).toEqual([mic]);
    expect(bare.result.page[0].item.numbersLine).toBeUndefined();

    // One night, then two: still not enough, and the line stays empty.
    const [d1, d2, d3, d4] = wednesdays(4);
    await night({ date: d1, spots: 5, signUps: 8, setsUp: 5, firstSetLate: 15 });
    await night({ date: d2, spots: 5, signUps: 8, setsUp: 5, firstSetLate: 15 });
    expect((await micRow())?.numbersLine).toBeUndefined();
    expect(numbersLineText((await micRow())?.numbersLine)).toBe("");

    await night({ date: d3, spots: 5, signUps: 8, setsUp: 5, firstSetLate: 15 });
    await night({ date: d4, spots: 5, cancelled: true, signUps: 2 });
    const line = (await micRow())?.numbersLine;
    expect(line).toMatchObject({ nights: 4, held: 3, fillRate: 100, lateMinutes: 15 });
    // The two most useful figures: how fast it fills (these sign-ups are made on the frozen clock) and the real start.
    expect(numbersLineText(line)).toMatch(/^Fills in ~.+ · first set ~15 min late$/);

    const shown = await tonight();
    expect(shown.result.page[0].item.numbersLine).toEqual(line);
    expect(shown.documentsRead).toBe(bare.documentsRead);
  });

  test("the summary follows a closed night that changes and a night's list that goes", async () => {
    const dates = wednesdays(3);
    const lists: Id<"nightLists">[] = [];
    for (const date of dates) lists.push(await night({ date, signUps: 4, setsUp: 4, firstSetLate: 20 }));
    expect(await numbers()).toMatchObject({ nights: 3, enough: true, typicalLateMinutes: 20 });
    // The oldest list is cancelled after the fact: held 2, below the threshold.
    await t.run(async (raw) => {
      const { db } = triggers.wrapDB(raw);
      await db.patch("nightLists", lists[0], { closedReason: "cancelled", version: 9 });
    });
    expect(await numbers()).toMatchObject({ nights: 3, held: 2, cancelled: 1, enough: false });
    expect((await micRow())?.numbersLine).toBeUndefined();
    // A list deleted takes its night with it; the last one gone leaves no summary at all.
    await t.run(async (raw) => {
      const { db } = triggers.wrapDB(raw);
      for (const listId of lists) await db.delete("nightLists", listId);
    });
    expect(await numbers()).toMatchObject({ nights: 0, enough: false, hostConfirmed: 0 });
    expect(await t.run(async (ctx) => await ctx.db.query("micNumberSummaries").collect())).toEqual([]);
  });
});

describe("host confirmations in how reliably it runs", () => {
  const confirm = async (date: string, confirmed = true) =>
    await host.asUser.mutation(api.claims.setConfirmedDate, { micId: mic, date, confirmed });

  test("no nights: nothing confirmed; a confirmed date without a list counts for nothing", async () => {
    await confirm("2026-11-18");
    expect(await numbers()).toMatchObject({ nights: 0, hostConfirmed: 0 });
  });

  test("confirmed before, during and after the night all count; taking it back and cancelling uncount it", async () => {
    const [d1, d2, d3, d4] = wednesdays(4);
    // Confirmed days ahead, before its list exists.
    await confirm(d1);
    await night({ date: d1, signUps: 4, setsUp: 4 });
    // Confirmed while its list is open (the night's row is not counted until it closes).
    const open = await night({ date: d2, signUps: 4, setsUp: 4, closed: false });
    await confirm(d2);
    await t.run(async (raw) => {
      const { db } = triggers.wrapDB(raw);
      await db.patch("nightLists", open, { status: "closed", closedReason: "ended", version: 5 });
    });
    // Confirmed after it closed: the mic's trigger updates the closed night.
    await night({ date: d3, signUps: 4, setsUp: 4 });
    await confirm(d3);
    await night({ date: d4, signUps: 4, setsUp: 4 });
    expect(await numbers()).toMatchObject({ nights: 4, held: 4, hostConfirmed: 3 });

    await confirm(d3, false);
    expect(await numbers()).toMatchObject({ hostConfirmed: 2 });
    // Cancelling a confirmed night takes its confirmation away (it was not held).
    await host.asUser.mutation(api.claims.setCancelledDate, { micId: mic, date: d2, cancelled: true });
    const rows = await t.run(async (ctx) =>
      ctx.db
        .query("micNights")
        .withIndex("by_mic_and_closed_and_date", (q) => q.eq("micId", mic).eq("closed", true))
        .collect(),
    );
    expect(rows.find((r) => r.date === d2)).toMatchObject({ hostConfirmed: false });
    expect(await numbers()).toMatchObject({ nights: 4, hostConfirmed: 1 });
  });

  test("a confirmation dropped from the mic's capped dates stays on its night", async () => {
    const [d1, d2, d3] = wednesdays(3);
    for (const date of [d1, d2, d3]) {
      await confirm(date);
      await night({ date, signUps: 4, setsUp: 4 });
    }
    expect(await numbers()).toMatchObject({ hostConfirmed: 3 });
    // Enough later confirmations to push the three nights out of the mic's kept dates.
    const later = Array.from({ length: MAX_CONFIRMED_DATES }, (_, i) =>
      new Date(Date.UTC(2026, 11, 1) + i * 24 * 3600_000).toISOString().slice(0, 10),
    );
    for (const date of later) await confirm(date);
    expect((await micRow())?.confirmedDates).not.toContain(d1);
    expect(await numbers()).toMatchObject({ nights: 3, hostConfirmed: 3 });
    // A later change to one of those nights keeps its confirmation too.
    await t.run(async (raw) => {
      const { db } = triggers.wrapDB(raw);
      const row = await db
        .query("nightLists")
        .withIndex("by_mic_and_date", (q) => q.eq("micId", mic).eq("date", d1))
        .unique();
      await db.patch("nightLists", row!._id, { version: 99 });
    });
    expect(await numbers()).toMatchObject({ hostConfirmed: 3 });
    // So does one after the host takes back a later date (the kept list is no longer full).
    await host.asUser.mutation(api.claims.setConfirmedDate, { micId: mic, date: later[0], confirmed: false });
    expect((await micRow())?.confirmedDates).toHaveLength(MAX_CONFIRMED_DATES - 1);
    await t.run(async (raw) => {
      const { db } = triggers.wrapDB(raw);
      const row = await db
        .query("nightLists")
        .withIndex("by_mic_and_date", (q) => q.eq("micId", mic).eq("date", d2))
        .unique();
      await db.patch("nightLists", row!._id, { version: 100 });
    });
    expect(await numbers()).toMatchObject({ hostConfirmed: 3 });
  });
});

test("the migration gives mics with nights from before the summaries their summary, line and confirmations", async () => {
  const dates = wednesdays(3);
  await host.asUser.mutation(api.claims.setConfirmedDate, { micId: mic, date: dates[1], confirmed: true });
  for (const date of dates) await night({ date, signUps: 4, setsUp: 4, firstSetLate: 10 });
  const kept = await numbers();
  expect(kept).toMatchObject({ enough: true, hostConfirmed: 1 });
  // As a database from before them: no summary, no line, no confirmation on the nights.
  await t.run(async (ctx) => {
    for (const row of await ctx.db.query("micNumberSummaries").collect())
      await ctx.db.delete("micNumberSummaries", row._id);
    await ctx.db.patch("sceneItems", mic, { numbersLine: undefined });
    for (const row of await ctx.db.query("micNights").collect())
      await ctx.db.patch("micNights", row._id, { hostConfirmed: undefined });
  });
  expect(await numbers()).toMatchObject({ nights: 0, enough: false });
  const first = await t.mutation(internal.migrations.micNumberSummaries, {});
  expect(first).toMatchObject({ updated: 1, isDone: true });
  expect(await numbers()).toEqual(kept);
  expect((await micRow())?.numbersLine).toMatchObject({ nights: 3, held: 3, lateMinutes: 10 });
});

test("a migration call stays inside Convex's reads a transaction with every mic holding 60 confirmed dates", async () => {
  const listId = await night({ date: TONIGHT, signUps: 1, closed: false });
  const dates = Array.from({ length: MAX_CONFIRMED_DATES }, (_, i) => addDaysToDate(TONIGHT, -i - 1)).reverse();
  const MICS = 40;
  await t.run(async (ctx) => {
    for (let i = 0; i < MICS; i++) {
      const micId = await ctx.db.insert("sceneItems", {
        ...sceneItemRow({ title: `Busy ${i}` }),
        confirmedDates: dates,
      });
      await ctx.db.insert("micNights", {
        ...{ micId, listId, date: dates[i], closed: true, cancelled: false, lottery: false },
        ...{ spots: 5, signUps: 5, comedians: 5, waitMinutes: 0, sets: 0 },
      });
    }
  });
  let updated = 0;
  let cursor: string | null = null;
  for (;;) {
    const answer: { updated: number; isDone: boolean; continueCursor: string } = await t.mutation(
      internal.migrations.micNumberSummaries,
      { cursor },
    );
    updated += answer.updated;
    if (answer.isDone) break;
    cursor = answer.continueCursor;
  }
  // And the test mic, with tonight's open list.
  expect(updated).toBe(MICS + 1);
});

test("the invariant check recounts each night, each summary and the short line, and finds a broken one", async () => {
  const dates = wednesdays(4);
  await host.asUser.mutation(api.claims.setConfirmedDate, { micId: mic, date: dates[2], confirmed: true });
  for (const date of dates.slice(0, 3)) await night({ date, signUps: 5, setsUp: 4, firstSetLate: 10 });
  await night({ date: dates[3], signUps: 3, cancelled: true });
  const lottery = await night({ date: TONIGHT, signUps: 6, lottery: { drawn: 3 }, closed: false });
  expect(await checkAllInvariants(t)).toEqual({ ok: true, problems: [] });

  // Written around the triggers: a night's count, the summary's confirmations and the mic's line.
  await t.run(async (ctx) => {
    const open = await ctx.db
      .query("micNights")
      .withIndex("by_list", (q) => q.eq("listId", lottery))
      .unique();
    await ctx.db.patch("micNights", open!._id, { signUps: 99 });
    const summary = await ctx.db.query("micNumberSummaries").unique();
    await ctx.db.patch("micNumberSummaries", summary!._id, { hostConfirmed: 4 });
    await ctx.db.patch("sceneItems", mic, { numbersLine: { nights: 4, held: 4 } });
  });
  const report = await checkAllInvariants(t);
  expect(report.ok).toBe(false);
  expect(report.problems).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^micNights .*: signUps is 99, a recount says 6$/),
      expect.stringMatching(/^micNumberSummaries .*: hostConfirmed is 4, a recount says 1$/),
      expect.stringMatching(/^sceneItems .*: numbersLine is /),
    ]),
  );
  expect(report.problems).toHaveLength(3);
});
