/**
 * Hostile values must be refused, not only survived. For every public
 * function in the authorization matrix, starting from the matrix's valid
 * arguments (convex/test.authzWorld.ts) and called as the caller the matrix
 * lets act, each string and number field its args validator declares
 * (nested objects too) is replaced in turn by:
 *
 * - numbers: NaN, Infinity, -Infinity, ±1e308, Number.MAX_VALUE, and for
 *   latitude/longitude fields ±90.0001 / ±180.0001; for fields with a known
 *   range (the rules modules' limits) one step below the minimum and above
 *   the maximum, and a fraction where a whole number is required;
 * - strings: a 1 MB string, and for fields with a known cap (the rules
 *   modules' limits) the cap plus one character; string arrays (tags) get a
 *   1 MB element, an element one past its cap and one element too many.
 *
 * Each such call must be refused with INVALID_INPUT (or Convex's argument
 * validation error) and leave every application row as it was; a refusal for
 * another reason (not allowed, not found, a stale list) does not count, and
 * the valid arguments must still be accepted after all the hostile calls, so
 * no refusal is explained by something other than the hostile value. A
 * string exactly at its cap, and a number exactly at either end of its range,
 * must be accepted (with the rest of the arguments valid), so the caps are
 * the forms' caps and not stricter. Removing a cap from any entry point makes
 * this test fail. Sign-up (auth:signIn, whose params Convex Auth leaves
 * untyped) has its own case below.
 */
import { makeFunctionReference, type FunctionReference } from "convex/server";
import { ConvexError } from "convex/values";
import { describe, expect, test, vi } from "vitest";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { api } from "./_generated/api";
import { MAX_COVER_AMOUNT, MAX_MINIMUM_ITEMS, MAX_PERFORMANCE_MINUTES, MIC_LIMITS } from "./lib/micRules";
import {
  MAX_DEFAULT_CITY_LENGTH,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_PASSWORD_LENGTH,
} from "./lib/profileRules";
import { MAX_CLAIM_MESSAGE_LENGTH } from "./model/claims";
import { MAX_NAME_LENGTH as MAX_WALK_IN_NAME_LENGTH, MAX_SPOTS, MAX_WAITLIST_SPOTS } from "./lib/nightListRules";
import { MAX_NOTES_LENGTH, MAX_SET_MINUTES, MAX_TAG_LENGTH, MAX_TAGS } from "./model/performances";
import { MAX_WEEKLY_GOAL_MINUTES, PROFILE_MAX_WEEKLY_GOAL_MINUTES } from "./model/profiles";
import { MAX_REPORT_NOTE_LENGTH } from "./model/reports";
import { MAX_RADIUS_MILES, MIN_RADIUS_MILES } from "./model/sceneArea";
import { MAX_TONIGHT_PAGE } from "./model/tonight";
import { buildWorld, matrix, snapshotAll, type Role, type World } from "./test.authzWorld";
import { publicFunctions, useOfflineServer } from "./test.registry";

vi.setConfig({ testTimeout: 240_000 });

type ValidatorJson =
  | { type: "null" | "number" | "bigint" | "boolean" | "string" | "bytes" | "any" }
  | { type: "literal"; value: string | number | boolean }
  | { type: "id"; tableName: string }
  | { type: "array"; value: ValidatorJson }
  | { type: "record"; keys: ValidatorJson; values: { fieldType: ValidatorJson } }
  | { type: "union"; value: ValidatorJson[] }
  | { type: "object"; value: Record<string, { fieldType: ValidatorJson; optional: boolean }> };

const NOW = Date.parse("2026-11-25T19:45:00-05:00");
const ONE_MB = "x".repeat(1024 * 1024);

/**
 * Known caps of string fields, by "function.path" or by field name: the
 * rules modules' limits, which the forms use too.
 */
const STRING_CAPS: Record<string, number> = {
  "profiles:update.displayName": MAX_DISPLAY_NAME_LENGTH,
  "profiles:update.defaultCity": MAX_DEFAULT_CITY_LENGTH,
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
  "reports:submit.note": MAX_REPORT_NOTE_LENGTH,
  "performances:log.notes": MAX_NOTES_LENGTH,
  "performances:update.notes": MAX_NOTES_LENGTH,
  "performances:logWithNewMic.set.notes": MAX_NOTES_LENGTH,
  "performances:log.tags.[]": MAX_TAG_LENGTH,
  "performances:update.tags.[]": MAX_TAG_LENGTH,
  "performances:logWithNewMic.set.tags.[]": MAX_TAG_LENGTH,
  "nightLists:addWalkIn.name": MAX_WALK_IN_NAME_LENGTH,
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
  "performances:log.minutes": { min: 0, max: MAX_SET_MINUTES, integer: true },
  "performances:update.minutes": { min: 0, max: MAX_SET_MINUTES, integer: true },
  "nightLists:open.spots": { min: 1, max: MAX_SPOTS, integer: true },
  "nightLists:open.waitlistSpots": { min: 0, max: MAX_WAITLIST_SPOTS, integer: true },
  "sceneArea:listArea.radiusMiles": { min: MIN_RADIUS_MILES, max: MAX_RADIUS_MILES, integer: false },
  "tonight:list.paginationOpts.numItems": { min: 0, max: MAX_TONIGHT_PAGE, integer: false },
};

/** Capped fields whose at-cap value must also have a format (a URL, a schedule rule): checked only past the cap. */
const FORMATTED = new Set(["customRecurrenceDescription", "monthlyRule", "signupLink", "showLink", "googlePlaceId"]);

/**
 * Where a query answers null for malformed input instead of refusing it (the
 * documented contract, nothing is read or written): scene:get's id, which
 * comes from the page's URL, shows "not found".
 */
const NULL_ANSWER_IS_REFUSAL = new Set(["scene:get.id"]);

/** A leaf of the arguments: its path ("[]" for the elements of an array), and the validator of the value there. */
type Leaf = { path: string[]; kind: "string" | "number" };

/** The string and number fields of an args validator, through objects and optional fields and unions of them. */
function leaves(v: ValidatorJson, path: string[] = []): Leaf[] {
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
function withValue(args: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
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
function withLeaf(args: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  return path[path.length - 1] === "[]" ? withValue(args, path.slice(0, -1), [value]) : withValue(args, path, value);
}

function rangeOf(name: string, path: string[]): NumberRange | undefined {
  return NUMBER_RANGES[`${name}.${path.join(".")}`] ?? NUMBER_RANGES[path[path.length - 1]];
}

/** Values just outside a range: a step below and above, and a fraction for whole numbers. */
function pastRange({ min, max, integer }: NumberRange): Array<[string, number]> {
  const step = integer ? 1 : 0.01;
  const out: Array<[string, number]> = [
    [`${min - step} (min ${min})`, min - step],
    [`${max + step} (max ${max})`, max + step],
  ];
  if (integer) out.push([`${min + 0.5} (whole numbers only)`, min + 0.5]);
  return out;
}

function hostileNumbers(field: string): Array<[string, number]> {
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

function capOf(name: string, path: string[]): number | undefined {
  return STRING_CAPS[`${name}.${path.join(".")}`] ?? STRING_CAPS[path[path.length - 1]];
}

/** The most elements of the array whose elements `path` names, if it has a known cap. */
function arrayCapOf(path: string[]): number | undefined {
  return path[path.length - 1] === "[]" ? ARRAY_CAPS[path[path.length - 2]] : undefined;
}

/** The caller whose call reaches the function's logic: the owner if the matrix lets them act, else the admin, else another comedian. */
function actingRole(name: string): Role | null {
  const entry = matrix[name];
  for (const role of ["owner", "admin", "other", "anon"] as const) {
    if (entry[role] !== "nothing") return role;
  }
  return null;
}

async function call(
  w: World,
  role: Role,
  name: string,
  kind: "query" | "mutation" | "action",
  args: Record<string, unknown>,
) {
  const c = role === "anon" ? w.t : w[role].asUser;
  if (kind === "query") return await c.query(makeFunctionReference<"query">(name) as FunctionReference<"query">, args);
  if (kind === "mutation")
    return await c.mutation(makeFunctionReference<"mutation">(name) as FunctionReference<"mutation">, args);
  return await c.action(makeFunctionReference<"action">(name) as FunctionReference<"action">, args);
}

/** A refusal of the value itself: INVALID_INPUT, or Convex's argument validation. */
function isRefusal(error: unknown): boolean {
  if (error instanceof ConvexError) return (error.data as { code?: string })?.code === "INVALID_INPUT";
  const message = error instanceof Error ? error.message : "";
  return /^(Validator error|ArgumentValidationError|Value does not match validator)/.test(message);
}

function describeOutcome(outcome: { ok: boolean; error?: unknown; value?: unknown }): string {
  if (outcome.ok) return `accepted (answered ${JSON.stringify(outcome.value)?.slice(0, 200)})`;
  const error = outcome.error;
  if (error instanceof ConvexError) return `ConvexError ${JSON.stringify(error.data)}`;
  return error instanceof Error ? `${error.name}: ${error.message.slice(0, 300)}` : String(error);
}

useOfflineServer(NOW);

/** Functions whose hostile values are checked: every matrix entry with string or number fields some caller may reach. */
const targets = publicFunctions().flatMap((fn) => {
  if (!(fn.name in matrix) || fn.argsJson === undefined) return [];
  const role = actingRole(fn.name);
  const fields = leaves(JSON.parse(fn.argsJson) as ValidatorJson);
  return role !== null && fields.length > 0 ? [{ ...fn, role, fields }] : [];
});

describe("hostile values are refused", () => {
  test("finds the functions with string and number arguments", () => {
    expect(targets.length).toBeGreaterThan(30);
  });

  test.each(targets)("$name ($kind) as $role", async ({ name, kind, role, fields }) => {
    const w = await buildWorld();
    const valid = matrix[name].args(w);
    const accepted: string[] = [];
    const attempts: Array<{ label: string; args: Record<string, unknown> }> = [];
    for (const { path, kind: leafKind } of fields) {
      const field = path.join(".");
      if (leafKind === "number") {
        for (const [label, value] of hostileNumbers(path[path.length - 1])) {
          attempts.push({ label: `${field} = ${label}`, args: withLeaf(valid, path, value) });
        }
        const range = rangeOf(name, path);
        for (const [label, value] of range ? pastRange(range) : []) {
          attempts.push({ label: `${field} = ${label}`, args: withLeaf(valid, path, value) });
        }
      } else {
        attempts.push({ label: `${field} = 1 MB string`, args: withLeaf(valid, path, ONE_MB) });
        const cap = capOf(name, path);
        if (cap !== undefined) {
          attempts.push({
            label: `${field} = ${cap + 1} characters (cap ${cap})`,
            args: withLeaf(valid, path, "y".repeat(cap + 1)),
          });
        }
        const most = arrayCapOf(path);
        if (most !== undefined) {
          const many = Array.from({ length: most + 1 }, (_, i) => `t${i}`);
          attempts.push({
            label: `${field} = ${most + 1} elements (cap ${most})`,
            args: withValue(valid, path.slice(0, -1), many),
          });
        }
      }
    }
    for (const { label, args } of attempts) {
      const before = await snapshotAll(w.t);
      let outcome: { ok: boolean; error?: unknown; value?: unknown };
      try {
        outcome = { ok: true, value: await call(w, role, name, kind, args) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      const nullAnswer =
        outcome.ok && outcome.value === null && NULL_ANSWER_IS_REFUSAL.has(`${name}.${label.split(" = ")[0]}`);
      if (!nullAnswer && (outcome.ok || !isRefusal(outcome.error)))
        accepted.push(`${label}: ${describeOutcome(outcome)}`);
      const after = await snapshotAll(w.t);
      if (JSON.stringify(after) !== JSON.stringify(before)) accepted.push(`${label}: rows changed`);
    }
    expect(accepted, `${name} must refuse every hostile value`).toEqual([]);
    // The refusals were about the values: the valid arguments still work.
    await expect(call(w, role, name, kind, valid), `${name} with its valid arguments`).resolves.not.toThrow();
  });

  const atCap = targets.flatMap(({ name, kind, role, fields }) =>
    fields.flatMap(({ path, kind: leafKind }) => {
      const cap = leafKind === "string" ? capOf(name, path) : undefined;
      return cap === undefined || kind === "query" || FORMATTED.has(path[path.length - 1])
        ? []
        : [{ name, kind, role, path, cap, field: path.join(".") }];
    }),
  );

  const atRange = targets.flatMap(({ name, kind, role, fields }) =>
    fields.flatMap(({ path, kind: leafKind }) => {
      const range = leafKind === "number" ? rangeOf(name, path) : undefined;
      return range === undefined
        ? []
        : [range.min, range.max].map((value) => ({ name, kind, role, path, value, field: path.join(".") }));
    }),
  );

  const atArrayCap = targets.flatMap(({ name, kind, role, fields }) =>
    fields.flatMap(({ path }) => {
      const most = arrayCapOf(path);
      return most === undefined || kind === "query"
        ? []
        : [{ name, kind, role, path, most, field: path.slice(0, -1).join(".") }];
    }),
  );

  test.each(atArrayCap)(
    "$name: $field with exactly $most elements is accepted",
    async ({ name, kind, role, path, most }) => {
      const w = await buildWorld();
      const many = Array.from({ length: most }, (_, i) => `t${i}`);
      const args = withValue(matrix[name].args(w), path.slice(0, -1), many);
      await expect(call(w, role, name, kind, args)).resolves.not.toThrow();
    },
  );

  test("some number fields have known ranges", () => {
    expect(atRange.length).toBeGreaterThan(10);
  });

  test.each(atRange)(
    "$name: $field = $value (an end of its range) is accepted",
    async ({ name, kind, role, path, value }) => {
      const w = await buildWorld();
      const args = withLeaf(matrix[name].args(w), path, value);
      await expect(call(w, role, name, kind, args)).resolves.not.toThrow();
    },
  );

  test("some string fields have known caps", () => {
    expect(atCap.length).toBeGreaterThan(5);
  });

  test.each(atCap)("$name: $field of exactly $cap characters is accepted", async ({ name, kind, role, path, cap }) => {
    const w = await buildWorld();
    const args = withLeaf(matrix[name].args(w), path, "z".repeat(cap));
    await expect(call(w, role, name, kind, args)).resolves.not.toThrow();
  });
});

describe("sign-up's untyped params are capped too", () => {
  const signUp = (t: World["t"], params: Record<string, string>) =>
    t.action(api.auth.signIn, { provider: "password", params: { flow: "signUp", ...params } });
  const refusedWith = async (run: Promise<unknown>, message: string) => {
    const outcome = await run.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    expect(outcome.ok ? `accepted: ${JSON.stringify(outcome.value)?.slice(0, 200)}` : describeOutcome(outcome)).toBe(
      `ConvexError ${JSON.stringify({ code: "INVALID_INPUT", message })}`,
    );
  };

  test("a 1 MB or one-past-the-cap email, password or name is refused; each at its cap is accepted", async () => {
    const { exportPKCS8, generateKeyPair } = await import("jose");
    const keys = await generateKeyPair("RS256", { extractable: true });
    vi.stubEnv("JWT_PRIVATE_KEY", await exportPKCS8(keys.privateKey));
    const w = await buildWorld();
    const email = (n: number) => `${"e".repeat(n - "@example.com".length)}@example.com`;
    const tooLong = {
      email: `Email must be ${MAX_EMAIL_LENGTH} characters or fewer`,
      password: `Password must be ${MAX_PASSWORD_LENGTH} characters or fewer`,
      name: `Display name must be ${MAX_DISPLAY_NAME_LENGTH} characters or fewer.`,
    };
    const before = await snapshotAll(w.t);
    for (const value of [ONE_MB, "x".repeat(MAX_EMAIL_LENGTH + 1)]) {
      await refusedWith(signUp(w.t, { email: `${value}@example.com`, password: "secret1" }), tooLong.email);
    }
    await refusedWith(signUp(w.t, { email: email(MAX_EMAIL_LENGTH + 1), password: "secret1" }), tooLong.email);
    for (const value of [ONE_MB, "p".repeat(MAX_PASSWORD_LENGTH + 1)]) {
      await refusedWith(signUp(w.t, { email: "pw@example.com", password: value }), tooLong.password);
    }
    for (const value of [ONE_MB, "n".repeat(MAX_DISPLAY_NAME_LENGTH + 1)]) {
      await refusedWith(signUp(w.t, { email: "name@example.com", password: "secret1", name: value }), tooLong.name);
    }
    expect(await snapshotAll(w.t), "a refused sign-up writes nothing").toEqual(before);
    const atCaps = await signUp(w.t, {
      email: email(MAX_EMAIL_LENGTH),
      password: "p".repeat(MAX_PASSWORD_LENGTH),
      name: "n".repeat(MAX_DISPLAY_NAME_LENGTH),
    });
    expect((atCaps as { tokens?: { token: string } | null }).tokens?.token).toBeTruthy();
  });
});
