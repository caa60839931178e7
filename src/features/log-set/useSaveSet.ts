import { useState } from "react";
import { toast } from "sonner";
import { viewerTimeZone } from "@/lib/timeZone";
import { announceBadges, saveErrorToast } from "./saveErrors";
import { performedAtOf, setPayload, type SetDraft } from "./setDetails";
import { useLogSetWizard } from "./wizardStore";

type SavedSet = { totalMinutes: number; newBadges: string[] };

/**
 * Saving a set from either last step of the wizard: `checkDate` toasts a date
 * or time in the future; `save` sends the set through the given mutation, then
 * shows the success step and the badges earned, or toasts why it failed.
 */
export function useSaveSet() {
  const { venue, finish, goTo } = useLogSetWizard();
  const [zone] = useState(viewerTimeZone);

  const checkDate = (set: SetDraft): number | null => {
    const performedAt = performedAtOf(set, Date.now(), zone);
    if (typeof performedAt === "number") return performedAt;
    toast.error("Could not save", { description: performedAt.error });
    return null;
  };

  const save = async (set: SetDraft, send: (payload: ReturnType<typeof setPayload>) => Promise<SavedSet>) => {
    const performedAt = checkDate(set);
    if (performedAt === null || !venue) return;
    try {
      const saved = await send(setPayload(set, performedAt, zone));
      goTo("success");
      finish({ totalMinutes: saved.totalMinutes, minutes: set.minutes, venueName: venue.venueName });
      announceBadges(saved.newBadges);
    } catch (err) {
      const t = saveErrorToast(err);
      toast.error(t.title, { description: t.description });
    }
  };

  return { zone, checkDate, save };
}
