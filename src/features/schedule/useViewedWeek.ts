import { useEffect, useMemo, useState } from "react";
import { useSearchParams } from "@/lib/router";
import { localDateString } from "@convex/lib/time";
import { scheduleWeek } from "@convex/lib/weeks";
import { viewerTimeZone } from "@/lib/timeZone";
import { initialWeekStart, parseWeekParam, weekAt } from "./weekParam";

/**
 * The Monday-to-Sunday week the schedule shows. A `week` query parameter (an
 * ISO date, the target of 'Jump to that week') picks the week and is then
 * removed from the URL, replacing the history entry.
 */
export function useViewedWeek(nowMs: number) {
  const timeZone = useMemo(viewerTimeZone, []);
  const [searchParams, setSearchParams] = useSearchParams();
  const param = searchParams.get("week");
  const [startDate, setStartDate] = useState(() => initialWeekStart(param, nowMs, timeZone));

  useEffect(() => {
    if (param === null) return;
    const date = parseWeekParam(param);
    if (date !== null) setStartDate(scheduleWeek(date, timeZone).startDate);
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete("week");
        return next;
      },
      { replace: true },
    );
  }, [param, setSearchParams, timeZone]);

  const week = useMemo(() => weekAt(startDate, 0, timeZone), [startDate, timeZone]);
  const thisWeekStart = scheduleWeek(localDateString(nowMs, timeZone), timeZone).startDate;
  return {
    week,
    timeZone,
    isThisWeek: startDate === thisWeekStart,
    previous: () => setStartDate((d) => weekAt(d, -1, timeZone).startDate),
    next: () => setStartDate((d) => weekAt(d, 1, timeZone).startDate),
    thisWeek: () => setStartDate(thisWeekStart),
  };
}
