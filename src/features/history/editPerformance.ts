import { format } from "date-fns";
import { z } from "zod";

/** Minutes as typed: parsed as a whole number, 0 when it is not one (spec part 2 §5). */
export function parseMinutes(text: string): number {
  const n = Number.parseInt(text.trim(), 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}

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

/** The edit dialog's form: lenient by design (bad minutes count as 0), only the date and time must be real. */
export const editPerformanceSchema = z
  .object({
    minutes: z.string(),
    date: z.string(),
    time: z.string(),
    tags: z.string(),
    notes: z.string(),
  })
  .transform((values, ctx) => {
    const performedAt = parseDateTime(values.date, values.time);
    if (performedAt === null) {
      ctx.addIssue({ code: "custom", path: ["date"], message: "Please choose a valid date and time" });
      return z.NEVER;
    }
    return {
      minutes: parseMinutes(values.minutes),
      performedAt,
      tags: parseTags(values.tags),
      notes: parseNotes(values.notes),
    };
  });

export type EditPerformanceInput = z.input<typeof editPerformanceSchema>;
export type EditPerformanceValues = z.output<typeof editPerformanceSchema>;
