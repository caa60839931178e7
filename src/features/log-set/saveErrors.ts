import { ConvexError } from "convex/values";
import { toast } from "sonner";
import { errorMessage } from "@/lib/convexErrors";
import { badgeByCode } from "@convex/lib/badges";
import { badgeToastIcon } from "@/components/badges/BadgeIcon";

/**
 * The toast for a failed save: a validation error from the server
 * reads 'Could not save' with its message; anything else (network, a crash)
 * reads 'Could not save set: Please try again.'.
 */
export function saveErrorToast(err: unknown): { title: string; description: string } {
  if (err instanceof ConvexError) {
    return { title: "Could not save", description: errorMessage(err, "Please check your inputs and try again.") };
  }
  return { title: "Could not save set", description: "Please try again." };
}

/**
 * Toasts the badges a save just earned. The id matches the layout's
 * BadgeToaster (src/features/badges), so the live badge list announcing the
 * same badge updates this toast instead of showing a second one.
 */
export function announceBadges(codes: readonly string[]): void {
  for (const code of codes) {
    const badge = badgeByCode(code);
    if (!badge) continue;
    toast.success(`Badge earned: ${badge.name}`, {
      id: `badge-earned-${code}`,
      description: badge.description,
      icon: badgeToastIcon(badge.icon),
      duration: 4000,
    });
  }
}
