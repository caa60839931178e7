import { z } from "zod";
import { LEAD_MINUTES } from "@convex/lib/notificationRules";

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The notification settings form; mirrors api.notifications.savePreferences (which checks again). */
export const notificationSchema = z
  .object({
    listOpens: z.boolean(),
    nights: z.boolean(),
    lottery: z.boolean(),
    onDeck: z.boolean(),
    claims: z.boolean(),
    sets: z.boolean(),
    leadMinutes: z.enum(LEAD_MINUTES.map(String) as [string, ...string[]], {
      error: "Choose how long before the list.",
    }),
    quiet: z.boolean(),
    quietStart: z.string(),
    quietEnd: z.string(),
  })
  .superRefine((v, ctx) => {
    if (!v.quiet) return;
    for (const field of ["quietStart", "quietEnd"] as const) {
      if (!HHMM.test(v[field])) {
        ctx.addIssue({ code: "custom", path: [field], message: "Quiet hours must be times like 22:00." });
      }
    }
    if (v.quietStart === v.quietEnd && HHMM.test(v.quietStart)) {
      ctx.addIssue({ code: "custom", path: ["quietEnd"], message: "Quiet hours need a different start and end." });
    }
  });

export type NotificationValues = z.input<typeof notificationSchema>;
