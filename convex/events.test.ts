import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date.
import "./lib/time";
import { monthlyRuleText, nextOccurrence, runsOnDate } from "./lib/recurrence";
import type { EventDetails, VenueInput } from "./model/events";
import { CREEK_VENUE as VENUE, createUser, newTest, type TestBackend, type TestUser } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { useFrozenClock } from "./testing/test.clock";

/** Friday 2026-11-20, 15:00 in New York. */
const NOW = Date.parse("2026-11-20T15:00:00-05:00");

useFrozenClock(NOW);

const MIC: EventDetails = {
  type: "open_mic",
  title: "  Monday Night Mic ",
  dayOfWeek: 1,
  startTimeLocal: "19:00",
  recurrence: "weekly",
  signupMethod: "in_person",
  costInfo: { type: "cover", coverAmount: 5 },
};

async function create(comic: TestUser, details: Partial<EventDetails> = {}, venue: Partial<VenueInput> = {}) {
  return await comic.asUser.mutation(api.events.create, {
    venue: { ...VENUE, ...venue },
    details: { ...MIC, ...details },
  });
}

async function item(t: TestBackend, id: Id<"sceneItems">) {
  return (await t.run(async (ctx) => ctx.db.get("sceneItems", id)))!;
}

describe("events.create", () => {
  test("creates an active item, adds it to the creator's schedule and awards venue_pioneer", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const { sceneItemId, title } = await create(comic);
    expect(title).toBe("Monday Night Mic");
    expect(await item(t, sceneItemId)).toMatchObject({
      title: "Monday Night Mic",
      venueName: "The Creek and the Cave",
      // City is set to the address when none is given.
      city: "10-93 Jackson Ave, Long Island City, NY 11101",
      googlePlaceId: "place-creek",
      type: "open_mic",
      dayOfWeek: 1,
      startTimeLocal: "19:00",
      listTimeLocal: "18:30",
      signupMethod: "in_person",
      costInfo: { type: "cover", coverAmount: 5 },
      performanceMinutes: 5,
      recurrence: "weekly",
      status: "active",
      createdBy: comic.userId,
      timeZone: "America/New_York",
    });
    // It is in the scene list for everyone.
    const list = await t.query(api.scene.listPage, {
      type: "all",
      day: null,
      search: "",
      paginationOpts: { numItems: 100, cursor: null },
    });
    expect(list.page.map((i) => i._id)).toContain(sceneItemId);
    const viewer = await comic.asUser.query(api.scene.viewerState, { sinceMs: NOW - 48 * 3600_000 });
    expect(viewer?.schedule.map((e) => e.sceneItemId)).toEqual([sceneItemId]);
    expect(await comic.asUser.query(api.stats.mine, {})).toMatchObject({ venuesAdded: 1 });
    expect((await comic.asUser.query(api.badges.mine, {})).map((b) => b.code)).toEqual(["venue_pioneer"]);
    // A second venue does not award it again.
    await create(comic, { dayOfWeek: 2 });
    expect((await comic.asUser.query(api.badges.mine, {})).map((b) => b.code)).toEqual(["venue_pioneer"]);
    expect(await comic.asUser.query(api.stats.mine, {})).toMatchObject({ venuesAdded: 2 });
  });

  test("the same creator cannot add the same venue, day and time twice", async () => {
    const t = newTest();
    const comic = await createUser(t);
    await create(comic);
    const message =
      "An event already exists at The Creek and the Cave on Mondays at 7:00 PM. Please choose a different day or time.";
    await expectAppError(create(comic, { title: "Another name" }), "DUPLICATE_EVENT", message);
    // Without a place id the venue is matched by name in any case.
    const t2 = newTest();
    const other = await createUser(t2);
    await create(other, {}, { googlePlaceId: undefined });
    await expectAppError(
      create(other, {}, { googlePlaceId: undefined, venueName: "the creek AND the cave " }),
      "DUPLICATE_EVENT",
    );
    // Another day or time is fine.
    await create(comic, { startTimeLocal: "21:30" });
    await create(comic, { dayOfWeek: 3 });
    expect(await comic.asUser.query(api.stats.mine, {})).toMatchObject({ venuesAdded: 3 });
  });

  test("another comedian may add the same slot", async () => {
    const t = newTest();
    const first = await createUser(t);
    const second = await createUser(t);
    const a = await create(first);
    const b = await create(second);
    expect(b.sceneItemId).not.toBe(a.sceneItemId);
  });

  test("payload rules: a show keeps its link and drops mic-only fields", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const { sceneItemId } = await create(comic, {
      type: "show",
      title: "",
      signupMethod: "online",
      signupLink: "https://example.com/signup",
      listTimeLocal: "18:00",
      showLink: "https://tickets.example.com/show",
      hostName: "  ",
      recurrence: "monthly",
      monthlyRule: "Monthly on the 15th",
      customRecurrenceDescription: "every 2 weeks",
    });
    const doc = await item(t, sceneItemId);
    expect(doc).toMatchObject({
      type: "show",
      title: "Show at The Creek and the Cave",
      showLink: "https://tickets.example.com/show",
      costInfo: null,
      performanceMinutes: 10,
      monthlyRule: "Monthly on the 15th",
    });
    for (const key of ["signupMethod", "signupLink", "listTimeLocal", "hostName", "customRecurrenceDescription"]) {
      expect(doc).not.toHaveProperty(key);
    }
  });

  test("payload rules: an online mic keeps its signup link and no list time", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const { sceneItemId } = await create(comic, {
      signupMethod: "online",
      signupLink: "https://example.com/signup",
      listTimeLocal: "18:00",
      showLink: "https://example.com/show",
      hostName: " Pat ",
      costInfo: { type: "combo", coverAmount: 7.5, minimumItems: 2 },
      performanceMinutes: 7,
    });
    const doc = await item(t, sceneItemId);
    expect(doc).toMatchObject({
      signupMethod: "online",
      signupLink: "https://example.com/signup",
      hostName: "Pat",
      costInfo: { type: "combo", coverAmount: 7.5, minimumItems: 2 },
      performanceMinutes: 7,
    });
    expect(doc).not.toHaveProperty("listTimeLocal");
    expect(doc).not.toHaveProperty("showLink");
  });

  test("a monthly item without a rule gets one from its first date", async () => {
    const t = newTest();
    const comic = await createUser(t);
    // 2026-12-01 is a Tuesday; the first Thursday on or after it is 2026-12-03.
    const { sceneItemId } = await create(comic, { recurrence: "monthly", dayOfWeek: 4, anchorDate: "2026-12-01" });
    expect((await item(t, sceneItemId)).monthlyRule).toBe(monthlyRuleText("2026-12-03", "weekday"));
    expect((await item(t, sceneItemId)).monthlyRule).toBe("first Thursday of every month");
  });

  test("a bi-weekly mic keeps its first date, which sets its cadence", async () => {
    const t = newTest();
    const comic = await createUser(t);
    // Tuesday 2026-12-01 is 11 days away; the creation date alone would put it on 11-24 and 12-08.
    const { sceneItemId } = await create(comic, {
      recurrence: "bi-weekly",
      dayOfWeek: 2,
      startTimeLocal: "20:00",
      anchorDate: "2026-12-01",
    });
    const doc = await item(t, sceneItemId);
    expect(doc.anchorDate).toBe("2026-12-01");
    expect(nextOccurrence(doc, NOW)).toBe(Date.parse("2026-12-01T20:00:00-05:00"));
    expect(runsOnDate(doc, "2026-12-08")).toBe(false);
    expect(runsOnDate(doc, "2026-12-15")).toBe(true);
    await expectAppError(create(comic, { recurrence: "bi-weekly", anchorDate: "2026-02-30" }), "INVALID_INPUT");
  });

  test("a monthly item without a rule or first date takes its week of the month from today", async () => {
    const t = newTest();
    const comic = await createUser(t);
    // From Friday 2026-11-20 the next Tuesday is 11-24, the fourth Tuesday of November.
    const { sceneItemId } = await create(comic, { recurrence: "monthly", dayOfWeek: 2 });
    expect((await item(t, sceneItemId)).monthlyRule).toBe("fourth Tuesday of every month");
  });

  test("a valid custom schedule is kept", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const { sceneItemId } = await create(comic, {
      recurrence: "custom",
      customRecurrenceDescription: " First Monday of each month ",
    });
    expect((await item(t, sceneItemId)).customRecurrenceDescription).toBe("First Monday of each month");
  });

  test("validation failures carry the form's messages and write nothing", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const customMessage = "Please use patterns like 'every 2 weeks', 'quarterly', or 'first Monday of each month'";
    const data = await expectAppError(
      create(comic, { recurrence: "custom", customRecurrenceDescription: "most Tuesdays" }),
      "INVALID_INPUT",
      customMessage,
    );
    expect(data.title).toBe("Invalid custom recurrence");
    await expectAppError(create(comic, { recurrence: "custom" }), "INVALID_INPUT", customMessage);
    await expectAppError(
      create(comic, { recurrence: "one-time" }),
      "INVALID_INPUT",
      "One-time shows are added to your log, not the scene list.",
    );
    await expectAppError(
      create(comic, { type: "show", showLink: "tickets dot com" }),
      "INVALID_INPUT",
      "Show link must be a valid URL (starting with http:// or https://)",
    );
    await expectAppError(
      create(comic, { signupMethod: "online", signupLink: "javascript:alert(1)" }),
      "INVALID_INPUT",
      "Signup link must be a valid URL (starting with http:// or https://)",
    );
    await expectAppError(create(comic, { dayOfWeek: 7 }), "INVALID_INPUT", "Please choose a day of the week");
    await expectAppError(
      create(comic, { startTimeLocal: "25:00" }),
      "INVALID_INPUT",
      "Please choose a valid start time",
    );
    await expectAppError(
      create(comic, { performanceMinutes: 61 }),
      "INVALID_INPUT",
      "Performance minutes must be a whole number from 1 to 60",
    );
    await expectAppError(
      create(comic, { costInfo: { type: "cover", coverAmount: -1 } }),
      "INVALID_INPUT",
      "Mic fee must be a number of at least 0",
    );
    await expectAppError(
      create(comic, { costInfo: { type: "minimum", minimumItems: 0 } }),
      "INVALID_INPUT",
      "Minimum items must be a whole number of at least 1",
    );
    await expectAppError(
      create(comic, { title: "x".repeat(121) }),
      "INVALID_INPUT",
      "Event name must be 120 characters or fewer",
    );
    await expectAppError(create(comic, {}, { venueName: "  " }), "INVALID_INPUT", "Please select a venue first.");
    await expectAppError(
      create(comic, { hostName: "h".repeat(121) }),
      "INVALID_INPUT",
      "Host name must be 120 characters or fewer",
    );
    await expectAppError(
      create(comic, {}, { address: "a".repeat(301) }),
      "INVALID_INPUT",
      "Address must be 300 characters or fewer",
    );
    await expectAppError(
      create(comic, {
        recurrence: "custom",
        customRecurrenceDescription: `every 2 weeks${" ".repeat(10)}${"x".repeat(200)}`,
      }),
      "INVALID_INPUT",
      "The schedule description must be 200 characters or fewer",
    );
    await expectAppError(
      create(comic, { type: "show", showLink: `https://example.com/${"p".repeat(2000)}` }),
      "INVALID_INPUT",
      "Show link must be 2000 characters or fewer",
    );
    await expectAppError(create(comic, {}, { timeZone: "Nowhere/City" }), "INVALID_INPUT");
    await expectAppError(create(comic, { recurrence: "monthly", monthlyRule: "sometimes" }), "INVALID_INPUT");
    const counts = await t.run(async (ctx) => ({
      items: (await ctx.db.query("sceneItems").collect()).length,
      schedule: (await ctx.db.query("scheduleEntries").collect()).length,
      badges: (await ctx.db.query("userBadges").collect()).length,
    }));
    expect(counts).toEqual({ items: 0, schedule: 0, badges: 0 });
  });

  test("refuses anonymous callers", async () => {
    const t = newTest();
    await expectAppError(t.mutation(api.events.create, { venue: VENUE, details: MIC }), "NOT_SIGNED_IN");
  });
});
