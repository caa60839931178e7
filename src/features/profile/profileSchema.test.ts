import { describe, expect, test } from "vitest";
import { MAX_PHOTO_BYTES, photoProblem, profileSchema } from "./profileSchema";

describe("photoProblem", () => {
  test.each([
    [{ type: "image/png", size: 1024 }, null],
    [{ type: "image/svg+xml", size: 1024 }, "Please select an image file"],
    [{ type: "image/jpeg", size: MAX_PHOTO_BYTES - 1 }, null],
    [{ type: "image/png", size: MAX_PHOTO_BYTES }, "Image must be less than 5MB"],
    [{ type: "image/png", size: 6 * 1024 * 1024 }, "Image must be less than 5MB"],
    [{ type: "application/pdf", size: 1024 }, "Please select an image file"],
    [{ type: "", size: 10 }, "Please select an image file"],
  ])("%j -> %s", (file, expected) => {
    expect(photoProblem(file)).toBe(expected);
  });
});

describe("profileSchema", () => {
  test("trims and accepts goals from 1 to 1000", () => {
    expect(profileSchema.parse({ displayName: " Ali ", weeklyGoalMinutes: 1000, defaultCity: " Austin " })).toEqual({
      displayName: "Ali",
      weeklyGoalMinutes: 1000,
      defaultCity: "Austin",
    });
  });

  test.each([0, 1001, 2.5, Number.NaN])("refuses a goal of %s", (goal) => {
    expect(profileSchema.safeParse({ displayName: "Ali", weeklyGoalMinutes: goal, defaultCity: "" }).success).toBe(
      false,
    );
  });

  test("refuses a blank or long name", () => {
    expect(profileSchema.safeParse({ displayName: "  ", weeklyGoalMinutes: 15, defaultCity: "" }).success).toBe(false);
    expect(
      profileSchema.safeParse({ displayName: "x".repeat(61), weeklyGoalMinutes: 15, defaultCity: "" }).success,
    ).toBe(false);
  });
});
