import { describe, expect, test } from "vitest";
import {
  checkInCountText,
  costText,
  freshnessText,
  isCancelledTonight,
  isVerified,
  listTimeText,
  mapsUrl,
  scheduleText,
} from "./sceneText";

describe("scheduleText", () => {
  test.each([
    [{ recurrence: "weekly", dayOfWeek: 3, startTimeLocal: "20:00" }, "Every Wednesday at 8:00 PM"],
    [{ recurrence: "weekly", dayOfWeek: 0, startTimeLocal: "00:30" }, "Every Sunday at 12:30 AM"],
    [{ recurrence: "weekly", dayOfWeek: 6, startTimeLocal: "12:05" }, "Every Saturday at 12:05 PM"],
    [{ recurrence: "bi-weekly", dayOfWeek: 5, startTimeLocal: "21:30" }, "Every other Friday at 9:30 PM"],
    [
      { recurrence: "monthly", dayOfWeek: 1, startTimeLocal: "19:00", monthlyRule: "Monthly on the 15th" },
      "Monthly on the 15th at 7:00 PM",
    ],
    [{ recurrence: "monthly", dayOfWeek: 2, startTimeLocal: "19:00" }, "Monthly on a Tuesday at 7:00 PM"],
    [{ recurrence: "one-time", dayOfWeek: 6, startTimeLocal: "22:00" }, "One time on Saturday at 10:00 PM"],
    [
      {
        recurrence: "custom",
        dayOfWeek: 4,
        startTimeLocal: "20:00",
        customRecurrenceDescription: "First Thursday of the month",
      },
      "First Thursday of the month at 8:00 PM",
    ],
    [{ recurrence: "custom", dayOfWeek: 4 }, "Thursdays"],
    [{ recurrence: "weekly", dayOfWeek: null }, "Weekly"],
    [{ recurrence: "weekly", dayOfWeek: 2 }, "Every Tuesday"],
  ] as const)("%o -> %s", (item, expected) => {
    expect(scheduleText(item)).toBe(expected);
  });

  test("list time", () => {
    expect(listTimeText("19:30")).toBe("List at 7:30 PM");
    expect(listTimeText(undefined)).toBeNull();
  });
});

describe("freshnessText", () => {
  // 2026-11-21 18:00 in New York (23:00 UTC).
  const now = Date.UTC(2026, 10, 21, 23, 0);
  const hour = 3_600_000;
  test.each([
    [undefined, "Not confirmed yet"],
    [now - 5 * 60_000, "Confirmed today"],
    [now - 17 * hour, "Confirmed today"], // 01:00 the same New York day
    [now - 19 * hour, "Confirmed 1 day ago"], // 23:00 the previous New York day
    [now - 3 * 24 * hour, "Confirmed 3 days ago"],
    [now - 30 * 24 * hour, "Confirmed 30 days ago"],
    [now + 60_000, "Confirmed today"], // a slightly fast server clock
  ])("%s -> %s", (last, expected) => {
    expect(freshnessText(last, now, "America/New_York")).toBe(expected);
  });

  test("counts days in the given time zone", () => {
    // 23:00 UTC on the 21st is already the 22nd in Tokyo; 20:00 UTC the 21st is 05:00 on the 22nd too.
    expect(freshnessText(Date.UTC(2026, 10, 21, 14, 0), now, "Asia/Tokyo")).toBe("Confirmed 1 day ago");
    expect(freshnessText(Date.UTC(2026, 10, 21, 16, 0), now, "Asia/Tokyo")).toBe("Confirmed today");
  });
});

describe("isVerified", () => {
  const now = 1_000_000;
  test.each([
    [{ verifiedCheckIns30d: 2, verificationExpiresAt: now + 1 }, true],
    [{ verifiedCheckIns30d: 2, verificationExpiresAt: now }, false],
    [{ verifiedCheckIns30d: 2, verificationExpiresAt: undefined }, false],
    [{ verifiedCheckIns30d: 0, verificationExpiresAt: now + 1000 }, false],
  ])("%o -> %s", (item, expected) => {
    expect(isVerified(item, now)).toBe(expected);
  });
});

describe("small texts", () => {
  test("check-in count", () => {
    expect(checkInCountText(0)).toBe("0 check-ins");
    expect(checkInCountText(1)).toBe("1 check-in");
    expect(checkInCountText(12)).toBe("12 check-ins");
  });

  test("maps url", () => {
    expect(mapsUrl({ venueName: "The Comedy Cellar", city: "New York" })).toBe(
      "https://www.google.com/maps/search/?api=1&query=The%20Comedy%20Cellar%2C%20New%20York",
    );
  });

  test("cost", () => {
    expect(costText(null)).toBeNull();
    expect(costText(undefined)).toBeNull();
    expect(costText({ type: "free" })).toBe("Free");
    expect(costText({ type: "cover", coverAmount: 5 })).toBe("$5 cover");
    expect(costText({ type: "minimum", minimumItems: 2 })).toBe("2-item minimum");
    expect(costText({ type: "combo", coverAmount: 10, minimumItems: 1 })).toBe("$10 cover + 1-item minimum");
  });
});

describe("isCancelledTonight", () => {
  // 2026-11-25 03:30 UTC is still the evening of Nov 24 in New York.
  const now = Date.UTC(2026, 10, 25, 3, 30);
  test.each([
    [["2026-11-24"], "America/New_York", true],
    [["2026-11-25"], "America/New_York", false],
    [["2026-11-25"], "Europe/London", true],
    [[], "America/New_York", false],
    [undefined, "America/New_York", false],
  ])("cancelled %j in %s → %s", (cancelledDates, timeZone, expected) => {
    expect(isCancelledTonight({ cancelledDates, timeZone }, now)).toBe(expected);
  });
});
