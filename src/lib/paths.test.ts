import { describe, expect, test } from "vitest";
import { onboardingStepNumber, onboardingSteps, paths } from "./paths";

describe("paths", () => {
  test("onboarding has 10 steps numbered from welcome to complete", () => {
    expect(onboardingSteps).toHaveLength(10);
    expect(onboardingStepNumber("welcome")).toBe(1);
    expect(onboardingStepNumber("goal-setting")).toBe(9);
    expect(onboardingStepNumber("complete")).toBe(10);
    expect(paths.onboarding("checkin-info")).toBe("/onboarding/checkin-info");
  });

  test("builders escape what they are given", () => {
    expect(paths.event("k57 abc/1")).toBe("/event/k57%20abc%2F1");
    expect(paths.scheduleWeek("2026-11-23")).toBe("/schedule?week=2026-11-23");
  });

  test("wizard steps sit under their wizard", () => {
    expect(paths.logSetStep("venue-details")).toBe(`${paths.logSet}/venue-details`);
    expect(paths.addEventStep("success")).toBe(`${paths.addEvent}/success`);
  });
});
