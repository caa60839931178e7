/**
 * The app's default IANA time zone. On its own, without time.ts's helpers (and
 * their time zone library), for the code that runs before the first page.
 */
export const DEFAULT_TIME_ZONE = "America/New_York";
