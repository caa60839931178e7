import { useConvexAuth, useQuery } from "convex/react";
import { useEffect, useRef } from "react";
import { toast } from "@/lib/toast";
import { api } from "@convex/_generated/api";

type Seen = Map<string, { onDeck: boolean; logged: boolean; cancelled: boolean }>;

/**
 * The live list's in-app notices, wherever the comedian is: "You're on deck",
 * "Your set at {mic} was logged" and a cancelled night, from a live query of
 * their newest spots diffed against the previous answer. Mount once in the layout.
 */
export function ListNotifier() {
  const { isAuthenticated } = useConvexAuth();
  const spots = useQuery(api.nightLists.myRecent, isAuthenticated ? {} : "skip");
  const seen = useRef<Seen | null>(null);

  useEffect(() => {
    if (!isAuthenticated) seen.current = null;
  }, [isAuthenticated]);

  useEffect(() => {
    if (spots === undefined) return;
    const next: Seen = new Map();
    for (const s of spots) {
      const now = { onDeck: s.onDeck, logged: s.performanceId !== null, cancelled: s.closedReason === "cancelled" };
      const before = seen.current?.get(s.spotId);
      // Only changes seen while the app is open are announced (the first answer is the baseline).
      if (seen.current !== null) {
        if (now.onDeck && !before?.onDeck)
          toast.info("You're on deck", { id: `list-deck-${s.spotId}`, description: s.micTitle, duration: 10_000 });
        if (now.logged && !before?.logged)
          toast.success(`Your set at ${s.micTitle} was logged`, { id: `list-logged-${s.spotId}` });
        if (now.cancelled && !before?.cancelled) {
          toast.warning(`Tonight at ${s.micTitle} was cancelled`, {
            id: `list-cancelled-${s.spotId}`,
            description: "The list is closed.",
          });
        }
      }
      next.set(s.spotId, now);
    }
    seen.current = next;
  }, [spots]);

  return <span hidden data-list-notifier="" />;
}
