import { z } from "zod";
import { DEFAULT_STAGE_NAME_MESSAGE, isDefaultStageName, MAX_DISPLAY_NAME_LENGTH } from "@convex/lib/profileRules";
import { withoutControlCharacters } from "./textSchema";

/**
 * A stage name as the server takes it (`typedStageName` in
 * convex/lib/profileRules.ts): 1 to 60 characters, no control characters,
 * not the default "Comedian". `label` and `emptyMessage` are the form's.
 */
export function stageNameField(label: string, emptyMessage: string) {
  return withoutControlCharacters(
    z
      .string()
      .trim()
      .min(1, { error: emptyMessage })
      .max(MAX_DISPLAY_NAME_LENGTH, { error: `${label} must be ${MAX_DISPLAY_NAME_LENGTH} characters or fewer.` }),
    label,
  ).refine((name) => !isDefaultStageName(name), DEFAULT_STAGE_NAME_MESSAGE);
}
