/**
 * The data directory as this process's own: owner-only modes, directory
 * fsync, and the lock that lets one backend process at a time use it.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

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

/** Makes a directory's entries (a rename, a new file) durable; not supported everywhere. */
export function fsyncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  } catch {
    // Not supported on every platform.
  }
}

/** The data directory's lock: one backend process at a time. */
export class DataDirLock {
  constructor(readonly dir: string) {}

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
}
