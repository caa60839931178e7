import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone (every date comes out in UTC).
import "./lib/time";
import { createSceneItem, createUser, newTest, type TestBackend, type TestUser } from "./test.setup";
import { expectAppError } from "./test.expect";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** One degree of latitude in metres on a 6371000 m sphere. */
const METERS_PER_DEGREE_LAT = (Math.PI * 6371000) / 180;

/** A Wednesday 20:00 mic in Manhattan; in November New York is UTC-5. */
const VENUE = { latitude: 40.7411, longitude: -73.9897 };
const WEDNESDAY_MIC = { dayOfWeek: 3, startTimeLocal: "20:00", ...VENUE };
/** New York wall-clock time on Wednesday 2026-11-25 as epoch ms. */
const nyWed = (hhmm: string) => Date.parse(`2026-11-25T${hhmm}:00-05:00`);
const AT_VENUE = { ...VENUE };

/** A comedian whose account is two days old: old enough for their check-ins to verify a mic. */
async function seasonedUser(t: TestBackend) {
  const now = Date.now();
  vi.setSystemTime(now - 2 * DAY);
  try {
    return await createUser(t);
  } finally {
    vi.setSystemTime(now);
  }
}

async function item(t: TestBackend, id: Id<"sceneItems">) {
  return await t.run(async (ctx) => (await ctx.db.get("sceneItems", id))!);
}

let t: TestBackend;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(nyWed("19:45"));
  t = newTest();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("checkIns.checkIn", () => {
  test("refuses an anonymous caller", async () => {
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    await expectAppError(
      t.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE }),
      "NOT_SIGNED_IN",
      "Please sign in to check in",
    );
  });

  test("checks in at the venue inside the window and updates the counters", async () => {
    const mic = await createSceneItem(t, { ...WEDNESDAY_MIC, venueName: "Gotham Basement" });
    const comic = await createUser(t);
    const result = await comic.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mic,
      ...AT_VENUE,
    });
    expect(result).toEqual({
      success: true,
      message: "Checked in at Gotham Basement!",
      distance: 0,
      checkInCount: 1,
      verified: false,
      newBadges: [],
    });
    const after = await item(t, mic);
    expect(after.checkInCount).toBe(1);
    expect(after.lastCheckInAt).toBe(nyWed("19:45"));
    expect(after.verifiedCheckIns30d).toBe(0);
    const rows = await t.run(async (ctx) =>
      ctx.db
        .query("checkIns")
        .withIndex("by_item_and_time", (q) => q.eq("sceneItemId", mic))
        .collect(),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: comic.userId, localDate: "2026-11-25" });
  });

  test("is closed before the window and says when it opens", async () => {
    vi.setSystemTime(nyWed("18:00"));
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const comic = await createUser(t);
    await expectAppError(
      comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE }),
      "CHECK_IN_WINDOW",
      "Check-in opens in 1h 30m",
    );
    expect((await item(t, mic)).checkInCount).toBe(0);
  });

  test("opens exactly 30 minutes before the start", async () => {
    vi.setSystemTime(nyWed("19:30"));
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const comic = await createUser(t);
    const result = await comic.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mic,
      ...AT_VENUE,
    });
    expect(result.success).toBe(true);
  });

  test("one minute before the opening edge is still too early", async () => {
    vi.setSystemTime(nyWed("19:29"));
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const comic = await createUser(t);
    await expectAppError(
      comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE }),
      "CHECK_IN_WINDOW",
      "Check-in opens in 1m",
    );
  });

  test("accepts a check-in during the show", async () => {
    vi.setSystemTime(nyWed("21:30"));
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const comic = await createUser(t);
    const result = await comic.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mic,
      ...AT_VENUE,
    });
    expect(result.checkInCount).toBe(1);
  });

  test("is closed 2 hours after the start", async () => {
    vi.setSystemTime(nyWed("22:00"));
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const comic = await createUser(t);
    await expectAppError(
      comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE }),
      "CHECK_IN_WINDOW",
      "Check-in window closed",
    );
  });

  test("is closed on another day of the week", async () => {
    vi.setSystemTime(Date.parse("2026-11-24T20:00:00-05:00"));
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const comic = await createUser(t);
    await expectAppError(
      comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE }),
      "CHECK_IN_WINDOW",
      "Check-in window closed",
    );
  });

  test("uses the item's own time zone", async () => {
    // 20:00 in Los Angeles (UTC-8) is 23:00 in New York.
    const mic = await createSceneItem(t, { ...WEDNESDAY_MIC, timeZone: "America/Los_Angeles" });
    const comic = await createUser(t);
    await expectAppError(
      comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE }),
      "CHECK_IN_WINDOW",
      "Check-in opens in 2h 45m",
    );
    vi.setSystemTime(Date.parse("2026-11-25T20:10:00-08:00"));
    const result = await comic.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mic,
      ...AT_VENUE,
    });
    expect(result.success).toBe(true);
  });

  test("250 m away is too far and reports the distance", async () => {
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const comic = await createUser(t);
    const data = await expectAppError(
      comic.asUser.mutation(api.checkIns.checkIn, {
        sceneItemId: mic,
        latitude: VENUE.latitude + 250 / METERS_PER_DEGREE_LAT,
        longitude: VENUE.longitude,
      }),
      "CHECK_IN_TOO_FAR",
      "You are 250m from the venue. Check-ins must be within 200m.",
    );
    expect(data.distance).toBe(250);
    expect((await item(t, mic)).checkInCount).toBe(0);
  });

  test("150 m away is close enough and the distance is returned", async () => {
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const comic = await createUser(t);
    const result = await comic.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mic,
      latitude: VENUE.latitude - 150 / METERS_PER_DEGREE_LAT,
      longitude: VENUE.longitude,
    });
    expect(result.distance).toBe(150);
  });

  test("an item without coordinates cannot be checked in", async () => {
    const mic = await createSceneItem(t, {
      ...WEDNESDAY_MIC,
      latitude: undefined,
      longitude: undefined,
    });
    const comic = await createUser(t);
    await expectAppError(
      comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE }),
      "CHECK_IN_NO_LOCATION",
      "This mic has no location yet, so check-ins are not possible.",
    );
  });

  test("a missing or inactive item is not found", async () => {
    const inactive = await createSceneItem(t, { ...WEDNESDAY_MIC, status: "inactive" });
    const deleted = await createSceneItem(t, WEDNESDAY_MIC);
    await t.run(async (ctx) => ctx.db.delete("sceneItems", deleted));
    const comic = await createUser(t);
    for (const sceneItemId of [inactive, deleted]) {
      await expectAppError(
        comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId, ...AT_VENUE }),
        "NOT_FOUND",
        "Event not found",
      );
    }
  });

  test("once per comedian per item per local day; the next week's show is allowed", async () => {
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const comic = await createUser(t);
    await comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });
    vi.setSystemTime(nyWed("21:00"));
    await expectAppError(
      comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE }),
      "ALREADY_CHECKED_IN",
      "Already checked in",
    );
    // Another comedian is not affected.
    const other = await createUser(t);
    await other.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });

    vi.setSystemTime(nyWed("20:00") + 7 * DAY);
    const nextWeek = await comic.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mic,
      ...AT_VENUE,
    });
    expect(nextWeek.checkInCount).toBe(3);
  });

  test("a late show's check-in after midnight counts for the show's own date", async () => {
    // 23:30 Wednesday show: at 00:30 Thursday the window is still open, and it
    // is the same occurrence as a check-in at 23:10 Wednesday.
    const mic = await createSceneItem(t, { ...WEDNESDAY_MIC, startTimeLocal: "23:30" });
    const comic = await createUser(t);
    vi.setSystemTime(nyWed("23:10"));
    await comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });
    vi.setSystemTime(Date.parse("2026-11-26T00:30:00-05:00"));
    await expectAppError(
      comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE }),
      "ALREADY_CHECKED_IN",
    );
    const other = await createUser(t);
    await other.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });
    const rows = await t.run(async (ctx) =>
      ctx.db
        .query("checkIns")
        .withIndex("by_user_item_and_date", (q) => q.eq("userId", other.userId))
        .collect(),
    );
    expect(rows[0].localDate).toBe("2026-11-25");
  });

  test("one comedian alone does not verify an item", async () => {
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const comic = await createUser(t);
    const first = await comic.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mic,
      ...AT_VENUE,
    });
    expect(first.verified).toBe(false);
    // The same comedian again next week: two check-ins, still one comedian.
    vi.setSystemTime(nyWed("19:45") + 7 * DAY);
    const second = await comic.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mic,
      ...AT_VENUE,
    });
    expect(second).toMatchObject({ checkInCount: 2, verified: false });
    const after = await item(t, mic);
    expect(after.verifiedCheckIns30d).toBe(0);
    expect(after.verificationExpiresAt).toBeUndefined();
    expect(after.lastVerifiedAt).toBeUndefined();
  });

  test("two comedians verify the item for 30 days from the latest check-in", async () => {
    // Accounts before the mic: creation times only grow.
    const [a, b] = [await seasonedUser(t), await seasonedUser(t)];
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    await a.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });
    const now = nyWed("20:05");
    vi.setSystemTime(now);
    const result = await b.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mic,
      ...AT_VENUE,
    });
    expect(result).toMatchObject({ checkInCount: 2, verified: true });
    const after = await item(t, mic);
    expect(after.verifiedCheckIns30d).toBe(2);
    expect(after.lastVerifiedAt).toBe(now);
    expect(after.verificationExpiresAt).toBe(now + 30 * DAY);
  });

  test("two fresh accounts cannot verify a mic one of them created (security issue 13 item 12)", async () => {
    const creator = await createUser(t);
    const sock = await createUser(t);
    const mic = await createSceneItem(t, { ...WEDNESDAY_MIC, createdBy: creator.userId });
    await creator.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });
    const result = await sock.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });
    expect(result).toMatchObject({ checkInCount: 2, verified: false });
    expect((await item(t, mic)).verifiedCheckIns30d).toBe(0);
  });

  test("the creator's check-in never counts, even from an old account; two other seasoned comedians verify", async () => {
    const creator = await seasonedUser(t);
    const [a, b] = [await seasonedUser(t), await seasonedUser(t)];
    const mic = await createSceneItem(t, { ...WEDNESDAY_MIC, createdBy: creator.userId });
    await creator.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });
    expect((await a.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE })).verified).toBe(false);
    expect((await b.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE })).verified).toBe(true);
    expect((await item(t, mic)).verifiedCheckIns30d).toBe(2);
  });

  test("a fresh account's check-in does not count until the account is a day old", async () => {
    const old = await seasonedUser(t);
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const fresh = await createUser(t);
    await old.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });
    expect((await fresh.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE })).verified).toBe(false);
  });

  test("check-ins older than 30 days do not count toward verification", async () => {
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const [a, b] = [await createUser(t), await createUser(t)];
    await a.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });
    vi.setSystemTime(nyWed("19:45") + 35 * DAY);
    const result = await b.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mic,
      ...AT_VENUE,
    });
    expect(result.verified).toBe(false);
    expect((await item(t, mic)).verifiedCheckIns30d).toBe(0);
  });

  test("community_builder comes with the 5th check-in of the month, not the 4th", async () => {
    const mics = [];
    for (let i = 0; i < 5; i++) mics.push(await createSceneItem(t, WEDNESDAY_MIC));
    const comic = await createUser(t);
    for (let i = 0; i < 4; i++) {
      const result = await comic.asUser.mutation(api.checkIns.checkIn, {
        sceneItemId: mics[i],
        ...AT_VENUE,
      });
      expect(result.newBadges).not.toContain("community_builder");
    }
    const fifth = await comic.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mics[4],
      ...AT_VENUE,
    });
    expect(fifth.newBadges).toContain("community_builder");
    const badges = await t.run(async (ctx) =>
      ctx.db
        .query("userBadges")
        .withIndex("by_user_and_code", (q) => q.eq("userId", comic.userId).eq("badgeCode", "community_builder"))
        .collect(),
    );
    expect(badges).toHaveLength(1);
    expect(badges[0].awardedAt).toBe(nyWed("19:45"));
  });

  test("check-ins of an earlier month do not count toward community_builder", async () => {
    // Four check-ins on Wednesday 2026-10-28, one on 2026-11-25: only one this month.
    const mics = [];
    for (let i = 0; i < 5; i++) mics.push(await createSceneItem(t, WEDNESDAY_MIC));
    const comic = await createUser(t);
    vi.setSystemTime(Date.parse("2026-10-28T19:45:00-04:00"));
    for (let i = 0; i < 4; i++) {
      await comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mics[i], ...AT_VENUE });
    }
    vi.setSystemTime(nyWed("19:45"));
    const result = await comic.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mics[4],
      ...AT_VENUE,
    });
    expect(result.newBadges).toEqual([]);
  });

  test("more than 10 check-ins in a minute are rate limited", async () => {
    const mics = [];
    for (let i = 0; i < 11; i++) mics.push(await createSceneItem(t, WEDNESDAY_MIC));
    const comic = await createUser(t);
    for (let i = 0; i < 10; i++) {
      await comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mics[i], ...AT_VENUE });
    }
    await expectAppError(
      comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mics[10], ...AT_VENUE }),
      "RATE_LIMITED",
      "Too many check-ins. Please wait a minute and try again.",
    );
    vi.setSystemTime(nyWed("19:46") + 1);
    const later = await comic.asUser.mutation(api.checkIns.checkIn, {
      sceneItemId: mics[10],
      ...AT_VENUE,
    });
    expect(later.success).toBe(true);
  });
});

describe("checkIns.expireVerification", () => {
  async function verify(mic: Id<"sceneItems">, [a, b]: TestUser[]) {
    await a.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });
    await b.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...AT_VENUE });
  }

  test("keeps verification until it expires, then clears it and keeps lastVerifiedAt", async () => {
    const comedians = [await seasonedUser(t), await seasonedUser(t)];
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    await verify(mic, comedians);
    const expiresAt = nyWed("19:45") + 30 * DAY;

    vi.setSystemTime(expiresAt - 1);
    expect(await t.mutation(internal.checkIns.expireVerification, {})).toEqual({
      expired: 0,
      more: false,
    });
    expect((await item(t, mic)).verifiedCheckIns30d).toBe(2);

    vi.setSystemTime(expiresAt);
    expect(await t.mutation(internal.checkIns.expireVerification, {})).toEqual({
      expired: 1,
      more: false,
    });
    const after = await item(t, mic);
    expect(after.verifiedCheckIns30d).toBe(0);
    expect(after.lastVerifiedAt).toBe(nyWed("19:45"));
    expect(after.verificationExpiresAt).toBeUndefined();
  });

  test("leaves items that were never verified alone", async () => {
    const never = await createSceneItem(t, WEDNESDAY_MIC);
    vi.setSystemTime(nyWed("19:45") + 60 * DAY);
    await t.mutation(internal.checkIns.expireVerification, {});
    expect(await item(t, never)).toMatchObject({ verifiedCheckIns30d: 0, checkInCount: 0 });
  });

  test("works through more expired items than one batch by rescheduling itself", async () => {
    vi.useRealTimers();
    vi.useFakeTimers();
    const now = Date.now();
    const ids = await t.run(async (ctx) => {
      const out: Id<"sceneItems">[] = [];
      for (let i = 0; i < 205; i++) {
        out.push(
          await ctx.db.insert("sceneItems", {
            title: `Mic ${i}`,
            venueName: "Room",
            city: "New York",
            type: "open_mic",
            recurrence: "weekly",
            timeZone: "America/New_York",
            status: "active",
            checkInCount: 2,
            verifiedCheckIns30d: 2,
            lastVerifiedAt: now - 31 * DAY,
            verificationExpiresAt: now - DAY + i,
            searchText: `mic ${i} room new york`,
          }),
        );
      }
      return out;
    });
    const first = await t.mutation(internal.checkIns.expireVerification, {});
    expect(first).toEqual({ expired: 200, more: true });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const rest = await t.run(async (ctx) =>
      Promise.all(ids.map(async (id) => (await ctx.db.get("sceneItems", id))!.verifiedCheckIns30d)),
    );
    expect(rest.every((n) => n === 0)).toBe(true);
  });
});
