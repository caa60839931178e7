import { describe, expect, test } from "vitest";
import { cancellationNotices, cancelledDateLabel } from "./ownerText";

describe("cancelled nights", () => {
  test("labels read MMM d, yyyy", () => {
    expect(cancelledDateLabel("2026-12-07")).toBe("Dec 7, 2026");
  });

  test("tonight follows the item's time zone, past dates drop out", () => {
    // 03:00 UTC on Nov 22 is still Nov 21 in New York.
    const now = Date.UTC(2026, 10, 22, 3, 0);
    const dates = ["2026-11-20", "2026-11-21", "2026-12-01", "2026-11-25"];
    expect(cancellationNotices(dates, "America/New_York", now)).toEqual({
      tonight: true,
      upcoming: ["2026-11-25", "2026-12-01"],
    });
    expect(cancellationNotices(dates, "Europe/London", now)).toEqual({
      tonight: false,
      upcoming: ["2026-11-25", "2026-12-01"],
    });
    expect(cancellationNotices(undefined, "America/New_York", now)).toEqual({ tonight: false, upcoming: [] });
  });
});
