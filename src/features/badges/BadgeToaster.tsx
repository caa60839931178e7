import { useConvexAuth, useQuery } from "convex/react";
import { useEffect, useRef } from "react";
import { toast } from "@/lib/toast";
import { api } from "@convex/_generated/api";
import { badgeToastIcon } from "@/components/badges/BadgeIcon";
import { BADGE_TOAST_MS, badgeToast, newBadgeCodes } from "@/lib/newBadges";

/**
 * Announces each badge the signed-in comedian earns, wherever it was earned
 * (this device or another): a live query of their badges, diffed against the
 * previous result. Mount it once in the layout; it renders only a hidden
 * marker (tests use it to know the toaster is there).
 */
export function BadgeToaster() {
  const { isAuthenticated } = useConvexAuth();
  const badges = useQuery(api.badges.mine, isAuthenticated ? {} : "skip");
  const known = useRef<Set<string> | null>(null);

  useEffect(() => {
    // Signed out (or switching accounts): the next list is a fresh baseline.
    if (!isAuthenticated) known.current = null;
  }, [isAuthenticated]);

  useEffect(() => {
    if (badges === undefined) return;
    for (const code of newBadgeCodes(known.current, badges)) {
      const t = badgeToast(code);
      // The id keeps one toast per badge even if another screen announces it too.
      toast.success(t.title, {
        id: `badge-earned-${code}`,
        description: t.description,
        icon: badgeToastIcon(t.icon),
        duration: BADGE_TOAST_MS,
      });
    }
    known.current = new Set(badges.map((b) => b.code));
  }, [badges]);

  return <span hidden data-badge-toaster="" />;
}
