// Relative, not @convex: vite.config.ts loads this file before its aliases apply.
import { DEFAULT_TIME_ZONE } from "../../convex/lib/defaultTimeZone.ts";

/**
 * The browser's IANA time zone: the comedian's days and weeks are counted in it
 * and a new venue gets it when nothing better is known. Falls back to the
 * app's default zone where the browser does not say (or Intl throws).
 */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIME_ZONE;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}
