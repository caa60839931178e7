import { format } from "date-fns";
import { z } from "zod";
import { setMinutesField, setNotesField, setTagField } from "@/lib/setFields";

/** Comma-separated tags, trimmed, empties dropped; none at all is saved as null. */
export function parseTags(text: string): string[] | null {
  const tags = text
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  return tags.length > 0 ? tags : null;
}

/** Notes, with empty (or blank) notes saved as null. */
export function parseNotes(text: string): string | null {
  return text.trim() === "" ? null : text;
}

/** The date and time inputs ("yyyy-MM-dd", "HH:mm") as epoch ms in the browser's zone, or null. */
export function parseDateTime(date: string, time: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) return null;
  const ms = new Date(`${date}T${time}`).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** The edit form's starting values for a set. */
export function editDefaults(set: { minutes: number; performedAt: number; tags: string[]; notes: string | null }) {
  return {
    minutes: String(set.minutes),
    date: format(set.performedAt, "yyyy-MM-dd"),
    time: format(set.performedAt, "HH:mm"),
    tags: set.tags.join(", "),
    notes: set.notes ?? "",
  };
}

/** The edit dialog's form: minutes 1 to 600 and notes of at most 2,000 characters, as the server takes them, and a real date and time. */
export const editPerformanceSchema = z
  .object({
    minutes: setMinutesField,
    date: z.string(),
    time: z.string(),
    tags: setTagField,
    notes: setNotesField,
  })
  .transform((values, ctx) => {
    const performedAt = parseDateTime(values.date, values.time);
    if (performedAt === null) {
      ctx.addIssue({ code: "custom", path: ["date"], message: "Please choose a valid date and time" });
      return z.NEVER;
    }
    return {
      minutes: values.minutes,
      performedAt,
      tags: parseTags(values.tags),
      notes: parseNotes(values.notes),
    };
  });

export type EditPerformanceInput = z.input<typeof editPerformanceSchema>;
export type EditPerformanceValues = z.output<typeof editPerformanceSchema>;
