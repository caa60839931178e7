import { z } from "zod";
import { MAX_REVIEW_REASON_LENGTH } from "@convex/lib/claimRules";

export const REASON_TOO_LONG = `Reason must be ${MAX_REVIEW_REASON_LENGTH} characters or fewer`;

/** An admin's decision on a claim: an optional reason the claimant sees; mirrors claims.review's check. */
export const reviewSchema = z.object({
  reason: z.string().trim().max(MAX_REVIEW_REASON_LENGTH, { error: REASON_TOO_LONG }),
});

export type ReviewValues = z.output<typeof reviewSchema>;

/** The reason as the mutation takes it: left out when empty. */
export function reasonArg(values: ReviewValues): { reason?: string } {
  return values.reason ? { reason: values.reason } : {};
}

/** What the moot claims on a mic are denied with unless the admin writes another reason. */
export const MOOT_REASON = "Another comedian was approved as this mic's host.";
