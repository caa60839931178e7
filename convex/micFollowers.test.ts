import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { RELEAD_BATCH } from "./model/micFollowers";
import { FAN_OUT_BATCH, fanOutBatch, fireDueAlarms, type FanOutJob } from "./model/notificationFanOut";
import { defaultPrefs } from "./model/notifications";
import { nyWed, t, useWednesdayNight } from "./testing/test.nightLists";
import { expectAppError } from "./testing/test.expect";
import { checkAllInvariants } from "./testing/test.invariants";
import { createSceneItem, createUser, sceneItemRow } from "./testing/test.setup";
import { triggers } from "./triggers";

useWednesdayNight();

const choices = defaultPrefs("America/New_York");

async function followerRows(userId: Id<"users">): Promise<Pick<Doc<"micFollowers">, "micId" | "leadMinutes">[]> {
  return await t.run(async (ctx) =>
    (
      await ctx.db
        .query("micFollowers")
        .withIndex("by_user_and_mic", (q) => q.eq("userId", userId))
        .collect()
    ).map((r) => ({ micId: r.micId, leadMinutes: r.leadMinutes })),
  );
}

describe("follower rows", () => {
  test("follow favourites, schedule entries not played yet, and the comedian's lead time", async () => {
    const comic = await createUser(t);
    const other = await createSceneItem(t, { title: "Thursday Mic", dayOfWeek: 4, startTimeLocal: "20:00" });
    expect(await followerRows(comic.userId)).toEqual([]);

    await comic.asUser.mutation(api.favorites.add, { sceneItemId: other });
    expect(await followerRows(comic.userId)).toEqual([{ micId: other, leadMinutes: 30 }]);

    await comic.asUser.mutation(api.notifications.savePreferences, { ...choices, leadMinutes: 60 });
    expect(await followerRows(comic.userId)).toEqual([{ micId: other, leadMinutes: 60 }]);
    // List openings off: still a follower (nights, muting), but at no lead time.
    await comic.asUser.mutation(api.notifications.savePreferences, { ...choices, listOpens: false });
    expect(await followerRows(comic.userId)).toEqual([{ micId: other, leadMinutes: null }]);
    await comic.asUser.mutation(api.notifications.savePreferences, { ...choices, leadMinutes: 15 });

    // Scheduled too: unfavouriting keeps the row, the night played removes it.
    const { entryId } = await comic.asUser.mutation(api.schedule.add, { sceneItemId: other });
    await comic.asUser.mutation(api.favorites.remove, { sceneItemId: other });
    expect(await followerRows(comic.userId)).toEqual([{ micId: other, leadMinutes: 15 }]);
    await t.run(async (raw) => {
      await triggers.wrapDB(raw).db.patch("scheduleEntries", entryId, { completedAt: nyWed("19:00") });
    });
    expect(await followerRows(comic.userId)).toEqual([]);
  });

  test("a new lead time reaches every follower row, past the first batch by scheduled batches", async () => {
    const comic = await createUser(t);
    const MICS = RELEAD_BATCH + 20;
    await t.run(async (raw) => {
      const ctx = triggers.wrapDB(raw);
      for (let i = 0; i < MICS; i++) {
        const micId = await ctx.db.insert("sceneItems", sceneItemRow({ title: `Mic ${i}` }));
        await ctx.db.insert("favorites", { userId: comic.userId, sceneItemId: micId });
      }
    });
    await comic.asUser.mutation(api.notifications.savePreferences, { ...choices, leadMinutes: 120 });
    const leads = async () => (await followerRows(comic.userId)).map((r) => r.leadMinutes);
    expect((await leads()).filter((m) => m === 120)).toHaveLength(RELEAD_BATCH);
    await t.finishAllScheduledFunctions(() => undefined);
    expect(await leads()).toEqual(new Array(MICS).fill(120));
  });

  test("a new list lead time is limited to 10 an hour (each rewrites the follower rows); other choices are not", async () => {
    const comic = await createUser(t);
    const leads = [60, 30] as const;
    for (let i = 0; i < 10; i++) {
      await comic.asUser.mutation(api.notifications.savePreferences, { ...choices, leadMinutes: leads[i % 2] });
    }
    // Quiet hours and topics are the comedian's own row only: never limited.
    await comic.asUser.mutation(api.notifications.savePreferences, {
      ...choices,
      quietStart: "23:00",
      quietEnd: "07:00",
    });
    const refused = await expectAppError(
      comic.asUser.mutation(api.notifications.savePreferences, { ...choices, leadMinutes: 120 }),
      "RATE_LIMITED",
      /^You have changed your list reminders a lot\. Please try again in /,
    );
    expect(refused.limit).toBe("listLeadChange");
    await expectAppError(
      comic.asUser.mutation(api.notifications.savePreferences, { ...choices, listOpens: false }),
      "RATE_LIMITED",
    );
    const prefs = await comic.asUser.query(api.notifications.preferences, {});
    expect(prefs).toMatchObject({ leadMinutes: 30, listOpens: true, quietStart: "23:00" });
  });
});

/**
 * One transaction through the triggers, with the scheduler's fan-out batches kept
 * instead of queued; returns what it returned, the fan-out jobs and the documents it read.
 */
async function measured<T>(
  fn: (ctx: MutationCtx) => Promise<T>,
): Promise<{ value: T; jobs: FanOutJob[]; documentsRead: number }> {
  return await t.run(async (raw) => {
    const jobs: FanOutJob[] = [];
    const keep = async (_at: unknown, _fn: unknown, args: { job?: FanOutJob }) => {
      if (args.job !== undefined) jobs.push(args.job);
      return null as never;
    };
    const scheduler = { ...raw.scheduler, runAfter: keep, runAt: keep };
    const ctx = triggers.wrapDB({ ...raw, scheduler } as unknown as MutationCtx);
    const before = await raw.meta.getTransactionMetrics();
    const value = await fn(ctx);
    const after = await raw.meta.getTransactionMetrics();
    return { value, jobs, documentsRead: after.documentsRead.used - before.documentsRead.used };
  });
}

/** A list-opening run at `nowMs`: the cron's transaction, then every fan-out batch it starts, one after another. */
async function alarmRun(nowMs: number): Promise<{ told: number; transactions: number[] }> {
  const fired = await measured((ctx) => fireDueAlarms(ctx, nowMs));
  const transactions = [fired.documentsRead];
  let told = 0;
  const queue = [...fired.jobs];
  for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
    const batch = await measured((ctx) => fanOutBatch(ctx, job, nowMs));
    transactions.push(batch.documentsRead);
    told += batch.value.told;
    if (batch.value.next !== null) queue.push(batch.value.next);
  }
  return { told, transactions };
}

/** A mic with list at 21:00 tonight and `due` followers who chose 60 minutes among `others` who chose 30. */
async function followedMic(title: string, due: number, others: number): Promise<Id<"sceneItems">> {
  const micId = await createSceneItem(t, { title, dayOfWeek: 3, startTimeLocal: "21:30", listTimeLocal: "21:00" });
  // 500 a transaction, through the triggers as the app writes them.
  for (let from = 0; from < due + others; from += 500) {
    await t.run(async (raw) => {
      const ctx = triggers.wrapDB(raw);
      for (let i = from; i < Math.min(from + 500, due + others); i++) {
        const userId = await ctx.db.insert("users", { name: `${title} fan ${i}` });
        const leadMinutes = i < due ? 60 : 30;
        await ctx.db.insert("notificationPrefs", {
          userId,
          ...choices,
          leadMinutes,
          quietStart: undefined,
          quietEnd: undefined,
        });
        await ctx.db.insert("favorites", { userId, sceneItemId: micId });
        // Some follow by their schedule as well: still one follower row.
        if (i % 4 === 0)
          await ctx.db.insert("scheduleEntries", { userId, sceneItemId: micId, addedAt: nyWed("12:00") });
      }
    });
  }
  return micId;
}

/** Documents the cron's transaction reads for one alarm: the alarm, its mic, the alarm again as it moves on. */
const CRON_READS = 6;

describe("follower rows against what they follow", () => {
  async function followerProblems(): Promise<string[]> {
    return (await checkAllInvariants(t)).problems.filter((line) => line.startsWith("micFollowers"));
  }

  test("the invariant check finds a row missing, at the wrong lead time or left behind; the backfill mends the first two", async () => {
    const comic = await createUser(t);
    const [fav, planned, stray] = [
      await createSceneItem(t, { title: "Favourite Mic", dayOfWeek: 4, startTimeLocal: "20:00" }),
      await createSceneItem(t, { title: "Planned Mic", dayOfWeek: 5, startTimeLocal: "20:00" }),
      await createSceneItem(t, { title: "Stray Mic", dayOfWeek: 6, startTimeLocal: "20:00" }),
    ];
    await comic.asUser.mutation(api.favorites.add, { sceneItemId: fav });
    await comic.asUser.mutation(api.schedule.add, { sceneItemId: planned });
    expect(await checkAllInvariants(t)).toEqual({ ok: true, problems: [] });

    // Written past the triggers, as data from before the table existed would be.
    await t.run(async (ctx) => {
      const rowOf = async (micId: Id<"sceneItems">) =>
        (await ctx.db
          .query("micFollowers")
          .withIndex("by_user_and_mic", (q) => q.eq("userId", comic.userId).eq("micId", micId))
          .unique())!;
      await ctx.db.delete("micFollowers", (await rowOf(fav))._id);
      await ctx.db.patch("micFollowers", (await rowOf(planned))._id, { leadMinutes: 120 });
      await ctx.db.insert("micFollowers", { micId: stray, userId: comic.userId, leadMinutes: 30 });
    });
    const who = `micFollowers of user ${comic.userId}`;
    expect((await followerProblems()).sort()).toEqual(
      [
        `${who} for mic ${fav}: missing`,
        `${who} for mic ${planned}: lead 120, the comedian's choices say 30`,
        `${who} for mic ${stray}: a row, but the comedian no longer follows the mic`,
      ].sort(),
    );

    await t.mutation(internal.notifications.backfillFollowers, {});
    await t.finishAllScheduledFunctions(() => undefined);
    expect(await followerProblems()).toEqual([
      `${who} for mic ${stray}: a row, but the comedian no longer follows the mic`,
    ]);
  });
});

describe("list openings read the followers due, not the whole following", () => {
  test("the same documents per run for 5 followers due among 20 and among 20 + 600", async () => {
    const DUE = 5;
    await followedMic("Small Room", DUE, 15);
    const small = await alarmRun(nyWed("20:00"));
    expect(small.told).toBe(DUE);

    // Another mic, its following 30 times bigger, the same 5 due (the first mic's alarm put away).
    await t.run(async (ctx) => {
      for (const row of await ctx.db.query("listAlarms").collect()) await ctx.db.delete("listAlarms", row._id);
    });
    await followedMic("Big Room", DUE, 15 + 600);
    const big = await alarmRun(nyWed("20:00"));
    expect(big.told).toBe(DUE);

    // Cron: the alarm, its mic and the alarm moved on. Batch: the 5 follower rows and each one's choices.
    expect(big.transactions).toEqual(small.transactions);
    expect(big.transactions).toHaveLength(2);
    const [cron, batch] = big.transactions;
    expect(cron).toBeLessThanOrEqual(CRON_READS);
    expect(batch).toBeLessThanOrEqual(2 * DUE);
  }, 120_000);

  test("a run reads at most a batch of followers a transaction, however many are due", async () => {
    const DUE = FAN_OUT_BATCH * 2 + 10;
    await followedMic("Busy Room", DUE, 50);
    const run = await alarmRun(nyWed("20:00"));
    expect(run.told).toBe(DUE);
    // The cron's transaction, then three batches of 100, 100 and 10.
    expect(run.transactions).toHaveLength(4);
    for (const reads of run.transactions.slice(1)) expect(reads).toBeLessThanOrEqual(2 * FAN_OUT_BATCH);
    expect(run.transactions.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(CRON_READS + 2 * DUE);
  }, 120_000);
});
