import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import {
  MAX_RATING_NOTE_LENGTH,
  MAX_SET_LIST_BITS,
  MAX_SET_LIST_TITLE_LENGTH,
  RATING_NOTE_TOO_LONG,
  SET_LIST_TITLE_TOO_LONG,
  SET_LIST_TOO_MANY_BITS,
} from "./lib/bitRules";
import { RECENT_RATINGS } from "./model/bits";
import { expectAppError } from "./testing/test.expect";
import { comics, DAY, host, listOf, mic, MINUTE, NOW, openList, t, useWednesdayNight } from "./testing/test.nightLists";
import { createAdmin, createSceneItem, createUser, type TestUser } from "./testing/test.setup";

useWednesdayNight();

async function bit(comic: TestUser, title: string, seconds?: number): Promise<Id<"bits">> {
  return await comic.asUser.mutation(api.bits.create, { title, tags: [], status: "working", seconds });
}

/** The comedian signs up on tonight's list; the host calls them up and marks the set done. */
async function hostLogsSet(comic: TestUser): Promise<Id<"performances">> {
  const listId = await openList({ spots: 3, setMinutes: 6 });
  await comic.asUser.mutation(api.nightLists.signUp, { listId });
  const list = await listOf(comic);
  const spotId = list.list.find((s) => s.name === list.list[0].name)!._id;
  await host.asUser.mutation(api.nightLists.upNow, { listId, spotId });
  vi.setSystemTime(NOW + 6 * MINUTE);
  const { performanceId } = await host.asUser.mutation(api.nightLists.done, { listId, spotId, useTimer: false });
  return performanceId!;
}

async function materialOf(userId: Id<"users">) {
  return await t.run(async (ctx) => {
    const out: Record<string, number> = {};
    for (const table of ["bits", "bitTags", "setLists", "setReviews", "bitRatings", "bitRooms", "bitMonths"] as const) {
      // A test may scan whole tables: it looks for any trace of the comedian.
      out[table] = (await ctx.db.query(table).collect()).filter((r) => r.userId === userId).length;
    }
    return out;
  });
}

describe("set lists", () => {
  test("built from the comedian's bits: total against the night's set length, reorder, duplicate, attach", async () => {
    const [comic] = await comics(1);
    const a = await bit(comic, "Airport", 90);
    const b = await bit(comic, "Bank", 150);
    const c = await bit(comic, "Cats");
    await openList({ setMinutes: 5 });
    const id = await comic.asUser.mutation(api.setLists.create, {
      title: " Tonight ",
      bitIds: [a, b, c, a],
      night: { micId: mic, date: "2026-11-25" },
    });
    let view = await comic.asUser.query(api.setLists.get, { id });
    expect(view).toMatchObject({ title: "Tonight", totalSeconds: 240 });
    expect(view?.bits.map((x) => x.title)).toEqual(["Airport", "Bank", "Cats"]);
    // The live list's set length wins over the mic's usual spot.
    expect(view?.night).toMatchObject({
      micTitle: "Wednesday Laughs",
      date: "2026-11-25",
      spotMinutes: 5,
      hasList: true,
    });

    await comic.asUser.mutation(api.setLists.update, { id, title: "Tonight", bitIds: [c, a, b] });
    view = await comic.asUser.query(api.setLists.get, { id });
    expect(view?.bits.map((x) => x.title)).toEqual(["Cats", "Airport", "Bank"]);

    const copy = await comic.asUser.mutation(api.setLists.duplicate, { id });
    expect(await comic.asUser.query(api.setLists.get, { id: copy })).toMatchObject({
      title: "Tonight (copy)",
      night: null,
    });
    await comic.asUser.mutation(api.setLists.attach, { id: copy, night: { micId: mic, date: "2026-12-02" } });
    expect((await comic.asUser.query(api.setLists.get, { id: copy }))?.night).toMatchObject({
      date: "2026-12-02",
      spotMinutes: 7,
      hasList: false,
    });
    expect((await comic.asUser.query(api.setLists.list, {})).map((l) => l.title)).toEqual([
      "Tonight (copy)",
      "Tonight",
    ]);
  });

  test("caps and ownership: bits, title, date; nobody else reads or changes it", async () => {
    const [comic, other] = await comics(2);
    const admin = await createAdmin(t);
    const mine = await bit(comic, "Mine");
    const theirs = await bit(other, "Theirs");
    const many = await Promise.all(Array.from({ length: MAX_SET_LIST_BITS + 1 }, (_, i) => bit(comic, `Bit ${i}`)));
    await expectAppError(
      comic.asUser.mutation(api.setLists.create, { title: "Too many", bitIds: many }),
      "INVALID_INPUT",
      SET_LIST_TOO_MANY_BITS,
    );
    await expect(
      comic.asUser.mutation(api.setLists.create, { title: "Full", bitIds: many.slice(0, MAX_SET_LIST_BITS) }),
    ).resolves.toBeTruthy();
    await expectAppError(comic.asUser.mutation(api.setLists.create, { title: " ", bitIds: [] }), "INVALID_INPUT");
    const longName = "n".repeat(MAX_SET_LIST_TITLE_LENGTH + 1);
    await expectAppError(
      comic.asUser.mutation(api.setLists.create, { title: longName, bitIds: [] }),
      "INVALID_INPUT",
      SET_LIST_TITLE_TOO_LONG,
    );
    // A copy of a list with the longest name still fits.
    const longest = await comic.asUser.mutation(api.setLists.create, { title: longName.slice(1), bitIds: [mine] });
    const copy = await comic.asUser.mutation(api.setLists.duplicate, { id: longest });
    expect((await comic.asUser.query(api.setLists.get, { id: copy }))?.title).toMatch(/^n+ \(copy\)$/);
    await expectAppError(
      comic.asUser.mutation(api.setLists.create, { title: "Stolen", bitIds: [mine, theirs] }),
      "NOT_FOUND",
    );
    await expectAppError(
      comic.asUser.mutation(api.setLists.create, {
        title: "Bad night",
        bitIds: [],
        night: { micId: mic, date: "2026-02-30" },
      }),
      "INVALID_INPUT",
    );
    const id = await comic.asUser.mutation(api.setLists.create, { title: "Private", bitIds: [mine] });
    for (const caller of [other, admin]) {
      expect(await caller.asUser.query(api.setLists.get, { id })).toBeNull();
      expect(await caller.asUser.query(api.setLists.list, {})).toEqual([]);
      await expectAppError(caller.asUser.mutation(api.setLists.remove, { id }), "NOT_FOUND");
      await expectAppError(caller.asUser.mutation(api.setLists.duplicate, { id }), "NOT_FOUND");
    }
  });
});

describe("how did it go?", () => {
  test("the host marks the set done: the attached set list's bits wait for a rating, which moves the numbers", async () => {
    const [comic] = await comics(1);
    const a = await bit(comic, "Airport", 60);
    const b = await bit(comic, "Bank", 60);
    const spare = await bit(comic, "Spare");
    const listId = await comic.asUser.mutation(api.setLists.create, {
      title: "Wednesday",
      bitIds: [a, b],
      night: { micId: mic, date: "2026-11-25" },
    });
    expect(await comic.asUser.query(api.ratings.pending, {})).toBeNull();
    expect((await comic.asUser.query(api.ratings.notDoneAt, { micId: mic })).map((x) => x.title)).toEqual([
      "Airport",
      "Bank",
      "Spare",
    ]);

    const performanceId = await hostLogsSet(comic);
    // The prompt also lands in the inbox, opening the set's rating page.
    expect((await comic.asUser.query(api.notifications.inbox, {})).entries).toEqual([
      expect.objectContaining({
        kind: "set_feedback",
        title: "How did it go?",
        body: 'Rate the bits of "Wednesday".',
        url: `/sets/${performanceId}/bits`,
      }),
    ]);
    // The notice's page asks the same: the set list's bits, which can be cut from it.
    expect(await comic.asUser.query(api.ratings.forSet, { performanceId })).toMatchObject({
      status: "pending",
      setListTitle: "Wednesday",
      unrated: [
        { _id: a, title: "Airport" },
        { _id: b, title: "Bank" },
      ],
    });
    const pending = await comic.asUser.query(api.ratings.pending, {});
    expect(pending).toMatchObject({
      performanceId,
      venueName: "The Test Room",
      setListTitle: "Wednesday",
      bits: [
        { _id: a, title: "Airport" },
        { _id: b, title: "Bank" },
      ],
    });

    await comic.asUser.mutation(api.ratings.rate, {
      performanceId,
      ratings: [
        { bitId: a, rating: "landed", note: " huge " },
        { bitId: b, rating: "flat", cut: true },
      ],
    });
    expect(await comic.asUser.query(api.ratings.pending, {})).toBeNull();
    expect(await comic.asUser.query(api.bits.get, { id: a })).toMatchObject({
      performed: 1,
      landed: 1,
      landedRate: 1,
      recent: ["landed"],
      lastPerformedAt: NOW + 6 * MINUTE,
    });
    expect(await comic.asUser.query(api.bits.get, { id: b })).toMatchObject({ performed: 1, flat: 1, landedRate: 0 });
    // "Cut it" took the flat bit out of the set list.
    expect((await comic.asUser.query(api.setLists.get, { id: listId }))?.bits.map((x) => x._id)).toEqual([a]);
    expect(await comic.asUser.query(api.ratings.forSet, { performanceId })).toMatchObject({
      rated: 2,
      landed: 1,
      status: "done",
      ratings: expect.arrayContaining([{ bitId: a, title: "Airport", rating: "landed", note: "huge" }]),
    });
    expect(await comic.asUser.query(api.ratings.rooms, { bitId: a })).toMatchObject({
      best: { title: "Wednesday Laughs", performed: 1, landedRate: 1 },
      worst: null,
      rooms: 1,
    });
    expect((await comic.asUser.query(api.ratings.notDoneAt, { micId: mic })).map((x) => x._id)).toEqual([spare]);
    const months = await t.run(
      async (ctx) =>
        await ctx.db
          .query("bitMonths")
          .withIndex("by_user_and_month", (q) => q.eq("userId", comic.userId).eq("month", "2026-11"))
          .collect(),
    );
    expect(months.map((m) => [m.bitId, m.landed, m.performed])).toEqual(
      expect.arrayContaining([
        [a, 1, 1],
        [b, 0, 1],
      ]),
    );

    // Changing a rating moves the numbers by the difference.
    await comic.asUser.mutation(api.ratings.rate, { performanceId, ratings: [{ bitId: b, rating: "okay" }] });
    expect(await comic.asUser.query(api.bits.get, { id: b })).toMatchObject({ performed: 1, okay: 1, flat: 0 });
  });

  test("a set logged in the wizard on the night is asked about; one elsewhere is not; skipping clears it", async () => {
    const comic = await createUser(t, { withStats: true });
    const other = await createSceneItem(t, { title: "Elsewhere" });
    const a = await bit(comic, "Airport");
    await comic.asUser.mutation(api.setLists.create, {
      title: "W",
      bitIds: [a],
      night: { micId: mic, date: "2026-11-25" },
    });
    await comic.asUser.mutation(api.performances.log, { minutes: 5, performedAt: NOW, sceneItemId: other, tags: [] });
    expect(await comic.asUser.query(api.ratings.pending, {})).toBeNull();
    const { performanceId } = await comic.asUser.mutation(api.performances.log, {
      minutes: 5,
      performedAt: NOW,
      sceneItemId: mic,
      tags: [],
    });
    expect((await comic.asUser.query(api.ratings.pending, {}))?.performanceId).toBe(performanceId);
    await comic.asUser.mutation(api.ratings.skip, { performanceId });
    expect(await comic.asUser.query(api.ratings.pending, {})).toBeNull();
    expect(await comic.asUser.query(api.bits.get, { id: a })).toMatchObject({ performed: 0 });
  });

  test("bits done without a set list are rated afterwards; editing and deleting the set move the numbers", async () => {
    const comic = await createUser(t, { withStats: true });
    const elsewhere = await createSceneItem(t, { title: "Elsewhere", venueName: "Other Room" });
    const a = await bit(comic, "Airport");
    const first = await comic.asUser.mutation(api.performances.log, {
      minutes: 5,
      performedAt: NOW - 2 * 24 * 60 * MINUTE,
      sceneItemId: mic,
      tags: [],
    });
    const second = await comic.asUser.mutation(api.performances.log, {
      minutes: 5,
      performedAt: NOW,
      sceneItemId: elsewhere,
      tags: [],
    });
    expect(await comic.asUser.query(api.ratings.forSet, { performanceId: first.performanceId })).toMatchObject({
      rated: 0,
      status: null,
      setListTitle: null,
    });
    await comic.asUser.mutation(api.ratings.rate, {
      performanceId: first.performanceId,
      ratings: [{ bitId: a, rating: "landed" }],
    });
    await comic.asUser.mutation(api.ratings.rate, {
      performanceId: second.performanceId,
      ratings: [{ bitId: a, rating: "flat" }],
    });
    expect(await comic.asUser.query(api.ratings.pending, {})).toBeNull();
    expect(await comic.asUser.query(api.bits.get, { id: a })).toMatchObject({
      performed: 2,
      landedRate: 0.5,
      recent: ["flat", "landed"],
      lastPerformedAt: NOW,
    });
    expect(await comic.asUser.query(api.ratings.rooms, { bitId: a })).toMatchObject({
      best: { title: "Wednesday Laughs" },
      worst: { title: "Elsewhere" },
      rooms: 2,
    });

    await comic.asUser.mutation(api.performances.remove, { id: second.performanceId });
    expect(await comic.asUser.query(api.bits.get, { id: a })).toMatchObject({
      performed: 1,
      landedRate: 1,
      recent: ["landed"],
      lastPerformedAt: NOW - 2 * 24 * 60 * MINUTE,
    });
    expect(await comic.asUser.query(api.ratings.rooms, { bitId: a })).toMatchObject({ rooms: 1, worst: null });
  });

  test("a set sent from the offline outbox is asked about once, however often it is sent", async () => {
    const comic = await createUser(t, { withStats: true });
    const a = await bit(comic, "Airport");
    await comic.asUser.mutation(api.setLists.create, {
      title: "Offline",
      bitIds: [a],
      night: { micId: mic, date: "2026-11-25" },
    });
    // Sent the morning after, from the phone's outbox: the set keeps the night's time.
    vi.setSystemTime(NOW + DAY / 2);
    const set = {
      minutes: 5,
      performedAt: NOW,
      sceneItemId: mic,
      tags: [],
      clientKey: "6b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
    };
    const first = await comic.asUser.mutation(api.performances.log, set);
    const again = await comic.asUser.mutation(api.performances.log, set);
    expect(again.performanceId).toBe(first.performanceId);
    expect(await comic.asUser.query(api.ratings.pending, {})).toMatchObject({
      performanceId: first.performanceId,
      setListTitle: "Offline",
      bits: [{ _id: a, title: "Airport" }],
    });
    const reviews = await t.run(
      async (ctx) =>
        await ctx.db
          .query("setReviews")
          .withIndex("by_user_and_status_and_time", (q) => q.eq("userId", comic.userId))
          .collect(),
    );
    expect(reviews).toHaveLength(1);
  });

  test("caps: a note of at most 500 characters on one line, at most 40 ratings a call", async () => {
    const [comic] = await comics(1);
    const a = await bit(comic, "Airport");
    const { performanceId } = await comic.asUser.mutation(api.performances.log, {
      minutes: 5,
      performedAt: NOW,
      sceneItemId: mic,
      tags: [],
    });
    const rate = (ratings: Array<{ bitId: Id<"bits">; rating: "landed"; note?: string }>) =>
      comic.asUser.mutation(api.ratings.rate, { performanceId, ratings });
    await expectAppError(
      rate([{ bitId: a, rating: "landed", note: "x".repeat(MAX_RATING_NOTE_LENGTH + 1) }]),
      "INVALID_INPUT",
      RATING_NOTE_TOO_LONG,
    );
    await expectAppError(rate([{ bitId: a, rating: "landed", note: "two\nlines" }]), "INVALID_INPUT");
    await expectAppError(
      rate(Array.from({ length: MAX_SET_LIST_BITS + 1 }, () => ({ bitId: a, rating: "landed" as const }))),
      "INVALID_INPUT",
      SET_LIST_TOO_MANY_BITS,
    );
    expect(await comic.asUser.query(api.bits.get, { id: a })).toMatchObject({ performed: 0 });
    await rate([{ bitId: a, rating: "landed", note: "x".repeat(MAX_RATING_NOTE_LENGTH) }]);
    expect(await comic.asUser.query(api.bits.get, { id: a })).toMatchObject({ performed: 1 });
  });

  test("the trend is the bit's newest ratings, at most 10; the history says how much of each set landed", async () => {
    const comic = await createUser(t, { withStats: true });
    const a = await bit(comic, "Airport");
    const b = await bit(comic, "Bank");
    const sets: Array<Id<"performances">> = [];
    for (let i = 0; i < RECENT_RATINGS + 2; i++) {
      const { performanceId } = await comic.asUser.mutation(api.performances.log, {
        minutes: 5,
        performedAt: NOW - (RECENT_RATINGS + 2 - i) * DAY,
        sceneItemId: mic,
        tags: [],
      });
      sets.push(performanceId);
      // Oldest first: landed twice, then flat, okay, flat, okay...
      const rating = i < 2 ? "landed" : i % 2 === 0 ? "flat" : "okay";
      await comic.asUser.mutation(api.ratings.rate, { performanceId, ratings: [{ bitId: a, rating }] });
    }
    const airport = await comic.asUser.query(api.bits.get, { id: a });
    expect(airport?.performed).toBe(RECENT_RATINGS + 2);
    expect(airport?.recent).toHaveLength(RECENT_RATINGS);
    expect(airport?.recent[0]).toBe("okay");
    expect(airport?.recent).not.toContain("landed");
    expect(airport?.landedRate).toBeCloseTo(2 / (RECENT_RATINGS + 2));

    await comic.asUser.mutation(api.ratings.rate, {
      performanceId: sets[sets.length - 1],
      ratings: [{ bitId: b, rating: "landed" }],
    });
    const { page } = await comic.asUser.query(api.history.list, { paginationOpts: { numItems: 3, cursor: null } });
    expect(page.map((s) => s.bits)).toEqual([
      { rated: 2, landed: 1 },
      { rated: 1, landed: 0 },
      { rated: 1, landed: 0 },
    ]);
    const unrated = await comic.asUser.mutation(api.performances.log, {
      minutes: 5,
      performedAt: NOW,
      sceneItemId: mic,
      tags: [],
    });
    const latest = await comic.asUser.query(api.history.list, { paginationOpts: { numItems: 1, cursor: null } });
    expect(latest.page[0]).toMatchObject({ _id: unrated.performanceId, bits: null });
  });

  test("nobody rates or reads another comedian's set, not even an admin", async () => {
    const [comic, other] = await comics(2);
    const admin = await createAdmin(t);
    const a = await bit(comic, "Airport");
    const theirs = await bit(other, "Theirs");
    const { performanceId } = await comic.asUser.mutation(api.performances.log, {
      minutes: 5,
      performedAt: NOW,
      sceneItemId: mic,
      tags: [],
    });
    for (const caller of [other, admin]) {
      await expectAppError(
        caller.asUser.mutation(api.ratings.rate, { performanceId, ratings: [{ bitId: a, rating: "flat" }] }),
        "NOT_FOUND",
      );
      await expectAppError(caller.asUser.query(api.ratings.forSet, { performanceId }), "NOT_FOUND");
      expect(await caller.asUser.query(api.ratings.rooms, { bitId: a })).toBeNull();
    }
    // Nor with someone else's bit on their own set.
    await expectAppError(
      comic.asUser.mutation(api.ratings.rate, { performanceId, ratings: [{ bitId: theirs, rating: "landed" }] }),
      "NOT_FOUND",
    );
    expect(await comic.asUser.query(api.bits.get, { id: a })).toMatchObject({ performed: 0 });
  });

  test("export holds set lists and ratings; account deletion leaves no material behind", async () => {
    const [comic, other] = await comics(2);
    const a = await bit(comic, "Airport");
    const kept = await bit(other, "Kept");
    await comic.asUser.mutation(api.setLists.create, {
      title: "W",
      bitIds: [a],
      night: { micId: mic, date: "2026-11-25" },
    });
    const performanceId = await hostLogsSet(comic);
    await comic.asUser.mutation(api.ratings.rate, { performanceId, ratings: [{ bitId: a, rating: "landed" }] });
    const exported = await comic.asUser.query(api.account.exportData, {});
    expect(exported.setLists).toEqual([expect.objectContaining({ title: "W", bitIds: [a] })]);
    expect(exported.bitRatings).toEqual([
      { bitId: a, setId: performanceId, performedAt: NOW + 6 * MINUTE, rating: "landed", note: null },
    ]);
    expect(await materialOf(comic.userId)).toEqual({
      bits: 1,
      bitTags: 0,
      setLists: 1,
      setReviews: 1,
      bitRatings: 1,
      bitRooms: 1,
      bitMonths: 1,
    });
    expect(await comic.asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" })).toEqual({ done: true });
    expect(await materialOf(comic.userId)).toEqual({
      bits: 0,
      bitTags: 0,
      setLists: 0,
      setReviews: 0,
      bitRatings: 0,
      bitRooms: 0,
      bitMonths: 0,
    });
    expect(await other.asUser.query(api.bits.get, { id: kept })).toMatchObject({ title: "Kept" });
  });
});
