import { z } from "zod";
import { withoutControlCharacters } from "@/lib/textSchema";
import {
  BIT_NOTES_TOO_LONG,
  BIT_SECONDS_MESSAGE,
  BIT_STATUSES,
  BIT_TAG_TOO_LONG,
  BIT_TITLE_REQUIRED,
  BIT_TITLE_TOO_LONG,
  BIT_TOO_MANY_TAGS,
  isBitSeconds,
  MAX_BIT_NOTES_LENGTH,
  MAX_BIT_TAG_LENGTH,
  MAX_BIT_TAGS,
  MAX_BIT_TITLE_LENGTH,
  type BitStatus,
} from "@convex/lib/bitRules";

/** Comma-separated tags, trimmed, empties and repeats (in any case) dropped. */
export function parseBitTags(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of text.split(",")) {
    const tag = raw.trim();
    if (tag === "" || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

/** "90", "1:30" or "" (no estimate) as whole seconds, undefined when empty, NaN when not a length. */
export function parseBitLength(text: string): number | undefined {
  const value = text.trim();
  if (value === "") return undefined;
  const clock = /^(\d{1,2}):([0-5]\d)$/.exec(value);
  if (clock) return Number(clock[1]) * 60 + Number(clock[2]);
  return /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

/** The bit dialog's form, with the server's limits (convex/lib/bitRules). Each field checks itself, so every problem shows at once. */
export const bitSchema = z
  .object({
    title: withoutControlCharacters(
      z.string().trim().min(1, BIT_TITLE_REQUIRED).max(MAX_BIT_TITLE_LENGTH, BIT_TITLE_TOO_LONG),
      "Title",
    ),
    notes: withoutControlCharacters(z.string().max(MAX_BIT_NOTES_LENGTH, BIT_NOTES_TOO_LONG), "Notes", {
      multiline: true,
    }),
    tags: withoutControlCharacters(z.string(), "Tags")
      .refine((text) => parseBitTags(text).every((t) => t.length <= MAX_BIT_TAG_LENGTH), BIT_TAG_TOO_LONG)
      .refine((text) => parseBitTags(text).length <= MAX_BIT_TAGS, BIT_TOO_MANY_TAGS),
    length: z.string().refine((text) => {
      const seconds = parseBitLength(text);
      return seconds === undefined || isBitSeconds(seconds);
    }, BIT_SECONDS_MESSAGE),
    status: z.enum(BIT_STATUSES),
  })
  .transform((values) => {
    const notes = values.notes.trim();
    return {
      title: values.title,
      notes: notes === "" ? undefined : notes,
      tags: parseBitTags(values.tags),
      seconds: parseBitLength(values.length),
      status: values.status as BitStatus,
    };
  });

export type BitFormInput = z.input<typeof bitSchema>;

/** The form's starting values: a new bit, or the saved one. */
export function bitDefaults(bit?: {
  title: string;
  notes: string | null;
  tags: string[];
  seconds: number | null;
  status: BitStatus;
}): BitFormInput {
  return {
    title: bit?.title ?? "",
    notes: bit?.notes ?? "",
    tags: bit?.tags.join(", ") ?? "",
    length: bit?.seconds == null ? "" : String(bit.seconds),
    status: bit?.status ?? "new",
  };
}
