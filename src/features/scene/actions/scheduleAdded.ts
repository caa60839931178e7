import { toast } from "@/lib/toast";
import { DEFAULT_TIME_ZONE } from "@convex/lib/time";
import type { SceneItem } from "../item/types";

type Wording = typeof import("./scheduleToast");

/** What `schedule:add` answers. */
export type AddedToSchedule = {
  nextOccurrence: number | null;
  overlaps: { title: string; startMs: number }[];
};

/**
 * Tells the comedian their add worked. It runs only after the mutation has
 * committed, so nothing here may turn into "Failed to add to schedule": when the
 * wording's chunk cannot load (a redeploy removed the old file, a dropped
 * connection), the toasts say the same without the dates.
 */
export async function announceAddedToSchedule(
  item: Pick<SceneItem, "title" | "timeZone">,
  { nextOccurrence, overlaps }: AddedToSchedule,
  {
    viewerTimeZone,
    jumpToWeek,
    loadWording = () => import("./scheduleToast"),
  }: { viewerTimeZone: string; jumpToWeek: (week: string) => void; loadWording?: () => Promise<Wording> },
): Promise<void> {
  const wording = await loadWording().catch(() => null);
  const title = `Added ${item.title} to your schedule`;
  // A warning only: the mic is added either way.
  for (const other of overlaps) {
    toast.warning(
      `Overlaps ${other.title}`,
      wording
        ? {
            description: `It starts at ${wording.overlapStartText(other.startMs)}, within this night's set plus 30 minutes.`,
          }
        : undefined,
    );
  }
  if (nextOccurrence === null || wording === null) {
    toast.success(title);
    return;
  }
  const note = wording.nextOccurrenceNote(
    nextOccurrence,
    Date.now(),
    viewerTimeZone,
    item.timeZone || DEFAULT_TIME_ZONE,
  );
  const week = note.jumpToWeek;
  if (week === null) {
    toast.success(title, { description: note.description });
  } else {
    toast.success(title, {
      description: note.description,
      action: { label: "Jump to that week", onClick: () => jumpToWeek(week) },
    });
  }
}
