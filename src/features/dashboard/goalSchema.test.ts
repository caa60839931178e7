import { describe, expect, test } from "vitest";
import { INVALID_GOAL_MESSAGE, goalSchema } from "./goalSchema";

describe("goalSchema", () => {
  test.each([1, 15, 100])("accepts %s", (value) => {
    expect(goalSchema.parse({ weeklyGoalMinutes: value })).toEqual({ weeklyGoalMinutes: value });
  });

  // NaN is what an emptied number field gives.
  test.each([0, -5, 101, 1000, 12.5, Number.NaN, "20", null])("rejects %s with the spec's message", (value) => {
    const result = goalSchema.safeParse({ weeklyGoalMinutes: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(INVALID_GOAL_MESSAGE);
  });
});
