import { z } from "zod";
import { MIC_LIMITS } from "@convex/lib/micRules";
import { withoutControlCharacters } from "@/lib/textSchema";

/** Somewhere not in the list: the comedian types the venue. */
export const OTHER_VENUE = "other";

/** The offline "Log a set" form; mirrors performances.log (whole minutes, the venue name cap). */
export const offlineSetSchema = z
  .object({
    where: z.string().min(1, "Choose where you did the set"),
    venueName: withoutControlCharacters(
      z.string().trim().max(MIC_LIMITS.venueName, `Venue name must be ${MIC_LIMITS.venueName} characters or fewer`),
      "Venue name",
    ),
    minutes: z.coerce
      .number({ message: "Enter your minutes" })
      .int("Minutes must be a whole number")
      .min(1, "Minutes must be at least 1")
      .max(600, "Minutes must be 600 or fewer"),
  })
  .refine((value) => value.where !== OTHER_VENUE || value.venueName.length > 0, {
    path: ["venueName"],
    message: "Please enter the venue",
  });
