import type { EventDetails } from "@convex/model/events";
import { RECURRENCE_OPTIONS } from "@convex/lib/recurrence";
import { DAY_NAMES, formatTime12h } from "@convex/lib/time";

/** The rows of the success summary: day, time and frequency in words. */
export function eventSummary(details: EventDetails): { day: string; time: string; frequency: string } {
  const option = RECURRENCE_OPTIONS.find((o) => o.value === details.recurrence);
  let frequency = option?.label ?? details.recurrence;
  if (details.recurrence === "monthly" && details.monthlyRule) {
    frequency = details.monthlyRule.startsWith("Monthly") ? details.monthlyRule : `Monthly (${details.monthlyRule})`;
  }
  if (details.recurrence === "custom" && details.customRecurrenceDescription)
    frequency = details.customRecurrenceDescription;
  return {
    day: DAY_NAMES[details.dayOfWeek] ?? "",
    time: formatTime12h(details.startTimeLocal),
    frequency,
  };
}
