import { DAY_NAMES, formatTime12h } from "@convex/lib/time";

/**
 * An item's weekly slot for a pick list: "Mondays at 7:00 PM", "Mondays",
 * "7:00 PM", or "" when it has neither a day nor a start time.
 */
export function weeklySlotText(item: { dayOfWeek?: number | null; startTimeLocal?: string }): string {
  const day = item.dayOfWeek !== undefined && item.dayOfWeek !== null ? DAY_NAMES[item.dayOfWeek] : undefined;
  return [day ? `${day}s` : null, item.startTimeLocal ? formatTime12h(item.startTimeLocal) : null]
    .filter(Boolean)
    .join(" at ");
}

/** An avatar's fallback: the first letters of the first two words of a name ("Jane Q. Comic" → "JQ";
 * quotes and other marks are skipped: 'Tom "Tiny" Lee' → "TT"), or "?". */
export function initials(name: string | undefined): string {
  const letters = (name ?? "")
    .split(/\s+/)
    .map((word) => /[\p{L}\p{N}]/u.exec(word)?.[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return letters || "?";
}
