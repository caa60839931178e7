/**
 * The data directory: an append-only JSON-lines log of committed writes
 * (fsync'd before a write is acknowledged), the segmented snapshot it is
 * compacted into (segments.ts: `manifest.json` and `segments/`), stored file
 * bytes, environment variables and the admin key.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import {
  bucketOf,
  levelFor,
  type Manifest,
  MANIFEST_FORMAT,
  readLines,
  SEGMENT_DOCS,
  SegmentWriter,
  type SegmentInfo,
  segmentLines,
  splitLine,
} from "./segments.js";

/** A document as Convex JSON (convexToJson), or null for a delete. */
export type JsonDoc = Record<string, unknown> | null;

export type LogEntry = {
  /** Commit timestamp, nanoseconds, as a decimal string. */
  ts: string;
  /** Written documents by id. */
  w: [string, JsonDoc][];
  /** Set when the commit was a client's mutation: lets a retried mutation get its first result. */
  m?: { s: string; r: number; res: unknown };
  /** Set on every line but the last of a commit logged as several lines (see append). */
  more?: true;
};

export type LoadedState = {
  /**
   * Every stored document once, by data-log key: the segments' (or an old
   * `snapshot.json`'s) overlaid with the deltas and the log. A generator read
   * once, streamed segment by segment and line by line: the database is never
   * one string, and its JSON form is never all in memory at once.
   */
  docs: Iterable<[string, Record<string, unknown>]>;
  lastTs: bigint;
  mutations: Map<string, { ts: bigint; result: unknown }>;
};

/** What compaction reads the committed documents from (the engine's memory). */
export type DocSource = {
  /** The committed document under a data-log key, as Convex JSON, or null if there is none. */
  get(key: string): JsonDoc;
  /** Every committed document (a full rewrite: the first compaction, a migration, a new level). */
  all(): Iterable<[string, JsonDoc]>;
  /** How many committed documents there are. */
  count(): number;
};

export type CompactionStats = {
  /** "delta": what changed, as a new delta; "merge": the deltas into the base buckets they touch; "full": everything. */
  kind: "none" | "delta" | "merge" | "full";
  ms: number;
  /** Bytes written to segment files. */
  bytes: number;
  /** Segment files written. */
  files: number;
  /** Lines (documents and tombstones) written. */
  docs: number;
  /** Documents that changed since the previous compaction. */
  changed: number;
};

/**
 * Compaction runs once the log passes this many bytes (at start, and after a
 * commit); `LOCAL_BACKEND_COMPACT_LOG_BYTES` in the backend's environment.
 */
export const COMPACT_LOG_BYTES = Number(process.env.LOCAL_BACKEND_COMPACT_LOG_BYTES) || 8 * 1024 * 1024;
/** A commit with more writes than this is logged as several lines (an import: no one huge string). */
const LOG_LINE_WRITES = 2048;
/** At most this many deltas before they are merged into the base. */
const MAX_DELTAS = 16;
/**
 * The data directory holds password hashes, session ids, the admin key and
 * the JWT private key: only its owner may read it. Files are created 0600 and
 * folders 0700, and a directory made by an older version is fixed on open.
 */
export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** Makes `dir` and everything in it owner-only (files 0600, folders 0700). */
export function restrictPermissions(dir: string): void {
  const walk = (current: string) => {
    fs.chmodSync(current, DIR_MODE);
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        if ((fs.statSync(full).mode & 0o777) !== FILE_MODE) fs.chmodSync(full, FILE_MODE);
      }
    }
  };
  walk(dir);
}

/** An upload over the size limit (the server answers 413). */
export class UploadTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The upload is larger than ${limit} bytes`);
  }
}

/** Sums the documents of some segments. */
const docsIn = (segments: Iterable<SegmentInfo | null>) => {
  let n = 0;
  for (const s of segments) n += s?.docs ?? 0;
  return n;
};

export class DataStore {
  readonly dir: string;
  private logFd: number | null = null;
  /** The segments on disk (null: none yet, a new or an old-format data directory). */
  private manifest: Manifest | null = null;
  /** Keys written to the log (or dropped on load) since the segments were last written. */
  private readonly dirty = new Set<string>();
  /** Keys the manifest's deltas hold. */
  private readonly deltaKeys = new Set<string>();
  /** `snapshot.json` of an older version was loaded: the next compaction migrates it. */
  private legacy = false;
  /** Bytes in the log (a compaction is due past COMPACT_LOG_BYTES). */
  logBytes = 0;
  /** The last compaction's figures (`/_local/stats`, the bench). */
  lastCompaction: CompactionStats | null = null;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
    fs.mkdirSync(path.join(this.dir, "files"), { recursive: true, mode: DIR_MODE });
    restrictPermissions(this.dir);
    // Uploads cut off by a crash.
    for (const name of fs.readdirSync(path.join(this.dir, "files"))) {
      if (/^upload-[0-9a-f]+\.tmp$/.test(name)) fs.rmSync(path.join(this.dir, "files", name), { force: true });
    }
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

  /** Figures about the segments (`/_local/stats`). */
  storageStats(): Record<string, unknown> {
    const m = this.manifest;
    const base = m ? m.base.filter((s): s is SegmentInfo => s !== null) : [];
    return {
      segments: base.length + (m?.deltas.length ?? 0),
      baseDocuments: docsIn(base),
      deltaDocuments: docsIn(m?.deltas ?? []),
      segmentBytes: [...base, ...(m?.deltas ?? [])].reduce((a, s) => a + s.bytes, 0),
      logBytes: this.logBytes,
      lastCompaction: this.lastCompaction,
    };
  }

  private readManifest(): Manifest | null {
    if (!fs.existsSync(this.manifestPath)) {
      // Segments without a manifest: the manifest was lost (deleted, or a copy made without it). The log
      // was emptied when they were compacted, so starting would start empty: refuse instead. (A compaction
      // cut short leaves the previous manifest, and an interrupted migration leaves snapshot.json.)
      const files = fs.existsSync(this.segmentsDir) ? fs.readdirSync(this.segmentsDir) : [];
      if (files.length > 0 && !fs.existsSync(this.snapshotPath)) {
        throw new Error(
          `${this.segmentsDir} holds ${files.length} segment files but ${this.manifestPath} is missing, so the ` +
            `data cannot be read. Restore manifest.json (for example from the backup these files came from); ` +
            `the backend does not start so that nothing is deleted.`,
        );
      }
      return null;
    }
    const manifest = JSON.parse(fs.readFileSync(this.manifestPath, "utf8")) as Manifest;
    if (manifest.format !== MANIFEST_FORMAT || manifest.version !== 1) {
      throw new Error(`${this.manifestPath} is not a manifest this backend can read (format ${manifest.format})`);
    }
    // Every segment it lists is one of ours (a plain file name in segments/) and whole: a file cut short
    // or swapped would otherwise load with documents silently missing.
    for (const segment of [...manifest.base, ...manifest.deltas]) {
      if (!segment) continue;
      if (!/^[0-9]+\.seg$/.test(segment.file)) {
        throw new Error(`${this.manifestPath} names a segment file "${segment.file}" this backend never writes`);
      }
      const file = path.join(this.segmentsDir, segment.file);
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
  private removeGarbage(manifest: Manifest | null): void {
    fs.rmSync(`${this.manifestPath}.tmp`, { force: true });
    if (!fs.existsSync(this.segmentsDir)) return;
    const live = new Set<string>();
    for (const s of [...(manifest?.base ?? []), ...(manifest?.deltas ?? [])]) if (s) live.add(s.file);
    for (const name of fs.readdirSync(this.segmentsDir)) {
      if (!live.has(name)) fs.rmSync(path.join(this.segmentsDir, name), { force: true });
    }
  }

  /**
   * Reads the segments (or an older version's `snapshot.json`), the deltas
   * and the log. A torn end of the log (crash mid-write, a large commit's
   * lines without their last) is cut off: it was never acknowledged.
   */
  load(): LoadedState {
    const mutations = new Map<string, { ts: bigint; result: unknown }>();
    let lastTs = 0n;
    const manifest = this.readManifest();
    this.manifest = manifest;
    this.removeGarbage(manifest);
    // Deltas, then the log: what they hold wins over the base (null: deleted).
    const overlay = new Map<string, JsonDoc>();
    let base: () => Iterable<[string, Record<string, unknown>]> = () => [];
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
      base = function* () {
        for (const segment of manifest.base) {
          if (!segment) continue;
          for (const line of segmentLines(path.join(dir, segment.file))) {
            const tab = line.indexOf("\t");
            const key = line.slice(0, tab);
            if (overlay.has(key)) continue;
            yield [key, JSON.parse(line.slice(tab + 1))];
          }
        }
      };
      // A migration cut short after its manifest was written.
      if (fs.existsSync(this.snapshotPath)) fs.rmSync(this.snapshotPath, { force: true });
    } else if (fs.existsSync(this.snapshotPath)) {
      // An older version's snapshot: one JSON string (it was written as one, so it parses as one).
      const snap = JSON.parse(fs.readFileSync(this.snapshotPath, "utf8")) as { ts: string; docs: [string, JsonDoc][] };
      lastTs = BigInt(snap.ts);
      this.legacy = true;
      base = function* () {
        const docs = snap.docs;
        for (let i = 0; i < docs.length; i++) {
          const [id, doc] = docs[i];
          (docs as unknown[])[i] = null; // released as it goes
          if (doc && !overlay.has(id)) yield [id, doc];
        }
      };
    }
    this.logBytes = 0;
    if (fs.existsSync(this.logPath)) {
      let validBytes = 0;
      let pending: [string, JsonDoc][] = [];
      for (const [line, end] of readLines(this.logPath)) {
        if (end < 0) break; // no trailing newline: not fully written
        if (line === "") {
          if (pending.length === 0) validBytes = end;
          continue;
        }
        let entry: LogEntry;
        try {
          entry = JSON.parse(line);
        } catch {
          // Only the very last line can be torn; it was never acknowledged.
          break;
        }
        if (entry.more) {
          // One of a large commit's lines: applied with its last line, or never.
          for (const write of entry.w) pending.push(write);
          continue;
        }
        validBytes = end;
        for (const write of pending.length > 0 ? [...pending, ...entry.w] : entry.w) {
          overlay.set(write[0], write[1]);
          this.dirty.add(write[0]);
        }
        pending = [];
        const ts = BigInt(entry.ts);
        if (ts > lastTs) lastTs = ts;
        if (entry.m) mutations.set(`${entry.m.s}:${entry.m.r}`, { ts, result: entry.m.res });
      }
      if (validBytes < fs.statSync(this.logPath).size) fs.truncateSync(this.logPath, validBytes);
      this.logBytes = validBytes;
    }
    function* docs(): Generator<[string, Record<string, unknown>]> {
      yield* base();
      for (const [key, doc] of overlay) if (doc) yield [key, doc];
      overlay.clear();
    }
    return { docs: docs(), lastTs, mutations };
  }

  /** The fingerprint of the schema every document in the segments satisfied when they were written (engine.ts). */
  get validatedSchema(): string | null {
    return this.manifest?.schema ?? null;
  }

  /** Every document passed this schema's check: recorded in the manifest (a start under it checks only the log's). */
  recordValidatedSchema(schema: string): void {
    if (this.manifest && this.manifest.schema !== schema) {
      this.manifest = { ...this.manifest, schema };
      this.writeManifest(this.manifest);
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

  /** Whether a compaction is due: the log is large, or the data directory is in the old format. */
  compactionDue(): boolean {
    return this.legacy || this.logBytes >= COMPACT_LOG_BYTES;
  }

  /**
   * Writes what changed since the last compaction into the segments, swaps
   * the manifest, then empties the log. Nothing is removed before the new
   * manifest is on disk, so a crash at any point leaves the old manifest and
   * the log (or the new manifest, and a log whose replay changes nothing).
   */
  compact(source: DocSource, ts: bigint, schema = ""): CompactionStats {
    const started = performance.now();
    fs.mkdirSync(this.segmentsDir, { recursive: true, mode: DIR_MODE });
    const old = this.manifest;
    const changed = this.dirty.size;
    let nextFile = old?.nextFile ?? 1;
    const written: SegmentInfo[] = [];
    const writer = () => new SegmentWriter(this.segmentsDir, `${nextFile++}.seg`, FILE_MODE);
    const finish = (w: SegmentWriter): SegmentInfo | null => {
      const info = w.finish();
      written.push(info);
      return info;
    };
    let kind: CompactionStats["kind"];
    let next: Manifest;
    const total = source.count();
    const level = levelFor(total);
    if (!old || level > old.level) {
      // Everything, from memory, into 2^level buckets.
      kind = "full";
      const writers: (SegmentWriter | null)[] = new Array(2 ** level).fill(null);
      for (const [key, doc] of source.all()) {
        if (!doc) continue;
        const b = bucketOf(key, level);
        (writers[b] ??= writer()).add(key, JSON.stringify(doc));
      }
      next = {
        format: MANIFEST_FORMAT,
        version: 1,
        ts: ts.toString(),
        schema,
        level,
        base: writers.map((w) => (w ? finish(w) : null)),
        deltas: [],
        nextFile,
      };
    } else if (changed === 0) {
      kind = "none";
      next = { ...old, ts: ts.toString(), schema };
    } else if (
      old.deltas.length >= MAX_DELTAS ||
      docsIn(old.deltas) + changed > Math.max(SEGMENT_DOCS, docsIn(old.base) / 4)
    ) {
      // The deltas and the changes into the base: only the buckets they touch are rewritten.
      kind = "merge";
      const keys = new Set<string>(this.deltaKeys);
      for (const key of this.dirty) keys.add(key);
      const byBucket = new Map<number, string[]>();
      for (const key of keys) {
        const b = bucketOf(key, old.level);
        const list = byBucket.get(b);
        if (list) list.push(key);
        else byBucket.set(b, [key]);
      }
      const base = [...old.base];
      for (const [b, bucketKeys] of byBucket) {
        const w = writer();
        const previous = old.base[b];
        if (previous) {
          for (const line of segmentLines(path.join(this.segmentsDir, previous.file))) {
            if (!keys.has(line.slice(0, line.indexOf("\t")))) w.addLine(line);
          }
        }
        for (const key of bucketKeys) {
          const doc = source.get(key);
          if (doc) w.add(key, JSON.stringify(doc));
        }
        if (w.docs === 0) {
          w.abandon();
          base[b] = null;
        } else base[b] = finish(w);
      }
      next = { ...old, ts: ts.toString(), schema, base, deltas: [], nextFile };
    } else {
      // What changed, as one more delta.
      kind = "delta";
      const w = writer();
      for (const key of this.dirty) {
        const doc = source.get(key);
        w.add(key, doc ? JSON.stringify(doc) : null);
      }
      next = { ...old, ts: ts.toString(), schema, deltas: [...old.deltas, finish(w)!], nextFile };
    }
    this.fsyncDir(this.segmentsDir);
    this.writeManifest(next);
    // Only now is the log redundant: empty it (its replay over the new segments would change nothing).
    this.closeLog();
    const fd = fs.openSync(this.logPath, "w", FILE_MODE);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    this.logBytes = 0;
    if (this.legacy) {
      fs.rmSync(this.snapshotPath, { force: true });
      this.legacy = false;
    }
    this.fsyncDir(this.dir);
    // Segments the new manifest no longer names.
    const live = new Set<string>();
    for (const s of [...next.base, ...next.deltas]) if (s) live.add(s.file);
    for (const s of [...(old?.base ?? []), ...(old?.deltas ?? [])]) {
      if (s && !live.has(s.file)) fs.rmSync(path.join(this.segmentsDir, s.file), { force: true });
    }
    if (kind === "delta") for (const key of this.dirty) this.deltaKeys.add(key);
    else if (kind !== "none") this.deltaKeys.clear();
    this.dirty.clear();
    this.manifest = next;
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

  private writeManifest(manifest: Manifest): void {
    const tmp = `${this.manifestPath}.tmp`;
    const fd = fs.openSync(tmp, "w", FILE_MODE);
    fs.writeSync(fd, JSON.stringify(manifest));
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, this.manifestPath);
    this.fsyncDir(this.dir);
  }

  /** Appends one commit and fsyncs it before returning. */
  append(entry: LogEntry): void {
    if (this.logFd === null) this.logFd = fs.openSync(this.logPath, "a", FILE_MODE);
    const write = (text: string) => {
      const buffer = Buffer.from(text, "utf8");
      let done = 0;
      while (done < buffer.length) done += fs.writeSync(this.logFd!, buffer, done);
      this.logBytes += buffer.length;
    };
    if (entry.w.length <= LOG_LINE_WRITES) write(JSON.stringify(entry) + "\n");
    else {
      // A large commit (an import) as several lines, the last one without `more`:
      // replayed only when its last line is there.
      for (let i = 0; i < entry.w.length; i += LOG_LINE_WRITES) {
        const w = entry.w.slice(i, i + LOG_LINE_WRITES);
        const last = i + LOG_LINE_WRITES >= entry.w.length;
        write(JSON.stringify(last ? { ...entry, w } : { ts: entry.ts, w, more: true }) + "\n");
      }
    }
    fs.fsyncSync(this.logFd);
    for (const [key] of entry.w) this.dirty.add(key);
  }

  closeLog(): void {
    if (this.logFd !== null) {
      fs.closeSync(this.logFd);
      this.logFd = null;
    }
  }

  private fsyncDir(dir = this.dir): void {
    try {
      const fd = fs.openSync(dir, "r");
      fs.fsyncSync(fd);
      fs.closeSync(fd);
    } catch {
      // Not supported on every platform.
    }
  }

  // --- files -------------------------------------------------------------

  /** Content-addressed by sha256 (as convex-test's _storage documents record it). */
  fileName(sha256Base64: string): string {
    return path.join(this.dir, "files", Buffer.from(sha256Base64, "base64").toString("hex"));
  }

  /** Stores bytes durably; returns their sha256 in base64. */
  writeFile(bytes: Uint8Array): string {
    const sha = createHash("sha256").update(bytes).digest("base64");
    const file = this.fileName(sha);
    if (!fs.existsSync(file)) {
      const tmp = `${file}.tmp`;
      const fd = fs.openSync(tmp, "w", FILE_MODE);
      fs.writeSync(fd, bytes);
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      fs.renameSync(tmp, file);
      this.fsyncDir();
    }
    return sha;
  }

  /**
   * Streams bytes to disk (fsync'd), hashing as they arrive; content-addressed
   * like writeFile. More than `limit` bytes: UploadTooLarge, and nothing is kept.
   */
  async writeStream(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    limit: number,
  ): Promise<{ sha: string; size: number }> {
    const tmp = path.join(this.dir, "files", `upload-${randomBytes(8).toString("hex")}.tmp`);
    const handle = await fs.promises.open(tmp, "w", FILE_MODE);
    const hash = createHash("sha256");
    let size = 0;
    try {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > limit) throw new UploadTooLarge(limit);
        hash.update(chunk);
        await handle.write(chunk);
      }
      await handle.sync();
    } catch (error) {
      await handle.close();
      fs.rmSync(tmp, { force: true });
      throw error;
    }
    await handle.close();
    const sha = hash.digest("base64");
    const file = this.fileName(sha);
    if (fs.existsSync(file)) fs.rmSync(tmp, { force: true });
    else {
      fs.renameSync(tmp, file);
      this.fsyncDir();
    }
    return { sha, size };
  }

  /** Removes stored bytes no `_storage` document refers to any more. */
  removeFile(sha256Base64: string): void {
    fs.rmSync(this.fileName(sha256Base64), { force: true });
  }

  readFile(sha256Base64: string): Buffer | null {
    const file = this.fileName(sha256Base64);
    return fs.existsSync(file) ? fs.readFileSync(file) : null;
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

  private lockServer: net.Server | null = null;
  /** What the lock answers a probe with (the CLI sets the running backend's URLs). */
  lockInfo: Record<string, unknown> = { pid: process.pid };

  /**
   * Where the data dir's lock listens: an abstract Unix socket named after the
   * directory on Linux (nothing on disk), else `lock.sock` inside it.
   */
  private get lockAddress(): string {
    const key = createHash("sha256").update(fs.realpathSync(this.dir)).digest("hex").slice(0, 32);
    return process.platform === "linux" ? `\0stagetime-local-backend-${key}` : path.join(this.dir, "lock.sock");
  }

  /**
   * Takes the data dir for this process (one writer at a time) by listening on
   * its lock socket. The kernel closes the socket the moment the process dies
   * (kill -9 included, before it is even reaped), so a dead owner never blocks
   * a start, whatever pid file it left and whoever has its pid now; a live
   * owner always does.
   */
  async lock(): Promise<void> {
    if (this.lockServer) return;
    const address = this.lockAddress;
    for (let attempt = 0; attempt < 3; attempt++) {
      const server = net.createServer((socket) => {
        socket.on("error", () => {});
        socket.end(JSON.stringify(this.lockInfo));
      });
      try {
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(address, () => resolve());
        });
        server.unref();
        this.lockServer = server;
        // A pid file from before this lock existed means nothing now.
        fs.rmSync(path.join(this.dir, "lock"), { force: true });
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      }
      const owner = await this.probeLock();
      if (owner) {
        throw new Error(`${this.dir} is in use by another local backend process (pid ${String(owner.pid ?? "?")}).`);
      }
      // A socket file left by a dead process (non-Linux): remove and retry.
      if (!address.startsWith("\0")) fs.rmSync(address, { force: true });
    }
    throw new Error(`Could not lock ${this.dir}`);
  }

  /** The live process holding the data dir, as it describes itself, or null if none. */
  async probeLock(): Promise<Record<string, unknown> | null> {
    return await new Promise((resolve) => {
      const socket = net.connect(this.lockAddress);
      let text = "";
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ pid: "unknown" }); // connected but silent: alive and busy
      }, 5000);
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("end", () => {
        clearTimeout(timer);
        try {
          resolve(JSON.parse(text));
        } catch {
          resolve({ pid: "unknown" });
        }
      });
      socket.on("error", () => {
        clearTimeout(timer);
        resolve(null); // nobody listens: no live owner
      });
    });
  }

  unlock(): void {
    this.lockServer?.close();
    this.lockServer = null;
  }

  get runningPath(): string {
    return path.join(this.dir, "backend.json");
  }
}
