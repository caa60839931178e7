import { z } from "zod";
import { isAllowedPhotoType } from "@convex/lib/photo";
import { MIN_WEEKLY_GOAL_MINUTES, PROFILE_GOAL_MESSAGE, PROFILE_MAX_WEEKLY_GOAL_MINUTES } from "@convex/lib/goalRules";
import {
  MAX_DEFAULT_CITY_LENGTH,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_PHOTO_BYTES,
  NOT_AN_IMAGE_MESSAGE,
  PHOTO_TOO_LARGE_MESSAGE,
} from "@convex/lib/profileRules";
import { stageNameField } from "@/lib/stageNameSchema";
import { withoutControlCharacters } from "@/lib/textSchema";

export const MAX_DISPLAY_NAME = MAX_DISPLAY_NAME_LENGTH;
export const MAX_DEFAULT_CITY = MAX_DEFAULT_CITY_LENGTH;
export { MAX_PHOTO_BYTES };
export { PROFILE_GOAL_HINT } from "@convex/lib/goalRules";

/** The profile form; mirrors api.profiles.update. */
export const profileSchema = z.object({
  // The name hosts call the comedian up by: never the default "Comedian".
  displayName: stageNameField("Display name", "Display name is required."),
  weeklyGoalMinutes: z
    .number({ error: PROFILE_GOAL_MESSAGE })
    .int({ error: PROFILE_GOAL_MESSAGE })
    .min(MIN_WEEKLY_GOAL_MINUTES, { error: PROFILE_GOAL_MESSAGE })
    .max(PROFILE_MAX_WEEKLY_GOAL_MINUTES, { error: PROFILE_GOAL_MESSAGE }),
  defaultCity: withoutControlCharacters(
    z
      .string()
      .trim()
      .max(MAX_DEFAULT_CITY, { error: `Default city must be ${MAX_DEFAULT_CITY} characters or fewer.` }),
    "Default city",
  ),
});

export type ProfileValues = z.output<typeof profileSchema>;

/** Why a chosen file cannot be a profile photo (the spec's wording), or null when it can. */
export function photoProblem(file: Pick<File, "type" | "size">): string | null {
  if (!isAllowedPhotoType(file.type)) return NOT_AN_IMAGE_MESSAGE;
  if (file.size >= MAX_PHOTO_BYTES) return PHOTO_TOO_LARGE_MESSAGE;
  return null;
}
