import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
// Load @date-fns/tz before fake timers replace Date (see schedule.test.ts).
import "./lib/time";
import * as Schedule from "./model/scheduleDue";
import { createSceneItem, createUser, newTest, type TestBackend } from "./testing/test.setup";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** Mondays 19:30 in New York, 5-minute sets: an occurrence is over 65 minutes after its start. */
const MONDAY = Date.parse("2026-11-23T19:30:00-05:00");
const OVER = 65 * MIN;

let t: TestBackend;

beforeEach(() => {
  vi.useFakeTimers();
  t = newTest();
});

afterEach(() => {
  vi.useRealTimers();
});

/**
 * `ctx` with a database that counts the documents its reads return
 * (`get`, and `first`/`unique`/`take`/`collect`/`paginate` of a query).
 */
function countingCtx(ctx: MutationCtx): { ctx: MutationCtx; reads: () => number } {
  let reads = 0;
  const countQuery = (query: object): unknown =>
    new Proxy(query, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (prop === "take" || prop === "collect") {
            return (result as Promise<unknown[]>).then((docs) => ((reads += docs.length), docs));
          }
          if (prop === "first" || prop === "unique") {
            return (result as Promise<unknown>).then((doc) => ((reads += doc === null ? 0 : 1), doc));
          }
          if (prop === "paginate") {
            return (result as Promise<{ page: unknown[] }>).then((r) => ((reads += r.page.length), r));
          }
          return result !== null && typeof result === "object" && !(result instanceof Promise)
            ? countQuery(result)
            : result;
        };
      },
    });
  const db = new Proxy(ctx.db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === "query") return (table: never) => countQuery(target.query(table));
      if (prop === "get") {
        return async (...args: unknown[]) => {
          const doc = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (doc !== null) reads += 1;
          return doc;
        };
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ctx: { ...ctx, db } as MutationCtx, reads: () => reads };
}

/** One cleanup batch run directly, at `nowMs`, with the documents it read. */
async function cleanupCounted(nowMs: number) {
  vi.setSystemTime(nowMs);
  return await t.run(async (ctx) => {
    const counted = countingCtx(ctx as unknown as MutationCtx);
    const result = await Schedule.cleanupCompleted(counted.ctx, nowMs);
    return { ...result, reads: counted.reads() };
  });
}

async function cleanupAt(nowMs: number) {
  vi.setSystemTime(nowMs);
  return await t.mutation(internal.schedule.cleanupCompleted, {});
}

async function entry(entryId: Id<"scheduleEntries">) {
  return await t.run(async (ctx) => ctx.db.get("scheduleEntries", entryId));
}

/** A mic created a day before `MONDAY` and a comedian who adds it through the app then. */
async function addedThroughApp(overrides: Parameters<typeof createSceneItem>[1] = {}) {
  vi.setSystemTime(MONDAY - DAY);
  const sceneItemId = await createSceneItem(t, overrides);
  const comic = await createUser(t);
  const { entryId } = await comic.asUser.mutation(api.schedule.add, { sceneItemId });
  return { sceneItemId, entryId };
}

describe("schedule entries' dueAt", () => {
  test("an entry added through the app is due when its next occurrence is over, and is cleaned exactly then", async () => {
    const { entryId } = await addedThroughApp();
    expect((await entry(entryId))?.dueAt).toBe(MONDAY + OVER);

    expect(await cleanupCounted(MONDAY + OVER - 1)).toEqual({ marked: 0, removed: 0, more: false, reads: 0 });
    expect((await entry(entryId))?.completedAt).toBeUndefined();

    expect(await cleanupAt(MONDAY + OVER)).toEqual({ marked: 1, removed: 0, more: false });
    expect(await entry(entryId)).toMatchObject({ completedAt: MONDAY, dueAt: MONDAY + 7 * DAY + OVER });
  });

  test("a bi-weekly entry is not read again until the occurrence after next is over", async () => {
    const { entryId } = await addedThroughApp({ recurrence: "bi-weekly" });
    await cleanupAt(MONDAY + OVER);
    const next = MONDAY + 14 * DAY;
    expect(await entry(entryId)).toMatchObject({ completedAt: MONDAY, dueAt: next + OVER });

    // Every five-minute run in between (spot checks over the two weeks) reads nothing.
    for (const at of [
      MONDAY + OVER + 5 * MIN,
      MONDAY + 3 * DAY,
      MONDAY + 7 * DAY + OVER,
      MONDAY + 10 * DAY,
      next + OVER - 1,
    ]) {
      expect(await cleanupCounted(at)).toEqual({ marked: 0, removed: 0, more: false, reads: 0 });
    }
    expect(await cleanupAt(next + OVER)).toEqual({ marked: 1, removed: 0, more: false });
    expect(await entry(entryId)).toMatchObject({ completedAt: next, dueAt: next + 14 * DAY + OVER });
  });

  test("a one-time show's entry is due when the show is over and removed exactly then", async () => {
    const { entryId } = await addedThroughApp({ type: "show", recurrence: "one-time", performanceMinutes: 10 });
    const over = MONDAY + 70 * MIN;
    expect((await entry(entryId))?.dueAt).toBe(over);
    expect(await cleanupAt(over - 1)).toEqual({ marked: 0, removed: 0, more: false });
    expect(await entry(entryId)).not.toBeNull();
    expect(await cleanupAt(over)).toEqual({ marked: 0, removed: 1, more: false });
    expect(await entry(entryId)).toBeNull();
  });

  test("a show already over when it is added is due at once and removed by the next run", async () => {
    vi.setSystemTime(MONDAY - DAY);
    const sceneItemId = await createSceneItem(t, { type: "show", recurrence: "one-time" });
    const comic = await createUser(t);
    vi.setSystemTime(MONDAY + 2 * 60 * MIN);
    const { entryId, nextOccurrence } = await comic.asUser.mutation(api.schedule.add, { sceneItemId });
    expect(nextOccurrence).toBeNull();
    expect((await entry(entryId))?.dueAt).toBe(MONDAY + 2 * 60 * MIN);
    expect(await cleanupAt(MONDAY + 2 * 60 * MIN + 5 * MIN)).toEqual({ marked: 0, removed: 1, more: false });
  });

  test("a run with 1,000 bi-weekly entries that are not due reads no documents; when they are due it reads them in batches", async () => {
    vi.setSystemTime(MONDAY - DAY);
    const sceneItemId = await createSceneItem(t, { recurrence: "bi-weekly" });
    const comic = await createUser(t);
    // Written before dueAt existed: the migration gives them one.
    await t.run(async (ctx) => {
      for (let i = 0; i < 1000; i++) {
        await ctx.db.insert("scheduleEntries", { userId: comic.userId, sceneItemId, addedAt: MONDAY - DAY });
      }
    });
    expect(await t.mutation(internal.schedule.backfillDueAt, {})).toEqual({ updated: 100, more: true });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const dues = await t.run(async (ctx) =>
      (
        await ctx.db
          .query("scheduleEntries")
          .withIndex("by_item", (q) => q.eq("sceneItemId", sceneItemId))
          .collect()
      ).map((e) => e.dueAt),
    );
    expect(dues).toHaveLength(1000);
    expect(dues.every((d) => d === MONDAY + OVER)).toBe(true);

    // Not due yet: nothing read, one minute or six days before.
    expect(await cleanupCounted(MONDAY - 6 * DAY)).toEqual({ marked: 0, removed: 0, more: false, reads: 0 });
    expect(await cleanupCounted(MONDAY + OVER - MIN)).toEqual({ marked: 0, removed: 0, more: false, reads: 0 });

    // Due: a batch of 100 entries (plus one to know more remain) and their mic, then it reschedules itself.
    expect(await cleanupCounted(MONDAY + OVER)).toEqual({ marked: 100, removed: 0, more: true, reads: 102 });
    vi.setSystemTime(MONDAY + OVER);
    expect(await t.mutation(internal.schedule.cleanupCompleted, {})).toEqual({ marked: 100, removed: 0, more: true });
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    // All marked; for the next two weeks a run reads nothing (the old range re-read them after one week).
    for (const at of [MONDAY + OVER + 5 * MIN, MONDAY + 8 * DAY, MONDAY + 14 * DAY + OVER - 1]) {
      expect(await cleanupCounted(at)).toEqual({ marked: 0, removed: 0, more: false, reads: 0 });
    }
    const left = await t.run(async (ctx) =>
      ctx.db
        .query("scheduleEntries")
        .withIndex("by_dueAt", (q) => q.lte("dueAt", MONDAY + 14 * DAY + OVER - 1))
        .take(1),
    );
    expect(left).toEqual([]);
  }, 60_000);

  test("entries written before dueAt existed are still cleaned (as due) before the migration has run", async () => {
    vi.setSystemTime(MONDAY - DAY);
    const sceneItemId = await createSceneItem(t);
    const comic = await createUser(t);
    const entryId = await t.run(async (ctx) =>
      ctx.db.insert("scheduleEntries", { userId: comic.userId, sceneItemId, addedAt: MONDAY - DAY }),
    );
    // Before the occurrence is over: read once, given its dueAt, not marked.
    expect(await cleanupCounted(MONDAY)).toMatchObject({ marked: 0, removed: 0, more: false });
    expect((await entry(entryId))?.dueAt).toBe(MONDAY + OVER);
    expect(await cleanupCounted(MONDAY + 5 * MIN)).toEqual({ marked: 0, removed: 0, more: false, reads: 0 });
    expect(await cleanupAt(MONDAY + OVER)).toEqual({ marked: 1, removed: 0, more: false });
  });

  test("a batch queued by the old cursor-based cleanup (with its arguments) still runs after the deploy", async () => {
    const { entryId } = await addedThroughApp();
    vi.setSystemTime(MONDAY + OVER);
    expect(
      await t.mutation(internal.schedule.cleanupCompleted, { cursor: "old-cursor", markedBefore: MONDAY - 7 * DAY }),
    ).toEqual({ marked: 1, removed: 0, more: false });
    expect((await entry(entryId))?.completedAt).toBe(MONDAY);
  });

  test("the migration leaves entries that already have dueAt alone", async () => {
    const { entryId } = await addedThroughApp();
    vi.setSystemTime(MONDAY);
    expect(await t.mutation(internal.schedule.backfillDueAt, {})).toEqual({ updated: 0, more: false });
    expect((await entry(entryId))?.dueAt).toBe(MONDAY + OVER);
  });
});
