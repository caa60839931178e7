import { z } from "zod";
import { periodProblem } from "@convex/lib/season";

/** A custom period: whole months, checked by the same rule as the server. */
export const periodSchema = z
  .object({
    from: z.string().trim().min(1, "Choose a start month."),
    to: z.string().trim().min(1, "Choose an end month."),
  })
  .superRefine((value, ctx) => {
    const problem = periodProblem(value);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem, path: ["to"] });
  });

export const SHARE_FIELDS_REQUIRED = "Choose at least one number to show.";
