import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone (every date comes out in UTC).
import "./lib/time";
import { calendarRecurrence } from "./lib/recurrence";
import { createSceneItem, createUser } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { BI_WEEKLY_TUESDAY, MONTHLY_ON_THE_25TH, NOW, t, at, useSaturdayNoon } from "./testing/test.schedule";

useSaturdayNoon();

describe("schedule.calendar", () => {
  test("lists the caller's scheduled, active mics that still run, with what the .ics needs", async () => {
    const biWeekly = await createSceneItem(t, {
      ...BI_WEEKLY_TUESDAY,
      timeZone: "America/Chicago",
      address: "1 Main St",
    });
    const monthly = await createSceneItem(t, MONTHLY_ON_THE_25TH);
    const oneTime = await createSceneItem(t, { title: "Once", recurrence: "one-time", dayOfWeek: 1 });
    const inactive = await createSceneItem(t, { title: "Gone" });
    const notMine = await createSceneItem(t, { title: "Not mine" });
    const [comic, other] = [await createUser(t), await createUser(t)];
    for (const sceneItemId of [biWeekly, monthly, oneTime, inactive]) {
      await comic.asUser.mutation(api.schedule.add, { sceneItemId });
    }
    await other.asUser.mutation(api.schedule.add, { sceneItemId: notMine });
    await t.run(async (ctx) => ctx.db.patch("sceneItems", inactive, { status: "inactive" }));

    const items = await comic.asUser.query(api.schedule.calendar, { fromMs: NOW });
    expect(items.map((i) => i.title)).toEqual(["Once", "Bi-weekly", "Monthly"]);
    expect(items[1]).toEqual({
      sceneItemId: biWeekly,
      title: "Bi-weekly",
      venueName: "The Test Room",
      address: "1 Main St",
      city: "New York",
      timeZone: "America/Chicago",
      dayOfWeek: 2,
      startTimeLocal: "20:00",
      recurrence: "bi-weekly",
      performanceMinutes: 5,
      anchorDate: "2026-11-21",
    });
    // The export repeats the mic exactly as the week view shows it.
    const { anchorDate, ...fields } = items[1];
    expect(calendarRecurrence({ ...fields, anchorDate: anchorDate ?? undefined }, NOW)).toEqual({
      startMs: at("2026-11-24T20:00:00-06:00"),
      timeZone: "America/Chicago",
      rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
    });
    expect(calendarRecurrence({ ...items[2], anchorDate: items[2].anchorDate ?? undefined }, NOW)?.rrule).toBe(
      "FREQ=MONTHLY;BYMONTHDAY=25",
    );

    // Once the one-time show has started it no longer goes in the file.
    const later = await comic.asUser.query(api.schedule.calendar, { fromMs: at("2026-11-23T19:31:00-05:00") });
    expect(later.map((i) => i.title)).toEqual(["Bi-weekly", "Monthly"]);
    await expectAppError(t.query(api.schedule.calendar, { fromMs: NOW }), "NOT_SIGNED_IN");
  });
});
