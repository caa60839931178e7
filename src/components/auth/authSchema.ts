import { z } from "zod";
import {
  DISPLAY_NAME_TOO_LONG,
  EMAIL_TOO_LONG,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  PASSWORD_TOO_LONG,
} from "@convex/lib/profileRules";
import { withoutControlCharacters } from "@/lib/textSchema";

/** Email and password both required; password at least 6 characters
 * (the server's Password provider enforces the same minimum). */
export const signInSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Email is required")
    .max(MAX_EMAIL_LENGTH, EMAIL_TOO_LONG)
    .email("Please enter a valid email address"),
  password: z
    .string()
    .min(1, "Password is required")
    .min(MIN_PASSWORD_LENGTH, "Password must be at least 6 characters")
    .max(MAX_PASSWORD_LENGTH, PASSWORD_TOO_LONG),
});

export const signUpSchema = signInSchema.extend({
  displayName: withoutControlCharacters(
    z.string().trim().max(MAX_DISPLAY_NAME_LENGTH, DISPLAY_NAME_TOO_LONG),
    "Display name",
  ),
});

export type SignInValues = z.output<typeof signInSchema>;
export type SignUpValues = z.output<typeof signUpSchema>;
