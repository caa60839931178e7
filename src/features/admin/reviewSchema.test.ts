import { describe, expect, test } from "vitest";
import { REASON_TOO_LONG, reasonArg, reviewSchema } from "./reviewSchema";

describe("a claim decision's reason", () => {
  test.each([
    ["", {}],
    ["   ", {}],
    ["  You run it.  ", { reason: "You run it." }],
    ["x".repeat(500), { reason: "x".repeat(500) }],
  ])("%j is sent as %j", (reason, arg) => {
    const parsed = reviewSchema.parse({ reason });
    expect(reasonArg(parsed)).toEqual(arg);
  });

  test("over 500 characters it is refused with the server's message", () => {
    const parsed = reviewSchema.safeParse({ reason: "x".repeat(501) });
    expect(parsed.success ? null : parsed.error.issues[0].message).toBe(REASON_TOO_LONG);
    expect(REASON_TOO_LONG).toBe("Reason must be 500 characters or fewer");
  });
});
