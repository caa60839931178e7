import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import type { WithMine } from "@convex/lib/liveListViewer";

/** The shared list view with the viewer's own spot marked (useLiveList). */
export type ListView = WithMine<NonNullable<FunctionReturnType<typeof api.nightLists.current>["list"]>>;
export type SpotView = ListView["list"][number];

/** "7:30 PM" of an instant in the mic's time zone. */
export function clockText(epochMs: number, timeZone: string): string {
  return format(new TZDate(epochMs, timeZone), "h:mm a");
}

/** "12 of 20 spots taken". */
export function summaryText(list: Pick<ListView, "taken" | "spots">): string {
  return `${list.taken} of ${list.spots} spots taken`;
}

/** The viewer's own spot on the list, wherever it is. */
export function mySpot(list: ListView): SpotView | null {
  return [...list.list, ...list.waitlist, ...list.pool].find((s) => s.isMine) ?? null;
}

/**
 * How the list is run, saying what happened when: "First come, first served",
 * "Lottery drawn at 7:47 PM" once drawn, "Lottery draw at 7:30 PM" before it,
 * "Lottery: drawn by the host" without a time.
 */
export function modeText(list: Pick<ListView, "mode" | "drawnAt" | "drawAt" | "bucket" | "timeZone">): string {
  if (list.mode === "first_come") return "First come, first served";
  if (list.drawnAt !== null) return `Lottery drawn at ${clockText(list.drawnAt, list.timeZone)}`;
  const when =
    list.drawAt !== null ? `Lottery draw at ${clockText(list.drawAt, list.timeZone)}` : "Lottery: drawn by the host";
  return `${when}${list.bucket ? " (bucket)" : ""}`;
}

/** The viewer's place in words: "You are #7", "In the lottery: the draw is at 7:30 PM", "On the waitlist: #2". */
export function placeText(list: ListView, spot: SpotView): string {
  if (spot.section === "pool") {
    return list.drawAt !== null
      ? `In the lottery: the draw is at ${clockText(list.drawAt, list.timeZone)}`
      : "In the lottery: the host draws the names";
  }
  if (spot.section === "waitlist") return `On the waitlist: #${spot.place}`;
  if (spot.state === "up") return "You're up now";
  if (spot.state === "done") return "Your set is done";
  if (spot.state === "no_show") return "Marked as a no-show";
  if (spot.onDeck) return `You're on deck (#${spot.place})`;
  return `You are #${spot.place}`;
}

/** Moves an item of an array to another index (for the host's drag and drop). */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const out = [...items];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}
