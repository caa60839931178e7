import { z } from "zod";

/** Spec §5: email and password both required; password at least 6 characters
 * (the server's Password provider enforces the same minimum). */
export const signInSchema = z.object({
  email: z.string().trim().min(1, "Email is required").email("Please enter a valid email address"),
  password: z.string().min(1, "Password is required").min(6, "Password must be at least 6 characters"),
});

export const signUpSchema = signInSchema.extend({
  displayName: z.string().trim().max(60, "Display name must be at most 60 characters"),
});

export type SignInValues = z.output<typeof signInSchema>;
export type SignUpValues = z.output<typeof signUpSchema>;
