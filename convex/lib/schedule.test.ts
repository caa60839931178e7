import { describe, expect, it } from "vitest";
import {
  ADD_TO_SCHEDULE_DUPLICATE_WINDOW_MS,
  COMPLETED_AFTER_MIN,
  completedAtMs,
  isPerformanceCompleted,
} from "./schedule";
import { zonedEpoch } from "./time";

const MIN = 60_000;
const start = zonedEpoch("2026-11-20", "20:00", "America/New_York");

describe("isPerformanceCompleted", () => {
  it.each([
    ["no performance minutes, one ms before 60 min", undefined, 60 * MIN - 1, false],
    ["no performance minutes, exactly 60 min", undefined, 60 * MIN, true],
    ["5 performance minutes, at 60 min", 5, 60 * MIN, false],
    ["5 performance minutes, one ms before 65 min", 5, 65 * MIN - 1, false],
    ["5 performance minutes, exactly 65 min", 5, 65 * MIN, true],
    ["10 performance minutes, well after", 10, 3 * 60 * MIN, true],
    ["0 performance minutes, exactly 60 min", 0, 60 * MIN, true],
    ["before the start", 5, -10 * MIN, false],
  ])("%s", (_name, performanceMinutes, offset, completed) => {
    expect(isPerformanceCompleted({ occurrenceStartMs: start, performanceMinutes, nowMs: start + offset })).toBe(
      completed,
    );
  });

  it("exposes the boundary and the constants", () => {
    expect(COMPLETED_AFTER_MIN).toBe(60);
    expect(completedAtMs(start, 10)).toBe(start + 70 * MIN);
    expect(ADD_TO_SCHEDULE_DUPLICATE_WINDOW_MS).toBe(7 * 24 * 60 * MIN);
  });
});
