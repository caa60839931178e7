/**
 * Export and import of the whole database (CLI `export`/`import` and the admin
 * endpoints): every table with exact `_id`/`_creationTime`, the table numbers,
 * stored files and the components' tables.
 */
import fs from "node:fs";
import { type JSONValue, jsonToConvex } from "convex/values";
import { type TableNumbers, isRefusedLegacyId } from "../common/index.js";
import {
  type ComponentStore,
  creationTime,
  schemaProblems,
  checkUserDocument,
  type ConvexGlobal,
  type ConvexTestModule,
  type Doc,
} from "../database/index.js";
import { type ScheduledJobs, mutationTag, readTracker, tableFromId } from "../runtime/index.js";
import type { DataStore } from "../storage/index.js";
import type { Persistence } from "./persistence.js";
import { type DemoAccountsHost, refuseImportedDemoAccounts } from "./demoAccounts.js";
import { type SnapshotPart, type SnapshotReadStats, snapshotParts, snapshotValueParts } from "./snapshotStream.js";

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

/** Replaces the whole database with a snapshot given as a value, as one commit. */
export async function importSnapshot(
  engine: SnapshotHost,
  given: unknown,
): Promise<{ documents: number; files: number }> {
  const incoming = new IncomingSnapshot(engine);
  for (const part of snapshotValueParts(given)) incoming.receive(part);
  return await applySnapshot(engine, incoming);
}

/**
 * Replaces the whole database with a snapshot read from its bytes a chunk at
 * a time (snapshotStream.ts), as one commit: each document is checked as it
 * arrives, and the file is never held whole.
 */
export async function importSnapshotStream(
  engine: SnapshotHost,
  chunks: AsyncIterable<Uint8Array>,
  stats?: SnapshotReadStats,
): Promise<{ documents: number; files: number }> {
  const incoming = new IncomingSnapshot(engine);
  for await (const parts of snapshotParts(chunks, stats)) for (const part of parts) incoming.receive(part);
  return await applySnapshot(engine, incoming);
}

/** Documents checked per schema check while a snapshot is read. */
const SCHEMA_CHECK_BATCH = 1024;

/** A snapshot's documents and files as they arrive, each checked then; `finish` runs what needs all of them. */
class IncomingSnapshot {
  readonly docs = new Map<string, Doc>();
  /** Stored files written so far: id, content hash and type. */
  readonly files = new Map<string, { sha: string; contentType: string }>();
  components: unknown = undefined;
  private sawTables = false;
  /** The `authAccounts` documents (checked for published demo passwords before anything is refused or applied). */
  private readonly accounts: unknown[] = [];
  private numbersSeen = false;
  /** Why the snapshot's table numbers cannot be adopted (reported after the demo accounts' check). */
  private numbersProblem: Error | null = null;
  /** Documents whose table did not match before the snapshot's table numbers came. */
  private readonly deferred: { table: string; json: unknown }[] = [];
  private unchecked: [string, Doc][] = [];
  private readonly problems: string[] = [];

  constructor(private readonly engine: SnapshotHost) {}

  receive(part: SnapshotPart): void {
    switch (part.kind) {
      case "tables":
        this.sawTables = true;
        return;
      case "doc":
        return this.doc(part.table, part.json);
      case "file":
        return this.file(part.id, part.value);
      case "top":
        if (part.key === "tableNumbers") this.adopt(part.value);
        else if (part.key === "components") this.components = part.value;
        else if (part.key === "files" && part.value !== null && part.value !== undefined) {
          throw new Error("Snapshot `files` must be an object");
        }
    }
  }

  /** The ids inside name their tables by number: the snapshot's numbers are taken as soon as they come. */
  private adopt(numbers: unknown): void {
    if (!numbers || typeof numbers !== "object") return;
    this.numbersSeen = true;
    try {
      this.engine.tables.adopt(numbers as Record<string, number>);
    } catch (error) {
      this.numbersProblem = error as Error;
    }
  }

  private doc(table: string, json: unknown): void {
    if (table === "authAccounts") this.accounts.push(json);
    if (this.numbersProblem) return; // refused in finish, after the demo accounts' check
    const id = (json as { _id?: unknown } | null)?._id;
    // Sessions and refresh tokens with old (guessable) ids are not imported: they sign in again.
    if (typeof id === "string" && isRefusedLegacyId(id)) return;
    if (typeof id !== "string" || tableFromId(id) !== table) {
      if (!this.numbersSeen && typeof id === "string") this.deferred.push({ table, json });
      else throw new Error(`Snapshot table "${table}" holds a document whose _id does not belong to it: ${String(id)}`);
      return;
    }
    const doc = jsonToConvex(json as JSONValue) as Doc;
    // Convex's document limits, as every write of a user table checks them (indexedTables.ts).
    if (!id.endsWith("_storage") && !table.startsWith("_")) checkUserDocument(doc);
    this.docs.set(id, doc);
    this.unchecked.push([id, doc]);
    if (this.unchecked.length >= SCHEMA_CHECK_BATCH) this.checkSchema();
  }

  private file(id: string, value: unknown): void {
    const file = value as { base64?: unknown; contentType?: unknown } | null;
    if (typeof file?.base64 !== "string") throw new Error(`Snapshot file ${id} has no base64 bytes`);
    const sha = this.engine.store.writeFile(Buffer.from(file.base64, "base64"));
    this.files.set(id, { sha, contentType: typeof file.contentType === "string" ? file.contentType : "" });
  }

  /** The schema's problems with the documents not checked yet (the first 10 are reported). */
  private checkSchema(): void {
    const docs = this.unchecked;
    this.unchecked = [];
    if (this.problems.length >= 10) return;
    for (const problem of schemaProblems(this.engine.ct, this.engine.db._schema, docs, false)) {
      if (this.problems.length < 10) this.problems.push(problem);
    }
  }

  /** What needs the whole snapshot: its demo accounts, late table numbers, the last schema check. */
  async finish(): Promise<void> {
    if (!this.sawTables) throw new Error("Not a snapshot: missing `tables`");
    await refuseImportedDemoAccounts(this.engine, this.accounts);
    if (this.numbersProblem) throw this.numbersProblem;
    this.numbersSeen = true;
    for (const { table, json } of this.deferred.splice(0)) this.doc(table, json);
    this.checkSchema();
    if (this.problems.length > 0) {
      throw new Error(`The schema rejects the snapshot:\n  ${this.problems.join("\n  ")}`);
    }
  }
}

/** Applies a received snapshot as one commit. */
async function applySnapshot(
  engine: SnapshotHost,
  incoming: IncomingSnapshot,
): Promise<{ documents: number; files: number }> {
  await incoming.finish();
  const docs = incoming.docs;
  const db = engine.db;
  let fileCount = 0;
  for (const [id, file] of incoming.files) {
    if (docs.has(id)) {
      db._storage[id] = await fs.openAsBlob(engine.store.fileName(file.sha), { type: file.contentType });
      fileCount++;
    }
  }
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
          for (const id of existing) if (!docs.has(id)) db._addWrite(id, null);
          for (const [id, doc] of docs) db._addWrite(id, doc);
          componentDocs = engine.components.importTables(incoming.components);
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
  return { documents: docs.size + componentDocs, files: fileCount };
}
