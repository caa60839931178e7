/**
 * The data directory: an append-only JSON-lines log of committed writes
 * (dataLog.ts: fsync'd, in groups, before a write is acknowledged), the segmented snapshot
 * it is compacted into (segments.ts, compaction.ts: `manifest.json` and
 * `segments/`), stored file bytes (fileBytes.ts), environment variables, the
 * admin key and the lock (dataDir.ts).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type CompactionStats, type DocSource, docsIn, writeSegments } from "./compaction.js";
import { DataDirLock, DIR_MODE, FILE_MODE, fsyncDir, restrictPermissions } from "./dataDir.js";
import { DataLog, type FsyncFn, type JsonDoc, type LogEntry } from "./dataLog.js";
import { FileBytes } from "./fileBytes.js";
import { intKnob, storedIdTable } from "../common/index.js";
import { type DocBatch, parsedBatches, segmentBatches } from "./storedBatches.js";
import {
  baseGroups,
  baseSegments,
  type Manifest,
  readManifest,
  removeGarbage,
  type SegmentInfo,
  segmentLines,
  splitLine,
  writeManifest,
} from "./segments.js";

export type { CompactionStats, DocSource } from "./compaction.js";
export { DIR_MODE, FILE_MODE, restrictPermissions } from "./dataDir.js";
export type { JsonDoc, LogEntry } from "./dataLog.js";
export type { DocBatch } from "./storedBatches.js";
export { UploadTooLarge } from "./fileBytes.js";

export type LoadedState = {
  /**
   * Every stored document once, by data-log key: the segments' (or an old
   * `snapshot.json`'s) overlaid with the deltas and the log. Read once,
   * streamed a chunk of a segment at a time: the database is never one
   * string, and its JSON form is never all in memory at once. A base segment's
   * document comes as its JSON text, unparsed (documentLoader.ts parses a
   * table's documents when the table is first used); the rest come parsed.
   */
  batches: Iterable<DocBatch>;
  /**
   * User tables whose base is not in `batches` (a version 2 manifest): their
   * segment files, read when the table is first used or in the background
   * (documentLoader.ts), and how many documents those hold.
   */
  lazyTables: Map<string, { files: string[]; docs: number }>;
  /** Keys the deltas and the log hold: their lines in a lazy table's files are out of date. */
  shadowed: ReadonlySet<string>;
  lastTs: bigint;
  mutations: Map<string, { ts: bigint; result: unknown }>;
  /**
   * At least the largest `_creationTime` of the documents `batches` gives as
   * text (read once `batches` has been read): the manifest's record of it, or
   * (a manifest from before that record) found in their text on the way.
   */
  maxCreationTime(): number;
};

/**
 * Compaction runs once the log passes this many bytes (at start, and after a
 * commit); `LOCAL_BACKEND_COMPACT_LOG_BYTES` in the backend's environment, a knob.
 */
export const COMPACT_LOG_BYTES = intKnob("LOCAL_BACKEND_COMPACT_LOG_BYTES", 8 * 1024 * 1024);

export class DataStore {
  readonly dir: string;
  private readonly log: DataLog;
  private readonly files: FileBytes;
  private readonly dirLock: DataDirLock;
  /** The segments on disk (null: none yet, a new or an old-format data directory). */
  private manifest: Manifest | null = null;
  /** Keys written to the log (or dropped on load) since the segments were last written. */
  private readonly dirty = new Set<string>();
  /** Keys the manifest's deltas hold. */
  private readonly deltaKeys = new Set<string>();
  /** `snapshot.json` of an older version was loaded: the next compaction migrates it. */
  private legacy = false;
  /** At least the largest `_creationTime` in the segments (recorded in the manifest by compaction). */
  private maxCreationTime = 0;
  /** The last compaction's figures (`/_local/stats`, the bench). */
  lastCompaction: CompactionStats | null = null;

  /** `fsync`: how the log's group fsyncs run (a test holds them). */
  constructor(dir: string, fsync?: FsyncFn) {
    this.dir = path.resolve(dir);
    fs.mkdirSync(path.join(this.dir, "files"), { recursive: true, mode: DIR_MODE });
    restrictPermissions(this.dir);
    this.log = new DataLog(this.logPath, fsync);
    this.files = new FileBytes(this.dir);
    this.dirLock = new DataDirLock(this.dir);
  }

  get logPath(): string {
    return path.join(this.dir, "log.jsonl");
  }
  /** The single-string snapshot of versions before the segments (migrated on start). */
  get snapshotPath(): string {
    return path.join(this.dir, "snapshot.json");
  }
  get manifestPath(): string {
    return path.join(this.dir, "manifest.json");
  }
  get segmentsDir(): string {
    return path.join(this.dir, "segments");
  }

  /** Bytes in the log (a compaction is due past COMPACT_LOG_BYTES). */
  get logBytes(): number {
    return this.log.bytes;
  }

  /** Figures about the segments (`/_local/stats`). */
  storageStats(): Record<string, unknown> {
    const m = this.manifest;
    const base = baseSegments(m);
    return {
      segments: base.length + (m?.deltas.length ?? 0),
      baseDocuments: docsIn(base),
      deltaDocuments: docsIn(m?.deltas ?? []),
      segmentBytes: [...base, ...(m?.deltas ?? [])].reduce((a, s) => a + s.bytes, 0),
      logBytes: this.logBytes,
      // Group commit: commits put on disk by the log's fsyncs, and those fsyncs.
      logFsyncs: this.log.fsyncs,
      logFsyncedCommits: this.log.syncedCommits,
      lastCompaction: this.lastCompaction,
    };
  }

  /**
   * Reads the segments (or an older version's `snapshot.json`), the deltas
   * and the log. A torn end of the log (crash mid-write, a large commit's
   * lines without their last) is cut off: it was never acknowledged.
   */
  load(): LoadedState {
    const mutations = new Map<string, { ts: bigint; result: unknown }>();
    let lastTs = 0n;
    const manifest = readManifest(this);
    this.manifest = manifest;
    removeGarbage(this, manifest);
    // Deltas, then the log: what they hold wins over the base (null: deleted).
    const overlay = new Map<string, JsonDoc>();
    let base: () => Iterable<DocBatch> = () => [];
    const lazyTables = new Map<string, { files: string[]; docs: number }>();
    if (manifest) {
      lastTs = BigInt(manifest.ts);
      const dir = this.segmentsDir;
      for (const delta of manifest.deltas) {
        for (const line of segmentLines(path.join(dir, delta.file))) {
          const [key, json] = splitLine(line);
          overlay.set(key, json === "" ? null : JSON.parse(json));
          this.deltaKeys.add(key);
        }
      }
      const recorded = manifest.maxCreationTime;
      this.maxCreationTime = recorded ?? 0;
      const found = (max: number) => (this.maxCreationTime = max);
      // System tables, components and ids of no known table now; user tables when first used.
      const eager: SegmentInfo[] = [];
      for (const [group, { base: segments }] of Object.entries(baseGroups(manifest))) {
        const present = segments.filter((s): s is SegmentInfo => s !== null);
        if (isEagerGroup(group)) eager.push(...present);
        else lazyTables.set(group, { files: present.map((s) => path.join(dir, s.file)), docs: docsIn(present) });
      }
      base = () => segmentBatches(dir, eager, overlay, recorded, found);
      // A migration cut short after its manifest was written.
      if (fs.existsSync(this.snapshotPath)) fs.rmSync(this.snapshotPath, { force: true });
    } else if (fs.existsSync(this.snapshotPath)) {
      // An older version's snapshot: one JSON string (it was written as one, so it parses as one).
      const snap = JSON.parse(fs.readFileSync(this.snapshotPath, "utf8")) as { ts: string; docs: [string, JsonDoc][] };
      lastTs = BigInt(snap.ts);
      this.legacy = true;
      base = () =>
        parsedBatches(
          (function* (): Generator<[string, JsonDoc]> {
            const docs = snap.docs;
            for (let i = 0; i < docs.length; i++) {
              const [id, doc] = docs[i];
              (docs as unknown[])[i] = null; // released as it goes
              if (!overlay.has(id)) yield [id, doc];
            }
          })(),
        );
    }
    lastTs = maxBigInt(
      lastTs,
      this.log.replay((key, doc) => {
        overlay.set(key, doc);
        this.dirty.add(key);
      }, mutations),
    );
    const shadowed = lazyTables.size > 0 ? new Set(overlay.keys()) : new Set<string>();
    function* all(): Generator<DocBatch> {
      yield* base();
      yield* parsedBatches(overlay);
      overlay.clear();
    }
    return { batches: all(), lazyTables, shadowed, lastTs, mutations, maxCreationTime: () => this.maxCreationTime };
  }

  /** The fingerprint of the schema every document in the segments satisfied when they were written (engine.ts). */
  get validatedSchema(): string | null {
    return this.manifest?.schema ?? null;
  }

  /** Every document passed this schema's check: recorded in the manifest (a start under it checks only the log's). */
  recordValidatedSchema(schema: string): void {
    if (this.manifest && this.manifest.schema !== schema) {
      this.manifest = { ...this.manifest, schema };
      writeManifest(this, this.manifest);
    }
  }

  /** Keys written since the segments were (documents the log brings on start). */
  changedKeys(): ReadonlySet<string> {
    return this.dirty;
  }

  /** A document dropped while loading (e.g. an old-format session): deleted on disk by the next compaction. */
  markDirty(key: string): void {
    this.dirty.add(key);
  }

  /** Whether a compaction is due: the log is large, or the data directory is in an older format. */
  compactionDue(): boolean {
    return (
      this.log.failedWrite === null &&
      (this.legacy || this.manifest?.version === 1 || this.logBytes >= COMPACT_LOG_BYTES)
    );
  }

  /**
   * Writes what changed since the last compaction into the segments, swaps
   * the manifest, then empties the log. Nothing is removed before the new
   * manifest is on disk, so a crash at any point leaves the old manifest and
   * the log (or the new manifest, and a log whose replay changes nothing).
   */
  compact(source: DocSource, ts: bigint, schema = ""): CompactionStats {
    // After a failed write the end of the log on disk is uncertain (its cut-back may not have landed): a restart first.
    if (this.log.failedWrite)
      throw new Error(`No compaction after a failed write to the log (${this.log.failedWrite})`);
    const started = performance.now();
    fs.mkdirSync(this.segmentsDir, { recursive: true, mode: DIR_MODE });
    const old = this.manifest;
    const changed = this.dirty.size;
    const { kind, next, written } = writeSegments({
      dir: this.segmentsDir,
      old,
      source,
      dirty: this.dirty,
      deltaKeys: this.deltaKeys,
      ts,
      schema,
      previousMaxCreation: this.maxCreationTime,
      groupOf,
    });
    fsyncDir(this.segmentsDir);
    writeManifest(this, next);
    // Only now is the log redundant: empty it (its replay over the new segments would change nothing).
    this.log.empty();
    if (this.legacy) {
      fs.rmSync(this.snapshotPath, { force: true });
      this.legacy = false;
    }
    fsyncDir(this.dir);
    // Segments the new manifest no longer names.
    const live = new Set<string>();
    for (const s of [...baseSegments(next), ...next.deltas]) live.add(s.file);
    for (const s of [...baseSegments(old), ...(old?.deltas ?? [])]) {
      if (!live.has(s.file)) fs.rmSync(path.join(this.segmentsDir, s.file), { force: true });
    }
    if (kind === "delta") for (const key of this.dirty) this.deltaKeys.add(key);
    else if (kind !== "none") this.deltaKeys.clear();
    this.dirty.clear();
    this.manifest = next;
    this.maxCreationTime = next.maxCreationTime ?? 0;
    this.lastCompaction = {
      kind,
      ms: performance.now() - started,
      bytes: written.reduce((a, s) => a + s.bytes, 0),
      files: written.length,
      docs: written.reduce((a, s) => a + s.docs, 0),
      changed,
    };
    return this.lastCompaction;
  }

  /** Appends one commit, fsync'd soon (see DataLog.append and durable(): a failure refuses later commits). */
  append(entry: LogEntry): void {
    this.log.append(entry);
    for (const [key] of entry.w) this.dirty.add(key);
  }

  /** Null once every commit appended so far is on disk, else a promise of that (DataLog.durable). */
  durable(): Promise<void> | null {
    return this.log.durable();
  }

  /** Throws (a LogWriteError) once a write to the log failed: writes wait for a restart. */
  refuseIfLogFailed(): void {
    this.log.refuseIfFailed();
  }

  closeLog(): void {
    this.log.close();
  }

  // --- files (fileBytes.ts) ----------------------------------------------

  /** Content-addressed by sha256 (as convex-test's _storage documents record it). */
  fileName(sha256Base64: string): string {
    return this.files.fileName(sha256Base64);
  }

  /** Stores bytes durably; returns their sha256 in base64. */
  writeFile(bytes: Uint8Array): string {
    return this.files.writeFile(bytes);
  }

  /** Streams bytes to disk (fsync'd); more than `limit` bytes: UploadTooLarge, and nothing is kept. */
  async writeStream(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    limit: number,
  ): Promise<{ sha: string; size: number }> {
    return await this.files.writeStream(source, limit);
  }

  /** Removes stored bytes no `_storage` document refers to any more. */
  removeFile(sha256Base64: string): void {
    this.files.removeFile(sha256Base64);
  }

  readFile(sha256Base64: string): Buffer | null {
    return this.files.readFile(sha256Base64);
  }

  // --- env and keys -------------------------------------------------------

  get envPath(): string {
    return path.join(this.dir, "env.json");
  }

  readEnv(): Record<string, string> {
    if (!fs.existsSync(this.envPath)) return {};
    return JSON.parse(fs.readFileSync(this.envPath, "utf8"));
  }

  writeEnv(env: Record<string, string>): void {
    const tmp = `${this.envPath}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(env, null, 2) + "\n", { mode: FILE_MODE });
    fs.renameSync(tmp, this.envPath);
  }

  /** Secret for admin requests (CLI -> running backend) and upload URL signatures. */
  adminKey(): string {
    const file = path.join(this.dir, "admin-key");
    if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(24).toString("hex"), { mode: FILE_MODE });
    return fs.readFileSync(file, "utf8").trim();
  }

  // --- the lock (dataDir.ts) --------------------------------------------

  /** What the lock answers a probe with (the CLI sets the running backend's URLs). */
  get lockInfo(): Record<string, unknown> {
    return this.dirLock.lockInfo;
  }
  set lockInfo(info: Record<string, unknown>) {
    this.dirLock.lockInfo = info;
  }

  /** Takes the data dir for this process (one writer at a time): see DataDirLock.lock. */
  async lock(): Promise<void> {
    await this.dirLock.lock();
  }

  /** The live process holding the data dir, as it describes itself, or null if none. */
  async probeLock(): Promise<Record<string, unknown> | null> {
    return await this.dirLock.probeLock();
  }

  unlock(): void {
    this.dirLock.unlock();
  }

  get runningPath(): string {
    return path.join(this.dir, "backend.json");
  }
}

const maxBigInt = (a: bigint, b: bigint) => (a > b ? a : b);

/** The base a stored document belongs in: its table, `@` for components' documents, `?` for ids of no known table. */
export function groupOf(key: string): string {
  if (key.charCodeAt(0) === 64 /* @ */) return "@";
  const table = storedIdTable(key);
  return typeof table === "string" ? table : "?";
}

/** Bases read at start: system tables, components, unknown ids (dropped or refused on load), a version 1 base. */
const isEagerGroup = (group: string) => /^[_@?*]/.test(group);
