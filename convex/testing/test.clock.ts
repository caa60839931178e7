/** The frozen clock tests run under. */
import { afterEach, beforeEach, vi } from "vitest";
// Load @date-fns/tz before fake timers replace Date: a TZDate class that
// extends the fake Date loses its time zone (every date comes out in UTC).
import "../lib/time";

/**
 * For every test of the calling file (or `describe` block): `Date` frozen at `nowMs` (timers stay
 * real, so convex-test's scheduler runs), and the real clock back afterwards.
 */
export function useFrozenClock(nowMs: number): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(nowMs);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
