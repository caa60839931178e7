import { describe, expect, it } from "vitest";
import { INVALID_CUSTOM_RECURRENCE } from "@convex/lib/recurrence";
import {
  buildEventDetails,
  defaultEventFormValues,
  defaultTitle,
  eventFormSchema,
  followListTime,
  INVALID_URL_MESSAGE,
  nextDateOnDay,
  normalizeUrl,
  PERFORMANCE_MINUTES_MESSAGE,
  typeDefaults,
  type EventFormValues,
} from "./schema";

// 2026-11-21 is a Saturday.
const TODAY = "2026-11-21";

function values(overrides: Partial<EventFormValues> = {}): EventFormValues {
  return { ...defaultEventFormValues({ venueName: "The Stand", startTime: "20:00", today: TODAY }), ...overrides };
}

function errorsOf(input: Record<string, unknown>): Record<string, string> {
  const result = eventFormSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
}

describe("defaults", () => {
  it("starts as a weekly open mic today with list time 30 minutes before the start", () => {
    const v = values();
    expect(v).toMatchObject({
      type: "open_mic",
      title: "Open Mic at The Stand",
      dayOfWeek: 6,
      startTimeLocal: "20:00",
      listTimeLocal: "19:30",
      recurrence: "weekly",
      performanceMinutes: 5,
      costType: "free",
      coverAmount: 5,
      minimumItems: 1,
    });
  });

  it.each([
    ["open_mic", { recurrence: "weekly", performanceMinutes: 5 }],
    ["show", { recurrence: "monthly", performanceMinutes: 10 }],
  ] as const)("type %s resets to %o", (type, expected) => {
    expect(typeDefaults(type)).toEqual(expected);
  });

  it("names the event after the type and venue", () => {
    expect(defaultTitle("show", "Joe's Pub")).toBe("Show at Joe's Pub");
  });
});

describe("list time follows the start time until edited", () => {
  it.each([
    ["20:00", "19:30"],
    ["00:15", "23:45"],
    ["00:00", "23:30"],
  ])("start %s gives list %s", (start, list) => {
    expect(followListTime(start, "19:30", false)).toBe(list);
  });

  it("keeps a list time edited by hand", () => {
    expect(followListTime("21:00", "19:00", true)).toBe("19:00");
  });
});

describe("nextDateOnDay", () => {
  it("is today for today's weekday and the next such day otherwise", () => {
    expect(nextDateOnDay(TODAY, 6)).toBe("2026-11-21");
    expect(nextDateOnDay(TODAY, 0)).toBe("2026-11-22");
    expect(nextDateOnDay(TODAY, 5)).toBe("2026-11-27");
  });
});

describe("validation", () => {
  it("accepts the defaults", () => {
    expect(eventFormSchema.safeParse(values()).success).toBe(true);
  });

  it("requires a name", () => {
    expect(errorsOf({ ...values(), title: "   " })).toHaveProperty("title", "Please enter an event name");
  });

  it("rejects a custom schedule it cannot read, with the spec's hint", () => {
    const errors = errorsOf({ ...values(), recurrence: "custom", customRecurrenceDescription: "whenever" });
    expect(errors.customRecurrenceDescription).toContain(INVALID_CUSTOM_RECURRENCE.title);
    expect(errors.customRecurrenceDescription).toContain(INVALID_CUSTOM_RECURRENCE.description);
  });

  it.each(["every 3 weeks", "first Monday of each month", "every quarter", "every other Tuesday"])(
    "accepts the example %s",
    (text) => {
      expect(
        eventFormSchema.safeParse({ ...values(), recurrence: "custom", customRecurrenceDescription: text }).success,
      ).toBe(true);
    },
  );

  it("turns a non-number fee into 0 and a non-number or 0 minimum into 1", () => {
    const parsed = eventFormSchema.parse({ ...values(), costType: "combo", coverAmount: Number.NaN, minimumItems: 0 });
    expect(parsed.coverAmount).toBe(0);
    expect(parsed.minimumItems).toBe(1);
    expect(eventFormSchema.parse({ ...values(), minimumItems: "" }).minimumItems).toBe(1);
  });

  it("refuses a negative fee", () => {
    expect(errorsOf({ ...values(), coverAmount: -1 })).toHaveProperty("coverAmount");
  });

  it("uses 5 minutes for an empty set length and refuses one above 60", () => {
    expect(eventFormSchema.parse({ ...values(), performanceMinutes: Number.NaN }).performanceMinutes).toBe(5);
    expect(errorsOf({ ...values(), performanceMinutes: 61 })).toHaveProperty(
      "performanceMinutes",
      PERFORMANCE_MINUTES_MESSAGE,
    );
    expect(errorsOf({ ...values(), performanceMinutes: 0 })).toHaveProperty(
      "performanceMinutes",
      PERFORMANCE_MINUTES_MESSAGE,
    );
  });

  it("checks links only where they apply", () => {
    expect(errorsOf({ ...values(), type: "show", showLink: "not a link" })).toHaveProperty(
      "showLink",
      INVALID_URL_MESSAGE,
    );
    expect(errorsOf({ ...values(), signupMethod: "online", signupLink: "nope" })).toHaveProperty(
      "signupLink",
      INVALID_URL_MESSAGE,
    );
    // An in-person mic ignores a leftover online link.
    expect(eventFormSchema.safeParse({ ...values(), signupMethod: "in_person", signupLink: "nope" }).success).toBe(
      true,
    );
  });

  it("offers one-time for shows only", () => {
    expect(errorsOf({ ...values(), recurrence: "one-time" })).toHaveProperty("recurrence");
    expect(eventFormSchema.safeParse({ ...values(), type: "show", recurrence: "one-time" }).success).toBe(true);
  });
});

describe("payload rules", () => {
  it("sends an in-person mic with list time and cost, nothing for shows", () => {
    const details = buildEventDetails(eventFormSchema.parse(values({ costType: "cover", coverAmount: 7.5 })), TODAY);
    expect(details).toEqual({
      type: "open_mic",
      title: "Open Mic at The Stand",
      dayOfWeek: 6,
      startTimeLocal: "20:00",
      recurrence: "weekly",
      performanceMinutes: 5,
      anchorDate: "2026-11-21",
      signupMethod: "in_person",
      listTimeLocal: "19:30",
      costInfo: { type: "cover", coverAmount: 7.5 },
    });
  });

  it("sends the sign-up link only for an online mic that has one", () => {
    const online = buildEventDetails(values({ signupMethod: "online", signupLink: "mic.example.com/list" }), TODAY);
    expect(online.signupLink).toBe("https://mic.example.com/list");
    expect(online.listTimeLocal).toBeUndefined();
    expect(buildEventDetails(values({ signupMethod: "online", signupLink: "" }), TODAY)).not.toHaveProperty(
      "signupLink",
    );
  });

  it("sends a show without sign-up, list time or cost, and its link only when given", () => {
    const show = buildEventDetails(
      values({ type: "show", recurrence: "monthly", showLink: "https://tix.example.com", signupLink: "x" }),
      TODAY,
    );
    expect(show).not.toHaveProperty("signupMethod");
    expect(show).not.toHaveProperty("listTimeLocal");
    expect(show).not.toHaveProperty("costInfo");
    expect(show.showLink).toBe("https://tix.example.com");
    expect(show.monthlyRule).toBe("third Saturday of every month");
    expect(buildEventDetails(values({ type: "show", showLink: "" }), TODAY)).not.toHaveProperty("showLink");
  });

  it("sends the monthly rule of the chosen date", () => {
    const byDate = buildEventDetails(values({ recurrence: "monthly", monthlyMode: "date", dayOfWeek: 0 }), TODAY);
    expect(byDate.monthlyRule).toBe("Monthly on the 22nd");
    expect(byDate.anchorDate).toBe("2026-11-22");
  });

  it("sends the custom description only for a custom schedule, and the host only when given", () => {
    const custom = buildEventDetails(
      values({ recurrence: "custom", customRecurrenceDescription: " every 3 weeks ", hostName: " Sam " }),
      TODAY,
    );
    expect(custom.customRecurrenceDescription).toBe("every 3 weeks");
    expect(custom.hostName).toBe("Sam");
    const weekly = buildEventDetails(values({ customRecurrenceDescription: "every 3 weeks", hostName: "  " }), TODAY);
    expect(weekly).not.toHaveProperty("customRecurrenceDescription");
    expect(weekly).not.toHaveProperty("hostName");
    expect(weekly).not.toHaveProperty("monthlyRule");
  });

  it("keeps only the cost fields of the chosen option", () => {
    expect(buildEventDetails(values({ costType: "free" }), TODAY).costInfo).toEqual({ type: "free" });
    expect(buildEventDetails(values({ costType: "minimum", minimumItems: 2 }), TODAY).costInfo).toEqual({
      type: "minimum",
      minimumItems: 2,
    });
    expect(buildEventDetails(values({ costType: "combo", coverAmount: 5, minimumItems: 1 }), TODAY).costInfo).toEqual({
      type: "combo",
      coverAmount: 5,
      minimumItems: 1,
    });
  });

  it("normalizes bare hosts to https", () => {
    expect(normalizeUrl("http://a.com")).toBe("http://a.com");
    expect(normalizeUrl(" a.com ")).toBe("https://a.com");
    expect(normalizeUrl("")).toBe("");
  });
});
