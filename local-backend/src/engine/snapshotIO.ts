/**
 * Export and import of the whole database (CLI `export`/`import` and the admin
 * endpoints): every table with exact `_id`/`_creationTime`, the table numbers,
 * stored files and the components' tables.
 */
import fs from "node:fs";
import { type JSONValue, jsonToConvex } from "convex/values";
import type { TableNumbers } from "../common/ids.js";
import { type ComponentStore, creationTime } from "../database/componentStore.js";
import type { ScheduledJobs } from "../runtime/scheduledJobs.js";
import type { DataStore } from "../storage/store.js";
import type { Persistence } from "./persistence.js";
import { mutationTag, readTracker, tableFromId } from "../runtime/functionContext.js";
import { type DemoAccountsHost, refuseImportedDemoAccounts } from "./demoAccounts.js";
import { isRefusedLegacyId } from "../common/ids.js";
import { schemaProblems } from "../database/schemaValidation.js";
import type { ConvexGlobal, ConvexTestModule, Doc } from "../database/convexTestTypes.js";

/** A snapshot as `exportSnapshot` writes it (an import checks what it reads). */
type Snapshot = {
  tables: Record<string, ({ _id?: unknown } | null)[]>;
  tableNumbers?: Record<string, number>;
  files?: Record<string, { base64: string; contentType?: string | null }>;
  components?: unknown;
};

/** What export and import use of the engine: every table, the files, the table numbers, the scheduler. */
export type SnapshotHost = DemoAccountsHost & {
  readonly ct: ConvexTestModule;
  readonly g: ConvexGlobal;
  lastCommitTs: bigint;
  readonly store: Pick<DataStore, "readFile" | "writeFile" | "fileName" | "dir">;
  readonly tables: Pick<TableNumbers, "entries" | "adopt">;
  readonly components: Pick<ComponentStore, "dbs" | "exportTables" | "importTables">;
  readonly persistence: Pick<Persistence, "allDocsJson">;
  readonly jobs: Pick<ScheduledJobs, "rescheduleRestored">;
};

export function exportSnapshot(engine: SnapshotHost): unknown {
  const tables: Record<string, unknown[]> = {};
  const files: Record<string, { contentType: string | null; base64: string }> = {};
  for (const [id, doc] of engine.persistence.allDocsJson()) {
    if (id.startsWith("@")) continue; // a component's (below)
    const table = tableFromId(id) ?? "unknown";
    (tables[table] ??= []).push(doc);
    if (table === "_storage" && doc) {
      const bytes = engine.store.readFile(String(doc.sha256));
      if (bytes) files[id] = { contentType: (doc.contentType as string) ?? null, base64: bytes.toString("base64") };
    }
  }
  for (const docs of Object.values(tables)) docs.sort((a, b) => creationTime(a) - creationTime(b));
  const components = engine.components.exportTables();
  return {
    format: "stagetime-local-backend-snapshot",
    version: 1,
    ts: engine.lastCommitTs.toString(),
    tableNumbers: engine.tables.entries(),
    tables,
    files,
    ...(Object.keys(components).length > 0 ? { components } : {}),
  };
}

/** Replaces the whole database with a snapshot, as one commit. */
export async function importSnapshot(
  engine: SnapshotHost,
  given: unknown,
): Promise<{ documents: number; files: number }> {
  const snapshot = given as Snapshot | null;
  if (!snapshot || typeof snapshot.tables !== "object") throw new Error("Not a snapshot: missing `tables`");
  const accounts = snapshot.tables.authAccounts;
  await refuseImportedDemoAccounts(engine, Array.isArray(accounts) ? accounts : []);
  // The ids inside name their tables by number: take the snapshot's numbers first.
  if (snapshot.tableNumbers && typeof snapshot.tableNumbers === "object") engine.tables.adopt(snapshot.tableNumbers);
  const incoming = new Map<string, Doc>();
  for (const [table, docs] of Object.entries(snapshot.tables)) {
    for (const json of docs) {
      // Sessions and refresh tokens with old (guessable) ids are not imported: they sign in again.
      if (typeof json?._id === "string" && isRefusedLegacyId(json._id)) continue;
      if (typeof json?._id !== "string" || tableFromId(json._id) !== table) {
        throw new Error(`Snapshot table "${table}" holds a document whose _id does not belong to it: ${json?._id}`);
      }
      incoming.set(json._id, jsonToConvex(json as JSONValue) as Doc);
    }
  }
  const db = engine.db;
  let fileCount = 0;
  for (const [id, file] of Object.entries(snapshot.files ?? {})) {
    const sha = engine.store.writeFile(Buffer.from(file.base64, "base64"));
    const doc = incoming.get(id);
    if (doc) {
      db._storage[id] = await fs.openAsBlob(engine.store.fileName(sha), { type: file.contentType ?? "" });
      fileCount++;
    }
  }
  const dbSchema = db._schema;
  const tm = engine.g.transactionManager;
  // Jobs that already have a timer here; imported pending jobs get one after the commit.
  const scheduledBefore = new Set<string>(db.tableDocuments("_scheduled_functions").keys());
  for (const [componentPath, componentDb] of engine.components.dbs) {
    for (const id of componentDb.tableDocuments("_scheduled_functions").keys()) {
      scheduledBefore.add(`@${componentPath}|${id}`);
    }
  }
  let componentDocs = 0;
  await readTracker.exit(() =>
    mutationTag.exit(() =>
      engine.ct.convexGlobalStorage.run(engine.g, async () => {
        await tm.begin(false);
        try {
          const existing = [...db.allDocuments()].map(([id]: [string, unknown]) => id);
          for (const id of existing) if (!incoming.has(id)) db._addWrite(id, null);
          for (const [id, doc] of incoming) db._addWrite(id, doc);
          componentDocs = engine.components.importTables(snapshot.components);
          const problems = schemaProblems(engine.ct, dbSchema, incoming, false);
          if (problems.length > 0) throw new Error(`The schema rejects the snapshot:\n  ${problems.join("\n  ")}`);
          // Throws before applying anything if the data log cannot be written (commits.ts logCommit).
          tm.commit(false);
        } catch (error) {
          tm.rollback(false);
          throw error;
        }
      }),
    ),
  );
  engine.jobs.rescheduleRestored(scheduledBefore);
  return { documents: incoming.size + componentDocs, files: fileCount };
}
