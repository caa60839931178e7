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

/** Milliseconds of reading or parsing per slice (at start, and of background loading). */
const SLICE_MS = 8;

/**
 * The data directory's documents read and sorted out, not yet in a database:
 * system tables parsed, user tables as {@link LazyTable}s.
 */
export type ReadDocuments = Restored & {
  eager: Map<string, Map<string, Doc>>;
  lazy: Map<string, LazyTable>;
  /** The largest `_creationTime` of the parsed documents. */
  maxCreation: number;
  state: LoadedState;
};

function emptyRead(state: LoadedState): ReadDocuments {
  return { componentDocs: new Map(), files: [], refused: [], eager: new Map(), lazy: new Map(), maxCreation: 0, state };
}

/** Sorts one stored document into `read`. */
function readOne(read: ReadDocuments, key: string, value: string | Record<string, unknown>): void {
  if (key.charCodeAt(0) === 64 /* @ */) {
    read.componentDocs.set(key, typeof value === "string" ? JSON.parse(value) : value);
    return;
  }
  if (isRefusedLegacyId(key)) {
    read.refused.push(key);
    return;
  }
  const table = tableNameFromId(key);
  if (table === null) return;
  if (table.charCodeAt(0) === 95 /* _ */) {
    const doc = typeof value === "string" ? parseStoredDoc(value) : fromStoredJson(value);
    if (doc._creationTime > read.maxCreation) read.maxCreation = doc._creationTime;
    if (table === "_storage") read.files.push([key, doc.sha256, doc.contentType ?? ""]);
    let docs = read.eager.get(table);
    if (!docs) read.eager.set(table, (docs = new Map()));
    docs.set(key, doc);
    return;
  }
  let pending = read.lazy.get(table);
  if (!pending) read.lazy.set(table, (pending = new LazyTable()));
  if (typeof value === "string") {
    pending.keys.push(key);
    pending.texts.push(value);
  } else {
    const doc = fromStoredJson(value);
    if (doc._creationTime > read.maxCreation) read.maxCreation = doc._creationTime;
    pending.parsed.set(key, doc);
  }
}

/** Reads every stored document at once. */
export function readDocuments(state: LoadedState): ReadDocuments {
  const read = emptyRead(state);
  for (const [key, value] of state.docs) readOne(read, key, value);
  return read;
}

/**
 * Reads the stored documents a slice of a few milliseconds at a time, so what
 * the start awaits meanwhile (bundling the functions runs in esbuild's own
 * process) goes on beside it. Once everything is read and until `parseUntil`
 * is false, user tables are parsed ahead, smallest first, in the same slices:
 * the time the start would have waited idle parses what the first queries read.
 */
export async function readDocumentsInSlices(state: LoadedState, parseUntil: () => boolean): Promise<ReadDocuments> {
  const read = emptyRead(state);
  const docs = state.docs[Symbol.iterator]();
  for (let done = false; !done;) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const started = performance.now();
    while (performance.now() - started < SLICE_MS) {
      let n = 0;
      for (let next = docs.next(); ; next = docs.next()) {
        if (next.done) {
          done = true;
          break;
        }
        readOne(read, next.value[0], next.value[1]);
        if (++n === 256) break;
      }
      if (done) break;
    }
  }
  const ahead = [...read.lazy.values()].sort((a, b) => a.size - b.size);
  const parseAhead = () => {
    if (!parseUntil()) return;
    const started = performance.now();
    while (performance.now() - started < SLICE_MS) {
      const table = ahead.find((t) => t.unparsed > 0);
      if (!table || !parseUntil()) return;
      table.drain(512);
    }
    setImmediate(parseAhead);
  };
  setImmediate(parseAhead);
  return read;
}

/** Puts read documents into `db` (an empty IndexedDatabase): system tables parsed, user tables as LazyTables. */
export function installDocuments(db: any, read: ReadDocuments): Restored {
  // Tables not used yet are parsed in the background smallest first (loadInBackground).
  const lazy = new Map([...read.lazy].sort((a, b) => a[1].size - b[1].size));
  db.loadTables(read.eager, lazy);
  // The segments' documents, parsed or not, are below what their manifest recorded.
  db._lastCreationTime = Math.max(db._lastCreationTime, read.maxCreation, read.state.maxCreationTime());
  return { componentDocs: read.componentDocs, files: read.files, refused: read.refused };
}

/**
 * Puts the loaded documents into `db` (an empty IndexedDatabase): system
 * tables parsed now, user tables as {@link LazyTable}s.
 */
export function restoreDocuments(db: any, state: LoadedState): Restored {
  return installDocuments(db, readDocuments(state));
}

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
