import { badgeByCode } from "../../../convex/lib/badges";

/** The toast title for a badge the check-in just awarded: "Badge earned: 🏆 Name". */
export function badgeToastTitle(code: string): string {
  const badge = badgeByCode(code);
  return badge ? `Badge earned: ${badge.icon} ${badge.name}` : `Badge earned: ${code}`;
}
