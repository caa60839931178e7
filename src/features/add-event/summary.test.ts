import { describe, expect, it } from "vitest";
import { eventSummary } from "./summary";

const base = { type: "open_mic", title: "Mic", dayOfWeek: 2, startTimeLocal: "19:00" } as const;

describe("add-event summary", () => {
  it("names the day, the 12-hour time and the frequency", () => {
    expect(eventSummary({ ...base, recurrence: "weekly" })).toEqual({
      day: "Tuesday",
      time: "7:00 PM",
      frequency: "Weekly",
    });
    expect(eventSummary({ ...base, recurrence: "bi-weekly" }).frequency).toBe("Bi-weekly");
  });

  it("spells out monthly and custom schedules", () => {
    expect(eventSummary({ ...base, recurrence: "monthly", monthlyRule: "Monthly on the 15th" }).frequency).toBe(
      "Monthly on the 15th",
    );
    expect(
      eventSummary({ ...base, recurrence: "custom", customRecurrenceDescription: "every 3 weeks" }).frequency,
    ).toBe("every 3 weeks");
  });
});
