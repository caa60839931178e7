/**
 * A schema `npx convex deploy` refuses is refused here too, with Convex's words
 * (crates/common/src/schemas, bootstrap_model/index/index_validation_error.rs): on a
 * reload (the old functions keep serving) and at start.
 */
import fs from "node:fs";
import path from "node:path";
import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { anyApi } from "convex/server";
import { schemaPushError } from "../../local-backend/src/database/schemaLimits";
import { repoRoot, startBackend, tempDir, waitFor } from "./harness";
import { startWatchedFixture, type WatchedFixture } from "./watchedFixture";

const api = anyApi as any;
const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`);
const table = (n = 16) => defineTable(Object.fromEntries(fields(n).map((f) => [f, v.string()])));

describe("what Convex refuses in a schema's indexes", () => {
  const cases: [string, () => any, string][] = [
    [
      "more than 64 indexes on a table",
      () => {
        let t = table(2);
        for (let i = 0; i < 65; i++) t = t.index(`by_${i}`, [i % 2 ? "f0" : "f1", `x${i}`] as any);
        return defineSchema({ items: t });
      },
      'TooManyIndexes: Table "items" cannot have more than 64 indexes.',
    ],
    [
      "16 fields in an index (Convex appends _creationTime: 15 of your own)",
      () => defineSchema({ items: table().index("by_all", fields(16) as any) }),
      "IndexTooManyFields: Indexes may have up to 16 fields.",
    ],
    [
      "17 fields in an index",
      () => defineSchema({ items: table(17).index("by_all", fields(17) as any) }),
      'IndexTooManyFields: In table "items": In index "by_all": Indexes may have up to 16 fields.',
    ],
    [
      "a reserved index name",
      () => defineSchema({ items: table().index("by_creation_time", ["f0"] as any) }),
      'IndexNameReserved: In table "items" cannot name an index "by_creation_time" because the name is reserved. Indexes may not start with an underscore or be named "by_id" or "by_creation_time".',
    ],
    [
      "two indexes with one name",
      () =>
        defineSchema({
          items: table()
            .index("by_f0", ["f0"] as any)
            .searchIndex("by_f0", { searchField: "f1" } as any),
        }),
      'IndexNamesNotUnique: Table "items" has two or more definitions of index "by_f0".',
    ],
    [
      "two indexes on the same fields",
      () =>
        defineSchema({
          items: table()
            .index("by_a", ["f0", "f1"] as any)
            .index("by_b", ["f0", "f1"] as any),
        }),
      'IndexNotUnique: In table "items" index "by_b" and index "by_a" have the same fields. Indexes must be unique within a table.',
    ],
    [
      "_creationTime in an index",
      () => defineSchema({ items: table().index("by_time", ["_creationTime"] as any) }),
      "IndexFieldsContainCreationTime: `_creationTime` is automatically added to the end of each index.",
    ],
    [
      "more than 16 filter fields in a search index",
      () =>
        defineSchema({
          items: table(18).searchIndex("search_f0", { searchField: "f0", filterFields: fields(18).slice(1) } as any),
        }),
      'IndexTooManyFilterFields: In table "items": Search indexes may have up to 16 filter fields.',
    ],
    [
      "a vector index of 4,097 dimensions",
      () =>
        defineSchema({
          items: defineTable({ e: v.array(v.float64()) }).vectorIndex("by_e", { vectorField: "e", dimensions: 4097 }),
        }),
      'InvalidVectorDimensionError: In table "items": Dimensions 4097 must be between 2 and 4096.',
    ],
  ];
  for (const [what, schema, message] of cases) {
    test(what, () => {
      expect(schemaPushError(schema())).toContain(message);
    });
  }

  test("what Convex accepts passes: 15 fields, 64 indexes, the app's and the fixtures' schemas", async () => {
    expect(schemaPushError(defineSchema({ items: table().index("by_all", fields(15) as any) }))).toBeNull();
    let t = table(64);
    for (let i = 0; i < 64; i++) t = t.index(`by_${i}`, [`f${i}`] as any);
    expect(schemaPushError(defineSchema({ items: t }))).toBeNull();
    for (const dir of ["convex", "tests/local-backend/fixture/convex", "tests/bench/fixture/convex"]) {
      const { default: schema } = await import(path.join(repoRoot, dir, "schema.ts"));
      expect(schemaPushError(schema), dir).toBeNull();
    }
  });
});

describe("through a running backend", () => {
  let fixture: WatchedFixture;
  beforeAll(async () => {
    fixture = await startWatchedFixture("stagetime-lb-schema-limits-");
  });
  afterAll(async () => {
    await fixture?.dispose();
  });

  test("a reload with a refused schema keeps the old functions", async () => {
    const { backend, edit } = fixture;
    const http = backend.httpClient();
    await http.mutation(api.items.add, { n: 1 });
    edit("schema.ts", '.index("by_n", ["n"])', '.index("by_n", ["n"]).index("by_id", ["body"])');
    await waitFor(() => backend.output.includes("Convex would refuse the schema"), { message: "the refusal" });
    expect(backend.output).toContain('IndexNameReserved: In table "items" cannot name an index "by_id"');
    await http.mutation(api.items.add, { n: 2 });
    expect((await http.query(api.items.summary, {})).count).toBe(2);
    edit("schema.ts", '.index("by_n", ["n"]).index("by_id", ["body"])', '.index("by_n", ["n"])');
  });

  test("a start with a refused schema fails, naming it", async () => {
    const dir = await tempDir("stagetime-lb-schema-start-");
    const functionsDir = path.join(dir, "convex");
    fs.cpSync(path.join(repoRoot, "tests/bench/fixture/convex"), functionsDir, { recursive: true });
    const schemaFile = path.join(functionsDir, "schema.ts");
    fs.writeFileSync(
      schemaFile,
      fs
        .readFileSync(schemaFile, "utf8")
        .replace('.index("by_n", ["n"])', '.index("by_n", ["n"]).index("by_n", ["body"])'),
    );
    await expect(startBackend({ functionsDir })).rejects.toThrow(/IndexNamesNotUnique/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
