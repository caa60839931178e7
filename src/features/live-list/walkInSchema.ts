import { z } from "zod";
import { MAX_NAME_LENGTH } from "@convex/lib/nightListRules";

export const WALK_IN_NAME_REQUIRED = "Please enter the comedian's name";
export const WALK_IN_NAME_TOO_LONG = `Names must be ${MAX_NAME_LENGTH} characters or fewer`;

/** A walk-in's name as the host types it; mirrors the server's rule (trimmed, 1 to 60 characters). */
export const walkInNameSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: WALK_IN_NAME_REQUIRED })
    .max(MAX_NAME_LENGTH, { error: WALK_IN_NAME_TOO_LONG }),
});

export type WalkInNameValues = z.output<typeof walkInNameSchema>;
