import type { Doc } from "@convex/_generated/dataModel";

/** How a mic's type reads on the schedule. */
export const TYPE_LABELS: Record<Doc<"sceneItems">["type"], string> = {
  open_mic: "Open Mic",
  show: "Show",
  booked_show: "Booked Show",
  bringer_show: "Bringer Show",
};
