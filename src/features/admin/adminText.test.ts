import { describe, expect, test } from "vitest";
import {
  checkInsLabel,
  coordinatesToast,
  dayLabel,
  micTypeLabel,
  micsCount,
  pendingForMicText,
  queueCount,
  claimLabel,
  reviewedDate,
  submittedDate,
  timeLabel,
} from "./adminText";

describe("admin text", () => {
  test.each([
    [0, "Sunday"],
    [6, "Saturday"],
    [null, "No day"],
    [undefined, "No day"],
  ])("day %s reads %s", (day, label) => {
    expect(dayLabel(day)).toBe(label);
  });

  test("times, counts, types and toasts", () => {
    expect(timeLabel("19:30")).toBe("7:30 PM");
    expect(timeLabel("00:05")).toBe("12:05 AM");
    expect(timeLabel(undefined)).toBe("No time");
    expect(checkInsLabel(1)).toBe("1 check-in");
    expect(checkInsLabel(0)).toBe("0 check-ins");
    expect(micTypeLabel("bringer_show")).toBe("Bringer Show");
    expect(coordinatesToast(3, 1)).toEqual({
      title: "Coordinate Update Complete",
      description: "Updated 3 venues, 1 failed",
    });
    expect(claimLabel(12)).toBe("Claim #12");
    expect(claimLabel(undefined)).toBe("Claim (unnumbered)");
    expect(queueCount(12, 1000)).toBe("12");
    expect(queueCount(1000, 1000)).toBe("1000");
    expect(queueCount(1001, 1000)).toBe("1000+");
    expect(queueCount(undefined, 1000)).toBe("…");
  });

  test("dates read MMM d, yyyy and times 12-hour", () => {
    const ms = new Date(2026, 10, 21, 9, 5).getTime();
    expect(submittedDate(ms)).toBe("Nov 21, 2026");
    expect(reviewedDate(ms)).toBe("Nov 21, 2026 9:05 AM");
    expect(reviewedDate(new Date(2026, 10, 21, 21, 30).getTime())).toBe("Nov 21, 2026 9:30 PM");
  });

  test.each([
    [0, "0 mics"],
    [1, "1 mic"],
    [2, "2 mics"],
  ])("%i mics read %s", (n, text) => {
    expect(micsCount(n)).toBe(text);
  });

  test("claims waiting on one mic", () => {
    expect(pendingForMicText(1)).toBeNull();
    expect(pendingForMicText(3)).toBe("3 pending claims for this mic");
  });
});
