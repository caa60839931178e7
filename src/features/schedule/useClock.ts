import { useNow } from "@/lib/useNow";

/**
 * The current time rounded down to `stepMs`, re-checked at least every minute.
 * Queries never read the clock, so the schedule passes this as `nowMs`;
 * rounding keeps the query's arguments (and its subscription) stable between steps.
 */
export function useClock(stepMs = 5 * 60_000): number {
  const now = useNow(Math.min(stepMs, 60_000));
  return Math.floor(now / stepMs) * stepMs;
}
