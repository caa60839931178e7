import { describe, expect, test, vi } from "vitest";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone (every date comes out in UTC).
import "./lib/time";
import { createSceneItem, createUser, sceneItemRow, type TestUser } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import {
  DAY,
  WEDNESDAY_MIC,
  nyWed,
  seasonedUser,
  item,
  t,
  useWednesdayCheckIns,
  checkIn,
  micAndComic,
} from "./testing/test.checkIns";

useWednesdayCheckIns();

describe("checkIns.checkIn", () => {
  test("one comedian alone does not verify an item", async () => {
    const { mic, comic } = await micAndComic();
    const first = await checkIn(comic, mic);
    expect(first.verified).toBe(false);
    // The same comedian again next week: two check-ins, still one comedian.
    vi.setSystemTime(nyWed("19:45") + 7 * DAY);
    const second = await checkIn(comic, mic);
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
    await checkIn(a, mic);
    const now = nyWed("20:05");
    vi.setSystemTime(now);
    const result = await checkIn(b, mic);
    // Verified as the row stood at the check-in; the fold a second later verifies (checkIn runs it).
    expect(result).toMatchObject({ checkInCount: 2, verified: false });
    const after = await item(t, mic);
    expect(after.verifiedCheckIns30d).toBe(2);
    expect(after.lastVerifiedAt).toBe(now);
    expect(after.verificationExpiresAt).toBe(now + 30 * DAY);
  });

  test("two fresh accounts cannot verify a mic one of them created (security issue 13 item 12)", async () => {
    const creator = await createUser(t);
    const sock = await createUser(t);
    const mic = await createSceneItem(t, { ...WEDNESDAY_MIC, createdBy: creator.userId });
    await checkIn(creator, mic);
    const result = await checkIn(sock, mic);
    expect(result).toMatchObject({ checkInCount: 2, verified: false });
    expect((await item(t, mic)).verifiedCheckIns30d).toBe(0);
  });

  test("the creator's check-in never counts, even from an old account; two other seasoned comedians verify", async () => {
    const creator = await seasonedUser(t);
    const [a, b] = [await seasonedUser(t), await seasonedUser(t)];
    const mic = await createSceneItem(t, { ...WEDNESDAY_MIC, createdBy: creator.userId });
    await checkIn(creator, mic);
    await checkIn(a, mic);
    expect((await item(t, mic)).verifiedCheckIns30d).toBe(0);
    await checkIn(b, mic);
    expect((await item(t, mic)).verifiedCheckIns30d).toBe(2);
  });

  test("a fresh account's check-in does not count until the account is a day old", async () => {
    const old = await seasonedUser(t);
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const fresh = await createUser(t);
    await checkIn(old, mic);
    expect((await checkIn(fresh, mic)).verified).toBe(false);
  });

  test("check-ins older than 30 days do not count toward verification", async () => {
    const mic = await createSceneItem(t, WEDNESDAY_MIC);
    const [a, b] = [await createUser(t), await createUser(t)];
    await checkIn(a, mic);
    vi.setSystemTime(nyWed("19:45") + 35 * DAY);
    const result = await checkIn(b, mic);
    expect(result.verified).toBe(false);
    expect((await item(t, mic)).verifiedCheckIns30d).toBe(0);
  });

  test("community_builder comes with the 5th check-in of the month, not the 4th", async () => {
    const mics = [];
    for (let i = 0; i < 5; i++) mics.push(await createSceneItem(t, WEDNESDAY_MIC));
    const comic = await createUser(t);
    for (let i = 0; i < 4; i++) {
      const result = await checkIn(comic, mics[i]);
      expect(result.newBadges).not.toContain("community_builder");
    }
    const fifth = await checkIn(comic, mics[4]);
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
      await checkIn(comic, mics[i]);
    }
    vi.setSystemTime(nyWed("19:45"));
    const result = await checkIn(comic, mics[4]);
    expect(result.newBadges).toEqual([]);
  });

  test("more than 10 check-ins in a minute are rate limited", async () => {
    const mics = [];
    for (let i = 0; i < 11; i++) mics.push(await createSceneItem(t, WEDNESDAY_MIC));
    const comic = await createUser(t);
    for (let i = 0; i < 10; i++) {
      await checkIn(comic, mics[i]);
    }
    await expectAppError(
      checkIn(comic, mics[10]),
      "RATE_LIMITED",
      "Too many check-ins. Please wait a minute and try again.",
    );
    vi.setSystemTime(nyWed("19:46") + 1);
    const later = await checkIn(comic, mics[10]);
    expect(later.success).toBe(true);
  });
});

describe("checkIns.expireVerification", () => {
  async function verify(mic: Id<"sceneItems">, [a, b]: TestUser[]) {
    await checkIn(a, mic);
    await checkIn(b, mic);
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
          await ctx.db.insert(
            "sceneItems",
            sceneItemRow({
              title: `Mic ${i}`,
              venueName: "Room",
              checkInCount: 2,
              verifiedCheckIns30d: 2,
              lastVerifiedAt: now - 31 * DAY,
              verificationExpiresAt: now - DAY + i,
              searchText: `mic ${i} room new york`,
            }),
          ),
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
