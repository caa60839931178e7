/**
 * The segmented snapshot of the data directory (issue 18 item 3): the
 * database as many bounded files instead of one JSON string.
 *
 * - `segments/<n>.seg`: one document a line, `<key>\t<Convex JSON>` (a
 *   tombstone, in a delta, is `<key>\t`). Written with buffered writes,
 *   fsync'd, never changed afterwards.
 * - `manifest.json`: which segment files make up the database, swapped
 *   atomically (written beside, fsync'd, renamed, directory fsync'd). A
 *   segment file the manifest does not name is garbage from a compaction a
 *   crash cut short, removed on open.
 *
 * The base is kept per table (version 2; components' documents together, under
 * `@`): a start reads a table's files when the table is first needed, not the
 * whole database. A table's base is 2^level buckets: a document lives in the
 * bucket the FNV-1a hash of its key names, so each bucket holds about
 * `SEGMENT_DOCS` documents at most and a document's bucket never depends on
 * anything but its key and table. (Version 1 had one base for all tables; it
 * is read as it is and rewritten as version 2 by the first compaction.) Deltas
 * (oldest first) hold the documents written since the base was last merged,
 * tombstones for deletes; a later delta, and then the log, win over the base.
 *
 * Compaction (store.ts) writes what changed since the last one as a new delta
 * (its cost follows the changes), and merges the deltas into the base when
 * they grow past a quarter of it, rewriting only the buckets their keys fall
 * in and copying those buckets' other lines as they are (no JSON work).
 */
import { isAscii } from "node:buffer";
import fs from "node:fs";
import path from "node:path";
import { FILE_MODE, fsyncDir } from "./dataDir.js";
import { intKnob } from "../common/index.js";

/**
 * Documents per base bucket the level aims at (a bucket is a few MiB);
 * `LOCAL_BACKEND_SEGMENT_DOCS` in the backend's environment (tests use a few), a knob.
 */
export const SEGMENT_DOCS = intKnob("LOCAL_BACKEND_SEGMENT_DOCS", 16_384);

export type SegmentInfo = { file: string; docs: number; bytes: number };

/** One table's base: 2^level buckets, a segment per bucket (null: an empty bucket). */
export type BaseGroup = { level: number; base: (SegmentInfo | null)[] };

export type Manifest = {
  format: "stagetime-local-backend-segments";
  /** 2: a base per table (`tables`); 1: one base for every table (`level`, `base`). */
  version: 1 | 2;
  /** Commit timestamp the segments are current at (ns, decimal string). */
  ts: string;
  /** Fingerprint of the schema the documents satisfied when written (start skips re-checking them under it). */
  schema?: string;
  /** Version 2: each table's base (components' documents under `@`, ids of no known table under `?`). */
  tables?: Record<string, BaseGroup>;
  /** Version 1: the base has 2^level buckets. */
  level?: number;
  /** Version 1: base segment per bucket (null: an empty bucket). */
  base?: (SegmentInfo | null)[];
  /** Deltas over the base, oldest first. */
  deltas: SegmentInfo[];
  /** Number of the next segment file. */
  nextFile: number;
  /**
   * At least the largest `_creationTime` of the documents in the segments (a
   * start need not parse them to know it); missing in manifests written before it.
   */
  maxCreationTime?: number;
};

export const MANIFEST_FORMAT = "stagetime-local-backend-segments";

/** The bases of a manifest by table (a version 1 manifest's one base under `*`). */
export function baseGroups(m: Manifest): Record<string, BaseGroup> {
  if (m.version === 2) return m.tables ?? {};
  return { "*": { level: m.level ?? 0, base: m.base ?? [] } };
}

/** Every base segment of a manifest. */
export function baseSegments(m: Manifest | null): SegmentInfo[] {
  if (!m) return [];
  const out: SegmentInfo[] = [];
  for (const group of Object.values(baseGroups(m))) for (const s of group.base) if (s) out.push(s);
  return out;
}

/** FNV-1a of the key, low `level` bits: the base bucket of a document. */
export function bucketOf(key: string, level: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return level === 0 ? 0 : (h >>> 0) & ((1 << level) - 1);
}

/** The level whose buckets hold at most SEGMENT_DOCS documents on average. */
export function levelFor(docs: number): number {
  let level = 0;
  while (docs > SEGMENT_DOCS * 2 ** level && level < 16) level++;
  return level;
}

const READ_CHUNK = 8 << 20;

/**
 * The lines of a file, read in chunks (a file of any size, never one string
 * of it), each with the byte offset just after its newline (the log cuts a
 * torn tail there); a last line without a newline (torn) comes with -1.
 */
export function* readLines(file: string): Generator<[string, number]> {
  const fd = fs.openSync(file, "r");
  try {
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    let carry: Buffer = Buffer.alloc(0);
    let offset = 0;
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) {
        if (carry.length > 0) yield [carry.toString("utf8"), -1];
        return;
      }
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      const last = data.lastIndexOf(10);
      if (last < 0) {
        carry = Buffer.from(data);
        continue;
      }
      const text = decodeText(data, last);
      const base = offset;
      offset += last + 1;
      carry = Buffer.from(data.subarray(last + 1));
      const lines = text.split("\n");
      let end = base;
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        if (i === lines.length - 1) end = offset;
        else end += Buffer.byteLength(line) + 1;
        yield [line, end];
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * UTF-8 bytes `data[0, end)` as a string. Text that is all ASCII (stored
 * documents usually are) reads as Latin-1, the same string about three times
 * faster than UTF-8 decoding (a start reads every segment, 250 MB at 800,000
 * documents).
 */
function decodeText(data: Buffer, end: number): string {
  const bytes = data.subarray(0, end);
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}

/** Segments are read a mebibyte at a time (a chunk's documents are one batch of a start's reading). */
const SEGMENT_CHUNK = 1 << 20;

/**
 * A segment file's text in chunks of whole lines, each chunk ending with its
 * last line's newline (every line of a segment ends with one: a file that
 * does not is damaged, an error once its whole lines have come).
 */
export function* segmentChunks(file: string): Generator<string> {
  const fd = fs.openSync(file, "r");
  try {
    let chunk = Buffer.allocUnsafe(SEGMENT_CHUNK);
    let carried = 0; // bytes at the start of `chunk` after the last newline so far
    for (;;) {
      if (carried === chunk.length) {
        // A line longer than the chunk: a chunk twice the size.
        const larger = Buffer.allocUnsafe(chunk.length * 2);
        chunk.copy(larger);
        chunk = larger;
      }
      const n = fs.readSync(fd, chunk, carried, chunk.length - carried, null);
      if (n === 0) {
        if (carried > 0) throw new Error(`${file} ends without a newline: the segment is damaged`);
        return;
      }
      const filled = carried + n;
      const last = chunk.lastIndexOf(10, filled - 1);
      if (last < 0) {
        carried = filled;
        continue;
      }
      const text = decodeText(chunk, last + 1); // a copy: the chunk is read into again
      chunk.copy(chunk, 0, last + 1, filled);
      carried = filled - last - 1;
      yield text;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** The lines of a segment file (every line of a segment ends with a newline). */
export function* segmentLines(file: string): Generator<string> {
  for (const text of segmentChunks(file)) {
    const lines = text.split("\n");
    lines.pop(); // after the chunk's last newline
    yield* lines;
  }
}

/**
 * The documents of a chunk of segment lines ({@link segmentChunks}), in order:
 * each line's key (a slice of the chunk) and where its JSON text starts (after
 * the tab) and ends (at the newline) in the chunk.
 */
export function eachSegmentLine(text: string, each: (key: string, start: number, end: number) => void): void {
  for (let start = 0; start < text.length;) {
    const end = text.indexOf("\n", start);
    const tab = text.indexOf("\t", start);
    if (end < 0 || tab < 0 || tab > end)
      throw new Error(`A segment line without a key: ${text.slice(start, start + 80)}`);
    each(text.slice(start, tab), tab + 1, end);
    start = end + 1;
  }
}

const FLUSH_BYTES = 1 << 20;

/** Writes one segment file: buffered appends, fsync'd and closed by finish(). */
export class SegmentWriter {
  readonly file: string;
  private fd: number;
  private pending: string[] = [];
  private pendingChars = 0;
  docs = 0;
  bytes = 0;

  constructor(
    readonly dir: string,
    readonly name: string,
    mode: number,
  ) {
    this.file = path.join(dir, name);
    this.fd = fs.openSync(this.file, "w", mode);
  }

  /** A document (`json` its Convex JSON) or, with null, a tombstone. */
  add(key: string, json: string | null): void {
    if (key.includes("\t") || key.includes("\n")) throw new Error(`Cannot store document key ${JSON.stringify(key)}`);
    this.addLine(json === null ? `${key}\t` : `${key}\t${json}`);
  }

  /** A line copied as it is from another segment. */
  addLine(line: string): void {
    this.pending.push(line, "\n");
    this.pendingChars += line.length + 1;
    this.docs++;
    if (this.pendingChars >= FLUSH_BYTES) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const buffer = Buffer.from(this.pending.join(""), "utf8");
    this.pending = [];
    this.pendingChars = 0;
    let written = 0;
    while (written < buffer.length) written += fs.writeSync(this.fd, buffer, written);
    this.bytes += buffer.length;
  }

  finish(): SegmentInfo {
    this.flush();
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
    return { file: this.name, docs: this.docs, bytes: this.bytes };
  }

  /** Closes and removes an unfinished segment. */
  abandon(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // already closed
    }
    fs.rmSync(this.file, { force: true });
  }
}

/** Splits a segment line into its key and JSON text ("" for a tombstone). */
export function splitLine(line: string): [string, string] {
  const tab = line.indexOf("\t");
  if (tab < 0) throw new Error(`A segment line without a key: ${line.slice(0, 80)}`);
  return [line.slice(0, tab), line.slice(tab + 1)];
}

const CREATION = '"_creationTime":';

/**
 * The largest `_creationTime` in a document's JSON text without parsing it:
 * the largest number after any `"_creationTime":` (a nested one can only make
 * it larger, never hide the document's own).
 */
export function maxCreationIn(text: string): number {
  let max = 0;
  for (let i = text.indexOf(CREATION); i >= 0; i = text.indexOf(CREATION, i + CREATION.length)) {
    const value = parseFloat(text.slice(i + CREATION.length, i + CREATION.length + 32));
    if (value > max) max = value;
  }
  return max;
}

/** Where a data directory keeps its manifest, segments and (from an older version) snapshot. */
export type DataFiles = { dir: string; manifestPath: string; segmentsDir: string; snapshotPath: string };

/** The data directory's manifest (null: none), each segment it names checked to be whole. */
export function readManifest(where: DataFiles): Manifest | null {
  if (!fs.existsSync(where.manifestPath)) {
    // Segments without a manifest: the manifest was lost (deleted, or a copy made without it). The log
    // was emptied when they were compacted, so starting would start empty: refuse instead. (A compaction
    // cut short leaves the previous manifest, and an interrupted migration leaves snapshot.json.)
    const files = fs.existsSync(where.segmentsDir) ? fs.readdirSync(where.segmentsDir) : [];
    if (files.length > 0 && !fs.existsSync(where.snapshotPath)) {
      throw new Error(
        `${where.segmentsDir} holds ${files.length} segment files but ${where.manifestPath} is missing, so the ` +
          `data cannot be read. Restore manifest.json (for example from the backup these files came from); ` +
          `the backend does not start so that nothing is deleted.`,
      );
    }
    return null;
  }
  const manifest = JSON.parse(fs.readFileSync(where.manifestPath, "utf8")) as Manifest;
  if (manifest.format !== MANIFEST_FORMAT || (manifest.version !== 1 && manifest.version !== 2)) {
    throw new Error(`${where.manifestPath} is not a manifest this backend can read (format ${manifest.format})`);
  }
  // Every segment it lists is one of ours (a plain file name in segments/) and whole: a file cut short
  // or swapped would otherwise load with documents silently missing.
  for (const segment of [...baseSegments(manifest), ...manifest.deltas]) {
    if (!/^[0-9]+\.seg$/.test(segment.file)) {
      throw new Error(`${where.manifestPath} names a segment file "${segment.file}" this backend never writes`);
    }
    const file = path.join(where.segmentsDir, segment.file);
    const size = fs.existsSync(file) ? fs.statSync(file).size : -1;
    if (size !== segment.bytes) {
      throw new Error(
        `${file} is ${size < 0 ? "missing" : `${size} bytes`}, but the manifest recorded ${segment.bytes}: ` +
          `the data directory is damaged; restore it from a backup.`,
      );
    }
  }
  return manifest;
}

/** Segment files no manifest names: a compaction cut short by a crash. */
export function removeGarbage(where: DataFiles, manifest: Manifest | null): void {
  fs.rmSync(`${where.manifestPath}.tmp`, { force: true });
  if (!fs.existsSync(where.segmentsDir)) return;
  const live = new Set<string>();
  for (const s of [...baseSegments(manifest), ...(manifest?.deltas ?? [])]) live.add(s.file);
  for (const name of fs.readdirSync(where.segmentsDir)) {
    if (!live.has(name)) fs.rmSync(path.join(where.segmentsDir, name), { force: true });
  }
}

/** Swaps in a manifest: written beside, fsync'd, renamed over the old one, directory fsync'd. */
export function writeManifest(where: DataFiles, manifest: Manifest): void {
  const tmp = `${where.manifestPath}.tmp`;
  const fd = fs.openSync(tmp, "w", FILE_MODE);
  fs.writeSync(fd, JSON.stringify(manifest));
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(tmp, where.manifestPath);
  fsyncDir(where.dir);
}
