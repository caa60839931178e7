import { describe, expect, it } from "vitest";
import { welcomeHeading } from "./welcome";

describe("the dashboard's greeting", () => {
  const signedUp = Date.parse("2026-11-28T14:00:00Z");
  it("says Welcome with the comedian's name on the day they signed up, Welcome back after", () => {
    expect(welcomeHeading("Robin", signedUp, signedUp + 5 * 60_000)).toBe("Welcome, Robin!");
    expect(welcomeHeading("Robin", signedUp, signedUp + 23 * 60 * 60_000)).toBe("Welcome, Robin!");
    expect(welcomeHeading("Robin", signedUp, signedUp + 25 * 60 * 60_000)).toBe("Welcome back, Robin!");
  });

  it("welcomes to StageTime when there is no name", () => {
    expect(welcomeHeading(null, signedUp, signedUp)).toBe("Welcome to StageTime");
  });
});
