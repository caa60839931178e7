/**
 * Loading the data directory's documents into the in-memory database on
 * start (issue 18 item 3: start time).
 *
 * Parsing every document's JSON was most of a start (about 800,000 documents,
 * 250 MB). Here only what start needs is parsed at once: system tables
 * (`_storage`, `_scheduled_functions`), components' documents, and the
 * documents the deltas and the log brought (already parsed by the store). A
 * user table's other documents stay the JSON text of their segment line
 * ({@link LazyTable}) until the table is first used: then all of them are
 * parsed before anything reads it, so a query never sees part of a table.
 * After start the remaining tables are parsed in the background, a slice of a
 * few milliseconds at a time between requests ({@link loadInBackground}).
 */
import { jsonToConvex } from "convex/values";
import { isRefusedLegacyId, tableNameFromId } from "./ids.js";
import type { LoadedState } from "./store.js";

type Doc = Record<string, any>;

/**
 * A stored document's Convex value. Convex JSON encodes only what JSON cannot
 * hold (bigints, bytes, special floats) as one-key objects whose key starts
 * with `$`, which field names never do: a document without one is its own
 * value, as JSON.parse gave it, with no second walk and copy.
 */
export function fromStoredJson(json: Record<string, unknown>): Doc {
  return hasEncodedValue(json) ? (jsonToConvex(json as any) as Doc) : json;
}

function hasEncodedValue(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasEncodedValue(item)) return true;
    return false;
  }
  for (const key in value) {
    if (key.charCodeAt(0) === 36 /* $ */) return true;
    if (hasEncodedValue((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** A document from its stored JSON text (a text without `"$` has no `$`-encoded value to look for). */
export function parseStoredDoc(text: string): Doc {
  const json = JSON.parse(text) as Record<string, unknown>;
  return text.includes('"$') ? fromStoredJson(json) : json;
}

/**
 * A user table's documents not parsed yet: the JSON text of its segment
 * lines, and the documents of the deltas and the log (parsed). `drain` moves
 * them into `docs`, all at once or a budget at a time.
 */
export class LazyTable {
  readonly keys: string[] = [];
  readonly texts: string[] = [];
  readonly parsed = new Map<string, Doc>();
  /** The table's documents parsed so far (complete once `done`). */
  readonly docs = new Map<string, Doc>();
  private next = 0;

  /** Documents the table holds (parsed or not). */
  get size(): number {
    return this.keys.length + this.parsed.size;
  }

  /** Documents still JSON text. */
  get unparsed(): number {
    return this.keys.length - this.next;
  }

  /** Parses up to `limit` more lines (all of them by default); true once every document is in `docs`. */
  drain(limit = Infinity): boolean {
    const { keys, texts, docs } = this;
    const end = Math.min(keys.length, this.next + limit);
    for (let i = this.next; i < end; i++) {
      docs.set(keys[i], parseStoredDoc(texts[i]));
      texts[i] = ""; // released as it goes
    }
    this.next = end;
    if (end < keys.length) return false;
    if (docs.size < this.size) for (const [key, doc] of this.parsed) docs.set(key, doc);
    return true;
  }
}

/** What restoring found besides the app's documents. */
export type Restored = {
  /** Components' documents by data-log key (`@<path>|<id>`). */
  componentDocs: Map<string, Record<string, unknown>>;
  /** Stored files: `_storage` id, sha256, content type. */
  files: [string, string, string][];
  /** Sessions and refresh tokens with old (guessable) ids, dropped (the caller deletes them on disk). */
  refused: string[];
};

/**
 * Puts the loaded documents into `db` (an empty IndexedDatabase): system
 * tables parsed now, user tables as {@link LazyTable}s.
 */
export function restoreDocuments(db: any, state: LoadedState): Restored {
  const componentDocs = new Map<string, Record<string, unknown>>();
  const files: [string, string, string][] = [];
  const refused: string[] = [];
  const eager = new Map<string, Map<string, Doc>>();
  const lazy = new Map<string, LazyTable>();
  let maxCreation = 0;
  for (const [key, value] of state.docs) {
    if (key.charCodeAt(0) === 64 /* @ */) {
      componentDocs.set(key, typeof value === "string" ? JSON.parse(value) : value);
      continue;
    }
    if (isRefusedLegacyId(key)) {
      refused.push(key);
      continue;
    }
    const table = tableNameFromId(key);
    if (table === null) continue;
    if (table.charCodeAt(0) === 95 /* _ */) {
      const doc = typeof value === "string" ? parseStoredDoc(value) : fromStoredJson(value);
      if (doc._creationTime > maxCreation) maxCreation = doc._creationTime;
      if (table === "_storage") files.push([key, doc.sha256, doc.contentType ?? ""]);
      let docs = eager.get(table);
      if (!docs) eager.set(table, (docs = new Map()));
      docs.set(key, doc);
      continue;
    }
    let pending = lazy.get(table);
    if (!pending) lazy.set(table, (pending = new LazyTable()));
    if (typeof value === "string") {
      pending.keys.push(key);
      pending.texts.push(value);
    } else {
      const doc = fromStoredJson(value);
      if (doc._creationTime > maxCreation) maxCreation = doc._creationTime;
      pending.parsed.set(key, doc);
    }
  }
  db.loadTables(eager, lazy);
  // The segments' documents, parsed or not, are below what their manifest recorded.
  db._lastCreationTime = Math.max(db._lastCreationTime, maxCreation, state.maxCreationTime());
  return { componentDocs, files, refused };
}

/** Milliseconds of parsing per slice of background loading. */
const SLICE_MS = 8;

/**
 * Parses the tables `db` has not parsed yet, a slice at a time between other
 * work (setImmediate), until none is left or `stopped()`; then `done`.
 */
export function loadInBackground(db: any, stopped: () => boolean, done?: () => void): void {
  const step = () => {
    if (stopped()) return;
    const started = performance.now();
    while (performance.now() - started < SLICE_MS) {
      if (!db.loadSome(512)) {
        done?.();
        return;
      }
    }
    setImmediate(step);
  };
  setImmediate(step);
}
