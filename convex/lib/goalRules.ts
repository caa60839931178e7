/** The weekly goal's bounds and words: read by the server, the forms, their hints and the slider. */

/** The goal every new comedian starts with (and onboarding's Skip). */
export const DEFAULT_WEEKLY_GOAL_MINUTES = 15;
export const MIN_WEEKLY_GOAL_MINUTES = 1;
/** The dashboard dialog and the onboarding slider go to 100 minutes; the profile form to 1,000. */
export const MAX_WEEKLY_GOAL_MINUTES = 100;
export const PROFILE_MAX_WEEKLY_GOAL_MINUTES = 1000;
/** The onboarding slider moves in steps of 5 so round goals are one drag away. */
export const GOAL_SLIDER_STEP = 5;

export const INVALID_GOAL_TITLE = "Invalid goal";
export const INVALID_GOAL_MESSAGE = `Please enter a goal between ${MIN_WEEKLY_GOAL_MINUTES} and ${MAX_WEEKLY_GOAL_MINUTES} minutes.`;
export const GOAL_HINT = `A whole number from ${MIN_WEEKLY_GOAL_MINUTES} to ${MAX_WEEKLY_GOAL_MINUTES}.`;
export const PROFILE_GOAL_HINT = `A whole number from ${MIN_WEEKLY_GOAL_MINUTES} to ${PROFILE_MAX_WEEKLY_GOAL_MINUTES}.`;
/** The profile form's field message; the server says the same with the unit. */
export const PROFILE_GOAL_MESSAGE = `Enter a whole number from ${MIN_WEEKLY_GOAL_MINUTES} to ${PROFILE_MAX_WEEKLY_GOAL_MINUTES}.`;
export const PROFILE_GOAL_SERVER_MESSAGE = `Weekly goal must be a whole number from ${MIN_WEEKLY_GOAL_MINUTES} to ${PROFILE_MAX_WEEKLY_GOAL_MINUTES} minutes.`;

/** A whole number of minutes from 1 to `max` (the dashboard's 100 unless the profile form's 1,000). */
export function isWeeklyGoal(minutes: number, max: number = MAX_WEEKLY_GOAL_MINUTES): boolean {
  return Number.isInteger(minutes) && minutes >= MIN_WEEKLY_GOAL_MINUTES && minutes <= max;
}
