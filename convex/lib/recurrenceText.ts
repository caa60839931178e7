/**
 * The words of a recurrence: the frequency options, the custom patterns of
 * the add-event form ("every other Tuesday", "first Monday of each month"),
 * the monthly rule text and the short summary shown on cards. When an item
 * runs is in lib/recurrence, which also re-exports these names.
 */
import { DAY_NAMES, dayOfWeekOfDate, parseDateString } from "./time";

export type Recurrence = "weekly" | "bi-weekly" | "monthly" | "one-time" | "custom";

/** What a recurrence needs of a scene item. */
export type RecurringItem = {
  dayOfWeek?: number | null;
  startTimeLocal?: string;
  timeZone?: string;
  recurrence: Recurrence;
  customRecurrenceDescription?: string;
  monthlyRule?: string;
  /** "YYYY-MM-DD" of a known occurrence (or the day the item was created). */
  anchorDate?: string;
  /** A Convex document's creation time, used as the anchor when `anchorDate` is absent. */
  _creationTime?: number;
};

export const RECURRENCES: readonly Recurrence[] = ["weekly", "bi-weekly", "monthly", "one-time", "custom"];

/** The labels and hints of the frequency options in the event details form. */
export const RECURRENCE_OPTIONS: ReadonlyArray<{ value: Recurrence; label: string; hint: string }> = [
  { value: "weekly", label: "Weekly", hint: "Every week" },
  { value: "bi-weekly", label: "Bi-weekly", hint: "Every 2 weeks" },
  { value: "monthly", label: "Monthly", hint: "Once a month" },
  { value: "one-time", label: "One-time", hint: "Just once" },
  { value: "custom", label: "Custom Schedule", hint: "Irregular or custom pattern" },
];

export type NthWeekday = 1 | 2 | 3 | 4 | -1;

export type CustomRecurrence =
  /** `weekday` is set only when the text names one ("every other Tuesday"). */
  | { kind: "every_n_weeks"; n: number; weekday?: number }
  | { kind: "every_n_months"; n: number }
  | { kind: "nth_weekday"; nth: NthWeekday; weekday: number };

export const INVALID_CUSTOM_RECURRENCE = {
  title: "Invalid custom recurrence",
  description: "Please use patterns like 'every 2 weeks', 'quarterly', or 'first Monday of each month'",
} as const;

const ORDINAL_WORDS: Record<string, NthWeekday> = {
  first: 1,
  "1st": 1,
  second: 2,
  "2nd": 2,
  third: 3,
  "3rd": 3,
  fourth: 4,
  "4th": 4,
  last: -1,
};

const NTH_NAMES: Record<NthWeekday, string> = {
  1: "first",
  2: "second",
  3: "third",
  4: "fourth",
  [-1]: "last",
};

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

/** Weekday index of a full or abbreviated English day name ("Tue", "tuesdays"), else null. */
export function parseWeekdayName(word: string): number | null {
  const w = word.toLowerCase().replace(/s$/, "");
  const abbreviations: Record<string, number> = {
    sun: 0,
    mon: 1,
    tue: 2,
    tues: 2,
    wed: 3,
    thu: 4,
    thur: 4,
    thurs: 4,
    fri: 5,
    sat: 6,
  };
  const full = DAY_NAMES.findIndex((d) => d.toLowerCase() === w);
  if (full >= 0) return full;
  return abbreviations[w] ?? null;
}

function parseCount(word: string): number | null {
  if (/^\d+$/.test(word)) return Number(word);
  if (word === "other") return 2;
  return NUMBER_WORDS[word] ?? null;
}

const WEEKDAY_WORD = "(sun|mon|tues?|wed|thu|thur|thurs|fri|sat)[a-z]*";

/**
 * Parses the custom schedule text of an item (case-insensitive). Accepted:
 * "every N week(s)" (N as digits or one..twelve), "every week", "every other
 * week", "every other Tuesday"; "quarterly", "every quarter", "every N
 * month(s)", "every other month", "every month"; "{first|second|third|fourth|last} {weekday} of
 * (each|every|the)? month". Returns null for anything else (the form then shows
 * INVALID_CUSTOM_RECURRENCE).
 */
export function parseCustomRecurrence(text: string): CustomRecurrence | null {
  const s = text
    .toLowerCase()
    .trim()
    .replace(/[.!]+$/, "")
    .replace(/\s+/g, " ");
  if (s === "") return null;

  let m = /^every (\d+|[a-z]+) weeks?$/.exec(s);
  if (m) {
    const n = parseCount(m[1]);
    return n !== null && n >= 1 ? { kind: "every_n_weeks", n } : null;
  }
  if (s === "every week" || s === "weekly") return { kind: "every_n_weeks", n: 1 };
  if (s === "biweekly" || s === "bi-weekly") {
    return { kind: "every_n_weeks", n: 2 };
  }
  m = new RegExp(`^every other (${WEEKDAY_WORD})$`).exec(s);
  if (m) {
    // "every other month" also starts with "mon": only a real day name counts here.
    const weekday = parseWeekdayName(m[1]);
    if (weekday !== null) return { kind: "every_n_weeks", n: 2, weekday };
  }

  if (/^(every |once a |once per |each )?quarter(ly)?$/.test(s)) return { kind: "every_n_months", n: 3 };
  m = /^every (\d+|[a-z]+) months?$/.exec(s);
  if (m) {
    const n = parseCount(m[1]);
    return n !== null && n >= 1 ? { kind: "every_n_months", n } : null;
  }
  if (s === "every month" || s === "monthly") return { kind: "every_n_months", n: 1 };

  m = new RegExp(
    `^(?:the |on the )?(first|second|third|fourth|last|1st|2nd|3rd|4th) (${WEEKDAY_WORD}) of (?:each |every |the )?month$`,
  ).exec(s);
  if (m) {
    const weekday = parseWeekdayName(m[2]);
    const nth = ORDINAL_WORDS[m[1]];
    return weekday === null || nth === undefined ? null : { kind: "nth_weekday", nth, weekday };
  }
  return null;
}

/** 1 -> "1st", 2 -> "2nd", 11 -> "11th", 22 -> "22nd". */
export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

/** Which occurrence of its weekday a date is: 1..4, or -1 for a 5th (so always "last"). */
export function nthWeekdayOfDate(date: string): NthWeekday {
  const { day } = parseDateString(date);
  const nth = Math.ceil(day / 7);
  return nth >= 5 ? -1 : (nth as NthWeekday);
}

/**
 * The generated text of a monthly item from one of its dates:
 * "date" -> "Monthly on the 15th"; "weekday" -> "second Tuesday of every month".
 * In weekday mode days 1-28 are named by position (first..fourth), since those
 * exist in every month; days 29-31 (a 5th weekday) become "last". So the 4th
 * Thursday that is also the last one reads "fourth Thursday", and "fifth"
 * never appears.
 */
export function monthlyRuleText(dateYYYYMMDD: string, mode: "date" | "weekday"): string {
  const { day } = parseDateString(dateYYYYMMDD);
  if (mode === "date") return `Monthly on the ${ordinal(day)}`;
  const nth = nthWeekdayOfDate(dateYYYYMMDD);
  return `${NTH_NAMES[nth]} ${DAY_NAMES[dayOfWeekOfDate(dateYYYYMMDD)]} of every month`;
}

export type MonthlyRule =
  { kind: "month_day"; day: number } | { kind: "nth_weekday"; nth: NthWeekday; weekday: number };

/** Reads a stored monthly rule ("Monthly on the 15th", "last Friday of every month"); null if unknown. */
export function parseMonthlyRule(text: string): MonthlyRule | null {
  const s = text.toLowerCase().trim().replace(/\s+/g, " ");
  const m = /^monthly on the (\d{1,2})(?:st|nd|rd|th)?$/.exec(s);
  if (m) {
    const day = Number(m[1]);
    return day >= 1 && day <= 31 ? { kind: "month_day", day } : null;
  }
  const custom = parseCustomRecurrence(s);
  return custom?.kind === "nth_weekday" ? custom : null;
}

/**
 * A short human description of when an item runs, for cards and the event page:
 * "Every Tuesday", "Every other Tuesday", "First Monday of every month",
 * "Monthly on the 15th", "Every 3 weeks", "One-time".
 */
export function recurrenceSummary(item: RecurringItem): string {
  const day =
    item.dayOfWeek !== null && item.dayOfWeek !== undefined && item.dayOfWeek >= 0 && item.dayOfWeek <= 6
      ? DAY_NAMES[item.dayOfWeek]
      : null;
  const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  switch (item.recurrence) {
    case "weekly":
      return day ? `Every ${day}` : "Weekly";
    case "bi-weekly":
      return day ? `Every other ${day}` : "Bi-weekly";
    case "monthly":
      return item.monthlyRule ? capital(item.monthlyRule) : "Monthly";
    case "one-time":
      return "One-time";
    case "custom":
      return item.customRecurrenceDescription ? capital(item.customRecurrenceDescription.trim()) : "Custom schedule";
  }
}
