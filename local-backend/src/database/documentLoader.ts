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
import { type JSONValue, jsonToConvex } from "convex/values";
import { storedIdTable } from "../common/index.js";
import { segmentChunks, type DocBatch, type LoadedState } from "../storage/index.js";

import type { Doc } from "./convexTestTypes.js";

/**
 * A stored document's Convex value. Convex JSON encodes only what JSON cannot
 * hold (bigints, bytes, special floats) as one-key objects whose key starts
 * with `$`, which field names never do: a document without one is its own
 * value, as JSON.parse gave it, with no second walk and copy.
 */
export function fromStoredJson(json: Record<string, unknown>): Doc {
  return (hasEncodedValue(json) ? jsonToConvex(json as JSONValue) : json) as Doc;
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
  return text.includes('"$') ? fromStoredJson(json) : (json as Doc);
}

/** Strings at most this long are shared between documents while loading (ids, dates, kinds). */
const INTERN_MAX = 32;

/**
 * Makes `doc`'s short string values (other than its own `_id`) the same string
 * as every equal one loaded before (`pool`): JSON.parse gives each document its
 * own copy of a user id or a date, a few dozen bytes each, hundreds of
 * thousands of times.
 */
function intern(value: Record<string, unknown> | unknown[], pool: Map<string, string>, top: boolean): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (typeof item === "string") {
        if (item.length <= INTERN_MAX) {
          const shared = pool.get(item);
          if (shared === undefined) pool.set(item, item);
          else value[i] = shared;
        }
      } else if (typeof item === "object" && item !== null) intern(item as Record<string, unknown>, pool, false);
    }
    return;
  }
  for (const key in value) {
    const item = value[key];
    if (typeof item === "string") {
      if (item.length <= INTERN_MAX && !(top && key === "_id")) {
        const shared = pool.get(item);
        if (shared === undefined) pool.set(item, item);
        else value[key] = shared;
      }
    } else if (typeof item === "object" && item !== null) intern(item as Record<string, unknown>, pool, false);
  }
}

const NOTHING_SHADOWED: ReadonlySet<string> = new Set();

/**
 * A user table's documents not parsed yet: where the JSON text of each is in
 * the segment chunks read at start (positions, no string per document), or
 * the table's own segment files, read when it is drained; and the documents
 * of the deltas and the log (parsed). `drain` moves them into `docs`, all at
 * once or a budget at a time.
 */
export class LazyTable {
  /** Per document not parsed yet: its chunk's number in `chunks`, where its text starts, where it ends. */
  private refs: number[] = [];
  readonly parsed = new Map<string, Doc>();
  /** The table's documents parsed so far (complete once `done`). */
  readonly docs = new Map<string, Doc>();
  private next = 0;
  /** The table's own segment files not read yet, the lines they hold, and those read so far. */
  private files: string[] = [];
  private fileLines = 0;
  private linesRead = 0;
  /** The file being read, a chunk of whole lines at a time, the chunk and where its next line starts. */
  private reading: Generator<string> | null = null;
  private text = "";
  private pos = 0;

  /**
   * `chunks`: the segment chunks of one start's reading (shared by its tables); `shadowed`: keys
   * whose lines in the table's files are out of date (the deltas and the log hold them); `pool`:
   * the strings shared between the documents of one start (see intern).
   */
  constructor(
    private chunks: string[],
    private readonly shadowed: ReadonlySet<string> = NOTHING_SHADOWED,
    private readonly pool: Map<string, string> = new Map(),
  ) {}

  /**
   * What the deltas and the log hold for `key`: its document, null if they deleted it, undefined
   * if they do not hold it (only the table's segment lines can tell).
   */
  overlaid(key: string): Doc | null | undefined {
    const doc = this.parsed.get(key);
    if (doc !== undefined) return doc;
    return this.shadowed.has(key) ? null : undefined;
  }

  /** A document whose JSON text is `chunks[chunk].slice(start, end)`. */
  add(chunk: number, start: number, end: number): void {
    this.refs.push(chunk, start, end);
  }

  /** The table's segment files (`lines` documents in all), read when it is drained. */
  addFiles(files: string[], lines: number): void {
    this.files.push(...files);
    this.fileLines += lines;
  }

  /** Documents the table holds (parsed or not; lines of its files the log overrides are counted too). */
  get size(): number {
    return this.refs.length / 3 + this.fileLines + this.parsed.size;
  }

  /** Documents still JSON text. */
  get unparsed(): number {
    return this.refs.length / 3 - this.next + this.fileLines - this.linesRead;
  }

  /** Whether parsed documents share their short strings (loading in the background; not when a request waits). */
  private sharing = false;

  private parse(text: string, start: number, end: number): void {
    const doc = parseStoredDoc(text.slice(start, end));
    if (this.sharing) intern(doc, this.pool, true);
    this.docs.set(keyBefore(text, start, doc), doc);
  }

  /** Parses up to `limit` more documents (all of them by default); true once every document is in `docs`. */
  drain(limit = Infinity): boolean {
    const { refs, chunks } = this;
    this.sharing = limit !== Infinity;
    const count = refs.length / 3;
    const end = Math.min(count, this.next + limit);
    for (let i = this.next; i < end; i++) this.parse(chunks[refs[3 * i]], refs[3 * i + 1], refs[3 * i + 2]);
    let budget = limit - (end - this.next);
    this.next = end;
    if (end < count) return false;
    while (budget > 0 && this.linesRead < this.fileLines) {
      if (this.pos >= this.text.length) {
        this.reading ??= segmentChunks(this.files.shift()!);
        const chunk = this.reading.next();
        if (chunk.done) {
          this.reading = null;
          this.text = "";
          this.pos = 0;
          continue;
        }
        this.text = chunk.value;
        this.pos = 0;
      }
      const { text, pos } = this;
      const lineEnd = text.indexOf("\n", pos);
      const tab = text.indexOf("\t", pos);
      if (lineEnd < 0 || tab < 0 || tab > lineEnd)
        throw new Error(`A segment line without a key: ${text.slice(pos, pos + 80)}`);
      this.pos = lineEnd + 1;
      this.linesRead++;
      budget--;
      if (this.shadowed.size > 0 && this.shadowed.has(text.slice(pos, tab))) continue;
      this.parse(text, tab + 1, lineEnd);
    }
    if (this.linesRead < this.fileLines) return false;
    if (this.reading) this.reading.return(undefined);
    this.reading = null;
    this.text = "";
    const { docs } = this;
    if (docs.size < this.size) for (const [key, doc] of this.parsed) docs.set(key, doc);
    // Nothing more to read in the chunks (other tables may still).
    this.chunks = [];
    return true;
  }
}

/**
 * The key of the segment line whose JSON text starts at `start` in `text`, as
 * a string of its own: the document's `_id` when it is that key (it always is
 * for a user table), else a copy (see ownString).
 */
function keyBefore(text: string, start: number, doc: Doc): string {
  const id = doc._id;
  const keyStart = start - 1 - (typeof id === "string" ? id.length : 0);
  if (
    typeof id === "string" &&
    keyStart >= 0 &&
    (keyStart === 0 || text.charCodeAt(keyStart - 1) === 10) &&
    text.startsWith(id, keyStart)
  ) {
    return id;
  }
  return ownString(text.slice(text.lastIndexOf("\n", start - 2) + 1, start - 1));
}

/**
 * A string of its own equal to `s`. A key read from a segment is a slice of a
 * chunk of it: kept (a map's key), it would keep the whole chunk in memory.
 */
function ownString(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
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
  /** The segment chunks the lazy tables' documents are in. */
  chunks: string[];
  eager: Map<string, Map<string, Doc>>;
  lazy: Map<string, LazyTable>;
  /** The short strings the lazy tables' documents share (see intern). */
  pool: Map<string, string>;
  /** The largest `_creationTime` of the parsed documents. */
  maxCreation: number;
  state: LoadedState;
};

function emptyRead(state: LoadedState): ReadDocuments {
  const read: ReadDocuments = {
    componentDocs: new Map(),
    files: [],
    refused: [],
    chunks: [],
    eager: new Map(),
    lazy: new Map(),
    pool: new Map(),
    maxCreation: 0,
    state,
  };
  // Tables with segment files of their own: read when first used (or in the background).
  for (const [table, { files, docs }] of state.lazyTables) lazyTable(read, table).addFiles(files, docs);
  return read;
}

function lazyTable(read: ReadDocuments, table: string): LazyTable {
  let lazy = read.lazy.get(table);
  if (!lazy) read.lazy.set(table, (lazy = new LazyTable(read.chunks, read.state.shadowed, read.pool)));
  return lazy;
}

/**
 * Sorts one stored document into `read`: `value` parsed, or its JSON text the
 * slice [start, end) of the segment chunk `read.chunks[value]`.
 */
function readOne(read: ReadDocuments, key: string, value: number | Record<string, unknown>, start = 0, end = 0): void {
  if (key.charCodeAt(0) === 64 /* @ */) {
    read.componentDocs.set(
      ownString(key),
      typeof value === "number" ? JSON.parse(read.chunks[value].slice(start, end)) : value,
    );
    return;
  }
  const table = storedIdTable(key);
  if (table === false) {
    // An old-format session or refresh token (isRefusedLegacyId).
    read.refused.push(ownString(key));
    return;
  }
  if (table === null) return;
  if (table.charCodeAt(0) === 95 /* _ */) {
    const doc =
      typeof value === "number" ? parseStoredDoc(read.chunks[value].slice(start, end)) : fromStoredJson(value);
    if (doc._creationTime > read.maxCreation) read.maxCreation = doc._creationTime;
    const own = doc._id === key ? (doc._id as string) : ownString(key);
    if (table === "_storage")
      read.files.push([own, doc.sha256 as string, (doc.contentType as string | undefined) ?? ""]);
    let docs = read.eager.get(table);
    if (!docs) read.eager.set(table, (docs = new Map()));
    docs.set(own, doc);
    return;
  }
  const pending = lazyTable(read, table);
  if (typeof value === "number") pending.add(value, start, end);
  else {
    const doc = fromStoredJson(value);
    if (doc._creationTime > read.maxCreation) read.maxCreation = doc._creationTime;
    pending.parsed.set(key, doc);
  }
}

/** Sorts documents `from` to `to` of a batch into `read` (a segment's chunk joins `read.chunks` with its first). */
function readBatch(read: ReadDocuments, batch: DocBatch, from: number, to: number): void {
  const { keys } = batch;
  if ("text" in batch) {
    if (from === 0) read.chunks.push(batch.text);
    const chunk = read.chunks.length - 1;
    const { starts, ends } = batch;
    for (let i = from; i < to; i++) readOne(read, keys[i], chunk, starts[i], ends[i]);
  } else {
    for (let i = from; i < to; i++) readOne(read, keys[i], batch.values[i]);
  }
}

/** Reads every stored document at once. */
export function readDocuments(state: LoadedState): ReadDocuments {
  const read = emptyRead(state);
  for (const batch of state.batches) readBatch(read, batch, 0, batch.keys.length);
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
  const batches = state.batches[Symbol.iterator]();
  let batch: DocBatch = { keys: [], values: [] };
  let i = 0;
  for (let done = false; !done;) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const started = performance.now();
    do {
      if (i === batch.keys.length) {
        const next = batches.next();
        if (next.done) {
          done = true;
          break;
        }
        batch = next.value;
        i = 0;
      }
      const end = Math.min(batch.keys.length, i + 256);
      readBatch(read, batch, i, end);
      i = end;
    } while (performance.now() - started < SLICE_MS);
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

/** What loading needs of an IndexedDatabase. */
type LoadTarget = {
  loadTables(parsed: Map<string, Map<string, Doc>>, lazy: Map<string, LazyTable>): void;
  loadSome(limit: number): boolean;
  _lastCreationTime: number;
};

/** Puts read documents into `db` (an empty IndexedDatabase): system tables parsed, user tables as LazyTables. */
export function installDocuments(db: LoadTarget, read: ReadDocuments): Restored {
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
export function restoreDocuments(db: LoadTarget, state: LoadedState): Restored {
  return installDocuments(db, readDocuments(state));
}

/** The longest background loading waits behind requests before it takes a slice anyway. */
export const YIELD_TO_REQUESTS_MS = 1000;

/** Resolves once `busy()` is false, checked every 2 ms, or after {@link YIELD_TO_REQUESTS_MS} at most. */
export async function whileBusy(busy: () => boolean): Promise<void> {
  const since = performance.now();
  while (busy() && performance.now() - since < YIELD_TO_REQUESTS_MS) {
    await new Promise<void>((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * Parses the tables `db` has not parsed yet, a slice at a time between other
 * work (setImmediate), until none is left or `stopped()`; then `done`. While
 * `busy()` (a request is being served: its own table is parsed when it reads
 * it) it waits, up to {@link YIELD_TO_REQUESTS_MS} at a time: the first queries
 * after a start are not kept waiting by the tables they do not read.
 */
export function loadInBackground(
  db: Pick<LoadTarget, "loadSome">,
  stopped: () => boolean,
  done?: () => void,
  busy: () => boolean = () => false,
): void {
  const step = async () => {
    if (stopped()) return;
    await whileBusy(busy);
    if (stopped()) return;
    const started = performance.now();
    while (performance.now() - started < SLICE_MS) {
      if (!db.loadSome(512)) {
        done?.();
        return;
      }
    }
    setImmediate(() => void step());
  };
  setImmediate(() => void step());
}
