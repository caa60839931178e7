import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { internal as dev } from "../convex-dev/_generated/api";
import { api } from "./_generated/api";
import { earnedBadgeCodes } from "./lib/badges";
import { computeStreaks } from "./lib/streaks";
import { ADMIN_EMAIL, ADMIN_PASSWORD, COMMUNITY_NAMES, DEMO_EMAIL, DEMO_PASSWORD } from "../convex-dev/model/seedData";
import { encodeGeohash } from "./lib/geo";
import { addDaysToDate, localDateString, zonedEpoch } from "./lib/time";
import { freshness } from "./lib/tonight";
import { TZDate } from "@date-fns/tz";
import { populate } from "../convex-dev/model/seed";
import { tonight } from "./testing/test.tonight";
import { communityTotals, createSceneItem, newTest } from "./testing/test.setup";
import { newSigningKey } from "./testing/test.auth";

// Password hashing (scrypt) and seeding are slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let privateKey = "";
beforeAll(async () => {
  privateKey = await newSigningKey();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** A Convex Auth token's subject ("userId|sessionId"). */
function subjectOf(token: string): string {
  const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
  return payload.sub as string;
}

describe("seed:run", () => {
  test("seeds a scene of 40+ items in 4+ cities and 2+ time zones, with matching community stats", async () => {
    const t = newTest();
    const result = await t.action(dev.seed.run, {});
    expect(result).toMatchObject({ seeded: true, demoEmail: DEMO_EMAIL, adminEmail: ADMIN_EMAIL });

    const items = await t.run(async (ctx) => ctx.db.query("sceneItems").take(500));
    expect(items.length).toBeGreaterThanOrEqual(40);
    const cities = new Set(items.map((i) => i.city));
    const zones = new Set(items.map((i) => i.timeZone));
    expect(cities.size).toBeGreaterThanOrEqual(4);
    expect(zones.size).toBeGreaterThanOrEqual(2);
    expect(new Set(items.map((i) => i.type))).toEqual(new Set(["open_mic", "show", "bringer_show"]));
    const recurrences = new Set(items.map((i) => i.recurrence));
    for (const r of ["weekly", "bi-weekly", "monthly", "custom", "one-time"]) {
      expect(recurrences).toContain(r);
    }

    for (const item of items) {
      expect(item.status).toBe("active");
      expect(item.searchText).toBe(`${item.title} ${item.venueName} ${item.city}`.toLowerCase());
      expect(item.geohash).toBe(encodeGeohash(item.latitude!, item.longitude!, 6));
      expect(item.startTimeLocal).toMatch(/^\d{2}:\d{2}$/);
      expect(item.address).toBeTruthy();
      if (item.recurrence === "monthly") expect(item.monthlyRule).toBeTruthy();
      if (item.recurrence === "custom") expect(item.customRecurrenceDescription).toBe("every 3 weeks");
      if (item.signupMethod === "online" && item.type === "open_mic") {
        expect(item.signupLink).toMatch(/^https:\/\//);
      }
    }

    const stats = await t.query(api.community.stats, {});
    expect(stats).toEqual({
      venues: items.length,
      cities: cities.size,
      comedians: 2 + COMMUNITY_NAMES.length,
      hoursLogged: expect.any(Number),
    });
    expect(result).toMatchObject({ mics: items.length, cities: cities.size, comedians: 2 + COMMUNITY_NAMES.length });
    const cityRows = await t.run(async (ctx) => ctx.db.query("cities").take(100));
    expect(cityRows.map((c) => c.name).sort()).toEqual([...cities].sort());
    for (const row of cityRows) {
      expect(row.items).toBe(items.filter((i) => i.city === row.name).length);
    }
  });

  test("the demo comedian has a consistent history", async () => {
    const t = newTest();
    await t.action(dev.seed.run, {});
    const data = await t.run(async (ctx) => {
      const user = await ctx.db
        .query("users")
        .withIndex("email", (q) => q.eq("email", DEMO_EMAIL))
        .unique();
      const userId = user!._id;
      const q = <
        T extends
          | "performances"
          | "performanceDays"
          | "venueVisits"
          | "userBadges"
          | "favorites"
          | "scheduleEntries"
          | "checkIns",
      >(
        table: T,
      ) => ctx.db.query(table).take(1000) as Promise<any[]>;
      return {
        userId,
        performances: (await q("performances")).filter((p) => p.userId === userId),
        days: (await q("performanceDays")).filter((p) => p.userId === userId),
        visits: (await q("venueVisits")).filter((p) => p.userId === userId),
        badges: (await q("userBadges")).filter((p) => p.userId === userId),
        favorites: await q("favorites"),
        schedule: await q("scheduleEntries"),
        checkIns: await q("checkIns"),
        stats: await ctx.db
          .query("userStats")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .unique(),
        items: await ctx.db.query("sceneItems").take(500),
      };
    });

    const { performances, days, visits, stats, badges } = data;
    expect(performances.length).toBeGreaterThanOrEqual(10);
    const totalMinutes = performances.reduce((sum, p) => sum + p.minutes, 0);
    expect(stats).toMatchObject({
      totalSets: performances.length,
      totalMinutes,
      uniqueVenues: new Set(performances.map((p) => p.sceneItemId)).size,
      venuesAdded: data.items.filter((i) => i.createdBy === data.userId).length,
    });
    expect(stats!.venuesAdded).toBeGreaterThan(0);
    expect((await communityTotals(t)).minutesLogged).toBe(totalMinutes);

    // Per-day and per-venue rows add up to the sets.
    const dates = [...new Set(performances.map((p) => p.performanceDate))].sort();
    expect(days.map((d) => d.date).sort()).toEqual(dates);
    for (const day of days) {
      expect(day.sets).toBe(performances.filter((p) => p.performanceDate === day.date).length);
    }
    for (const visit of visits) {
      expect(visit.sets).toBe(performances.filter((p) => p.sceneItemId === visit.sceneItemId).length);
    }
    expect(visits).toHaveLength(stats!.uniqueVenues);

    // Dates are a few weeks back, up to yesterday; every set is linked to a seeded item on its weekday.
    const today = new Date().toISOString().slice(0, 10);
    expect(dates.length).toBeGreaterThanOrEqual(10);
    expect(dates[dates.length - 1] < today || dates[dates.length - 1] === today).toBe(true);
    for (const p of performances) {
      const item = data.items.find((i) => i._id === p.sceneItemId)!;
      const weekday = new Date(`${p.performanceDate}T12:00:00Z`).getUTCDay();
      expect(item.dayOfWeek).toBe(weekday);
      // An evening set in the mic's own zone, after it started, of a plausible length.
      expect(p.performedAt).toBeGreaterThan(zonedEpoch(p.performanceDate, item.startTimeLocal!, item.timeZone));
      expect(new TZDate(p.performedAt, item.timeZone).getHours()).toBeGreaterThanOrEqual(18);
      expect(p.minutes).toBeGreaterThanOrEqual(3);
      expect(p.minutes).toBeLessThanOrEqual(15);
    }
    expect(new Set(performances.map((p) => p.minutes)).size).toBeGreaterThan(3);
    expect(new Set(performances.map((p) => new Date(p.performedAt).getUTCMinutes())).size).toBeGreaterThan(5);
    const expected = computeStreaks(dates, stats!.lastSetDate!);
    expect(stats!.longestStreak).toBe(expected.longest);
    expect(stats!.currentStreak).toBeGreaterThanOrEqual(1);
    expect(stats!.lastSetDate).toBe(dates[dates.length - 1]);

    const codes = badges.map((b) => b.badgeCode);
    expect(codes).toContain("first_set");
    expect(codes).toContain("venue_pioneer");
    if (totalMinutes >= 100) expect(codes).toContain("century_club");
    // Exactly the badges her totals earn under the shared rules.
    const earned = earnedBadgeCodes({
      sets: stats!.totalSets,
      minutes: stats!.totalMinutes,
      uniqueVenues: stats!.uniqueVenues,
      venuesAdded: stats!.venuesAdded,
      monthCheckIns: data.checkIns.filter((c) => c.userId === data.userId).length,
      currentStreak: stats!.currentStreak,
      longestStreak: stats!.longestStreak,
      weekStreak: stats!.longestWeekStreak ?? 0,
    });
    expect([...codes].sort()).toEqual([...earned].sort());
    expect(new Set(codes).size).toBe(codes.length);

    // Check-in counters match the rows (hers and the community's).
    expect(data.checkIns.filter((c) => c.userId === data.userId).length).toBeGreaterThan(0);
    for (const item of data.items) {
      expect(item.checkInCount).toBe(data.checkIns.filter((c) => c.sceneItemId === item._id).length);
      expect(item.verifiedCheckIns30d).toBe(0);
    }
    expect(data.favorites.length).toBeGreaterThanOrEqual(2);
    expect(data.schedule.length).toBeGreaterThanOrEqual(2);
  });

  test("is generated relative to today: every city has mics tonight and tomorrow, most listings are fresh", async () => {
    const t = newTest();
    const before = Date.now();
    await t.action(dev.seed.run, {});
    const items = await t.run(async (ctx) => ctx.db.query("sceneItems").take(500));
    const cities = [...new Set(items.map((i) => i.city))];
    for (const city of cities) {
      const here = items.filter((i) => i.city === city);
      const timeZone = here[0].timeZone;
      const center = {
        lat: here.reduce((sum, i) => sum + i.latitude!, 0) / here.length,
        lng: here.reduce((sum, i) => sum + i.longitude!, 0) / here.length,
      };
      const today = localDateString(before, timeZone);
      for (const date of [today, addDaysToDate(today, 1)]) {
        // At 5 PM there, the city's Tonight lists evening mics of its own.
        const { nights } = await tonight(t, {
          nowMs: zonedEpoch(date, "17:00", timeZone),
          timeZone,
          area: { ...center, radiusMiles: 25 },
        });
        const theirs = nights.filter((n) => n.item.city === city && n.date === date);
        expect(theirs.length, `${city} on ${date}`).toBeGreaterThanOrEqual(1);
      }
    }
    const grades = items.map((i) => freshness(i, before).grade);
    expect(grades.filter((g) => g === "fresh").length / items.length).toBeGreaterThanOrEqual(0.75);
    expect(grades).toContain("ageing");
    expect(items.some((i) => i.confirmedDates?.includes(localDateString(before, i.timeZone)))).toBe(true);
    // Most cards show recent check-ins, never dated after the listing's last confirmation.
    const checkIns = await t.run(async (ctx) => ctx.db.query("checkIns").take(1000));
    const twoWeeksAgo = before - 14 * 24 * 3600_000;
    const checkedInLately = items.filter((i) =>
      checkIns.some((c) => c.sceneItemId === i._id && c.checkedInAt > twoWeeksAgo),
    );
    expect(checkedInLately.length / items.length).toBeGreaterThanOrEqual(0.5);
    for (const item of items) {
      expect(item.checkInCount).toBe(checkIns.filter((c) => c.sceneItemId === item._id).length);
      expect(item.lastCheckInAt ?? 0).toBeLessThan(before);
      expect(freshness(item, before).grade).toBe(freshness({ ...item, lastCheckInAt: undefined }, before).grade);
    }
  });

  test("is the same for the same day", async () => {
    const now = Date.parse("2026-11-26T15:00:00-05:00");
    const seedOnce = async () => {
      const t = newTest();
      return await t.run(async (ctx) => {
        const demoUserId = await ctx.db.insert("users", { email: DEMO_EMAIL });
        const adminUserId = await ctx.db.insert("users", { email: ADMIN_EMAIL });
        await populate(ctx, { demoUserId, adminUserId, now });
        const items = await ctx.db.query("sceneItems").take(500);
        const sets = await ctx.db.query("performances").take(500);
        return {
          items: items.map(({ _id, _creationTime, ...rest }) => rest),
          sets: sets.map(({ minutes, performedAt, performanceDate }) => ({ minutes, performedAt, performanceDate })),
        };
      });
    };
    expect(await seedOnce()).toEqual(await seedOnce());
  });

  test("the demo comedian joined before her first set and earned every badge after", async () => {
    vi.stubEnv("JWT_PRIVATE_KEY", privateKey);
    vi.stubEnv("CONVEX_SITE_URL", "http://127.0.0.1:3211");
    const t = newTest();
    await t.action(dev.seed.run, {});
    const demo = await t.action(api.auth.signIn, {
      provider: "password",
      params: { email: DEMO_EMAIL, password: DEMO_PASSWORD, flow: "signIn" },
    });
    const me = await t.withIdentity({ subject: subjectOf(demo.tokens!.token) }).query(api.profiles.me, {});
    const { sets, badges } = await t.run(async (ctx) => ({
      sets: await ctx.db.query("performances").take(500),
      badges: (await ctx.db.query("userBadges").take(100)).filter((b) => b.userId === me!.userId),
    }));
    expect(me!.memberSince).toBeLessThan(Math.min(...sets.map((s) => s.performedAt)));
    expect(badges.length).toBeGreaterThan(0);
    for (const badge of badges) expect(badge.awardedAt).toBeGreaterThanOrEqual(me!.memberSince);
  });

  test("demo and admin accounts sign in with their passwords and have finished profiles", async () => {
    vi.stubEnv("JWT_PRIVATE_KEY", privateKey);
    vi.stubEnv("CONVEX_SITE_URL", "http://127.0.0.1:3211");
    const t = newTest();
    await t.action(dev.seed.run, {});

    const demo = await t.action(api.auth.signIn, {
      provider: "password",
      params: { email: DEMO_EMAIL, password: DEMO_PASSWORD, flow: "signIn" },
    });
    const asDemo = t.withIdentity({ subject: subjectOf(demo.tokens!.token) });
    expect(await asDemo.query(api.profiles.me, {})).toMatchObject({
      displayName: "Dana Demo",
      email: DEMO_EMAIL,
      onboardingCompleted: true,
      needsOnboarding: false,
      isAdmin: false,
      hasProfile: true,
    });

    const admin = await t.action(api.auth.signIn, {
      provider: "password",
      params: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, flow: "signIn" },
    });
    const asAdmin = t.withIdentity({ subject: subjectOf(admin.tokens!.token) });
    expect(await asAdmin.query(api.profiles.isAdmin, {})).toBe(true);
    expect(await asAdmin.query(api.profiles.me, {})).toMatchObject({
      onboardingCompleted: true,
      needsOnboarding: false,
    });
  });

  test("does nothing when the database already has a scene", async () => {
    const t = newTest();
    await createSceneItem(t);
    const result = await t.action(dev.seed.run, {});
    expect(result).toMatchObject({ seeded: false, mics: 1, cities: 1, comedians: 0 });
    const users = await t.run(async (ctx) => ctx.db.query("users").take(10));
    expect(users).toHaveLength(0);
  });

  test("running it twice seeds once", async () => {
    const t = newTest();
    const first = await t.action(dev.seed.run, {});
    const second = await t.action(dev.seed.run, {});
    expect(second).toMatchObject({ seeded: false, mics: first.mics, comedians: 2 + COMMUNITY_NAMES.length });
    const items = await t.run(async (ctx) => ctx.db.query("sceneItems").take(500));
    expect(items).toHaveLength(first.mics);
  });
});

describe("seed:removeDemoAccounts", () => {
  test("deletes the demo comedian and admin (their README passwords with them) and keeps the scene", async () => {
    const t = newTest();
    await t.action(dev.seed.run, {});
    const itemsBefore = await t.run(async (ctx) => (await ctx.db.query("sceneItems").take(500)).length);
    expect(await t.mutation(dev.seed.removeDemoAccounts, {})).toEqual({ removed: [DEMO_EMAIL, ADMIN_EMAIL] });
    const left = await t.run(async (ctx) => ({
      accounts: (await ctx.db.query("authAccounts").take(10)).length,
      users: (await ctx.db.query("users").take(10)).length,
      items: (await ctx.db.query("sceneItems").take(500)).length,
    }));
    // The community's comedians stay with the scene: they never had a password.
    expect(left).toEqual({ accounts: 0, users: COMMUNITY_NAMES.length, items: itemsBefore });
    // A second run has nothing left to remove.
    expect(await t.mutation(dev.seed.removeDemoAccounts, {})).toEqual({ removed: [] });
  });
});
