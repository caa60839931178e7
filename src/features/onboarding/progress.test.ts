import { describe, expect, test } from "vitest";
import {
  alreadyFavorited,
  goalFromSlider,
  goalLabel,
  detailsIncomplete,
  initialProgress,
  parseProgress,
  pendingSaves,
  progressReducer,
  retryPendingSaves,
  SHOWN_STEPS,
  shownStep,
  sliderFromGoal,
  type OnboardingProgress,
} from "./progress";

const venue = { venueName: "The Laugh Factory", city: "Chicago" };
const details = {
  type: "open_mic" as const,
  title: "Monday Mic",
  dayOfWeek: 1,
  startTimeLocal: "20:00",
  recurrence: "weekly" as const,
};

function run(...actions: Parameters<typeof progressReducer>[1][]): OnboardingProgress {
  return actions.reduce(progressReducer, initialProgress("user1"));
}

describe("onboarding progress reducer", () => {
  test("starts at step 1 with a 5-minute set and a 15-minute goal", () => {
    const s = initialProgress("user1");
    expect(s).toMatchObject({ step: 1, setDetails: { minutes: 5 }, weeklyGoal: 15, addedVenues: [], venue: null });
  });

  test("visiting a step records it, within 1 to 10", () => {
    expect(run({ type: "visit", step: 4 }).step).toBe(4);
    expect(run({ type: "visit", step: 14 }).step).toBe(10);
    expect(run({ type: "visit", step: 0 }).step).toBe(1);
  });

  test("another venue forgets the chosen event and typed details; the same venue keeps them", () => {
    const chosen = run(
      { type: "selectVenue", venue },
      { type: "chooseEvent", choice: { kind: "existing", id: "item1", title: "Open Mic" } },
      { type: "setDraft", draft: { title: "x" } },
    );
    expect(chosen).toMatchObject({ event: "existing", matchedId: "item1", matchedTitle: "Open Mic" });
    const same = progressReducer(chosen, { type: "selectVenue", venue: { ...venue } });
    expect(same.matchedId).toBe("item1");
    const other = progressReducer(chosen, { type: "selectVenue", venue: { venueName: "Zanies" } });
    expect(other).toMatchObject({ event: null, matchedId: null, matchedTitle: null, newVenueDetails: null });
  });

  test("choosing a new event clears the match", () => {
    const s = run(
      { type: "chooseEvent", choice: { kind: "existing", id: "item1", title: "Open Mic" } },
      { type: "chooseEvent", choice: { kind: "new" } },
    );
    expect(s).toMatchObject({ event: "new", matchedId: null });
  });

  test("set minutes stay within 1 to 30 and the goal within 1 to 100", () => {
    expect(run({ type: "setMinutes", minutes: 45 }).setDetails.minutes).toBe(30);
    expect(run({ type: "setMinutes", minutes: 0 }).setDetails.minutes).toBe(1);
    expect(run({ type: "setGoal", minutes: 250 }).weeklyGoal).toBe(100);
    expect(run({ type: "setGoal", minutes: 0 }).weeklyGoal).toBe(1);
  });

  test("a failed save is kept with its error, offered for retry, and cleared by a successful retry", () => {
    const s = run({
      type: "saved",
      kind: "venue",
      entry: { venue, event: "new", details, sceneItemId: null, saveError: "offline" },
    });
    expect(s.lastSaved).toBe("venue");
    expect(pendingSaves(s)).toEqual([{ index: 0, entry: s.addedVenues[0] }]);
    const retried = progressReducer(s, { type: "retried", index: 0, sceneItemId: "item9" });
    expect(retried.addedVenues[0]).toEqual({ venue, event: "new", details, sceneItemId: "item9" });
    expect(pendingSaves(retried)).toEqual([]);
    const failedAgain = progressReducer(s, {
      type: "retried",
      index: 0,
      sceneItemId: null,
      saveError: "still offline",
    });
    expect(failedAgain.addedVenues[0]?.saveError).toBe("still offline");
    expect(pendingSaves(failedAgain)).toHaveLength(1);
  });

  test("a favourited mic is recognised so Back then Next does not log it twice", () => {
    const s = run({
      type: "saved",
      kind: "favorite",
      entry: { venue, event: "item1", details: null, sceneItemId: "item1" },
    });
    expect(alreadyFavorited(s, "item1")).toBe(true);
    expect(alreadyFavorited(s, "item2")).toBe(false);
    expect(pendingSaves(s)).toEqual([]);
  });

  test("wanting another venue starts again with a clean selection but keeps what was saved", () => {
    const s = run(
      { type: "selectVenue", venue },
      { type: "chooseEvent", choice: { kind: "existing", id: "item1", title: "Open Mic" } },
      { type: "setMinutes", minutes: 12 },
      { type: "saved", kind: "favorite", entry: { venue, event: "item1", details: null, sceneItemId: "item1" } },
      { type: "setGoal", minutes: 40 },
      { type: "wantsAnother", yes: true },
    );
    expect(s).toMatchObject({
      wantsAnother: true,
      venue: null,
      event: null,
      matchedId: null,
      setDetails: { minutes: 5 },
      weeklyGoal: 40,
    });
    expect(s.addedVenues).toHaveLength(1);
    const no = progressReducer(s, { type: "wantsAnother", yes: false });
    expect(no.wantsAnother).toBe(false);
  });

  test("reset starts over for the given account", () => {
    const s = progressReducer(run({ type: "visit", step: 7 }), { type: "reset", userId: "user2" });
    expect(s).toEqual(initialProgress("user2"));
  });
});

describe("parseProgress (localStorage)", () => {
  test("round-trips what was saved for the same account", () => {
    const s = run({ type: "visit", step: 3 }, { type: "selectVenue", venue });
    expect(parseProgress(JSON.stringify(s), "user1")).toEqual(s);
  });

  test("another account's, broken or empty storage is a fresh start", () => {
    const s = run({ type: "visit", step: 3 });
    expect(parseProgress(JSON.stringify(s), "user2")).toEqual(initialProgress("user2"));
    expect(parseProgress("{not json", "user1")).toEqual(initialProgress("user1"));
    expect(parseProgress(null, "user1")).toEqual(initialProgress("user1"));
    expect(parseProgress("null", "user1")).toEqual(initialProgress("user1"));
  });

  test("out-of-range values are brought back into range", () => {
    const raw = JSON.stringify({
      ...initialProgress("user1"),
      step: 99,
      weeklyGoal: 5000,
      setDetails: { minutes: -3 },
      addedVenues: "x",
    });
    expect(parseProgress(raw, "user1")).toMatchObject({
      step: 10,
      weeklyGoal: 100,
      setDetails: { minutes: 1 },
      addedVenues: [],
    });
  });
});

describe("weekly goal slider", () => {
  test.each([
    [1, "Every minute counts. A great place to start!"],
    [5, "Every minute counts. A great place to start!"],
    [6, "A steady habit: a couple of mics a week."],
    [15, "A steady habit: a couple of mics a week."],
    [30, "Serious stage time. You're building an act!"],
    [60, "Road warrior: up most nights of the week."],
    [61, "Comedy machine! You practically live on stage."],
  ])("%i minutes reads %s", (minutes, label) => {
    expect(goalLabel(minutes)).toBe(label);
  });

  test("the bottom notch is the minimum goal of 1 minute; other notches are the goal", () => {
    expect(goalFromSlider(0)).toBe(1);
    expect(goalFromSlider(25)).toBe(25);
    expect(sliderFromGoal(1)).toBe(0);
    expect(sliderFromGoal(15)).toBe(15);
  });
});

describe("retryPendingSaves (completion)", () => {
  test("retries only failed saves, records each outcome and says whether all were saved", async () => {
    let state = run(
      { type: "saved", kind: "favorite", entry: { venue, event: "item1", details: null, sceneItemId: "item1" } },
      {
        type: "saved",
        kind: "venue",
        entry: { venue, event: "new", details, sceneItemId: null, saveError: "offline" },
      },
      {
        type: "saved",
        kind: "venue",
        entry: { venue: { venueName: "Zanies" }, event: "new", details, sceneItemId: null, saveError: "offline" },
      },
    );
    const calls: string[] = [];
    const create = async ({ venue: v }: { venue: { venueName: string } }) => {
      calls.push(v.venueName);
      if (v.venueName === "Zanies") throw new Error("server down");
      return { sceneItemId: "item7" };
    };
    const dispatch = (action: Parameters<typeof progressReducer>[1]) => {
      state = progressReducer(state, action);
    };
    const allSaved = await retryPendingSaves(state, create, dispatch, (err) => (err as Error).message);
    expect(allSaved).toBe(false);
    expect(calls).toEqual(["The Laugh Factory", "Zanies"]);
    expect(state.addedVenues[1]).toEqual({ venue, event: "new", details, sceneItemId: "item7" });
    expect(state.addedVenues[2]).toMatchObject({ sceneItemId: null, saveError: "server down" });
    expect(await retryPendingSaves(run(), create, dispatch, String)).toBe(true);
  });
});

describe("step 5's Next", () => {
  test.each([
    [{ title: "Monday Mic", recurrence: "weekly" }, false],
    [{ title: "", recurrence: "weekly" }, true],
    [{ title: "   ", recurrence: "weekly" }, true],
    [{ recurrence: "weekly" }, true],
    [{ title: "Monday Mic", recurrence: "custom", customRecurrenceDescription: "" }, true],
    [{ title: "Monday Mic", recurrence: "custom", customRecurrenceDescription: "  " }, true],
    [{ title: "Monday Mic", recurrence: "custom" }, true],
    [{ title: "Monday Mic", recurrence: "custom", customRecurrenceDescription: "every 3 weeks" }, false],
    [{ title: "Monday Mic", recurrence: "monthly", customRecurrenceDescription: "" }, false],
  ] as const)("%j: disabled %s", (values, disabled) => {
    expect(detailsIncomplete(values)).toBe(disabled);
  });
});

describe("the step counter", () => {
  test("counts 1 to 9 on both paths, never skipping a number", () => {
    const listedMic = ["welcome", "venue", "event", "details", "success", "checkin", "another", "goal", "complete"];
    const listedSteps = [1, 2, 3, 4, 6, 7, 8, 9, 10];
    const newMicSteps = [1, 2, 3, 5, 6, 7, 8, 9, 10];
    expect(listedSteps.map(shownStep)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(newMicSteps.map(shownStep)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(listedMic).toHaveLength(SHOWN_STEPS);
  });
});
