import { useConvex, useConvexAuth, type ConvexReactClient } from "convex/react";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { api } from "@convex/_generated/api";
import { errorMessage } from "../../../lib/convexErrors";
import {
  CHECK_IN_POSITION_OPTIONS,
  getCurrentLocation,
  LOCATION_TOAST_TITLE,
  LocationError,
} from "../filters/location";
import type { SceneItemId } from "../item/types";
import { badgeToastIcon } from "@/components/badges/BadgeIcon";
import { badgeToast } from "@/lib/newBadges";

const CHECK_IN_FAILED = "Check-in failed. Please try again.";

/**
 * The check-in flow: sign-in check, a precise location fix, then one mutation
 * that decides the window, distance and once-a-day rule. All the feedback is
 * in toasts; `pendingId` is the item being checked in, to disable its button.
 */
export function useCheckIn() {
  const client = useConvex();
  const { isAuthenticated } = useConvexAuth();
  const [pendingId, setPendingId] = useState<SceneItemId | null>(null);
  const run = (sceneItemId: SceneItemId) => checkInFlow({ client, isAuthenticated }, sceneItemId, setPendingId);
  return { checkIn: run, pendingId };
}

/** What the actions' flows need from the page: the client and whether there is a session. */
export type ActionContext = { client: ConvexReactClient; isAuthenticated: boolean };

/** {@link useCheckIn}'s flow; `setPendingId` is told which item is being checked in (null once done). */
export async function checkInFlow(
  { client, isAuthenticated }: ActionContext,
  sceneItemId: SceneItemId,
  setPendingId: (id: SceneItemId | null) => void,
): Promise<void> {
  const checkIn = (args: { sceneItemId: SceneItemId; latitude: number; longitude: number }) =>
    client.mutation(api.checkIns.checkIn, args);
  if (!isAuthenticated) {
    toast.error("Please sign in to check in");
    return;
  }
  setPendingId(sceneItemId);
  const toastId = toast.loading("Getting your location...");
  try {
    let position;
    try {
      position = await getCurrentLocation(CHECK_IN_POSITION_OPTIONS);
    } catch (err) {
      toast.error(LOCATION_TOAST_TITLE, {
        id: toastId,
        description: err instanceof LocationError ? err.message : "Failed to get location",
      });
      return;
    }
    try {
      const result = await checkIn({
        sceneItemId,
        latitude: position.lat,
        longitude: position.lng,
      });
      toast.success(result.message, {
        id: toastId,
        description: `Distance: ${result.distance}m from venue`,
        duration: 2000,
      });
      for (const code of result.newBadges) {
        // Same id as the layout's BadgeToaster, so the badge is announced once.
        const t = badgeToast(code);
        toast.success(t.title, {
          id: `badge-earned-${code}`,
          description: t.description,
          icon: badgeToastIcon(t.icon),
          duration: 4000,
        });
      }
    } catch (err) {
      // A refused distance is the server's one sentence (in miles), not repeated in metres below it.
      toast.error(errorMessage(err, CHECK_IN_FAILED), { id: toastId });
    }
  } finally {
    setPendingId(null);
  }
}
