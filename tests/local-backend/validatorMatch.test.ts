/**
 * The quick validator check (local-backend/src/runtime/validatorMatch.ts) that convex-test's
 * validateValidator asks first: it must never accept what convex-test's own check refuses, and
 * it must accept the common shapes (optional fields as unions with null, enums of literals)
 * without falling back to convex-test's throwing union check.
 */
import { v, type Validator } from "convex/values";
import { describe, expect, it } from "vitest";
import { loadConvexTest } from "../../local-backend/src/runtime/convexTestLoader";
import { matchesValidator } from "../../local-backend/src/runtime/validatorMatch";

const spot = v.object({
  name: v.string(),
  section: v.union(v.literal("pool"), v.literal("list"), v.literal("waitlist")),
  drawIndex: v.union(v.number(), v.null()),
  note: v.optional(v.string()),
  tags: v.array(v.union(v.string(), v.boolean())),
  big: v.optional(v.int64()),
  bytes: v.optional(v.bytes()),
  anything: v.optional(v.any()),
});
const validators: Array<Validator<any, any, any>> = [
  spot,
  v.array(spot),
  v.union(spot, v.null()),
  v.union(v.literal(1), v.literal("1")),
  v.record(v.string(), v.number()),
];
const values: unknown[] = [
  null,
  undefined,
  1,
  "1",
  true,
  [],
  {},
  Object.create(null),
  new Map(),
  { name: "A", section: "list", drawIndex: null, tags: [] },
  { name: "A", section: "waitlist", drawIndex: 3, tags: ["x", false], note: "n", big: 5n, anything: { y: 1 } },
  { name: "A", section: "waitlist", drawIndex: 3, tags: [], bytes: new ArrayBuffer(2) },
  { name: "A", section: "lobby", drawIndex: null, tags: [] },
  { name: "A", section: "list", drawIndex: "3", tags: [] },
  { name: "A", section: "list", tags: [] },
  { name: "A", section: "list", drawIndex: null, tags: [1] },
  { name: "A", section: "list", drawIndex: null, tags: [], extra: 1 },
  { name: "A", section: "list", drawIndex: null, tags: [], big: 5 },
  [{ name: "A", section: "pool", drawIndex: 0, tags: [] }],
  [{ name: "A", section: "pool", drawIndex: 0, tags: [] }, null],
  { a: 1, b: 2 },
  { name: "A", section: "list", drawIndex: null, tags: [], constructor: "x" },
  { name: "A", section: "list", drawIndex: null, tags: [], toString: "x" },
];

/** A validator as a function's exported args/returns carry it (what convex-test checks against). */
const jsonOf = (validator: Validator<any, any, any>) =>
  JSON.parse(JSON.stringify((validator as unknown as { json: unknown }).json)) as { type: string };

/** convex-test's own verdict, with the quick check switched off. */
async function convexTestAccepts(validator: Validator<any, any, any>, value: unknown): Promise<boolean> {
  const ct = await loadConvexTest();
  const hook = (globalThis as any).__localBackendMatchesValidator;
  (globalThis as any).__localBackendMatchesValidator = undefined;
  try {
    ct.validateValidator(jsonOf(validator), value);
    return true;
  } catch {
    return false;
  } finally {
    (globalThis as any).__localBackendMatchesValidator = hook;
  }
}

describe("the quick validator check", () => {
  it("accepts only what convex-test accepts, and every plain object, array and union convex-test accepts", async () => {
    let accepted = 0;
    for (const [v, validator] of validators.entries()) {
      const json = jsonOf(validator);
      for (const [i, value] of values.entries()) {
        const quick = matchesValidator(json, value);
        const slow = await convexTestAccepts(validator, value);
        if (quick) expect(slow, `validator ${v}, value ${i}`).toBe(true);
        // convex-test does not check records; the quick check leaves them to it.
        if (validator.kind !== "record") expect(quick, `validator ${v}, value ${i}`).toBe(slow);
        if (quick) accepted++;
      }
    }
    expect(accepted).toBeGreaterThan(5);
  });

  it("refuses an extra field named like an Object.prototype member, as Convex does", async () => {
    const ct = await loadConvexTest();
    for (const extra of ["constructor", "toString", "hasOwnProperty", "valueOf"]) {
      const value = { name: "A", section: "list", drawIndex: null, tags: [], [extra]: "injected" };
      expect(matchesValidator(jsonOf(spot), value)).toBe(false);
      expect(() => ct.validateValidator(jsonOf(spot), value)).toThrow(`Unexpected field \`${extra}\``);
    }
  });

  it("is what convex-test's validateValidator asks first: a refusal still gets convex-test's message", async () => {
    const ct = await loadConvexTest();
    const json = jsonOf(spot);
    expect(() => ct.validateValidator(json, { name: "A", section: "lobby", drawIndex: null, tags: [] })).toThrow(
      /Validator error: Expected one of literal, literal, literal/,
    );
    const hook = (globalThis as any).__localBackendMatchesValidator;
    let asked = 0;
    (globalThis as any).__localBackendMatchesValidator = (validator: unknown, value: unknown) => {
      asked++;
      return hook(validator, value);
    };
    try {
      const list = Array.from({ length: 50 }, () => ({ name: "A", section: "waitlist", drawIndex: null, tags: [] }));
      expect(() => ct.validateValidator(jsonOf(v.array(spot)), list)).not.toThrow();
    } finally {
      (globalThis as any).__localBackendMatchesValidator = hook;
    }
    // One yes for the whole value: convex-test's own walk (and its throwing union check) never ran.
    expect(asked).toBe(1);
  });
});
