/**
 * Checking documents against a schema outside a write: existing data on start
 * and on a hot reload, a snapshot before it is imported; and the schema's
 * fingerprint, recorded by compaction so a start under the same schema checks
 * only what the log brought since.
 */
import { createHash } from "node:crypto";
import type { Value } from "convex/values";
import { tableNameFromId as tableFromId } from "../common/index.js";
import type { ConvexTestInternals, DbSchema, Doc, LoadedSchema } from "./convexTestTypes.js";

/** A schema module's default export as convex-test's database holds it. */
export function schemaForDb(schema: LoadedSchema | null | undefined): DbSchema | null {
  if (!schema) return null;
  return {
    schemaValidation: schema.schemaValidation,
    tables: new Map(Object.entries(schema.tables).map(([name, table]) => [name, table.export()])),
  };
}

/** What a schema checks documents against (its tables' validators and `schemaValidation`), hashed. */
export function fingerprint(schema: LoadedSchema | null | undefined): string {
  const exported = typeof schema?.export === "function" ? String(schema.export()) : "no schema";
  return createHash("sha256").update(exported).digest("base64url");
}

/**
 * Problems (table, document, message) `dbSchema` finds in `docs`, at most 10;
 * system tables are not checked. `oneLine` joins a message's lines.
 */
export function schemaProblems(
  ct: ConvexTestInternals,
  dbSchema: DbSchema | null,
  docs: Iterable<[string, Record<string, Value>]>,
  oneLine: boolean,
): string[] {
  if (!dbSchema || !dbSchema.schemaValidation) return [];
  const validate = ct.DatabaseFake.prototype._validate;
  const problems: string[] = [];
  for (const [id, doc] of docs) {
    const table = tableFromId(id);
    if (!table || table.startsWith("_")) continue;
    const { _id, _creationTime, ...fields } = doc;
    try {
      validate.call({ _schema: dbSchema }, table, fields);
    } catch (error) {
      const message = (error as Error).message;
      problems.push(`table "${table}", document ${id}: ${oneLine ? message.split("\n").join(" ") : message}`);
      if (problems.length >= 10) break;
    }
  }
  return problems;
}

/** Problems the schema finds in the committed documents of `db` (or only in those of `only`). */
export function validateData(
  ct: ConvexTestInternals,
  db: { committed(id: string): Doc | null; allDocuments(): Iterable<[string, Doc]> },
  dbSchema: DbSchema | null,
  only?: Iterable<string>,
): string[] {
  if (!dbSchema || !dbSchema.schemaValidation) return [];
  const docs: Iterable<[string, Doc]> = only
    ? (function* () {
        for (const id of only) {
          const doc = id.startsWith("@") ? null : db.committed(id);
          if (doc) yield [id, doc] as [string, Doc];
        }
      })()
    : db.allDocuments();
  return schemaProblems(ct, dbSchema, docs, true);
}
