import { describe, expect, test } from "vitest";
import { WALK_IN_NAME_REQUIRED, WALK_IN_NAME_TOO_LONG, walkInNameSchema } from "./walkInSchema";

describe("a walk-in's name", () => {
  test.each([
    ["  Wes  ", "Wes"],
    ["W".repeat(60), "W".repeat(60)],
    ["   ", WALK_IN_NAME_REQUIRED],
    ["W".repeat(61), WALK_IN_NAME_TOO_LONG],
  ])("%j gives %j", (name, want) => {
    const parsed = walkInNameSchema.safeParse({ name });
    expect(parsed.success ? parsed.data.name : parsed.error.issues[0].message).toBe(want);
  });

  test("says what the server says", () => {
    expect(WALK_IN_NAME_TOO_LONG).toBe("Names must be 60 characters or fewer");
  });
});
