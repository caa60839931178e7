/** The corruptions the invariant tests make (convex/invariants*.test.ts): one per invariant the check must notice. */
import {
  DAY,
  checkInRow,
  dayRow,
  goneId,
  nyWed,
  patchSite,
  patchStats,
  type Scene,
  sceneItemDoc,
} from "./invariants.scene";

/** One broken invariant: a direct write after {@link buildScene} and the problem line it must cause. */
export type Breakage = { name: string; breakIt: (s: Scene) => Promise<void>; problem: RegExp };

export const breakages: Breakage[] = [
  {
    name: "a check-in counter that does not equal the rows",
    breakIt: async ({ t, mic }) => t.run(async (ctx) => ctx.db.patch("sceneItems", mic, { checkInCount: 3 })),
    problem: /^sceneItems \S+: checkInCount 3 but 2 check-in rows$/,
  },
  {
    name: "a check-in row without its counter",
    breakIt: async ({ t, other, ben }) =>
      t.run(async (ctx) => {
        await ctx.db.insert("checkIns", checkInRow(ben, other, nyWed("19:00")));
      }),
    problem: /^sceneItems \S+: checkInCount 0 but 1 check-in rows$/,
  },
  {
    name: "a second check-in on the same day",
    breakIt: async ({ t, mic, ana }) =>
      t.run(async (ctx) => {
        await ctx.db.insert("checkIns", checkInRow(ana, mic, nyWed("19:50")));
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
        await ctx.db.delete("performanceDays", (await dayRow(ctx, ana, "2026-11-24"))._id);
      }),
    problem: /^performanceDays: user \S+ on 2026-11-24 has no row but 1 set\(s\)$/,
  },
  {
    name: "a day row count that does not match the sets",
    breakIt: async ({ t, ana }) =>
      t.run(async (ctx) => {
        await ctx.db.patch("performanceDays", (await dayRow(ctx, ana, "2026-11-24"))._id, { sets: 4 });
      }),
    problem: /^performanceDays: user \S+ on 2026-11-24 has 4 but 1 set\(s\)$/,
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
        await ctx.db.insert("checkIns", checkInRow(ana, gone, 1, "2026-11-01"));
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
