import { DAY_NAMES, formatTime12h } from "@convex/lib/time";

/**
 * A count in a few characters, as on the landing page's stats: 999 → "999",
 * 1234 → "1.2k", 2500 → "2.5k", 15_300 → "15.3k", 1_250_000 → "1.3M".
 * Rounds down so a figure never claims more than is true; negatives and NaN show "0".
 */
export function formatCompact(value: number): string {
  if (!Number.isFinite(value) || value <= 0) return "0";
  const whole = Math.floor(value);
  const units: Array<[number, string]> = [
    [1_000_000_000, "B"],
    [1_000_000, "M"],
    [1_000, "k"],
  ];
  for (const [size, suffix] of units) {
    if (whole >= size) {
      const scaled = Math.floor((whole / size) * 10) / 10;
      // 999_999 floors to 999.9k rather than jumping to "1000k".
      const text = scaled >= 100 ? String(Math.floor(scaled)) : scaled.toFixed(1).replace(/\.0$/, "");
      return `${text}${suffix}`;
    }
  }
  return String(whole);
}

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
