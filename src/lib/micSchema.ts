import { z } from "zod";
import { MIC_LIMITS } from "../../convex/lib/micRules";
import { tooLongMessage } from "../../convex/lib/textRules";

/** A trimmed text field capped at the server's limit, with the server's wording. */
function capped(label: string, max: number) {
  return z.string().trim().max(max, tooLongMessage(label, max));
}

/**
 * The text fields of a mic with the limits of `convex/lib/micRules.ts`: the
 * one base every mic form (add-event, admin edit, claimant edit, manual venue)
 * picks its fields from, so a limit is changed in one place.
 */
export const micFieldsSchema = z.object({
  title: capped("Title", MIC_LIMITS.title).min(1, "Title is required"),
  venueName: capped("Venue", MIC_LIMITS.venueName).min(1, "Venue is required"),
  city: capped("City", MIC_LIMITS.city),
  address: capped("Address", MIC_LIMITS.address),
  hostName: capped("Host name", MIC_LIMITS.hostName),
  notes: capped("Notes", MIC_LIMITS.notes),
  signupLink: capped("Signup link", MIC_LIMITS.link),
  showLink: capped("Show link", MIC_LIMITS.link),
  customRecurrenceDescription: capped("The schedule description", MIC_LIMITS.customRecurrenceDescription),
});
