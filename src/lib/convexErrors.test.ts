import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { errorCode, errorField, errorMessage } from "./convexErrors";

describe("convexErrors", () => {
  const tooFar = new ConvexError({
    code: "CHECK_IN_TOO_FAR",
    message: "You are too far from the venue",
    distance: 812,
  });

  test("errorMessage reads data.message of a ConvexError", () => {
    expect(errorMessage(tooFar, "Check-in failed. Please try again.")).toBe("You are too far from the venue");
  });

  test("errorMessage accepts a ConvexError whose data is a string", () => {
    expect(errorMessage(new ConvexError("Event not found"), "fallback")).toBe("Event not found");
  });

  test("errorMessage falls back for plain errors and non-errors", () => {
    expect(errorMessage(new Error("[CONVEX M(x)] Server Error"), "Failed to update favorite")).toBe(
      "Failed to update favorite",
    );
    expect(errorMessage(undefined, "fallback")).toBe("fallback");
    expect(errorMessage(new ConvexError({ code: "X", message: "" }), "fallback")).toBe("fallback");
  });

  test("errorCode gives the code or null", () => {
    expect(errorCode(tooFar)).toBe("CHECK_IN_TOO_FAR");
    expect(errorCode(new Error("x"))).toBeNull();
    expect(errorCode(new ConvexError("plain"))).toBeNull();
  });

  test("errorCode is typed: a code the server does not define is null, and comparing with one does not compile", () => {
    expect(errorCode(new ConvexError({ code: "NOT_A_CODE", message: "x" }))).toBeNull();
    // @ts-expect-error "CHECK_IN_TOO_FAAR" is not an ErrorCode
    expect(errorCode(tooFar) === "CHECK_IN_TOO_FAAR").toBe(false);
  });

  test("errorField reads extra data", () => {
    expect(errorField(tooFar, "distance")).toBe(812);
    expect(errorField(tooFar, "missing")).toBeUndefined();
    expect(errorField(new Error("x"), "distance")).toBeUndefined();
  });
});
