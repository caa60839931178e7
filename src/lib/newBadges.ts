import { badgeByCode, type BadgeIconName } from "@convex/lib/badges";

/**
 * Codes in `current` that were not in `previous`. With no previous list (the
 * first load after sign-in) nothing is new: badges already earned are not
 * announced again.
 */
export function newBadgeCodes(previous: ReadonlySet<string> | null, current: readonly { code: string }[]): string[] {
  if (previous === null) return [];
  return current.map((b) => b.code).filter((code, i, all) => !previous.has(code) && all.indexOf(code) === i);
}

export const BADGE_TOAST_MS = 4000;

/** The toast of a newly earned badge: 'Badge earned: {name}' with its icon and description. */
export function badgeToast(code: string): { title: string; description: string; icon: BadgeIconName } {
  const badge = badgeByCode(code);
  if (!badge) return { title: `Badge earned: ${code}`, description: "", icon: "star" };
  return { title: `Badge earned: ${badge.name}`, description: badge.description, icon: badge.icon };
}
