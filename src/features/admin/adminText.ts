import { format } from "date-fns";
import type { Doc } from "@convex/_generated/dataModel";
import { DAY_NAMES, formatTime12h } from "@convex/lib/time";

export type MicType = Doc<"sceneItems">["type"];
export type CostType = NonNullable<Doc<"sceneItems">["costInfo"]>["type"];

/** The types an admin may set (open_mic, booked_show, bringer_show; show kept for wizard items). */
export const MIC_TYPE_OPTIONS: ReadonlyArray<{ value: MicType; label: string }> = [
  { value: "open_mic", label: "Open Mic" },
  { value: "show", label: "Show" },
  { value: "booked_show", label: "Booked Show" },
  { value: "bringer_show", label: "Bringer Show" },
];

export function micTypeLabel(type: MicType): string {
  return MIC_TYPE_OPTIONS.find((o) => o.value === type)?.label ?? type;
}

/** "Wednesday", or "No day" when the day is unknown. */
export function dayLabel(dayOfWeek: number | null | undefined): string {
  if (dayOfWeek === null || dayOfWeek === undefined) return "No day";
  return DAY_NAMES[dayOfWeek] ?? "No day";
}

/** "8:00 PM", or "No time". */
export function timeLabel(startTimeLocal: string | undefined): string {
  return startTimeLocal ? formatTime12h(startTimeLocal) : "No time";
}

/** "1 check-in", "3 check-ins". */
export function checkInsLabel(count: number): string {
  return `${count} ${count === 1 ? "check-in" : "check-ins"}`;
}

/** "Nov 21, 2026". */
export function submittedDate(ms: number): string {
  return format(ms, "MMM d, yyyy");
}

/** "Nov 21, 2026 9:05 PM": times read 12-hour everywhere in the app. */
export function reviewedDate(ms: number): string {
  return format(ms, "MMM d, yyyy h:mm a");
}

/** "1 mic", "12 mics". */
export function micsCount(count: number): string {
  return `${count} ${count === 1 ? "mic" : "mics"}`;
}

/** "3 pending claims for this mic" (null for a mic with one). */
export function pendingForMicText(count: number): string | null {
  return count > 1 ? `${count} pending claims for this mic` : null;
}

/** A claim's short reference, 'Claim #12' (claims filed before numbers
 * existed read 'Claim (unnumbered)' until claims:backfillNumbers has run). */
export function claimLabel(number: number | undefined): string {
  return number === undefined ? "Claim (unnumbered)" : `Claim #${number}`;
}

/** 'Coordinate Update Complete: Updated {n} venues, {m} failed' (title: description). */
export function coordinatesToast(updated: number, failed: number): { title: string; description: string } {
  return { title: "Coordinate Update Complete", description: `Updated ${updated} venues, ${failed} failed` };
}

export const REPORT_KIND_LABELS = {
  no_longer_runs: "This mic no longer runs",
  wrong_time: "Wrong day or time",
  other: "Other",
} as const;

/** A queue badge's count: "12", "1000+" past the counted cap, "…" while it loads. */
export function queueCount(count: number | undefined, cap: number): string {
  if (count === undefined) return "…";
  return count > cap ? `${cap}+` : `${count}`;
}
