/**
 * Hostile values in every string and number field of every public function (from the matrix's valid arguments, as
 * a caller it lets act) must be refused with no row changed. Sign-up has its own: fuzzHostile.signUp.test.ts.
 */
import { ConvexError } from "convex/values";
import { describe, expect, test, vi } from "vitest";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { matrix } from "./testing/test.authzMatrix";
import { snapshotAll } from "./testing/test.authzSnapshot";
import { buildWorld, callerOf } from "./testing/test.authzWorld";
import { describeOutcome, NOW, ONE_MB } from "./testing/test.fuzz";
import {
  arrayCapOf,
  capOf,
  fuzzTargets,
  hostileNumbers,
  pastRange,
  rangeOf,
  withLeaf,
  withValue,
} from "./testing/test.fuzzHostile";
import { callPublic, useOfflineServer } from "./testing/test.registry";

vi.setConfig({ testTimeout: 240_000 });

/** Capped fields whose at-cap value must also have a format (a URL, a schedule rule): checked only past the cap. */
const FORMATTED = new Set(["customRecurrenceDescription", "monthlyRule", "signupLink", "showLink", "googlePlaceId"]);

/**
 * Where a query answers null for malformed input instead of refusing it (the
 * documented contract, nothing is read or written): scene:get's id, which
 * comes from the page's URL, shows "not found".
 */
const NULL_ANSWER_IS_REFUSAL = new Set(["scene:get.id"]);

/** A refusal of the value itself: INVALID_INPUT, or Convex's argument validation. */
function isRefusal(error: unknown): boolean {
  if (error instanceof ConvexError) return (error.data as { code?: string })?.code === "INVALID_INPUT";
  const message = error instanceof Error ? error.message : "";
  return /^(Validator error|ArgumentValidationError|Value does not match validator)/.test(message);
}

useOfflineServer(NOW);

/** Functions whose hostile values are checked: every matrix entry with string or number fields some caller may reach. */
const targets = fuzzTargets((_name, all) => all);

describe("hostile values are refused", () => {
  test("finds the functions with string and number arguments", () => {
    expect(targets.length).toBeGreaterThan(30);
  });

  test.each(targets)("$name ($kind) as $role", async ({ name, kind, role, fields }) => {
    const w = await buildWorld();
    const valid = matrix[name].args(w);
    const accepted: string[] = [];
    const attempts: Array<{ label: string; args: Record<string, unknown> }> = [];
    // Numbers: NaN, ±Infinity, ±1e308, past a known range, a fraction; strings: 1 MB, cap + 1; arrays: one too many.
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
        outcome = { ok: true, value: await callPublic(callerOf(w, role), { name, kind }, args) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      const nullAnswer =
        outcome.ok && outcome.value === null && NULL_ANSWER_IS_REFUSAL.has(`${name}.${label.split(" = ")[0]}`);
      // A refusal for another reason (not allowed, not found, a stale list) does not count.
      if (!nullAnswer && (outcome.ok || !isRefusal(outcome.error)))
        accepted.push(`${label}: ${describeOutcome(outcome)}`);
      const after = await snapshotAll(w.t);
      if (JSON.stringify(after) !== JSON.stringify(before)) accepted.push(`${label}: rows changed`);
    }
    expect(accepted, `${name} must refuse every hostile value`).toEqual([]);
    // The refusals were about the values: the valid arguments still work.
    await expect(
      callPublic(callerOf(w, role), { name, kind }, valid),
      `${name} with its valid arguments`,
    ).resolves.not.toThrow();
  });

  // A value exactly at its cap or range end is accepted, so the caps are the forms' caps and not stricter.
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
      await expect(callPublic(callerOf(w, role), { name, kind }, args)).resolves.not.toThrow();
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
      await expect(callPublic(callerOf(w, role), { name, kind }, args)).resolves.not.toThrow();
    },
  );

  test("some string fields have known caps", () => {
    expect(atCap.length).toBeGreaterThan(5);
  });

  test.each(atCap)("$name: $field of exactly $cap characters is accepted", async ({ name, kind, role, path, cap }) => {
    const w = await buildWorld();
    const args = withLeaf(matrix[name].args(w), path, "z".repeat(cap));
    await expect(callPublic(callerOf(w, role), { name, kind }, args)).resolves.not.toThrow();
  });
});
