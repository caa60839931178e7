import { useEffect, useState } from "react";

/**
 * The current time rounded down to `stepMs`, updated on that step. Queries
 * never read the clock, so the schedule passes this as `nowMs`; rounding
 * keeps the query's arguments (and its subscription) stable between steps.
 */
export function useClock(stepMs = 5 * 60_000): number {
  const round = (ms: number) => Math.floor(ms / stepMs) * stepMs;
  const [now, setNow] = useState(() => round(Date.now()));
  useEffect(() => {
    const timer = setInterval(() => setNow(Math.floor(Date.now() / stepMs) * stepMs), Math.min(stepMs, 60_000));
    return () => clearInterval(timer);
  }, [stepMs]);
  return now;
}
