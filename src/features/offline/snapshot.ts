import type { FunctionReturnType } from "convex/server";
import type { api } from "../../../convex/_generated/api";
import { localDateString } from "../../../convex/lib/time";
import type { Snapshot } from "@/lib/offline/store";

type Week = FunctionReturnType<typeof api.schedule.week>;
type Sets = FunctionReturnType<typeof api.history.list>["page"];
type Spots = FunctionReturnType<typeof api.nightLists.myRecent>;
type Spot = Spots[number];

/** How a spot on a live list reads to its comedian. */
export function placeLabel(spot: Pick<Spot, "section" | "state" | "onDeck">): string {
  if (spot.state === "up") return "Up now";
  if (spot.onDeck) return "On deck";
  if (spot.section === "list") return "On the list";
  if (spot.section === "waitlist") return "On the waitlist";
  return "In the lottery pool";
}

/** The offline copy of what the comedian needs tonight, from the queries the app already runs. */
export function buildSnapshot(input: {
  userId: string;
  nowMs: number;
  timeZone: string;
  week: Week;
  sets: Sets;
  spots: Spots;
}): Snapshot {
  const today = localDateString(input.nowMs, input.timeZone);
  const scheduled = input.week.items.filter((item) => item.kind === "scheduled");
  return {
    userId: input.userId,
    savedAt: input.nowMs,
    tonight: scheduled
      .filter((item) => localDateString(item.startsAt, input.timeZone) === today)
      .sort((a, b) => a.startsAt - b.startsAt)
      .map((item) => ({
        sceneItemId: item.sceneItemId,
        title: item.title,
        venueName: item.venueName,
        startsAt: item.startsAt,
        status: item.nightStatus ?? null,
      })),
    myPlace: input.spots
      .filter((spot) => spot.date === today && spot.listStatus === "open" && spot.state !== "done")
      .map((spot) => ({ micTitle: spot.micTitle, label: placeLabel(spot) })),
    week: input.week.items
      .flatMap((item) => (item.kind === "scheduled" || item.kind === "session" ? [item] : []))
      .map((item) =>
        item.kind === "scheduled"
          ? {
              key: item.entryId + item.startsAt,
              title: item.title,
              venueName: item.venueName,
              startsAt: item.startsAt,
              detail: item.nightStatus === "cancelled" ? "Cancelled" : "Scheduled",
            }
          : {
              key: item.performanceId,
              title: item.title,
              venueName: item.venueName ?? "",
              startsAt: item.startsAt,
              detail: `${item.minutes} min set`,
            },
      )
      .sort((a, b) => a.startsAt - b.startsAt),
    lastSets: input.sets.map((set) => ({
      key: set._id,
      venueName: set.venueName,
      performedAt: set.performedAt,
      minutes: set.minutes,
    })),
  };
}
