import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone (every date comes out in UTC).
import "./lib/time";
import { createSceneItem, createUser } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import {
  DAY,
  METERS_PER_DEGREE_LAT,
  VENUE,
  WEDNESDAY_MIC,
  nyWed,
  AT_VENUE,
  item,
  t,
  useWednesdayCheckIns,
  checkIn,
  micAndComic,
} from "./testing/test.checkIns";

useWednesdayCheckIns();

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
    const { mic, comic } = await micAndComic({ venueName: "Gotham Basement" });
    const result = await checkIn(comic, mic);
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
    const { mic, comic } = await micAndComic();
    await expectAppError(checkIn(comic, mic), "CHECK_IN_WINDOW", "Check-in opens in 1h 30m");
    expect((await item(t, mic)).checkInCount).toBe(0);
  });

  test("opens exactly 30 minutes before the start", async () => {
    vi.setSystemTime(nyWed("19:30"));
    const { mic, comic } = await micAndComic();
    const result = await checkIn(comic, mic);
    expect(result.success).toBe(true);
  });

  test("one minute before the opening edge is still too early", async () => {
    vi.setSystemTime(nyWed("19:29"));
    const { mic, comic } = await micAndComic();
    await expectAppError(checkIn(comic, mic), "CHECK_IN_WINDOW", "Check-in opens in 1m");
  });

  test("accepts a check-in during the show", async () => {
    vi.setSystemTime(nyWed("21:30"));
    const { mic, comic } = await micAndComic();
    const result = await checkIn(comic, mic);
    expect(result.checkInCount).toBe(1);
  });

  test("is closed 2 hours after the start", async () => {
    vi.setSystemTime(nyWed("22:00"));
    const { mic, comic } = await micAndComic();
    await expectAppError(checkIn(comic, mic), "CHECK_IN_WINDOW", "Check-in window closed");
  });

  test("is closed on another day of the week", async () => {
    vi.setSystemTime(Date.parse("2026-11-24T20:00:00-05:00"));
    const { mic, comic } = await micAndComic();
    await expectAppError(checkIn(comic, mic), "CHECK_IN_WINDOW", "Check-in window closed");
  });

  test("uses the item's own time zone", async () => {
    // 20:00 in Los Angeles (UTC-8) is 23:00 in New York.
    const { mic, comic } = await micAndComic({ timeZone: "America/Los_Angeles" });
    await expectAppError(checkIn(comic, mic), "CHECK_IN_WINDOW", "Check-in opens in 2h 45m");
    vi.setSystemTime(Date.parse("2026-11-25T20:10:00-08:00"));
    const result = await checkIn(comic, mic);
    expect(result.success).toBe(true);
  });

  test("250 m away is too far and reports the distance", async () => {
    const { mic, comic } = await micAndComic();
    const data = await expectAppError(
      checkIn(comic, mic, { latitude: VENUE.latitude + 250 / METERS_PER_DEGREE_LAT, longitude: VENUE.longitude }),
      "CHECK_IN_TOO_FAR",
      "You are 0.2 mi from the venue; check-in works within 200 m",
    );
    expect(data.distance).toBe(250);
    expect((await item(t, mic)).checkInCount).toBe(0);
  });

  test("150 m away is close enough and the distance is returned", async () => {
    const { mic, comic } = await micAndComic();
    const result = await checkIn(comic, mic, {
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
      checkIn(comic, mic),
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
      await expectAppError(checkIn(comic, sceneItemId), "NOT_FOUND", "Event not found");
    }
  });

  test("once per comedian per item per local day; the next week's show is allowed", async () => {
    const { mic, comic } = await micAndComic();
    await checkIn(comic, mic);
    vi.setSystemTime(nyWed("21:00"));
    await expectAppError(checkIn(comic, mic), "ALREADY_CHECKED_IN", "Already checked in");
    // Another comedian is not affected.
    const other = await createUser(t);
    await checkIn(other, mic);

    vi.setSystemTime(nyWed("20:00") + 7 * DAY);
    const nextWeek = await checkIn(comic, mic);
    expect(nextWeek.checkInCount).toBe(3);
  });

  test("a late show's check-in after midnight counts for the show's own date", async () => {
    // 23:30 Wednesday show: at 00:30 Thursday the window is still open, and it
    // is the same occurrence as a check-in at 23:10 Wednesday.
    const { mic, comic } = await micAndComic({ startTimeLocal: "23:30" });
    vi.setSystemTime(nyWed("23:10"));
    await checkIn(comic, mic);
    vi.setSystemTime(Date.parse("2026-11-26T00:30:00-05:00"));
    await expectAppError(checkIn(comic, mic), "ALREADY_CHECKED_IN");
    const other = await createUser(t);
    await checkIn(other, mic);
    const rows = await t.run(async (ctx) =>
      ctx.db
        .query("checkIns")
        .withIndex("by_user_item_and_date", (q) => q.eq("userId", other.userId))
        .collect(),
    );
    expect(rows[0].localDate).toBe("2026-11-25");
  });
});
