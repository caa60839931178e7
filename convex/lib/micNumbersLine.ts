/**
 * A mic's numbers in short, for Tonight's rows and the scene cards: the one or
 * two figures a comedian plans by ("Fills in ~20 min · first set ~15 min late").
 * The mic row carries the figures (kept by the list trigger); this picks the words.
 */
import type { Infer } from "convex/values";
import type { numbersLineValidator } from "../schema";

/** The figures stored on a mic row once enough nights show them (each absent below its threshold). */
export type NumbersLine = Infer<typeof numbersLineValidator>;

/** Most figures the short line shows. */
const NUMBERS_LINE_PARTS = 2;
/** A first set this many minutes after the listed start is worth saying; earlier reads as on time. */
const LATE_WORTH_SAYING = 5;
/** Below this share of first-come nights filled, "fills in" would mislead. */
const FILLS_MOSTLY = 50;

/** "45 min", "2 h", "1 h 5 min": a mic's waits and lateness, on its event page and in short. */
export function minutesText(m: number): string {
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return rest === 0 ? `${h} h` : `${h} h ${rest} min`;
}

/**
 * The line's parts, most useful first, at most {@link NUMBERS_LINE_PARTS}:
 * how it fills (or the lottery's odds), how late it really starts, then the
 * wait, then how reliably it runs. Empty without figures (not enough nights).
 */
export function numbersLineParts(line: NumbersLine | undefined | null): string[] {
  if (!line) return [];
  const parts: string[] = [];
  if (line.lotteryChance !== undefined) parts.push(`${line.lotteryChance}% drawn in the lottery`);
  else if (line.fillMinutes !== undefined && (line.fillRate ?? 0) >= FILLS_MOSTLY)
    parts.push(`Fills in ~${minutesText(line.fillMinutes)}`);
  if (line.lateMinutes !== undefined) {
    parts.push(
      line.lateMinutes >= LATE_WORTH_SAYING ? `first set ~${minutesText(line.lateMinutes)} late` : "starts on time",
    );
  }
  const runs = `runs ${line.held} of ${line.nights} nights`;
  // Cancelled nights say more than the wait; a mic that always runs says it last.
  if (line.held < line.nights) parts.push(runs);
  if (line.waitMinutes !== undefined) parts.push(`~${minutesText(line.waitMinutes)} wait for a set`);
  if (line.nights > 0 && line.held === line.nights) parts.push(runs);
  const picked = parts.slice(0, NUMBERS_LINE_PARTS);
  if (picked.length > 0) picked[0] = picked[0][0].toUpperCase() + picked[0].slice(1);
  return picked;
}

/** The short line as one string ("" without figures). */
export function numbersLineText(line: NumbersLine | undefined | null): string {
  return numbersLineParts(line).join(" · ");
}
