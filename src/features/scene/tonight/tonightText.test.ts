import { describe, expect, test } from "vitest";
import { checkInWindow } from "@convex/lib/checkInWindow";
import { zonedEpoch } from "@convex/lib/time";
import { checkInBadgeText, confirmationDateText, distanceText, nightTimesText, startsInText } from "./tonightText";

describe("confirmationDateText", () => {
  test("the date in words in the mic's zone, New York when it has none", () => {
    // 03:00 UTC on November 20 is still November 19 in New York, already the 20th in Tokyo.
    const at = Date.UTC(2026, 10, 20, 3, 0);
    expect(confirmationDateText(at, "America/New_York")).toBe("November 19, 2026");
    expect(confirmationDateText(at, "Asia/Tokyo")).toBe("November 20, 2026");
    expect(confirmationDateText(at, undefined)).toBe("November 19, 2026");
    expect(confirmationDateText(Date.UTC(2027, 0, 5, 18, 0), "Europe/London")).toBe("January 5, 2027");
  });
});

describe("the other Tonight wording", () => {
  test("times, start and distance", () => {
    expect(nightTimesText({ signupMethod: "in_person", listTimeLocal: "19:30", startTimeLocal: "20:00" })).toBe(
      "List 7:30 PM · Starts 8:00 PM",
    );
    expect(startsInText(60 * 60_000, 2 * 60 * 60_000, 20 * 60_000)).toBe("starts in 40 min");
    expect(distanceText(0.42)).toBe("0.4 mi");
    expect(distanceText(12.4)).toBe("12 mi");
  });
});

describe("checkInBadgeText", () => {
  const NY = "America/New_York";
  // Wednesdays at 20:00: check-in opens at 19:30.
  const mic = { dayOfWeek: 3, startTimeLocal: "20:00", timeZone: NY };
  const at = (hhmm: string) => checkInBadgeText(checkInWindow(mic, zonedEpoch("2026-11-25", hhmm, NY)), NY);

  test("says when check-in opens: the clock time hours ahead, minutes within the hour", () => {
    expect(at("06:30")).toBe("Check-in opens at 7:30 PM");
    expect(at("18:00")).toBe("Check-in opens at 7:30 PM");
    expect(at("18:45")).toBe("Check-in opens in 45m");
    expect(at("19:30")).toBe("Check-in open");
    expect(at("23:00")).toBe("Check-in closed");
  });
});
