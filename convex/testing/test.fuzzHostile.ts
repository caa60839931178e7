/**
 * What counts as hostile for a field (fuzzHostile.test.ts): the known caps of
 * string fields and ranges of number fields (the rules modules' limits, which
 * the forms use too), the string and number leaves of an args validator,
 * arguments with one leaf replaced, and the caller the authorization matrix
 * lets act.
 */
import {
  MAX_BIT_NOTES_LENGTH,
  MAX_BIT_SEARCH_LENGTH,
  MAX_BIT_SECONDS,
  MAX_BIT_TAG_LENGTH,
  MAX_BIT_TITLE_LENGTH,
  MAX_SET_LIST_TITLE_LENGTH,
  MIN_BIT_SECONDS,
} from "../lib/bitRules";
import { MAX_COVER_AMOUNT, MAX_MINIMUM_ITEMS, MAX_PERFORMANCE_MINUTES, MIC_LIMITS } from "../lib/micRules";
import { MAX_SHARE_TOKEN_LENGTH } from "../lib/season";
import { MAX_DEFAULT_CITY_LENGTH, MAX_DISPLAY_NAME_LENGTH } from "../lib/profileRules";
import { MAX_CLAIM_MESSAGE_LENGTH, MAX_REVIEW_REASON_LENGTH } from "../model/claims";
import { MAX_NAME_LENGTH as MAX_WALK_IN_NAME_LENGTH, MAX_SPOTS, MAX_WAITLIST_SPOTS } from "../lib/nightListRules";
import { MAX_NOTES_LENGTH, MAX_SET_MINUTES, MAX_TAG_LENGTH, MAX_TAGS } from "../model/performances";
import { MAX_WEEKLY_GOAL_MINUTES, PROFILE_MAX_WEEKLY_GOAL_MINUTES } from "../model/profiles";
import { MAX_REPORT_NOTE_LENGTH } from "../model/reports";
import { MAX_RADIUS_MILES, MIN_RADIUS_MILES } from "../model/sceneArea";
import { MAX_TONIGHT_PAGE } from "../model/tonight";
import { matrix } from "./test.authzMatrix";
import type { Role } from "./test.authzWorld";
import type { ValidatorJson } from "./test.fuzz";
import { publicFunctions } from "./test.registry";

/**
 * Known caps of string fields, by "function.path" or by field name: the
 * rules modules' limits, which the forms use too.
 */
const STRING_CAPS: Record<string, number> = {
  "profiles:update.displayName": MAX_DISPLAY_NAME_LENGTH,
  "profiles:update.defaultCity": MAX_DEFAULT_CITY_LENGTH,
  "tonight:cityTimeZone.city": MAX_DEFAULT_CITY_LENGTH,
  "profiles:setStageName.stageName": MAX_DISPLAY_NAME_LENGTH,
  "venues:search.query": MIC_LIMITS.address,
  title: MIC_LIMITS.title,
  venueName: MIC_LIMITS.venueName,
  hostName: MIC_LIMITS.hostName,
  address: MIC_LIMITS.address,
  googlePlaceId: MIC_LIMITS.googlePlaceId,
  customRecurrenceDescription: MIC_LIMITS.customRecurrenceDescription,
  monthlyRule: MIC_LIMITS.monthlyRule,
  signupLink: MIC_LIMITS.link,
  showLink: MIC_LIMITS.link,
  "events:create.venue.city": MIC_LIMITS.city,
  "performances:logWithNewMic.venue.city": MIC_LIMITS.city,
  "admin:updateMic.city": MIC_LIMITS.city,
  "claims:updateOwnMic.notes": MIC_LIMITS.notes,
  "claims:submit.message": MAX_CLAIM_MESSAGE_LENGTH,
  "claims:review.reason": MAX_REVIEW_REASON_LENGTH,
  "claims:denyMoot.reason": MAX_REVIEW_REASON_LENGTH,
  "reports:submit.note": MAX_REPORT_NOTE_LENGTH,
  "performances:log.notes": MAX_NOTES_LENGTH,
  "performances:update.notes": MAX_NOTES_LENGTH,
  "performances:logWithNewMic.set.notes": MAX_NOTES_LENGTH,
  "performances:log.tags.[]": MAX_TAG_LENGTH,
  "performances:update.tags.[]": MAX_TAG_LENGTH,
  "performances:logWithNewMic.set.tags.[]": MAX_TAG_LENGTH,
  "nightLists:addWalkIn.name": MAX_WALK_IN_NAME_LENGTH,
  "nightLists:renameWalkIn.name": MAX_WALK_IN_NAME_LENGTH,
  "season:openShared.token": MAX_SHARE_TOKEN_LENGTH,
  "bits:create.title": MAX_BIT_TITLE_LENGTH,
  "bits:update.title": MAX_BIT_TITLE_LENGTH,
  "bits:create.notes": MAX_BIT_NOTES_LENGTH,
  "bits:update.notes": MAX_BIT_NOTES_LENGTH,
  "bits:create.tags.[]": MAX_BIT_TAG_LENGTH,
  "bits:update.tags.[]": MAX_BIT_TAG_LENGTH,
  "bits:list.tag": MAX_BIT_TAG_LENGTH,
  "bits:list.search": MAX_BIT_SEARCH_LENGTH,
  "setLists:create.title": MAX_SET_LIST_TITLE_LENGTH,
  "setLists:update.title": MAX_SET_LIST_TITLE_LENGTH,
};

/** Most elements of a string array argument. */
const ARRAY_CAPS: Record<string, number> = { tags: MAX_TAGS };

/**
 * Known ranges of number fields, by "function.path" or by field name: the
 * rules modules' limits. Values just outside are refused, both ends accepted.
 */
type NumberRange = { min: number; max: number; integer: boolean };
const NUMBER_RANGES: Record<string, NumberRange> = {
  dayOfWeek: { min: 0, max: 6, integer: true },
  coverAmount: { min: 0, max: MAX_COVER_AMOUNT, integer: false },
  minimumItems: { min: 1, max: MAX_MINIMUM_ITEMS, integer: true },
  performanceMinutes: { min: 1, max: MAX_PERFORMANCE_MINUTES, integer: true },
  "goals:update.weeklyGoalMinutes": { min: 1, max: MAX_WEEKLY_GOAL_MINUTES, integer: true },
  "profiles:completeOnboarding.weeklyGoalMinutes": { min: 1, max: MAX_WEEKLY_GOAL_MINUTES, integer: true },
  "profiles:update.weeklyGoalMinutes": { min: 1, max: PROFILE_MAX_WEEKLY_GOAL_MINUTES, integer: true },
  "performances:log.minutes": { min: 1, max: MAX_SET_MINUTES, integer: true },
  "performances:update.minutes": { min: 1, max: MAX_SET_MINUTES, integer: true },
  "nightLists:open.spots": { min: 1, max: MAX_SPOTS, integer: true },
  "nightLists:open.waitlistSpots": { min: 0, max: MAX_WAITLIST_SPOTS, integer: true },
  "sceneArea:listArea.radiusMiles": { min: MIN_RADIUS_MILES, max: MAX_RADIUS_MILES, integer: false },
  "tonight:list.paginationOpts.numItems": { min: 0, max: MAX_TONIGHT_PAGE, integer: false },
  "bits:create.seconds": { min: MIN_BIT_SECONDS, max: MAX_BIT_SECONDS, integer: true },
  "bits:update.seconds": { min: MIN_BIT_SECONDS, max: MAX_BIT_SECONDS, integer: true },
};

/** A leaf of the arguments: its path ("[]" for the elements of an array), and the validator of the value there. */
export type Leaf = { path: string[]; kind: "string" | "number" };

/** The string and number fields of an args validator, through objects and optional fields and unions of them. */
export function leaves(v: ValidatorJson, path: string[] = []): Leaf[] {
  switch (v.type) {
    case "string":
      return [{ path, kind: "string" }];
    case "number":
      return [{ path, kind: "number" }];
    case "array":
      // Arrays of strings or numbers (tags): their elements are leaves too.
      return v.value.type === "string" || v.value.type === "number" ? leaves(v.value, [...path, "[]"]) : [];
    case "object":
      return Object.entries(v.value).flatMap(([k, f]) => leaves(f.fieldType, [...path, k]));
    case "union": {
      const seen = new Map<string, Leaf>();
      for (const member of v.value)
        for (const leaf of leaves(member, path)) seen.set(`${leaf.path.join(".")}:${leaf.kind}`, leaf);
      return [...seen.values()];
    }
    default:
      return [];
  }
}

/**
 * Valid objects to put a hostile field into when the matrix's valid arguments
 * leave the optional object out, so that the call is refused for the field and
 * not for a missing sibling.
 */
const PARENTS: Record<string, Record<string, unknown>> = {
  costInfo: { type: "combo", coverAmount: 5, minimumItems: 1 },
  area: { lat: 40.7411, lng: -73.9897, radiusMiles: 10 },
};

/** `args` with `value` at `path`; a missing parent object is filled from {@link PARENTS}. */
export function withValue(args: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(args);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== "object" || node[key] === null) node[key] = structuredClone(PARENTS[key] ?? {});
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
  return copy;
}

/** `args` with `value` at `path`, or with `[value]` when the path ends in an array's elements. */
export function withLeaf(args: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  return path[path.length - 1] === "[]" ? withValue(args, path.slice(0, -1), [value]) : withValue(args, path, value);
}

export function rangeOf(name: string, path: string[]): NumberRange | undefined {
  return NUMBER_RANGES[`${name}.${path.join(".")}`] ?? NUMBER_RANGES[path[path.length - 1]];
}

/** Values just outside a range: a step below and above, and a fraction for whole numbers. */
export function pastRange({ min, max, integer }: NumberRange): Array<[string, number]> {
  const step = integer ? 1 : 0.01;
  const out: Array<[string, number]> = [
    [`${min - step} (min ${min})`, min - step],
    [`${max + step} (max ${max})`, max + step],
  ];
  if (integer) out.push([`${min + 0.5} (whole numbers only)`, min + 0.5]);
  return out;
}

export function hostileNumbers(field: string): Array<[string, number]> {
  const out: Array<[string, number]> = [
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["-Infinity", -Infinity],
    ["1e308", 1e308],
    ["-1e308", -1e308],
    ["MAX_VALUE", Number.MAX_VALUE],
  ];
  if (/^(lat|latitude)$/i.test(field)) out.push(["latitude 90.0001", 90.0001], ["latitude -90.0001", -90.0001]);
  if (/^(lng|lon|longitude)$/i.test(field))
    out.push(["longitude 180.0001", 180.0001], ["longitude -180.0001", -180.0001]);
  return out;
}

export function capOf(name: string, path: string[]): number | undefined {
  return STRING_CAPS[`${name}.${path.join(".")}`] ?? STRING_CAPS[path[path.length - 1]];
}

/** The most elements of the array whose elements `path` names, if it has a known cap. */
export function arrayCapOf(path: string[]): number | undefined {
  return path[path.length - 1] === "[]" ? ARRAY_CAPS[path[path.length - 2]] : undefined;
}

/** The caller whose call reaches the function's logic: the owner if the matrix lets them act, else the admin, else another comedian. */
export function actingRole(name: string): Role | null {
  const entry = matrix[name];
  for (const role of ["owner", "admin", "other", "anon"] as const) {
    if (entry[role] !== "nothing") return role;
  }
  return null;
}

/** The matrix's public functions some caller may reach, with the argument leaves `pick` keeps (those with none are left out). */
export function fuzzTargets(pick: (name: string, leaves: Leaf[]) => Leaf[]) {
  return publicFunctions().flatMap((fn) => {
    if (!(fn.name in matrix) || fn.argsJson === undefined) return [];
    const role = actingRole(fn.name);
    const fields = pick(fn.name, leaves(JSON.parse(fn.argsJson) as ValidatorJson));
    return role !== null && fields.length > 0 ? [{ ...fn, role, fields }] : [];
  });
}
