// Every string field of every public function gets control characters (bare CR, NUL, ESC, DEL, C1, U+2028/9,
// bidi overrides; newline and tab in single-line fields): refused with INVALID_INPUT, no row changed.
// Multi-line fields (notes, a claim's message, a report's note) keep their newlines and tabs.
import { ConvexError } from "convex/values";
import { describe, expect, test, vi } from "vitest";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { matrix } from "./testing/test.authzMatrix";
import { snapshotAll } from "./testing/test.authzSnapshot";
import { buildWorld, callerOf } from "./testing/test.authzWorld";
import { describeOutcome, NOW } from "./testing/test.fuzz";
import { fuzzTargets, withLeaf } from "./testing/test.fuzzHostile";
import { callPublic, useOfflineServer } from "./testing/test.registry";

vi.setConfig({ testTimeout: 240_000 });

/** Opaque tokens, not text: a cursor is refused or answered by Convex itself, an id that resolves to nothing is "not found". */
const NOT_TEXT = new Set(["paginationOpts.cursor", "paginationOpts.endCursor", "scene:get.id"]);

/** Fields that hold several lines. */
const MULTILINE = new Set(["notes", "message", "note"]);

const HOSTILE: Array<[string, string]> = [
  ["a bare CR starting a calendar property", "\rURL:https://evil.example/\r"],
  ["NUL", "\u0000"],
  ["ESC", "\u001b[2J"],
  ["DEL", "\u007f"],
  ["C1 NEL", "\u0085"],
  ["U+2028", "\u2028"],
  ["U+2029", "\u2029"],
  ["right-to-left override", "\u202e"],
  ["left-to-right embedding", "\u202a"],
  ["first-strong isolate", "\u2068"],
];
const SINGLE_LINE_HOSTILE: Array<[string, string]> = [
  ["a newline", "\nATTACH:https://evil.example/x"],
  ["a tab", "\t"],
];

/** A refusal of the value itself: INVALID_INPUT, or Convex's argument validation. */
function isRefusal(error: unknown): boolean {
  if (error instanceof ConvexError) return (error.data as { code?: string })?.code === "INVALID_INPUT";
  const message = error instanceof Error ? error.message : "";
  return /^(Validator error|ArgumentValidationError|Value does not match validator)/.test(message);
}

function valueAt(args: Record<string, unknown>, path: string[]): unknown {
  let node: unknown = args;
  for (const key of path) {
    if (key === "[]") node = Array.isArray(node) ? node[0] : undefined;
    else node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** `middle` inside the field's valid value (so it still looks like a title, a link, a date), or inside "Open mic". */
function spliced(valid: unknown, middle: string): string {
  const text = typeof valid === "string" && valid.length >= 2 ? valid : "Open mic";
  const at = Math.max(1, Math.floor(text.length / 2));
  return text.slice(0, at) + middle + text.slice(at);
}

useOfflineServer(NOW);

const targets = fuzzTargets((name, all) =>
  all.filter(
    (leaf) =>
      leaf.kind === "string" && !NOT_TEXT.has(leaf.path.join(".")) && !NOT_TEXT.has(`${name}.${leaf.path.join(".")}`),
  ),
).map((fn) => ({ ...fn, fields: fn.fields.map((leaf) => leaf.path) }));

describe("control characters are refused in every text argument", () => {
  test("finds the functions with text arguments", () => {
    expect(targets.length).toBeGreaterThan(20);
  });

  test.each(targets)("$name ($kind) as $role", async ({ name, kind, role, fields }) => {
    const w = await buildWorld();
    const valid = matrix[name].args(w);
    const accepted: string[] = [];
    for (const path of fields) {
      const field = path.join(".");
      const multiline = MULTILINE.has(path[path.length - 1]);
      for (const [label, middle] of multiline ? HOSTILE : [...HOSTILE, ...SINGLE_LINE_HOSTILE]) {
        const args = withLeaf(valid, path, spliced(valueAt(valid, path), middle));
        const before = await snapshotAll(w.t);
        let outcome: { ok: boolean; error?: unknown; value?: unknown };
        try {
          outcome = { ok: true, value: await callPublic(callerOf(w, role), { name, kind }, args) };
        } catch (error) {
          outcome = { ok: false, error };
        }
        if (outcome.ok || !isRefusal(outcome.error))
          accepted.push(`${field} with ${label}: ${describeOutcome(outcome)}`);
        if (JSON.stringify(await snapshotAll(w.t)) !== JSON.stringify(before))
          accepted.push(`${field} with ${label}: rows changed`);
      }
    }
    expect(accepted, `${name} must refuse control characters`).toEqual([]);
    await expect(callPublic(callerOf(w, role), { name, kind }, valid)).resolves.not.toThrow();
  });

  const multilineFields = targets.flatMap(({ name, kind, role, fields }) =>
    kind === "query"
      ? []
      : fields
          .filter((path) => MULTILINE.has(path[path.length - 1]))
          .map((path) => ({ name, kind, role, path, field: path.join(".") })),
  );

  test("some fields hold several lines", () => {
    expect(multilineFields.length).toBeGreaterThan(4);
  });

  test.each(multilineFields)("$name: $field keeps its newlines and tabs", async ({ name, kind, role, path }) => {
    const w = await buildWorld();
    const args = withLeaf(matrix[name].args(w), path, "Bring a friend.\n\tSign-up at 7.\r\nNo heckling.");
    await expect(callPublic(callerOf(w, role), { name, kind }, args)).resolves.not.toThrow();
  });
});
