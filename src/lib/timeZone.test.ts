import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_TIME_ZONE } from "@convex/lib/time";
import { viewerTimeZone } from "./timeZone";

describe("viewerTimeZone", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("is the zone the browser reports", () => {
    vi.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockReturnValue({
      timeZone: "America/Chicago",
    } as Intl.ResolvedDateTimeFormatOptions);
    expect(viewerTimeZone()).toBe("America/Chicago");
  });

  it.each([
    ["an empty zone", () => ({ timeZone: "" }) as Intl.ResolvedDateTimeFormatOptions],
    [
      "Intl throwing",
      () => {
        throw new RangeError("no time zone data");
      },
    ],
  ])("falls back to the default zone on %s", (_case, resolvedOptions) => {
    vi.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockImplementation(resolvedOptions);
    expect(viewerTimeZone()).toBe(DEFAULT_TIME_ZONE);
  });
});
