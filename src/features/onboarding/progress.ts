import type { Id } from "@convex/_generated/dataModel";
import {
  DEFAULT_WEEKLY_GOAL_MINUTES,
  GOAL_SLIDER_STEP,
  MAX_WEEKLY_GOAL_MINUTES,
  MIN_WEEKLY_GOAL_MINUTES,
} from "@convex/lib/goalRules";
import type { EventDetails, VenueInput } from "@convex/model/events";
import { storageKeys } from "@/lib/session";

export const TOTAL_STEPS = 10;
/**
 * The steps a comedian is shown: routes 4 (a listed mic's set length) and 5 (a
 * new mic's details) are two ways through one step, so no path skips a number.
 */
export const SHOWN_STEPS = TOTAL_STEPS - 1;

/** The number shown for a route's step (1 to 10): "Step n of 9". */
export function shownStep(step: number): number {
  return step <= 4 ? step : step - 1;
}
export const SET_MINUTES = { min: 1, max: 30, step: 1, default: 5 } as const;
export const GOAL_MINUTES = {
  min: MIN_WEEKLY_GOAL_MINUTES,
  max: MAX_WEEKLY_GOAL_MINUTES,
  step: GOAL_SLIDER_STEP,
  default: DEFAULT_WEEKLY_GOAL_MINUTES,
} as const;

/** A mic saved during onboarding: a favourited existing one, or one the comedian added. */
export type AddedVenue = {
  venue: VenueInput;
  /** The existing scene item chosen, or "new" for a mic created from the details form. */
  event: string;
  /** The payload of a new mic (kept so a failed save can be retried at completion). */
  details: EventDetails | null;
  sceneItemId: string | null;
  saveError?: string;
};

/** The answers kept in localStorage under `onboarding_progress`. */
export type OnboardingProgress = {
  /** Whose answers these are: another account in the same browser starts afresh. */
  userId: string | null;
  /** The furthest-visited step, 1 to 10. */
  step: number;
  venue: VenueInput | null;
  /** "existing" (matchedId says which) or "new"; null until chosen. */
  event: "existing" | "new" | null;
  matchedId: string | null;
  /** Title of the matched mic, for the details and success steps. */
  matchedTitle: string | null;
  setDetails: { minutes: number };
  /** The event details form as typed so far. */
  newVenueDetails: Record<string, unknown> | null;
  weeklyGoal: number;
  addedVenues: AddedVenue[];
  wantsAnother: boolean | null;
  /** What step 6 celebrates. */
  lastSaved: "favorite" | "venue" | null;
};

export const initialProgress = (userId: string | null = null): OnboardingProgress => ({
  userId,
  step: 1,
  venue: null,
  event: null,
  matchedId: null,
  matchedTitle: null,
  setDetails: { minutes: SET_MINUTES.default },
  newVenueDetails: null,
  weeklyGoal: GOAL_MINUTES.default,
  addedVenues: [],
  wantsAnother: null,
  lastSaved: null,
});

export type ProgressAction =
  | { type: "visit"; step: number }
  | { type: "selectVenue"; venue: VenueInput | null }
  | { type: "chooseEvent"; choice: { kind: "existing"; id: string; title: string } | { kind: "new" } }
  | { type: "setMinutes"; minutes: number }
  | { type: "setDraft"; draft: Record<string, unknown> }
  | { type: "saved"; kind: "favorite" | "venue"; entry: AddedVenue }
  | { type: "retried"; index: number; sceneItemId: string | null; saveError?: string }
  | { type: "wantsAnother"; yes: boolean }
  | { type: "setGoal"; minutes: number }
  | { type: "reset"; userId: string | null };

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(n)));
}

/** Pure transitions of the onboarding answers. */
export function progressReducer(state: OnboardingProgress, action: ProgressAction): OnboardingProgress {
  switch (action.type) {
    case "visit":
      return { ...state, step: clamp(action.step, 1, TOTAL_STEPS) };
    case "selectVenue": {
      const same =
        action.venue !== null &&
        state.venue !== null &&
        action.venue.venueName === state.venue.venueName &&
        action.venue.googlePlaceId === state.venue.googlePlaceId;
      // Another venue forgets the event and the details typed for the old one.
      return same
        ? { ...state, venue: action.venue }
        : { ...state, venue: action.venue, event: null, matchedId: null, matchedTitle: null, newVenueDetails: null };
    }
    case "chooseEvent":
      return action.choice.kind === "existing"
        ? { ...state, event: "existing", matchedId: action.choice.id, matchedTitle: action.choice.title }
        : { ...state, event: "new", matchedId: null, matchedTitle: null };
    case "setMinutes":
      return { ...state, setDetails: { minutes: clamp(action.minutes, SET_MINUTES.min, SET_MINUTES.max) } };
    case "setDraft":
      return { ...state, newVenueDetails: action.draft };
    case "saved":
      return { ...state, addedVenues: [...state.addedVenues, action.entry], lastSaved: action.kind };
    case "retried":
      return {
        ...state,
        addedVenues: state.addedVenues.map((entry, i) => {
          if (i !== action.index) return entry;
          const { saveError: _old, ...rest } = entry;
          return action.saveError
            ? { ...rest, sceneItemId: action.sceneItemId, saveError: action.saveError }
            : { ...rest, sceneItemId: action.sceneItemId };
        }),
      };
    case "wantsAnother":
      // Yes starts the venue step again with a clean selection.
      return action.yes
        ? {
            ...state,
            wantsAnother: true,
            venue: null,
            event: null,
            matchedId: null,
            matchedTitle: null,
            newVenueDetails: null,
            setDetails: { minutes: SET_MINUTES.default },
          }
        : { ...state, wantsAnother: false };
    case "setGoal":
      return { ...state, weeklyGoal: clamp(action.minutes, GOAL_MINUTES.min, GOAL_MINUTES.max) };
    case "reset":
      return initialProgress(action.userId);
  }
}

/** Entries whose save failed and that still have what a retry needs. */
export function pendingSaves(
  state: OnboardingProgress,
): Array<{ index: number; entry: AddedVenue & { details: EventDetails } }> {
  return state.addedVenues.flatMap((entry, index) =>
    entry.saveError !== undefined && entry.sceneItemId === null && entry.details !== null
      ? [{ index, entry: { ...entry, details: entry.details } }]
      : [],
  );
}

/**
 * Retries every failed save in order (at completion), reporting each outcome
 * through `dispatch`. Resolves true when nothing is left unsaved.
 */
export async function retryPendingSaves(
  state: OnboardingProgress,
  create: (args: { venue: VenueInput; details: EventDetails }) => Promise<{ sceneItemId: string }>,
  dispatch: (action: ProgressAction) => void,
  describe: (err: unknown) => string,
): Promise<boolean> {
  let allSaved = true;
  for (const { index, entry } of pendingSaves(state)) {
    try {
      const { sceneItemId } = await create({ venue: entry.venue, details: entry.details });
      dispatch({ type: "retried", index, sceneItemId });
    } catch (err) {
      allSaved = false;
      dispatch({ type: "retried", index, sceneItemId: null, saveError: describe(err) });
    }
  }
  return allSaved;
}

/** The existing mic chosen on the event step (its id as kept in storage), or null. */
export function chosenSceneItem(state: OnboardingProgress): Id<"sceneItems"> | null {
  return state.event === "existing" && state.matchedId ? (state.matchedId as Id<"sceneItems">) : null;
}

/** Whether an existing mic was already logged and favourited in this onboarding (Back then Next must not log it twice). */
export function alreadyFavorited(state: OnboardingProgress, sceneItemId: string): boolean {
  return state.addedVenues.some((entry) => entry.event === sceneItemId && entry.sceneItemId === sceneItemId);
}

/** Parses what localStorage holds; anything unreadable or from another account is a fresh start. */
export function parseProgress(raw: string | null, userId: string | null): OnboardingProgress {
  if (!raw) return initialProgress(userId);
  try {
    const parsed = JSON.parse(raw) as Partial<OnboardingProgress> | null;
    if (!parsed || typeof parsed !== "object" || typeof parsed.step !== "number") return initialProgress(userId);
    if (userId !== null && parsed.userId !== userId) return initialProgress(userId);
    const base = initialProgress(userId);
    return {
      ...base,
      ...parsed,
      userId,
      step: clamp(parsed.step, 1, TOTAL_STEPS),
      setDetails: {
        minutes: clamp(parsed.setDetails?.minutes ?? SET_MINUTES.default, SET_MINUTES.min, SET_MINUTES.max),
      },
      weeklyGoal: clamp(parsed.weeklyGoal ?? GOAL_MINUTES.default, GOAL_MINUTES.min, GOAL_MINUTES.max),
      addedVenues: Array.isArray(parsed.addedVenues) ? parsed.addedVenues : [],
    };
  } catch {
    return initialProgress(userId);
  }
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function loadProgress(userId: string | null): OnboardingProgress {
  return parseProgress(storage()?.getItem(storageKeys.onboardingProgress) ?? null, userId);
}

export function saveProgress(state: OnboardingProgress): void {
  try {
    storage()?.setItem(storageKeys.onboardingProgress, JSON.stringify(state));
  } catch {
    // A full or blocked storage only costs the resume-after-reload.
  }
}

export function clearProgress(): void {
  storage()?.removeItem(storageKeys.onboardingProgress);
}

/** The goal slider's encouragement: five bands, at most 5, 15, 30, 60 minutes, and above. */
export function goalLabel(minutes: number): string {
  if (minutes <= 5) return "Every minute counts. A great place to start!";
  if (minutes <= 15) return "A steady habit: a couple of mics a week.";
  if (minutes <= 30) return "Serious stage time. You're building an act!";
  if (minutes <= 60) return "Road warrior: up most nights of the week.";
  return "Comedy machine! You practically live on stage.";
}

/**
 * The goal slider runs 0 to 100 in steps of 5 so that round goals (15, 25, 50)
 * are reachable; its bottom notch means the minimum goal of 1 minute.
 */
export function goalFromSlider(value: number): number {
  return clamp(value, GOAL_MINUTES.min, GOAL_MINUTES.max);
}
export function sliderFromGoal(goal: number): number {
  return goal <= GOAL_MINUTES.min ? 0 : goal;
}

/**
 * Step 5's Next is disabled, without a message, while the trimmed
 * event name is empty or a custom frequency has no description.
 */
export function detailsIncomplete(values: {
  title?: unknown;
  recurrence?: unknown;
  customRecurrenceDescription?: unknown;
}): boolean {
  const blank = (text: unknown) => String(text ?? "").trim() === "";
  return blank(values.title) || (values.recurrence === "custom" && blank(values.customRecurrenceDescription));
}
