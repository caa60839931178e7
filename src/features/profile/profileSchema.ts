import { z } from "zod";
import { isAllowedPhotoType } from "../../../convex/lib/photo";
import { MAX_DEFAULT_CITY_LENGTH, MAX_DISPLAY_NAME_LENGTH } from "../../../convex/lib/profileRules";
import { stageNameField } from "@/lib/stageNameSchema";
import { withoutControlCharacters } from "@/lib/textSchema";

export const MIN_PROFILE_GOAL = 1;
export const MAX_PROFILE_GOAL = 1000;
export const MAX_DISPLAY_NAME = MAX_DISPLAY_NAME_LENGTH;
export const MAX_DEFAULT_CITY = MAX_DEFAULT_CITY_LENGTH;
/** Photos must be smaller than this (5 MB). */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
export const NOT_AN_IMAGE = "Please select an image file";
export const PHOTO_TOO_LARGE = "Image must be less than 5MB";

const goalMessage = `Enter a whole number from ${MIN_PROFILE_GOAL} to ${MAX_PROFILE_GOAL}.`;

/** The profile form; mirrors api.profiles.update. */
export const profileSchema = z.object({
  // The name hosts call the comedian up by: never the default "Comedian".
  displayName: stageNameField("Display name", "Display name is required."),
  weeklyGoalMinutes: z
    .number({ error: goalMessage })
    .int({ error: goalMessage })
    .min(MIN_PROFILE_GOAL, { error: goalMessage })
    .max(MAX_PROFILE_GOAL, { error: goalMessage }),
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
  if (!isAllowedPhotoType(file.type)) return NOT_AN_IMAGE;
  if (file.size >= MAX_PHOTO_BYTES) return PHOTO_TOO_LARGE;
  return null;
}
