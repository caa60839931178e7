/**
 * The engine's wrappers around convex-test's syscalls: storage URLs and
 * metadata, upload URLs, files written to disk before their document commits,
 * document reads with their JSON computed once per version, and pagination
 * cursors sealed with their query and pinned by a subscription's journal.
 */
import fs from "node:fs";
import { convexToJson, getDocumentSize } from "convex/values";
import { CursorSeal, queryFingerprint } from "./cursors.js";
import { type ComponentStore, type ConvexGlobal, type DatabaseHandle, currentTransaction } from "../database/index.js";
import type { DataStore } from "../storage/index.js";
import { readTracker, tableFromId } from "./functionContext.js";

/** Resolves with `value` once the event loop has run what else was waiting (setImmediate). */
function afterOtherWork<T>(value: T): Promise<T> {
  return new Promise((resolve) => setImmediate(resolve, value));
}

const docCache = new WeakMap<object, { json: string; size: number }>();

/** What the syscall wrappers use of the engine: convex-test's globals, the database, files and the API's URL. */
export type SyscallHost = {
  readonly g: ConvexGlobal;
  readonly db: DatabaseHandle;
  readonly store: Pick<DataStore, "adminKey" | "writeFile" | "fileName">;
  readonly components: Pick<ComponentStore, "currentDb">;
  readonly files: { uploadToken(): string };
  readonly opts: { apiUrl: string };
};

export function wrapSyscalls(engine: SyscallHost): void {
  const g = engine.g;
  const asyncSyscall = g.asyncSyscall;
  // Cursors and journals are sealed with a key from this data directory's secret (cursors.ts).
  const seal = new CursorSeal(engine.store.adminKey());
  const special = async (op: string, jsonArgs: string): Promise<string> => {
    if (op === "1.0/storageGetUrl") {
      const { storageId } = JSON.parse(jsonArgs);
      const doc = tableFromId(storageId) === "_storage" ? engine.db.get("_storage", storageId) : null;
      return JSON.stringify(doc ? `${engine.opts.apiUrl}/api/storage/${storageId}` : null);
    }
    if (op === "1.0/queryPage") return await queryPage(asyncSyscall, seal, jsonArgs);
    if (op === "1.0/storageGetMetadata") {
      // The deprecated ctx.storage.getMetadata, which convex-test lacks.
      const { storageId } = JSON.parse(jsonArgs);
      const doc = tableFromId(storageId) === "_storage" ? engine.db.get("_storage", storageId) : null;
      return JSON.stringify(
        doc ? { storageId, sha256: doc.sha256, size: doc.size, contentType: doc.contentType ?? null } : null,
      );
    }
    return JSON.stringify(`${engine.opts.apiUrl}/api/storage/upload?token=${engine.files.uploadToken()}`);
  };
  const SPECIAL = new Set([
    "1.0/storageGetUrl",
    "1.0/storageGetMetadata",
    "1.0/queryPage",
    "1.0/storageGenerateUploadUrl",
  ]);
  // Not async itself: one document read is one syscall, so no extra promise per read.
  g.asyncSyscall = (op: string, jsonArgs: string): Promise<string> => {
    const result =
      op === "1.0/queryStreamNext"
        ? Promise.resolve(queryStreamNext(engine, jsonArgs))
        : SPECIAL.has(op)
          ? special(op, jsonArgs)
          : asyncSyscall(op, jsonArgs);
    // A concurrent mutation's database call answers on a later turn of the event loop, as a
    // round trip does on Convex: other mutations run meanwhile, so overlapping ones conflict.
    return currentTransaction() ? result.then(afterOtherWork) : result;
  };
  const jsSyscall = g.jsSyscall;
  g.jsSyscall = async (op: string, args: Record<string, unknown>) => {
    if (op === "storage/storeBlob") {
      const { blob } = args as { blob: Blob };
      // Bytes on disk before the _storage document can commit.
      const sha = engine.store.writeFile(new Uint8Array(await blob.arrayBuffer()));
      const id = (await jsSyscall(op, args)) as string;
      // Then served from disk like an upload, not kept in memory.
      if (engine.db._storage[id]) {
        engine.db._storage[id] = await fs.openAsBlob(engine.store.fileName(sha), { type: blob.type ?? "" });
      }
      return id;
    }
    return await jsSyscall(op, args);
  };
}

/**
 * convex-test's "1.0/queryStreamNext", with each document's JSON and size
 * computed once per document version instead of on every read: documents are
 * immutable objects (a write replaces the object), so re-runs of a query
 * mostly hit the cache.
 */
function queryStreamNext(engine: SyscallHost, jsonArgs: string): string {
  const { queryId } = JSON.parse(jsonArgs);
  const { value, done } = engine.components.currentDb(engine.db).queryNext(queryId);
  if (done || value === null) return JSON.stringify(convexToJson({ value, done }));
  let cached = docCache.get(value);
  if (!cached) {
    cached = { json: JSON.stringify(convexToJson(value)), size: getDocumentSize(value) };
    docCache.set(value, cached);
  }
  engine.g.transactionManager.getMetricsTracker()?.trackRead(cached.size);
  return `{"value":${cached.json},"done":false}`;
}

/**
 * convex-test's paginate with an explicit end cursor stops at that cursor but
 * reports `_end_cursor` when the boundary row is gone; Convex reports the end
 * cursor itself. Subscriptions also pin their first page end here, sealed in
 * their journal: one that does not open fails the query, as Convex's
 * `decrypt_query_journal` does, and the run's journal is left empty (Convex
 * answers such a failure with an empty journal).
 */
async function queryPage(asyncSyscall: (op: string, a: string) => Promise<string>, seal: CursorSeal, jsonArgs: string) {
  const journal = readTracker.getStore()?.journal;
  const args = JSON.parse(jsonArgs);
  // A cursor belongs to its query (cursors.ts): opened and checked here, sealed on the way out.
  const fingerprint = queryFingerprint(args.query);
  args.cursor = seal.unwrap(args.cursor, fingerprint) ?? null;
  args.endCursor = seal.unwrap(args.endCursor, fingerprint);
  if (journal?.endCursor && (args.endCursor === null || args.endCursor === undefined)) {
    try {
      args.endCursor = seal.unwrapJournal(journal.endCursor, fingerprint);
    } catch (error) {
      journal.endCursor = null;
      throw error;
    }
  }
  const result = JSON.parse(await asyncSyscall("1.0/queryPage", JSON.stringify(args)));
  if (typeof args.endCursor === "string") {
    result.continueCursor = args.endCursor;
    result.isDone = args.endCursor === "_end_cursor";
  }
  if (journal && !journal.endCursor) journal.endCursor = seal.wrapJournal(result.continueCursor, fingerprint);
  result.continueCursor = seal.wrap(result.continueCursor, fingerprint);
  result.splitCursor = seal.wrap(result.splitCursor ?? null, fingerprint);
  return JSON.stringify(result);
}
