/**
 * Hostile values must be refused, not only survived. For every public
 * function in the authorization matrix, starting from the matrix's valid
 * arguments (convex/test.authzWorld.ts) and called as the caller the matrix
 * lets act, each string and number field its args validator declares
 * (nested objects too) is replaced in turn by:
 *
 * - numbers: NaN, Infinity, -Infinity, ±1e308, Number.MAX_VALUE, and for
 *   latitude/longitude fields ±90.0001 / ±180.0001;
 * - strings: a 1 MB string, and for fields with a known cap (the rules
 *   modules' limits) the cap plus one character.
 *
 * Each such call must be refused (a ConvexError, or Convex's argument
 * validation error) and leave every application row as it was. A string
 * exactly at its cap must be accepted (with the rest of the arguments valid),
 * so the caps are the forms' caps and not stricter. Removing a cap from any
 * entry point makes this test fail.
 */
import { makeFunctionReference, type FunctionReference } from "convex/server";
import { ConvexError } from "convex/values";
import { describe, expect, test, vi } from "vitest";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { MIC_LIMITS } from "./lib/micRules";
import { MAX_DEFAULT_CITY_LENGTH, MAX_DISPLAY_NAME_LENGTH } from "./lib/profileRules";
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
};

/** Capped fields whose at-cap value must also have a format (a URL, a schedule rule): checked only past the cap. */
const FORMATTED = new Set(["customRecurrenceDescription", "monthlyRule", "signupLink", "showLink", "googlePlaceId"]);

/**
 * Where a query answers null for malformed input instead of refusing it (the
 * documented contract, nothing is read or written): scene:get's id, which
 * comes from the page's URL, shows "not found".
 */
const NULL_ANSWER_IS_REFUSAL = new Set(["scene:get.id"]);

/** A leaf of the arguments: its path, and the validator of the value there. */
type Leaf = { path: string[]; kind: "string" | "number" };

/** The string and number fields of an args validator, through objects and optional fields and unions of them. */
function leaves(v: ValidatorJson, path: string[] = []): Leaf[] {
  switch (v.type) {
    case "string":
      return [{ path, kind: "string" }];
    case "number":
      return [{ path, kind: "number" }];
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

/** `args` with `value` at `path`; null when a parent object is missing from the valid example. */
function withValue(args: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(args);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== "object" || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
  return copy;
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

function isRefusal(error: unknown): boolean {
  if (error instanceof ConvexError) return true;
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
          attempts.push({ label: `${field} = ${label}`, args: withValue(valid, path, value) });
        }
      } else {
        attempts.push({ label: `${field} = 1 MB string`, args: withValue(valid, path, ONE_MB) });
        const cap = capOf(name, path);
        if (cap !== undefined) {
          attempts.push({
            label: `${field} = ${cap + 1} characters (cap ${cap})`,
            args: withValue(valid, path, "y".repeat(cap + 1)),
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
  });

  const atCap = targets.flatMap(({ name, kind, role, fields }) =>
    fields.flatMap(({ path, kind: leafKind }) => {
      const cap = leafKind === "string" ? capOf(name, path) : undefined;
      return cap === undefined || kind === "query" || FORMATTED.has(path[path.length - 1])
        ? []
        : [{ name, kind, role, path, cap, field: path.join(".") }];
    }),
  );

  test("some string fields have known caps", () => {
    expect(atCap.length).toBeGreaterThan(5);
  });

  test.each(atCap)("$name: $field of exactly $cap characters is accepted", async ({ name, kind, role, path, cap }) => {
    const w = await buildWorld();
    const args = withValue(matrix[name].args(w), path, "z".repeat(cap));
    await expect(call(w, role, name, kind, args)).resolves.not.toThrow();
  });
});
