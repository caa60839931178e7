/**
 * A hot reload checks the existing data against the new schema and swaps the
 * schema in as one step with respect to commits: a mutation that starts while
 * the reload is between its check and its swap must not put in a document the
 * new schema refuses. The engine runs in this process so the test can start
 * the mutation at exactly that point (reloadHooks.beforeSwap), and knows the
 * mutation has asked for the transaction lock by watching the transaction
 * manager's begin: no timing involved.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Engine } from "../../local-backend/src/engine/engine";
import { reloadHooks } from "../../local-backend/src/engine/reload";
import { validateData } from "../../local-backend/src/database/schemaValidation";
import { startInProcessEngine } from "./inProcessEngine";

let engine: Engine;
let dir: string;

beforeAll(async () => {
  ({ engine, dir } = await startInProcessEngine("stagetime-lb-reload-atomic-"));
});

afterAll(() => {
  engine?.close();
  reloadHooks.beforeSwap = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("a mutation racing a schema reload cannot commit a document the new schema refuses", async () => {
  await engine.mutation("items:add", { n: 1 }, { kind: "admin" });
  await engine.mutation("items:add", { n: 2 }, { kind: "admin" });
  // The new schema accepts both existing items ("item 1", "item 2") but not "item 3".
  const schemaFile = path.join(dir, "convex/schema.ts");
  const schema = fs.readFileSync(schemaFile, "utf8");
  const from = "items: defineTable({ n: v.number(), body: v.string() })";
  expect(schema).toContain(from);
  fs.writeFileSync(
    schemaFile,
    schema.replace(
      from,
      'items: defineTable({ n: v.number(), body: v.union(v.literal("item 1"), v.literal("item 2")) })',
    ),
  );

  // When the reload has checked the data and is about to swap, a client adds
  // "item 3" (valid under the old schema); the reload goes on once that
  // mutation has asked for the transaction lock.
  const tm = engine.g.transactionManager;
  const begin = tm.begin;
  let racing: Promise<unknown> | null = null;
  reloadHooks.beforeSwap = async () => {
    reloadHooks.beforeSwap = undefined;
    let asked!: () => void;
    const lockAsked = new Promise<void>((resolve) => (asked = resolve));
    tm.begin = (isNested: boolean, limits?: unknown) => {
      const started = begin.call(tm, isNested, limits);
      if (!isNested) {
        tm.begin = begin;
        asked();
      }
      return started;
    };
    racing = engine.mutation("items:add", { n: 3 }, { kind: "admin" }).then(
      () => "committed",
      (error: Error) => error.message,
    );
    await lockAsked;
  };
  const reloaded = await engine.reload();
  tm.begin = begin;
  expect(racing).not.toBeNull();
  const outcome = await racing;

  expect(reloaded).toBe(true);
  // Whatever happened to the racing mutation, nothing in the database breaks the schema now served.
  expect(validateData(engine.ct, engine.db, engine.db._schema)).toEqual([]);
  // It ran after the swap, under the new schema, which refused its document.
  expect(outcome).not.toBe("committed");
  expect(String(outcome)).toMatch(/item 3|does not match|validator/i);
});
