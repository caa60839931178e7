import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { internal as dev } from "../convex-dev/_generated/api";
import { api, internal } from "./_generated/api";
import type { Id, TableNames } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { addToCommunityTotal, type CommunityTotal, type CommunityTotals, readCommunityTotals } from "./model/stats";
import { createAdmin, createSceneItem, createUser, newTest, type TestBackend, type TestUser } from "./test.setup";

// Seeding hashes two passwords (scrypt): slow on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

const DAY = 24 * 60 * 60 * 1000;
/** New York wall-clock time on Wednesday 2026-11-25 (UTC-5) as epoch ms. */
const nyWed = (hhmm: string) => Date.parse(`2026-11-25T${hhmm}:00-05:00`);
const VENUE = { latitude: 40.7411, longitude: -73.9897 };

async function check(t: TestBackend) {
  return await t.query(internal.invariants.check, {});
}

async function expectOk(t: TestBackend) {
  const report = await check(t);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
}

/** An id of `table` that no longer exists (insert then delete). */
async function goneId<T extends TableNames>(
  t: TestBackend,
  insert: (ctx: MutationCtx) => Promise<Id<T>>,
  table: T,
): Promise<Id<T>> {
  return await t.run(async (ctx) => {
    const id = await insert(ctx);
    await ctx.db.delete(table, id);
    return id;
  });
}

type Scene = {
  t: TestBackend;
  mic: Id<"sceneItems">;
  other: Id<"sceneItems">;
  ana: TestUser;
  ben: TestUser;
  admin: TestUser;
  anaSets: Id<"performances">[];
};

/**
 * A small scene built only through the public functions, on Wednesday
 * 2026-11-25 at 19:45 in New York: Ana logs sets on three days (two mics and
 * a one-off venue), edits one and deletes one; Ana and Ben check in at the
 * Wednesday 20:00 mic (verifying it); favourites and schedule entries.
 */
async function buildScene(): Promise<Scene> {
  const t = newTest();
  // Ana and Ben joined two days ago: only accounts a day old verify a mic.
  vi.setSystemTime(nyWed("19:45") - 2 * 24 * 60 * 60 * 1000);
  const ana = await createUser(t);
  const ben = await createUser(t);
  vi.setSystemTime(nyWed("19:45"));
  const mic = await createSceneItem(t, { dayOfWeek: 3, startTimeLocal: "20:00", ...VENUE, city: "New York" });
  const other = await createSceneItem(t, { title: "Other Mic", venueName: "Other Room", city: "Boston" });
  const admin = await createAdmin(t);
  const log = async (who: TestUser, minutes: number, performedAt: number, extra: object) =>
    (
      await who.asUser.mutation(api.performances.log, {
        minutes,
        performedAt,
        tags: [],
        timeZone: "America/New_York",
        ...extra,
      })
    ).performanceId;
  const now = nyWed("19:45");
  const anaSets = [
    await log(ana, 7, now - 2 * DAY, { sceneItemId: mic }),
    await log(ana, 5, now - DAY, { sceneItemId: other }),
    await log(ana, 10, now - 10 * 60_000, { sceneItemId: mic }),
    await log(ana, 4, now - 3 * DAY, { venueName: "Somebody's Loft" }),
    await log(ben, 6, now - DAY, { sceneItemId: mic }),
  ];
  await ana.asUser.mutation(api.performances.update, {
    id: anaSets[0],
    minutes: 9,
    performedAt: now - 2 * DAY,
    notes: "tight five",
  });
  await ana.asUser.mutation(api.performances.remove, { id: anaSets[3] });
  await ana.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...VENUE });
  await ben.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...VENUE });
  await ana.asUser.mutation(api.favorites.add, { sceneItemId: mic });
  await ben.asUser.mutation(api.favorites.add, { sceneItemId: other });
  await ben.asUser.mutation(api.schedule.add, { sceneItemId: mic });
  return { t, mic, other, ana, ben, admin, anaSets };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(nyWed("19:45"));
});

afterEach(() => {
  vi.useRealTimers();
});

describe("invariants:check passes", () => {
  test("on an empty database", async () => {
    await expectOk(newTest());
  });

  test("on the seeded demo scene", async () => {
    vi.useRealTimers();
    const t = newTest();
    await t.action(dev.seed.run, {});
    await expectOk(t);
  });

  test("on a scene built through the public functions, which it really looked at", async () => {
    const { t, mic } = await buildScene();
    await expectOk(t);
    const item = await t.run(async (ctx) => ctx.db.get("sceneItems", mic));
    expect(item).toMatchObject({ checkInCount: 2, verifiedCheckIns30d: 2 });
  });
});

describe("deleting a mic", () => {
  test("unlinks every comedian's sets, keeps their venue name and takes it out of their unique venues", async () => {
    const { t, mic, ana, ben, admin } = await buildScene();
    const statsOf = async (u: TestUser) => await u.asUser.query(api.stats.mine, {});
    expect((await statsOf(ana)).uniqueVenues).toBe(2);
    expect((await statsOf(ben)).uniqueVenues).toBe(1);

    expect(await admin.asUser.mutation(api.admin.deleteMic, { id: mic })).toEqual({ updatedSets: 3 });

    expect(await statsOf(ana)).toMatchObject({ uniqueVenues: 1, totalSets: 3, totalMinutes: 24 });
    expect(await statsOf(ben)).toMatchObject({ uniqueVenues: 0, totalSets: 1, totalMinutes: 6 });
    const rows = await t.run(async (ctx) => ({
      sets: await ctx.db.query("performances").take(100),
      visits: await ctx.db
        .query("venueVisits")
        .withIndex("by_item", (q) => q.eq("sceneItemId", mic))
        .take(100),
    }));
    expect(rows.visits).toEqual([]);
    expect(rows.sets.filter((s) => s.sceneItemId === mic)).toEqual([]);
    expect(rows.sets.filter((s) => s.venueName === "The Test Room")).toHaveLength(3);
    await expectOk(t);
  });

  test("by its creator unlinks everyone's sets too, counting only the creator's", async () => {
    const t = newTest();
    const creator = await createUser(t);
    const fan = await createUser(t);
    const mic = await createSceneItem(t, { createdBy: creator.userId });
    for (const who of [creator, fan]) {
      await who.asUser.mutation(api.performances.log, {
        minutes: 5,
        performedAt: nyWed("12:00"),
        sceneItemId: mic,
        tags: [],
      });
    }
    expect(await creator.asUser.mutation(api.scene.remove, { id: mic })).toEqual({ updatedSets: 1 });
    expect((await fan.asUser.query(api.stats.mine, {})).uniqueVenues).toBe(0);
    await expectOk(t);
  });
});

/** One broken invariant: a direct write after {@link buildScene} and the problem line it must cause. */
type Breakage = { name: string; breakIt: (s: Scene) => Promise<void>; problem: RegExp };

const breakages: Breakage[] = [
  {
    name: "a check-in counter that does not equal the rows",
    breakIt: async ({ t, mic }) => t.run(async (ctx) => ctx.db.patch("sceneItems", mic, { checkInCount: 3 })),
    problem: /^sceneItems \S+: checkInCount 3 but 2 check-in rows$/,
  },
  {
    name: "a check-in row without its counter",
    breakIt: async ({ t, other, ben }) =>
      t.run(async (ctx) => {
        await ctx.db.insert("checkIns", {
          userId: ben.userId,
          sceneItemId: other,
          checkedInAt: nyWed("19:00"),
          localDate: "2026-11-25",
        });
      }),
    problem: /^sceneItems \S+: checkInCount 0 but 1 check-in rows$/,
  },
  {
    name: "a second check-in on the same day",
    breakIt: async ({ t, mic, ana }) =>
      t.run(async (ctx) => {
        await ctx.db.insert("checkIns", {
          userId: ana.userId,
          sceneItemId: mic,
          checkedInAt: nyWed("19:50"),
          localDate: "2026-11-25",
        });
        const item = await ctx.db.get("sceneItems", mic);
        await ctx.db.patch("sceneItems", mic, { checkInCount: item!.checkInCount + 1 });
      }),
    problem: /^checkIns: 2 rows for user \S+ at mic \S+ on 2026-11-25$/,
  },
  {
    name: "a favourite stored twice",
    breakIt: async ({ t, mic, ana }) =>
      t.run(async (ctx) => {
        await ctx.db.insert("favorites", { userId: ana.userId, sceneItemId: mic });
      }),
    problem: /^favorites: 2 rows for user \S+ for mic \S+$/,
  },
  {
    name: "total minutes that are not the sum of the sets",
    breakIt: async ({ t, ana }) => patchStats(t, ana, { totalMinutes: 1000 }),
    problem: /^userStats \S+: totalMinutes 1000 but sets sum to 24$/,
  },
  {
    name: "a set count that is not the number of sets",
    breakIt: async ({ t, ana }) => patchStats(t, ana, { totalSets: 9 }),
    problem: /^userStats \S+: totalSets 9 but 3 set\(s\)$/,
  },
  {
    name: "unique venues that are not the mics of the sets",
    breakIt: async ({ t, ana }) => patchStats(t, ana, { uniqueVenues: 5 }),
    problem: /^userStats \S+: uniqueVenues 5 but sets at 2 mic\(s\)$/,
  },
  {
    name: "a longest streak the day rows do not give",
    breakIt: async ({ t, ana }) => patchStats(t, ana, { longestStreak: 12 }),
    problem: /^userStats \S+: longestStreak 12 but the day rows give 3$/,
  },
  {
    name: "a current streak the day rows do not give",
    breakIt: async ({ t, ana }) => patchStats(t, ana, { currentStreak: 2 }),
    problem: /^userStats \S+: currentStreak 2 but the run ending at the last set day is 3$/,
  },
  {
    name: "a set edited behind the stats' back",
    breakIt: async ({ t, anaSets }) => t.run(async (ctx) => ctx.db.patch("performances", anaSets[1], { minutes: 50 })),
    problem: /^userStats \S+: totalMinutes 24 but sets sum to 69$/,
  },
  {
    name: "a missing day row",
    breakIt: async ({ t, ana }) =>
      t.run(async (ctx) => {
        const day = await ctx.db
          .query("performanceDays")
          .withIndex("by_user_and_date", (q) => q.eq("userId", ana.userId).eq("date", "2026-11-24"))
          .unique();
        await ctx.db.delete("performanceDays", day!._id);
      }),
    problem: /^performanceDays: user \S+ on 2026-11-24 has no row but 1 set\(s\)$/,
  },
  {
    name: "a venue visit count that does not match the sets",
    breakIt: async ({ t, ana, mic }) =>
      t.run(async (ctx) => {
        const visit = await ctx.db
          .query("venueVisits")
          .withIndex("by_user_and_item", (q) => q.eq("userId", ana.userId).eq("sceneItemId", mic))
          .unique();
        await ctx.db.patch("venueVisits", visit!._id, { sets: 7 });
      }),
    problem: /^venueVisits: user \S+ at mic \S+ has 7 but 2 set\(s\)$/,
  },
  {
    name: "a schedule entry for a mic that does not exist",
    breakIt: async ({ t, ben }) => {
      const gone = await goneId(t, (ctx) => ctx.db.insert("sceneItems", sceneItemDoc()), "sceneItems");
      await t.run(async (ctx) => {
        await ctx.db.insert("scheduleEntries", { userId: ben.userId, sceneItemId: gone, addedAt: 1 });
      });
    },
    problem: /^scheduleEntries \S+: mic \S+ does not exist$/,
  },
  {
    name: "a favourite of a user who does not exist",
    breakIt: async ({ t, mic }) => {
      const gone = await goneId(t, (ctx) => ctx.db.insert("users", {}), "users");
      await t.run(async (ctx) => {
        await ctx.db.insert("favorites", { userId: gone, sceneItemId: mic });
      });
    },
    problem: /^favorites \S+: user \S+ does not exist$/,
  },
  {
    name: "a check-in at a mic that does not exist",
    breakIt: async ({ t, ana }) => {
      const gone = await goneId(t, (ctx) => ctx.db.insert("sceneItems", sceneItemDoc()), "sceneItems");
      await t.run(async (ctx) => {
        await ctx.db.insert("checkIns", {
          userId: ana.userId,
          sceneItemId: gone,
          checkedInAt: 1,
          localDate: "2026-11-01",
        });
      });
    },
    problem: /^checkIns \S+: mic \S+ does not exist$/,
  },
  {
    name: "a set linked to a deleted mic",
    breakIt: async ({ t, other }) => t.run(async (ctx) => ctx.db.delete("sceneItems", other)),
    problem: /^performances \S+: mic \S+ does not exist$/,
  },
  {
    name: "a badge whose rule is met but which was not awarded",
    breakIt: async ({ t, ana }) =>
      t.run(async (ctx) => {
        const badge = await ctx.db
          .query("userBadges")
          .withIndex("by_user_and_code", (q) => q.eq("userId", ana.userId).eq("badgeCode", "streak_3"))
          .unique();
        await ctx.db.delete("userBadges", badge!._id);
      }),
    problem: /^userBadges: user \S+ meets the rule of streak_3 but does not hold it$/,
  },
  {
    name: "an unknown badge",
    breakIt: async ({ t, ana }) =>
      t.run(async (ctx) => {
        await ctx.db.insert("userBadges", { userId: ana.userId, badgeCode: "made_up", awardedAt: 1 });
      }),
    problem: /^userBadges \S+: unknown badge made_up$/,
  },
  {
    name: "a verified mic without two comedians in the last 30 days",
    breakIt: async ({ t, other }) =>
      t.run(async (ctx) => {
        const at = nyWed("19:00");
        await ctx.db.patch("sceneItems", other, {
          verifiedCheckIns30d: 2,
          lastVerifiedAt: at,
          verificationExpiresAt: at + 30 * DAY,
        });
      }),
    problem: /^sceneItems \S+: verified, but only 0 comedian\(s\) checked in in the 30 days before lastVerifiedAt$/,
  },
  {
    name: "verification with the wrong expiry",
    breakIt: async ({ t, mic }) => t.run(async (ctx) => ctx.db.patch("sceneItems", mic, { verificationExpiresAt: 5 })),
    problem: /^sceneItems \S+: verified, but its expiry is not 30 days after lastVerifiedAt$/,
  },
  {
    name: "site venues that are not the active mics",
    breakIt: async ({ t }) => patchSite(t, { venues: 40 }),
    problem: /^community totals: venues 40 but a recount gives 2$/,
  },
  {
    name: "site minutes that are not the sum of all sets",
    breakIt: async ({ t }) => patchSite(t, { minutesLogged: 1 }),
    problem: /^community totals: minutesLogged 1 but a recount gives 30$/,
  },
  {
    name: "site comedians that are not the profiles",
    breakIt: async ({ t }) => patchSite(t, { comedians: 0 }),
    problem: /^community totals: comedians 0 but a recount gives 3$/,
  },
  {
    name: "a mic deactivated without uncounting its city",
    breakIt: async ({ t, other }) => t.run(async (ctx) => ctx.db.patch("sceneItems", other, { status: "inactive" })),
    problem: /^cities "Boston": items 1 but no active items$/,
  },
];

async function patchStats(t: TestBackend, user: TestUser, patch: Record<string, number>) {
  await t.run(async (ctx) => {
    const row = await ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", user.userId))
      .unique();
    await ctx.db.patch("userStats", row!._id, patch);
  });
}

/** Sets community totals to wrong values (the counter's shards are the component's). */
async function patchSite(t: TestBackend, patch: Partial<CommunityTotals>) {
  await t.run(async (ctx) => {
    const stored = await readCommunityTotals(ctx);
    for (const [key, value] of Object.entries(patch) as Array<[CommunityTotal, number]>) {
      await addToCommunityTotal(ctx, key, value - stored[key]);
    }
  });
}

function sceneItemDoc() {
  return {
    title: "Gone",
    venueName: "Gone Room",
    city: "Nowhere",
    type: "open_mic" as const,
    recurrence: "weekly" as const,
    timeZone: "America/New_York",
    status: "inactive" as const,
    checkInCount: 0,
    verifiedCheckIns30d: 0,
    searchText: "gone",
  };
}

describe("invariants:check fails with a clear line", () => {
  test.each(breakages)("on $name", async ({ breakIt, problem }) => {
    const scene = await buildScene();
    await expectOk(scene.t);
    await breakIt(scene);
    const report = await check(scene.t);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
  });
});

test("a table too big to check in one query is reported, not passed silently", async () => {
  const t = newTest();
  const comic = await createUser(t);
  const mic = await createSceneItem(t);
  await t.run(async (ctx) => {
    for (let i = 0; i <= 2000; i++) await ctx.db.insert("favorites", { userId: comic.userId, sceneItemId: mic });
  });
  const report = await check(t);
  expect(report.ok).toBe(false);
  expect(report.problems).toContain("favorites: more than 2000 rows, only the first 2000 were checked");
});

/** The paged check (checkAll), `numItems` rows per page of each table. */
async function checkAll(t: TestBackend, numItems?: number) {
  return await t.action(internal.invariants.checkAll, numItems === undefined ? {} : { numItems });
}

describe("invariants:checkAll (the paged check)", () => {
  test("passes where check passes, a page of one row at a time or the default pages", async () => {
    const { t } = await buildScene();
    for (const numItems of [1, 2, undefined]) {
      const report = await checkAll(t, numItems);
      expect(report.problems).toEqual([]);
      expect(report.ok).toBe(true);
    }
    // It really walked the rows: 5 sets logged, one deleted; pages of one row each.
    const report = await checkAll(t, 1);
    expect(report.rowsChecked).toMatchObject({ performances: 4, checkIns: 2, sceneItems: 2, profiles: 3 });
    expect(report.pages).toBeGreaterThan(20);
  });

  test("passes on the seeded demo scene", async () => {
    vi.useRealTimers();
    const t = newTest();
    await t.action(dev.seed.run, {});
    const report = await checkAll(t, 7);
    expect(report.problems).toEqual([]);
  });

  // Pages of one row: every broken row but the very first of its table lies
  // beyond the first page, and totals (stats, streaks, counters) are added up
  // over many pages. The report must be exactly check's.
  test.each(breakages)("finds $name beyond the first page, as check does", async ({ breakIt, problem }) => {
    const scene = await buildScene();
    await breakIt(scene);
    const whole = await check(scene.t);
    const paged = await checkAll(scene.t, 1);
    expect(paged.ok).toBe(false);
    expect(paged.problems).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
    expect([...paged.problems].sort()).toEqual([...whole.problems].sort());
    const bigPages = await checkAll(scene.t, 500);
    expect([...bigPages.problems].sort()).toEqual([...whole.problems].sort());
  });

  test("checks a table check cannot read in one query, whole", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const mic = await createSceneItem(t);
    await t.run(async (ctx) => {
      for (let i = 0; i <= 2000; i++)
        await ctx.db.insert("scheduleEntries", { userId: comic.userId, sceneItemId: mic, addedAt: i });
    });
    expect((await check(t)).problems).toEqual([
      "scheduleEntries: more than 2000 rows, only the first 2000 were checked",
    ]);
    const report = await checkAll(t);
    expect(report).toMatchObject({ ok: true, problems: [] });
    expect(report.rowsChecked.scheduleEntries).toBe(2001);

    // ... and still finds a broken row at the very end.
    const gone = await goneId(t, (ctx) => ctx.db.insert("sceneItems", sceneItemDoc()), "sceneItems");
    await t.run(async (ctx) => {
      await ctx.db.insert("scheduleEntries", { userId: comic.userId, sceneItemId: gone, addedAt: 1 });
    });
    const broken = await checkAll(t);
    expect(broken.problems).toEqual([expect.stringMatching(/^scheduleEntries \S+: mic \S+ does not exist$/)]);
  });

  test("adds a streak up over day rows split across pages", async () => {
    const t = newTest();
    const comic = await createUser(t);
    // Five consecutive days, a gap, then two days: longest 5, current 2.
    const dates = ["2026-11-10", "2026-11-11", "2026-11-12", "2026-11-13", "2026-11-14", "2026-11-20", "2026-11-21"];
    for (const date of dates) {
      await comic.asUser.mutation(api.performances.log, {
        minutes: 5,
        performedAt: Date.parse(`${date}T20:00:00-05:00`),
        tags: [],
        timeZone: "America/New_York",
        venueName: "The Loft",
      });
    }
    for (const numItems of [1, 2, 3, 4]) expect((await checkAll(t, numItems)).problems).toEqual([]);
    await patchStats(t, comic, { longestStreak: 4, currentStreak: 3 });
    for (const numItems of [1, 2, 3, 4]) {
      expect((await checkAll(t, numItems)).problems.sort()).toEqual([
        expect.stringMatching(/^userStats \S+: currentStreak 3 but the run ending at the last set day is 2$/),
        expect.stringMatching(/^userStats \S+: longestStreak 4 but the day rows give 5$/),
      ]);
    }
  });
});
