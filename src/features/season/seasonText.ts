import type { SeasonPeriod, ShareField } from "@convex/lib/season";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const LONG_MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "March 2026" for "2026-03". */
export function monthName(month: string): string {
  return `${LONG_MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
}

/** "2026" for a whole calendar year, else "Mar 2026 – Jan 2027" (or one month). */
export function periodLabel({ from, to }: SeasonPeriod): string {
  if (from.endsWith("-01") && to.endsWith("-12") && from.slice(0, 4) === to.slice(0, 4)) return from.slice(0, 4);
  const short = (m: string) => `${MONTHS[Number(m.slice(5, 7)) - 1]} ${m.slice(0, 4)}`;
  return from === to ? short(from) : `${short(from)} – ${short(to)}`;
}

/** "1 set" / "3 sets", and the same for other nouns. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/** What each public-link choice shows, in the words of the checkbox. */
export const SHARE_FIELD_LABELS: Record<ShareField, string> = {
  name: "My stage name",
  sets: "Sets",
  minutes: "Minutes on stage",
  mics: "Mics",
  cities: "Cities",
  streaks: "Longest streaks",
  busiestMonth: "Busiest month",
  topMics: "Mics I got up at most",
  map: "Map of where I performed",
  bits: "Bits that landed most",
};
