/**
 * The data log (`log.jsonl`): one JSON line per commit, written inside the
 * commit and fsync'd before anyone hears of it (group commit: the commits
 * written while an fsync runs share the next one, see durable()). A commit of more than
 * LOG_LINE_WRITES documents (an import) is several lines, the last one without
 * `more`, applied only when that last line is there. A failed append is cut
 * back and stops later commits until a restart; a restart drops what was never
 * acknowledged (a torn last line, a commit whose last line never came). The
 * commit path (commits.ts) appends before the commit is applied in memory, so
 * a failed append leaves nothing visible.
 */
import fs from "node:fs";
import { FILE_MODE } from "./dataDir.js";
import { readLines } from "./segments.js";

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

/** Why a commit was not saved: the data log could not be written (or an earlier write to it failed). */
export class LogWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LogWriteError";
  }
}

/** A commit with more writes than this is logged as several lines (an import: no one huge string). */
const LOG_LINE_WRITES = 2048;

/** How the log's fsyncs are run (a test holds them to see what waits for which). */
export type FsyncFn = (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void;

export class DataLog {
  private fd: number | null = null;
  /** Bumped whenever the fd is closed: an fsync begun on an older one no longer counts. */
  private fdGeneration = 0;
  /** Bytes in the log (a compaction is due past COMPACT_LOG_BYTES). */
  bytes = 0;
  /** Why commits are refused (a failed write to the log), or null. */
  failedWrite: string | null = null;
  /** Commits written since start, and how many of them an fsync (or a compaction) put on disk. */
  private written = 0;
  private synced = 0;
  /** The log's length when its last fsync began (what a failed fsync cuts it back to). */
  private durableBytes = 0;
  private syncing = false;
  private waiters: { upTo: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  /** Figures for `/_local/stats`: fsyncs run for commits, and the commits they covered. */
  fsyncs = 0;
  syncedCommits = 0;

  constructor(
    readonly path: string,
    private readonly fsync: FsyncFn | null = null,
  ) {}

  /**
   * Reads the log: `apply` gets every write of every whole commit in order;
   * returns the last commit's timestamp (0 if none). A torn end (crash
   * mid-write, a large commit's lines without their last) is cut off: it was
   * never acknowledged.
   */
  replay(apply: (key: string, doc: JsonDoc) => void, mutations: Map<string, { ts: bigint; result: unknown }>): bigint {
    let lastTs = 0n;
    this.bytes = 0;
    if (!fs.existsSync(this.path)) return lastTs;
    let validBytes = 0;
    let pending: [string, JsonDoc][] = [];
    let pendingTs = "";
    for (const [line, end] of readLines(this.path)) {
      if (end < 0) break; // no trailing newline: not fully written
      if (line === "") {
        if (pending.length === 0) validBytes = end;
        continue;
      }
      const entry = parseLogLine(line);
      // A torn line (crash mid-write) is the last one; it was never acknowledged.
      if (!entry) break;
      if (pending.length > 0 && entry.ts !== pendingTs) {
        // Lines of a commit whose last line never came (a failed append an older version did
        // not cut off) and that was never acknowledged: dropped.
        pending = [];
      }
      if (entry.more) {
        // One of a large commit's lines: applied with its last line, or never.
        pendingTs = entry.ts;
        for (const write of entry.w) pending.push(write);
        continue;
      }
      validBytes = end;
      for (const write of pending.length > 0 ? [...pending, ...entry.w] : entry.w) apply(write[0], write[1]);
      pending = [];
      const ts = BigInt(entry.ts);
      if (ts > lastTs) lastTs = ts;
      if (entry.m) mutations.set(`${entry.m.s}:${entry.m.r}`, { ts, result: entry.m.res });
    }
    if (validBytes < fs.statSync(this.path).size) fs.truncateSync(this.path, validBytes);
    this.bytes = validBytes;
    this.durableBytes = validBytes;
    return lastTs;
  }

  /**
   * Appends one commit (written, not yet fsync'd: see durable()). If a write
   * fails (a full disk), the log is cut back to where it was, a LogWriteError
   * naming the cause is thrown (the commit is not acknowledged, and the
   * caller applies nothing of it) and every later commit is refused until a
   * restart (whether the cut-back reached the disk is not known), and a
   * restart loads exactly what was acknowledged.
   */
  append(entry: LogEntry): void {
    this.refuseIfFailed();
    const start = this.bytes;
    try {
      if (this.fd === null) this.fd = fs.openSync(this.path, "a", FILE_MODE);
      const fd = this.fd;
      const write = (text: string) => {
        const buffer = Buffer.from(text, "utf8");
        let done = 0;
        while (done < buffer.length) done += fs.writeSync(fd, buffer, done);
        this.bytes += buffer.length;
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
    } catch (error) {
      this.failedWrite = String((error as Error).message ?? error);
      this.cut(start);
      throw new LogWriteError(
        `Could not write the data log ${this.path} (${this.failedWrite}): the commit was not saved, ` +
          `and writes are refused until the backend restarts.`,
      );
    }
    this.written++;
    this.startSync();
  }

  /**
   * Null when every commit appended so far is on disk; else a promise that
   * resolves once they are: an fsync begun after the last of them finished
   * (group commit: the commits written while one fsync runs share the next).
   * Rejects with a LogWriteError if that fsync failed: those commits may not
   * be on disk, so nothing that read them may be answered (until a restart).
   */
  durable(): Promise<void> | null {
    if (this.synced >= this.written) return null;
    if (this.failedWrite !== null) return Promise.reject(this.refusal());
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ upTo: this.written, resolve, reject });
      this.startSync();
    });
  }

  /** Starts an fsync for the commits written so far, unless one runs (its end starts the next). */
  private startSync(): void {
    if (this.syncing || this.fd === null || this.synced >= this.written || this.failedWrite !== null) return;
    const upTo = this.written;
    const bytes = this.bytes;
    const generation = this.fdGeneration;
    this.syncing = true;
    this.fsyncs++;
    (this.fsync ?? fs.fsync)(this.fd, (error) => {
      this.syncing = false;
      // The fd was closed meanwhile: that close (a compaction, the shutdown) put everything on disk;
      // commits appended to the new file since wait for an fsync of their own.
      if (generation !== this.fdGeneration) {
        this.startSync();
        return;
      }
      if (error) {
        this.failSync(error);
        // What followed the last fsync'd commit is not known to be on disk: cut it off the file too.
        this.cut(this.durableBytes, false);
        return;
      }
      this.durableBytes = bytes;
      this.markSynced(upTo);
      this.startSync();
    });
  }

  /** An fsync failed: every commit waiting for one hears so, and later writes are refused. */
  private failSync(error: Error): void {
    this.failedWrite = String(error.message ?? error);
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.refusal());
  }

  /** The commits up to `upTo` are on disk: their waiters hear so. */
  private markSynced(upTo: number): void {
    if (upTo <= this.synced) return;
    this.syncedCommits += upTo - this.synced;
    this.synced = upTo;
    const still: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (waiter.upTo <= upTo) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }

  private refusal(): LogWriteError {
    return new LogWriteError(
      `Could not write the data log ${this.path} (${this.failedWrite}): the last commits may not be on disk, ` +
        `and writes are refused until the backend restarts.`,
    );
  }

  /** Throws once a write to the log failed: no commit may build on what the disk may not hold. */
  refuseIfFailed(): void {
    if (this.failedWrite) {
      throw new LogWriteError(
        `Writes are refused until the backend restarts: a write to the data log ${this.path} failed (${this.failedWrite}).`,
      );
    }
  }

  /**
   * Cuts the log back to `bytes` after a failed append or fsync (a restart would drop a torn tail
   * anyway). After a failed append, the commits written before it are on disk once this fsync is.
   */
  private cut(bytes: number, appendFailed = true): void {
    try {
      if (this.fd !== null) {
        fs.ftruncateSync(this.fd, bytes);
        fs.fsyncSync(this.fd);
        if (appendFailed) {
          this.durableBytes = bytes;
          this.markSynced(this.written);
        }
      }
      this.bytes = bytes;
    } catch {
      // The restart cuts an incomplete last commit off (replay).
    }
  }

  /** Empties the log (its commits are in the segments now, which were fsync'd), durably. */
  empty(): void {
    this.close(false);
    const fd = fs.openSync(this.path, "w", FILE_MODE);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    this.bytes = 0;
    this.durableBytes = 0;
    this.markSynced(this.written);
  }

  /** Closes the log; unless `sync` is false (the caller made its commits durable), fsyncs what waits first. */
  close(sync = true): void {
    if (this.fd !== null) {
      if (sync && this.synced < this.written && this.failedWrite === null) {
        try {
          fs.fsyncSync(this.fd);
          this.durableBytes = this.bytes;
          this.markSynced(this.written);
        } catch (error) {
          this.failSync(error as Error);
        }
      }
      fs.closeSync(this.fd);
      this.fd = null;
      this.fdGeneration++;
    }
  }
}

const ENTRY_START = '{"ts":"';

/**
 * A log line's commit, or null if the line is not one (torn). A line that is
 * the unfinished start of a failed append followed by a whole commit (what an
 * older version left when it appended after a failed write) yields that
 * commit: the first `{"ts":"` from which the rest of the line is a whole
 * entry (inside a JSON string that text would be escaped, and a nested
 * object's rest of the line is never whole JSON).
 */
export function parseLogLine(line: string): LogEntry | null {
  const isEntry = (value: unknown): value is LogEntry =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as LogEntry).ts === "string" &&
    Array.isArray((value as LogEntry).w);
  try {
    const value: unknown = JSON.parse(line);
    return isEntry(value) ? value : null;
  } catch {
    for (let i = line.indexOf(ENTRY_START, 1); i > 0; i = line.indexOf(ENTRY_START, i + 1)) {
      try {
        const value: unknown = JSON.parse(line.slice(i));
        if (isEntry(value)) return value;
      } catch {
        // not here
      }
    }
    return null;
  }
}
