import { useQuery } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { lastAccount, queueSet, type QueuedSet } from "@/lib/offline/store";
import { viewerTimeZone } from "@/lib/timeZone";
import { useReachable } from "@/lib/useReachable";
import { announceBadges, saveErrorToast } from "./saveErrors";
import { performedAtOf, setPayload, type SetDraft } from "./setDetails";
import { useLogSetWizard } from "./wizardStore";

type SavedSet = { totalMinutes: number; newBadges: string[] };
type Payload = ReturnType<typeof setPayload>;

/** How a set reaches the server: now, or later from the device's outbox. */
export type SetDelivery = {
  /** Sends the set now, with its idempotency key (a resend logs it once). */
  send: (payload: Payload, clientKey: string) => Promise<SavedSet>;
  /** What the outbox keeps to send it later: the mic, or the new mic's details. */
  later: { sceneItemId?: string; newMic?: QueuedSet["newMic"] };
};

export const OUTBOX_FULL = {
  title: "Could not save",
  description: "This phone's outbox is full: connect to send the sets.",
};

/**
 * Saving a set from either last step of the wizard: `checkDate` toasts a date
 * or time in the future; `save` sends the set, then shows the success step and
 * the badges earned, or toasts why it failed. Without a connection the set goes
 * to the device's outbox instead ("Waiting to sync"), sent when the connection returns.
 */
export function useSaveSet() {
  const { venue, finish, goTo } = useLogSetWizard();
  const [zone] = useState(viewerTimeZone);
  const reachable = useReachable();
  // Kept live by the offline copy's own subscription, so it is known offline too.
  const me = useQuery(api.profiles.me);

  const checkDate = (set: SetDraft): number | null => {
    const performedAt = performedAtOf(set, Date.now(), zone);
    if (typeof performedAt === "number") return performedAt;
    toast.error("Could not save", { description: performedAt.error });
    return null;
  };

  const keepOnDevice = async (payload: Payload, clientKey: string, later: SetDelivery["later"], label: string) => {
    const userId = me?.userId ?? (await lastAccount().catch(() => null));
    if (!userId) return false;
    return await queueSet({
      clientKey,
      userId,
      queuedAt: Date.now(),
      label,
      set: { ...payload, ...(later.sceneItemId ? { sceneItemId: later.sceneItemId } : {}) },
      ...(later.newMic ? { newMic: later.newMic } : {}),
    }).catch(() => false);
  };

  const save = async (set: SetDraft, delivery: SetDelivery) => {
    const performedAt = checkDate(set);
    if (performedAt === null || !venue) return;
    const payload = setPayload(set, performedAt, zone);
    const clientKey = crypto.randomUUID();
    if (!reachable) {
      const label = `${set.minutes} min at ${venue.venueName}`;
      if (!(await keepOnDevice(payload, clientKey, delivery.later, label))) {
        toast.error(OUTBOX_FULL.title, { description: OUTBOX_FULL.description });
        return;
      }
      goTo("success");
      finish({ totalMinutes: null, minutes: set.minutes, venueName: venue.venueName, clientKey });
      return;
    }
    try {
      const saved = await delivery.send(payload, clientKey);
      goTo("success");
      finish({ totalMinutes: saved.totalMinutes, minutes: set.minutes, venueName: venue.venueName });
      announceBadges(saved.newBadges);
    } catch (err) {
      const t = saveErrorToast(err);
      toast.error(t.title, { description: t.description });
    }
  };

  return { zone, reachable, checkDate, save };
}
