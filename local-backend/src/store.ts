/**
 * The data directory: an append-only JSON-lines log of committed writes
 * (fsync'd before a write is acknowledged), a compacted snapshot, stored file
 * bytes, environment variables and the admin key.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

/** A document as Convex JSON (convexToJson), or null for a delete. */
export type JsonDoc = Record<string, unknown> | null;

export type LogEntry = {
  /** Commit timestamp, nanoseconds, as a decimal string. */
  ts: string;
  /** Written documents by id. */
  w: [string, JsonDoc][];
  /** Set when the commit was a client's mutation: lets a retried mutation get its first result. */
  m?: { s: string; r: number; res: unknown };
};

export type Snapshot = { ts: string; docs: [string, JsonDoc][] };

export type LoadedState = {
  docs: Map<string, Record<string, unknown>>;
  lastTs: bigint;
  mutations: Map<string, { ts: bigint; result: unknown }>;
};

const COMPACT_LOG_BYTES = 8 * 1024 * 1024;

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

export class DataStore {
  readonly dir: string;
  private logFd: number | null = null;

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
  get snapshotPath(): string {
    return path.join(this.dir, "snapshot.json");
  }

  /** Reads snapshot + log. A torn last line (crash mid-write) is ignored. */
  load(): LoadedState {
    const docs = new Map<string, Record<string, unknown>>();
    const mutations = new Map<string, { ts: bigint; result: unknown }>();
    let lastTs = 0n;
    if (fs.existsSync(this.snapshotPath)) {
      const snap = JSON.parse(fs.readFileSync(this.snapshotPath, "utf8")) as Snapshot;
      for (const [id, doc] of snap.docs) if (doc) docs.set(id, doc);
      lastTs = BigInt(snap.ts);
    }
    if (fs.existsSync(this.logPath)) {
      const text = fs.readFileSync(this.logPath, "utf8");
      const lines = text.split("\n");
      let validBytes = 0;
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        if (line === "") {
          if (i < lines.length - 1) validBytes += 1;
          continue;
        }
        let entry: LogEntry;
        try {
          entry = JSON.parse(line);
        } catch {
          // Only the very last line can be torn; it was never acknowledged.
          break;
        }
        if (i === lines.length - 1) break; // no trailing newline: not fully written
        validBytes += Buffer.byteLength(line) + 1;
        for (const [id, doc] of entry.w) {
          if (doc === null) docs.delete(id);
          else docs.set(id, doc);
        }
        const ts = BigInt(entry.ts);
        if (ts > lastTs) lastTs = ts;
        if (entry.m) mutations.set(`${entry.m.s}:${entry.m.r}`, { ts, result: entry.m.res });
      }
      if (validBytes < Buffer.byteLength(text)) fs.truncateSync(this.logPath, validBytes);
    }
    return { docs, lastTs, mutations };
  }

  /** Writes a snapshot if the log is large, then empties the log. */
  maybeCompact(docs: Iterable<[string, JsonDoc]>, ts: bigint, force = false): boolean {
    const size = fs.existsSync(this.logPath) ? fs.statSync(this.logPath).size : 0;
    if (!force && size < COMPACT_LOG_BYTES) return false;
    this.writeSnapshot({ ts: ts.toString(), docs: [...docs] });
    this.closeLog();
    fs.writeFileSync(this.logPath, "", { mode: FILE_MODE });
    this.fsyncDir();
    return true;
  }

  writeSnapshot(snap: Snapshot): void {
    const tmp = `${this.snapshotPath}.tmp`;
    const fd = fs.openSync(tmp, "w", FILE_MODE);
    fs.writeSync(fd, JSON.stringify(snap));
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, this.snapshotPath);
    this.fsyncDir();
  }

  /** Appends one commit and fsyncs it before returning. */
  append(entry: LogEntry): void {
    if (this.logFd === null) this.logFd = fs.openSync(this.logPath, "a", FILE_MODE);
    fs.writeSync(this.logFd, JSON.stringify(entry) + "\n");
    fs.fsyncSync(this.logFd);
  }

  closeLog(): void {
    if (this.logFd !== null) {
      fs.closeSync(this.logFd);
      this.logFd = null;
    }
  }

  private fsyncDir(): void {
    try {
      const fd = fs.openSync(this.dir, "r");
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
