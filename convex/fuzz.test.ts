// Every public mutation and action gets FUZZ_RUNS argument sets from its own validator, valid values mixed with
// hostile ones; each call ends in success, a ConvexError or Convex's argument error, then invariants:checkAll passes.
// Set FUZZ_SEED to replay a failure (it prints fast-check's seed, path and counterexample).
import fc from "fast-check";
import { ConvexError } from "convex/values";
import { describe, expect, test, vi } from "vitest";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { NOW, type ValidatorJson } from "./testing/test.fuzz";
import { argsFor, conforms, isArgumentRejection, isAuthLibraryRefusal } from "./testing/test.fuzzArgs";
import { buildWorld } from "./testing/test.fuzzWorld";
import { callPublic, publicFunctions, useOfflineServer } from "./testing/test.registry";
import { checkAllInvariants } from "./testing/test.invariants";

const FUZZ_RUNS = 500;
const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20261121);

vi.setConfig({ testTimeout: 240_000 });

/** Every public mutation and action with its args validator. */
function writeFunctions(): Array<{ name: string; kind: "mutation" | "action"; args: ValidatorJson }> {
  return publicFunctions().flatMap((fn) =>
    fn.kind !== "query" && fn.argsJson !== undefined
      ? [{ name: fn.name, kind: fn.kind, args: JSON.parse(fn.argsJson) as ValidatorJson }]
      : [],
  );
}

/** Functions only admins may call: fuzzed as an admin so the arguments reach the logic. */
const ADMIN_FUNCTIONS = new Set(["claims:review", "reports:resolve", "geocode:fixCoordinates"]);
const asAdmin = (name: string) => name.startsWith("admin:") || ADMIN_FUNCTIONS.has(name);

function describeError(error: unknown): string {
  if (error instanceof ConvexError) return `ConvexError ${JSON.stringify(error.data)}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function seedFor(name: string): number {
  let h = BASE_SEED | 0;
  for (const ch of name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

useOfflineServer(NOW);

const targets = writeFunctions();

describe("bad input", () => {
  test("finds the public mutations and actions", () => {
    expect(targets.length).toBeGreaterThan(30);
  });

  test.each(targets)(`$name ($kind): ${FUZZ_RUNS} generated argument sets`, async ({ name, kind, args }) => {
    const world = await buildWorld();
    const caller = asAdmin(name) ? world.admin.asUser : world.comic.asUser;
    const outcomes = { ok: 0, convexError: 0, rejected: 0 };
    const seed = seedFor(name);
    await fc.assert(
      fc.asyncProperty(argsFor(args, world.pools.ids), async (generated) => {
        const valid = conforms(args, generated);
        try {
          await callPublic(caller, { name, kind }, generated as Record<string, unknown>);
          if (!valid) throw new Error(`${name} accepted arguments its validator should refuse`);
          outcomes.ok++;
        } catch (error) {
          if (error instanceof ConvexError) {
            outcomes.convexError++;
            return;
          }
          if (!valid && isArgumentRejection(error)) {
            outcomes.rejected++;
            return;
          }
          if (isAuthLibraryRefusal(name, error)) {
            outcomes.rejected++;
            return;
          }
          throw new Error(`${name} (${valid ? "valid" : "invalid"} arguments) threw ${describeError(error)}`);
        }
      }),
      { numRuns: FUZZ_RUNS, seed, endOnFailure: true },
    );
    expect(outcomes.ok + outcomes.convexError + outcomes.rejected).toBe(FUZZ_RUNS);
    // The generator must get past the validator, not only trip it.
    expect(outcomes.ok + outcomes.convexError, `${name}: no generated call reached the handler`).toBeGreaterThan(0);
    if (process.env.FUZZ_VERBOSE) console.log(`${name} seed=${seed}`, JSON.stringify(outcomes));
    const report = await checkAllInvariants(world.t);
    expect(report.problems, `invariants after fuzzing ${name} (seed ${seed})`).toEqual([]);
  });
});
