import { describe, expect, it } from "vitest";
import { restoreDraft } from "./draft";
import { defaultEventFormValues } from "./schema";

const defaults = defaultEventFormValues({ venueName: "The Cellar", startTime: "20:00", today: "2026-03-02" });

describe("restoreDraft", () => {
  it("starts from the defaults without a draft", () => {
    expect(restoreDraft(defaults, undefined)).toEqual(defaults);
  });

  it("keeps what the comedian typed, number inputs as typed", () => {
    const typed = {
      type: "show",
      title: "   ",
      recurrence: "custom",
      customRecurrenceDescription: "every third Sunday",
      coverAmount: "7",
      dayOfWeek: 5,
      listTimeEdited: true,
    };
    expect(restoreDraft(defaults, typed)).toEqual({ ...defaults, ...typed });
  });

  it("drops values of the wrong kind, unknown options and unknown fields", () => {
    const restored = restoreDraft(defaults, {
      type: "party",
      title: 42,
      recurrence: null,
      listTimeEdited: "yes",
      performanceMinutes: { minutes: 5 },
      venueId: "x",
    });
    expect(restored).toEqual(defaults);
  });
});
